//! Blocked geqrf, householder_product, apply_q and qr(mode) against f64 host references, on
//! every runtime this build links (bodies take a client; `testgen!` instantiates them).
#![allow(clippy::needless_range_loop)] // index loops over batch elements read clearest here
use cubecl::client::Client;
use cubecl::prelude::*;
use linalg_common::launch::Hardware;
use linalg_common::matgen::{MatrixClass, generate};
use linalg_common::reference::{
    matmul, max_nan, norm1, orth_bound, q_from_reflectors, resid_bound,
};
use qr_kernels::geqrf::MAX_TOP_ROWS_NB;
use qr_kernels::{
    HostGeqrf, LookAhead, MatrixRef, QrError, QrLaunch, QrMode, QrParams, Side, View, apply_q,
    geqrf, geqrf_host, householder_product, qr_host,
};

fn to64(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| v as f64).collect()
}

/// ‖QᵀQ − I‖₁ of an m × c matrix.
fn orth(q: &[f64], m: usize, c: usize) -> f64 {
    let qt: Vec<f64> = (0..c * m).map(|x| q[(x % m) * c + x / m]).collect();
    let mut g = matmul(&qt, q, c, m, c);
    for i in 0..c {
        g[i * c + i] -= 1.0;
    }
    norm1(&g, c, c)
}

/// ‖A − Q·R‖₁ / ‖A‖₁ (absolute when A = 0), Q m × c, R c × n.
fn resid(a: &[f32], q: &[f64], r: &[f64], m: usize, c: usize, n: usize) -> f64 {
    let qr = matmul(q, r, m, c, n);
    let d: Vec<f64> = a.iter().zip(&qr).map(|(&x, y)| x as f64 - y).collect();
    let an = norm1(&to64(a), m, n);
    norm1(&d, m, n) / if an > 0.0 { an } else { 1.0 }
}

/// triu of the first `rows` rows of H (m × n) as f64.
fn triu(h: &[f32], m: usize, n: usize, rows: usize) -> Vec<f64> {
    let mut r = vec![0.0; rows * n];
    for i in 0..rows.min(m) {
        for j in i..n {
            r[i * n + j] = h[i * n + j] as f64;
        }
    }
    r
}

fn assert_gates(a: &[f32], q: &[f64], r: &[f64], m: usize, c: usize, n: usize, what: &str) {
    let k = m.min(n).max(1);
    assert!(
        q.iter().chain(r).all(|x| x.is_finite()),
        "{what}: non-finite"
    );
    let o = orth(q, m, c);
    let e = resid(a, q, r, m, c, n);
    assert!(
        o <= orth_bound(k.max(c)),
        "{what}: ‖QᵀQ − I‖₁ = {o:.3e} > {:.3e}",
        orth_bound(k.max(c))
    );
    assert!(
        e <= resid_bound(k),
        "{what}: ‖A − QR‖₁/‖A‖₁ = {e:.3e} > {:.3e}",
        resid_bound(k)
    );
}

/// Check every matrix of a geqrf result: τ in range, Q rebuilt on the host (f64) and by our
/// householder_product both pass the gates with R = triu(H).
fn check_geqrf(client: &Client, a: &[f32], out: &HostGeqrf, params: &QrParams, what: &str) {
    let (batch, m, n) = (out.batch, out.m, out.n);
    let k = m.min(n);
    // Our householder_product on the first k columns (the reflectors), m × k.
    let hk: Vec<f32> = (0..batch * m * k)
        .map(|x| {
            let (b, i, j) = (x / (m * k), (x / k) % m, x % k);
            out.h[b * m * n + i * n + j]
        })
        .collect();
    let hh = client.create_from_slice(f32::as_bytes(&hk));
    let th = client.create_from_slice(f32::as_bytes(&out.tau));
    let ours = if k > 0 {
        householder_product(
            client,
            MatrixRef::dense(&hh, batch, m, k),
            MatrixRef::dense(&th, batch, 1, k),
            params,
        )
        .expect("householder_product")
        .read(client)
        .expect("read")
        .data
    } else {
        Vec::new()
    };
    for b in 0..batch {
        let ab = &a[b * m * n..(b + 1) * m * n];
        let hb = &out.h[b * m * n..(b + 1) * m * n];
        let tb = &out.tau[b * k..(b + 1) * k];
        for &t in tb {
            assert!(
                t == 0.0 || (1.0..=2.0).contains(&t),
                "{what}: τ = {t} outside {{0}} ∪ [1, 2]"
            );
        }
        let r = triu(hb, m, n, k);
        let q = q_from_reflectors(hb, tb, m, n, k);
        assert_gates(
            ab,
            &q,
            &r,
            m,
            k,
            n,
            &format!("{what} [b{b} {m}×{n}] host Q"),
        );
        let qo = to64(&ours[b * m * k..(b + 1) * m * k]);
        assert_gates(
            ab,
            &qo,
            &r,
            m,
            k,
            n,
            &format!("{what} [b{b} {m}×{n}] our Q"),
        );
    }
}

/// Two geqrf results agree up to rounding (signs included): H to 2e-4 of its largest entry,
/// τ to 2e-4.
fn assert_same_factors(x: &HostGeqrf, y: &HostGeqrf) {
    let hmax = x.h.iter().fold(0f32, |s, v| s.max(v.abs()));
    for (i, (p, q)) in x.h.iter().zip(&y.h).enumerate() {
        assert!((p - q).abs() <= 2e-4 * hmax, "H[{i}]: {p} vs {q}");
    }
    for (i, (p, q)) in x.tau.iter().zip(&y.tau).enumerate() {
        assert!((p - q).abs() <= 2e-4, "τ[{i}]: {p} vs {q}");
    }
}

fn batch_of(classes: &[MatrixClass], m: usize, n: usize, seed: u64) -> Vec<f32> {
    classes
        .iter()
        .enumerate()
        .flat_map(|(i, c)| generate(*c, m, n, seed * 1000 + i as u64))
        .collect()
}

fn small_panels() -> QrParams {
    QrParams {
        panel: Some(8),
        ..QrParams::default()
    }
}

pub fn shapes_straddle_panels(client: &Client) {
    let shapes = [
        (1usize, 1usize),
        (7, 1),
        (1, 6),
        (9, 8),
        (8, 9),
        (16, 16),
        (17, 15),
        (31, 33),
        (33, 32),
        (64, 64),
        (65, 63),
        (100, 40),
        (40, 100),
        (130, 97),
    ];
    // Where the default factors panels in registers, the shared-memory panel kernel too.
    let hw = Hardware::of(client);
    let regs = QrLaunch::new(&hw, &QrParams::default(), 2, 130).is_some_and(|l| l.regs);
    let shared = regs.then_some(QrParams {
        panel_regs: Some(false),
        ..QrParams::default()
    });
    for params in [QrParams::default(), small_panels()]
        .into_iter()
        .chain(shared)
    {
        for &(m, n) in &shapes {
            let a = batch_of(&[MatrixClass::Dense; 2], m, n, (m * 1000 + n) as u64);
            let out = geqrf_host(client, &a, &[2, m, n], &params).expect("geqrf");
            check_geqrf(
                client,
                &a,
                &out,
                &params,
                &format!("panel {:?}", params.panel),
            );
        }
    }
}

pub fn tall_and_global_panels(client: &Client) {
    // A tall matrix through several panels, staged and in global memory: the same answer.
    let (m, n) = (300, 70);
    let a = batch_of(&[MatrixClass::Dense], m, n, 7);
    let staged = geqrf_host(client, &a, &[m, n], &QrParams::default()).expect("staged");
    check_geqrf(client, &a, &staged, &QrParams::default(), "staged");
    for panel in [32, 8] {
        let global = QrParams {
            stage: Some(false),
            panel: Some(panel),
            ..QrParams::default()
        };
        let g = geqrf_host(client, &a, &[m, n], &global).expect("global");
        check_geqrf(client, &a, &g, &global, "global memory panels");
    }
}

/// One matrix of each hard class: graded and conditioned to κ = 1e7, rank-deficient,
/// clustered singular values, zero columns, rank 1.
const HARD_CLASSES: [MatrixClass; 6] = [
    MatrixClass::GradedColumns { kappa: 1e7 },
    MatrixClass::Conditioned { kappa: 1e7 },
    MatrixClass::RankDeficient { rank: 5 },
    MatrixClass::Clustered,
    MatrixClass::ZeroColumns { first: 0, every: 3 },
    MatrixClass::RankDeficient { rank: 1 },
];

pub fn conditioning_and_rank(client: &Client) {
    let (m, n) = (96, 80);
    let classes = HARD_CLASSES;
    let a = batch_of(&classes, m, n, 11);
    for params in [QrParams::default(), small_panels()] {
        let out = geqrf_host(client, &a, &[classes.len(), m, n], &params).expect("geqrf");
        check_geqrf(client, &a, &out, &params, "classes");
    }
    // An all-zero matrix: every τ is 0 and H is zero.
    let z = vec![0.0f32; 20 * 12];
    let out = geqrf_host(client, &z, &[20, 12], &QrParams::default()).expect("zeros");
    assert!(out.tau.iter().all(|&t| t == 0.0) && out.h.iter().all(|&x| x == 0.0));
}

pub fn large_batch(client: &Client) {
    // 300 small matrices in one launch per stage, each of its own class.
    let (batch, m, n) = (300, 11, 9);
    let classes: Vec<MatrixClass> = (0..batch)
        .map(|i| match i % 4 {
            0 => MatrixClass::Dense,
            1 => MatrixClass::GradedColumns { kappa: 1e7 },
            2 => MatrixClass::RankDeficient { rank: 2 },
            _ => MatrixClass::ZeroColumns { first: 1, every: 2 },
        })
        .collect();
    let a = batch_of(&classes, m, n, 17);
    let out = geqrf_host(client, &a, &[batch, m, n], &QrParams::default()).expect("geqrf");
    check_geqrf(client, &a, &out, &QrParams::default(), "300-matrix batch");
}

pub fn batch_is_independent(client: &Client) {
    let (batch, m, n) = (37, 24, 20);
    let a = batch_of(&vec![MatrixClass::Dense; batch], m, n, 3);
    let all = geqrf_host(client, &a, &[batch, m, n], &small_panels()).expect("batched");
    for b in [0, 5, 36] {
        let one = geqrf_host(
            client,
            &a[b * m * n..(b + 1) * m * n],
            &[m, n],
            &small_panels(),
        )
        .expect("single");
        assert_eq!(one.h, all.h[b * m * n..(b + 1) * m * n], "H of matrix {b}");
        assert_eq!(one.tau, all.tau[b * n..(b + 1) * n], "τ of matrix {b}");
    }
}

pub fn strided_inputs(client: &Client) {
    // geqrf of Aᵀ given as a transposed view, and of a block of a larger batch, equal geqrf of
    // the same matrices copied contiguous.
    let (batch, m, n) = (2, 40, 30);
    let ld = m + 5;
    let big = batch_of(&[MatrixClass::Dense; 2], ld, ld, 21);
    let handle = client.create_from_slice(f32::as_bytes(&big));
    let view = View::contiguous(ld, ld).block(2, 1, m, n);
    let sub = MatrixRef {
        handle: &handle,
        batch,
        view,
    };
    let got = geqrf(client, sub, &small_panels())
        .expect("view")
        .read(client)
        .expect("read");
    let dense: Vec<f32> = (0..batch * m * n)
        .map(|x| {
            let (b, i, j) = (x / (m * n), (x / n) % m, x % n);
            big[b * ld * ld + (i + 2) * ld + j + 1]
        })
        .collect();
    let want = geqrf_host(client, &dense, &[batch, m, n], &small_panels()).expect("dense");
    assert_eq!(got, want, "block view");
    let tview = MatrixRef {
        handle: &handle,
        batch,
        view: View::contiguous(ld, ld).block(0, 0, n, m).t(),
    };
    let gt = geqrf(client, tview, &small_panels())
        .expect("transposed view")
        .read(client)
        .expect("read");
    let at: Vec<f32> = (0..batch * m * n)
        .map(|x| {
            let (b, i, j) = (x / (m * n), (x / n) % m, x % n);
            big[b * ld * ld + j * ld + i]
        })
        .collect();
    check_geqrf(client, &at, &gt, &small_panels(), "transposed view");
}

pub fn householder_product_and_apply_q(client: &Client) {
    // The one-cube panel's blocks, and given reflectors in wide blocks whose T come from GEMM
    // Gram matrices: the default width, ragged blocks of 16 and of 5 formed two and three at a
    // time, blocks of 32 narrowed to the reflector count, and a single tall matrix whose groups
    // (of one block, or the last of two groups) have one block (its Gram product split along K).
    let shapes = [(50usize, 30usize), (30, 50), (33, 33)];
    hp_and_apply_q_with(client, small_panels(), 2, &shapes);
    hp_and_apply_q_with(client, tsqr_panels(8), 2, &shapes);
    // 64-wide panels: where their given-reflector panel kernel does not fit shared memory
    // (32 KiB devices), the wide blocks instead.
    let nb64 = QrParams {
        panel: Some(64),
        ..QrParams::default()
    };
    hp_and_apply_q_with(client, nb64, 2, &[(130, 70)]);
    for (block, group) in [(16, 2), (5, 3), (32, 4), (16, 1)] {
        let params = QrParams {
            apply_block: Some(block),
            apply_group: Some(group),
            ..tsqr_panels(8)
        };
        hp_and_apply_q_with(client, params, 2, &shapes);
        if block == 16 {
            hp_and_apply_q_with(client, params, 1, &[(700, 40)]);
        }
    }
    // Blocks whose T is formed in parts merged by GEMMs (GPUs: 256 = two parts of 128; the
    // CPU runtime's 32 KiB: parts of 32, so 64, 128 and 256 are two, four and eight parts),
    // ragged: the last block's last parts partly or wholly past k.
    for (block, group, shapes) in [
        (64usize, 2usize, &[(150usize, 100usize), (90, 120)][..]),
        (128, 1, &[(150, 100)][..]),
        (256, 2, &[(300, 260)][..]),
    ] {
        let params = QrParams {
            apply_block: Some(block),
            apply_group: Some(group),
            ..tsqr_panels(8)
        };
        hp_and_apply_q_with(client, params, 2, shapes);
    }
}

fn hp_and_apply_q_with(client: &Client, params: QrParams, batch: usize, shapes: &[(usize, usize)]) {
    for &(m, n) in shapes {
        let k = m.min(n);
        let a = batch_of(&vec![MatrixClass::Dense; batch], m, n, (m + n) as u64);
        let ah = client.create_from_slice(f32::as_bytes(&a));
        let f = geqrf(client, MatrixRef::dense(&ah, batch, m, n), &params).expect("geqrf");
        let host = f.clone().read(client).expect("read");
        // householder_product with fewer reflectors than columns (k' < n ≤ m).
        if m >= n {
            let kk = n / 2;
            let tau_part = MatrixRef {
                handle: &f.tau,
                batch,
                view: View {
                    cols: kk,
                    ..View::contiguous(1, k)
                },
            };
            let q = householder_product(client, f.h_ref(), tau_part, &params)
                .expect("orgqr")
                .read(client)
                .expect("read");
            for b in 0..batch {
                let want = q_from_reflectors(
                    &host.h[b * m * n..(b + 1) * m * n],
                    &host.tau[b * k..b * k + kk],
                    m,
                    n,
                    n,
                );
                let got = &q.data[b * m * n..(b + 1) * m * n];
                let err = got
                    .iter()
                    .zip(&want)
                    .map(|(g, w)| (*g as f64 - w).abs())
                    .fold(0.0, max_nan);
                assert!(err < 1e-5, "householder_product k={kk}: max error {err:e}");
            }
        }
        // apply_q on every side and transpose against Q formed on the host.
        for side in [Side::Left, Side::Right] {
            for transpose in [false, true] {
                let nc = 7;
                let (cr, cc) = if side == Side::Left { (m, nc) } else { (nc, m) };
                let c: Vec<f32> = batch_of(&vec![MatrixClass::Dense; batch], cr, cc, 99);
                let chh = client.create_from_slice(f32::as_bytes(&c));
                let got = apply_q(
                    client,
                    f.h_ref(),
                    f.tau_ref(),
                    MatrixRef::dense(&chh, batch, cr, cc),
                    side,
                    transpose,
                    &params,
                )
                .expect("apply_q")
                .read(client)
                .expect("read");
                for b in 0..batch {
                    // Full m × m Q from the k reflectors.
                    let qf = q_from_reflectors(
                        &host.h[b * m * n..(b + 1) * m * n],
                        &host.tau[b * k..(b + 1) * k],
                        m,
                        n,
                        m,
                    );
                    let op: Vec<f64> = if transpose {
                        (0..m * m).map(|x| qf[(x % m) * m + x / m]).collect()
                    } else {
                        qf
                    };
                    let cb = to64(&c[b * cr * cc..(b + 1) * cr * cc]);
                    let want = if side == Side::Left {
                        matmul(&op, &cb, m, m, cc)
                    } else {
                        matmul(&cb, &op, cr, m, m)
                    };
                    let gb = &got.data[b * cr * cc..(b + 1) * cr * cc];
                    let err = gb
                        .iter()
                        .zip(&want)
                        .map(|(g, w)| (*g as f64 - w).abs())
                        .fold(0.0, max_nan);
                    let scale = want.iter().fold(1.0f64, |s, w| s.max(w.abs()));
                    assert!(
                        err <= 50.0 * m as f64 * f32::EPSILON as f64 * scale,
                        "apply_q {side:?} transpose={transpose} {m}×{n}: max error {err:e}"
                    );
                }
            }
        }
    }
}

pub fn apply_q_broadcasts(client: &Client) {
    // One (H, τ) of batch 1 applied to a batch of 3 right-hand sides equals three calls.
    let (m, n, nc) = (40, 24, 5);
    let params = small_panels();
    let a = batch_of(&[MatrixClass::Dense], m, n, 31);
    let ah = client.create_from_slice(f32::as_bytes(&a));
    let f = geqrf(client, MatrixRef::dense(&ah, 1, m, n), &params).expect("geqrf");
    let c = batch_of(&[MatrixClass::Dense; 3], m, nc, 32);
    let ch = client.create_from_slice(f32::as_bytes(&c));
    let all = apply_q(
        client,
        f.h_ref(),
        f.tau_ref(),
        MatrixRef::dense(&ch, 3, m, nc),
        Side::Left,
        true,
        &params,
    )
    .expect("broadcast apply_q")
    .read(client)
    .expect("read");
    for b in 0..3 {
        let one = client.create_from_slice(f32::as_bytes(&c[b * m * nc..(b + 1) * m * nc]));
        let got = apply_q(
            client,
            f.h_ref(),
            f.tau_ref(),
            MatrixRef::dense(&one, 1, m, nc),
            Side::Left,
            true,
            &params,
        )
        .expect("apply_q")
        .read(client)
        .expect("read");
        assert_eq!(
            got.data,
            all.data[b * m * nc..(b + 1) * m * nc],
            "matrix {b}"
        );
    }
    // A batch of 2 (H, τ) against a batch of 3 C is refused.
    let f2 = geqrf(client, MatrixRef::dense(&ch, 2, m, nc), &params).expect("geqrf");
    assert!(matches!(
        apply_q(
            client,
            f2.h_ref(),
            f2.tau_ref(),
            MatrixRef::dense(&ch, 3, m, nc),
            Side::Left,
            true,
            &params
        ),
        Err(QrError::ShapeMismatch { .. })
    ));
}

pub fn qr_modes(client: &Client) {
    let tsqr_off = QrParams {
        tsqr_max_cols: Some(0),
        ..small_panels()
    };
    let tsqr_on = QrParams {
        tsqr_max_cols: Some(128),
        tsqr_min_ratio: Some(2),
        ..small_panels()
    };
    for &(m, n) in &[(60usize, 20usize), (20, 60), (45, 45), (200, 16), (9, 1)] {
        let batch = 2;
        let k = m.min(n);
        let a = batch_of(&[MatrixClass::Dense; 2], m, n, (7 * m + n) as u64);
        let mut r_reduced = None;
        for (params, name) in [(&tsqr_off, "geqrf"), (&tsqr_on, "tsqr-or-geqrf")] {
            let red =
                qr_host(client, &a, &[batch, m, n], QrMode::Reduced, params).expect("reduced");
            assert_eq!((red.q_cols, red.r_rows), (k, k));
            if name == "tsqr-or-geqrf" {
                assert_eq!(red.tsqr, m >= 2 * n, "{m}×{n}: path");
            }
            let com =
                qr_host(client, &a, &[batch, m, n], QrMode::Complete, params).expect("complete");
            assert_eq!((com.q_cols, com.r_rows), (m, m));
            let ro = qr_host(client, &a, &[batch, m, n], QrMode::R, params).expect("r");
            assert!(ro.q.is_none());
            assert_eq!(ro.r_rows, k);
            for b in 0..batch {
                let ab = &a[b * m * n..(b + 1) * m * n];
                let what = format!("{name} {m}×{n} b{b}");
                let q = to64(&red.q.as_ref().unwrap()[b * m * k..(b + 1) * m * k]);
                let r = to64(&red.r[b * k * n..(b + 1) * k * n]);
                assert!(
                    (0..k).all(|i| (0..i.min(n)).all(|j| r[i * n + j] == 0.0)),
                    "{what}: R not upper triangular"
                );
                assert_gates(ab, &q, &r, m, k, n, &format!("{what} reduced"));
                let qc = to64(&com.q.as_ref().unwrap()[b * m * m..(b + 1) * m * m]);
                let rc = to64(&com.r[b * m * n..(b + 1) * m * n]);
                assert_gates(ab, &qc, &rc, m, m, n, &format!("{what} complete"));
                // R only equals the reduced R (same path, same arithmetic).
                assert_eq!(
                    ro.r[b * k * n..(b + 1) * k * n],
                    red.r[b * k * n..(b + 1) * k * n]
                );
            }
            // Both paths give the same R up to the signs of its rows (TSQR's tree picks its
            // own signs) and rounding.
            match &r_reduced {
                None => r_reduced = Some(red.r.clone()),
                Some(prev) => {
                    let scale = red.r.iter().fold(1.0f32, |s, x| s.max(x.abs()));
                    for row in 0..batch * k {
                        let (x, y) = (
                            &prev[row * n..(row + 1) * n],
                            &red.r[row * n..(row + 1) * n],
                        );
                        let dot: f32 = x.iter().zip(y).map(|(a, b)| a * b).sum();
                        let sign = if dot < 0.0 { -1.0 } else { 1.0 };
                        let err = x
                            .iter()
                            .zip(y)
                            .map(|(a, b)| (a - sign * b).abs())
                            .fold(0.0f32, max_nan);
                        assert!(
                            err <= 1e-4 * scale,
                            "{m}×{n}: R rows of the two paths differ by {err}"
                        );
                    }
                }
            }
        }
    }
}

pub fn errors_and_empty(client: &Client) {
    let p = QrParams::default();
    let h = client.create_from_slice(f32::as_bytes(&[1.0f32; 12]));
    assert!(matches!(
        MatrixRef::contiguous(&h, &[12], "a").map_err(QrError::from),
        Err(QrError::WrongRank { rank: 1, .. })
    ));
    let short = MatrixRef::dense(&h, 100, 30, 30);
    assert!(matches!(
        geqrf(client, short, &p),
        Err(QrError::BufferTooSmall { .. })
    ));
    let huge = MatrixRef::dense(&h, 70_000, 300, 300);
    assert!(matches!(
        geqrf(client, huge, &p),
        Err(QrError::IndexOverflow { .. })
    ));
    assert!(matches!(
        geqrf_host(client, &[1.0; 5], &[2, 3], &p),
        Err(QrError::DataLength { .. })
    ));
    // Non-finite input, flagged for the matrices that hold it only.
    let mut a = batch_of(&[MatrixClass::Dense; 3], 10, 6, 5);
    a[60 + 17] = f32::NAN;
    a[120 + 3] = f32::INFINITY;
    match geqrf_host(client, &a, &[3, 10, 6], &p) {
        Err(QrError::NonFinite { batches }) => assert_eq!(batches, vec![1, 2]),
        other => panic!("non-finite: {other:?}"),
    }
    match qr_host(client, &a, &[3, 10, 6], QrMode::Reduced, &p) {
        Err(QrError::NonFinite { batches }) => assert_eq!(batches, vec![1, 2]),
        other => panic!("non-finite qr: {other:?}"),
    }
    // τ that does not match H.
    let f = geqrf(client, MatrixRef::dense(&h, 1, 4, 3), &p).expect("geqrf");
    let bad_tau = MatrixRef::dense(&f.tau, 2, 1, 3);
    assert!(matches!(
        householder_product(client, f.h_ref(), bad_tau, &p),
        Err(QrError::ShapeMismatch { .. })
    ));
    let wide = MatrixRef::dense(&h, 1, 3, 4);
    assert!(matches!(
        householder_product(client, wide, MatrixRef::dense(&f.tau, 1, 1, 3), &p),
        Err(QrError::ShapeMismatch { .. })
    ));
    let c = MatrixRef::dense(&h, 1, 3, 2);
    assert!(matches!(
        apply_q(client, f.h_ref(), f.tau_ref(), c, Side::Left, false, &p),
        Err(QrError::ShapeMismatch { .. })
    ));
    assert!(matches!(
        geqrf(
            client,
            MatrixRef::dense(&h, 1, 4, 3),
            &QrParams {
                panel: Some(65),
                ..p
            }
        ),
        Err(QrError::Unsupported(_))
    ));
    // A device with 32 KB of shared memory (lavapipe) still runs the defaults of batched 4096²
    // (64-wide panels): the default block width shrinks to what T's kernel can hold.
    let small = Hardware {
        max_shared_bytes: 32 << 10,
        ..Hardware::of(client)
    };
    let launch = QrLaunch::new(&small, &p, 2, 4096).expect("defaults on 32 KB of shared memory");
    assert!(launch.apply_block >= 1 && launch.apply_block <= launch.nb);
    for width in [0usize, 129, 257, 512] {
        let bad = QrParams {
            apply_block: Some(width),
            ..p
        };
        assert!(matches!(
            householder_product(client, f.h_ref(), f.tau_ref(), &bad),
            Err(QrError::Unsupported(_))
        ));
    }
    // Empty shapes give empty (or identity) results, as torch.
    for shape in [[0usize, 5, 4], [2, 0, 4], [2, 4, 0]] {
        let out = geqrf_host(client, &[], &shape, &p).expect("empty geqrf");
        assert!(out.h.is_empty() && out.tau.is_empty());
    }
    let c = qr_host(client, &[], &[2, 3, 0], QrMode::Complete, &p).expect("empty qr");
    let q = c.q.unwrap();
    assert_eq!(q.len(), 18);
    for b in 0..2 {
        for i in 0..3 {
            for j in 0..3 {
                assert_eq!(q[b * 9 + i * 3 + j], if i == j { 1.0 } else { 0.0 });
            }
        }
    }
    assert!(c.r.is_empty());
}

/// Every panel through TSQR (the register panel kernel off: where it is on, geqrf takes it
/// ahead of TSQR for every panel it holds).
fn tsqr_panels(panel: usize) -> QrParams {
    QrParams {
        panel: Some(panel),
        tsqr_panel_rows: Some(1),
        panel_regs: Some(false),
        ..QrParams::default()
    }
}

/// Every panel through TSQR and Householder reconstruction, with either top-block kernel:
/// the gates on every shape and class, the reflectors of the one-cube panel (LAPACK's) on
/// full-rank input, the two top-block kernels' factors against each other, and the
/// non-finite report.
pub fn tsqr_panels_reconstruct(client: &Client) {
    let hw = Hardware::of(client);
    // Both top-block kernels run the same operations in the same order.
    let both = |a: &[f32], shape: &[usize; 3], params: QrParams, what: &str| {
        let outs = [false, true].map(|top_rows| {
            let params = QrParams {
                recon_top_rows: Some(top_rows),
                ..params
            };
            let launch = QrLaunch::new(&hw, &params, shape[0], shape[1]).expect("launch");
            // Where the reconstruction does not fit (64 columns on the CPU runtime), the
            // one-cube panel runs.
            if let Some(recon) = launch.recon {
                let nb = params.panel.expect("given");
                assert_eq!(recon.top_rows, top_rows && nb <= MAX_TOP_ROWS_NB, "{what}");
            }
            let out = geqrf_host(client, a, shape, &params).expect("geqrf");
            check_geqrf(
                client,
                a,
                &out,
                &params,
                &format!("{what}, top rows {top_rows}"),
            );
            out
        });
        let [x, y] = &outs;
        let hmax = x.h.iter().fold(0f32, |s, v| s.max(v.abs()));
        for (i, (p, q)) in x.h.iter().zip(&y.h).enumerate() {
            assert!((p - q).abs() <= 1e-5 * hmax, "{what}: H[{i}] {p} vs {q}");
        }
        for (i, (p, q)) in x.tau.iter().zip(&y.tau).enumerate() {
            assert!((p - q).abs() <= 1e-5, "{what}: τ[{i}] {p} vs {q}");
        }
    };
    for panel in [8usize, 32] {
        let launch = QrLaunch::new(&hw, &tsqr_panels(panel), 2, 300).expect("launch");
        assert!(launch.recon.is_some(), "the reconstruction kernels fit");
        for &(m, n) in &[
            (1usize, 1usize),
            (7, 1),
            (9, 8),
            (8, 9),
            (33, 32),
            (65, 63),
            (40, 100),
            (130, 97),
            (300, 70),
            (2100, 40),
        ] {
            let a = batch_of(&[MatrixClass::Dense; 2], m, n, (m * 31 + n) as u64);
            both(
                &a,
                &[2, m, n],
                tsqr_panels(panel),
                &format!("tsqr panels {panel}, {m}×{n}"),
            );
        }
        let (m, n) = (96, 80);
        let classes = HARD_CLASSES;
        let a = batch_of(&classes, m, n, 23);
        both(
            &a,
            &[classes.len(), m, n],
            tsqr_panels(panel),
            "tsqr panels, classes",
        );
    }
    // 64-wide panels (the default for batches of tall matrices) whose TSQR tree ends in a cube
    // bigger than its blocks where the default has one (GPUs: 5 blocks of 256 rows, then 320).
    let (m, n) = (1100, 130);
    let a = batch_of(&[MatrixClass::Dense; 2], m, n, 37);
    both(&a, &[2, m, n], tsqr_panels(64), "tsqr panels 64");
    // Full rank: the same H and τ as the one-cube panel up to rounding (signs included).
    let (batch, m, n) = (3, 200, 48);
    let a = batch_of(&[MatrixClass::Dense; 3], m, n, 5);
    let one_cube = QrParams {
        panel: Some(16),
        tsqr_panel_rows: Some(usize::MAX),
        ..QrParams::default()
    };
    let x = geqrf_host(client, &a, &[batch, m, n], &one_cube).expect("one-cube panels");
    for top_rows in [false, true] {
        let params = QrParams {
            recon_top_rows: Some(top_rows),
            ..tsqr_panels(16)
        };
        let y = geqrf_host(client, &a, &[batch, m, n], &params).expect("tsqr panels");
        assert_same_factors(&x, &y);
        // NaN in a later panel: reported, no hang.
        let mut bad = a.clone();
        bad[m * n + 150 * n + 40] = f32::NAN;
        match geqrf_host(client, &bad, &[batch, m, n], &params) {
            Err(QrError::NonFinite { batches }) => assert_eq!(batches, vec![1]),
            other => panic!("expected NonFinite, got {other:?}"),
        }
    }
}

/// The register panel kernel (where the device runs it; elsewhere `Some(true)` is refused):
/// the gates on shapes straddling its row capacity, the panel widths and the 4-row slots, on
/// every hard class; the H and τ of the shared-memory panel kernel on full-rank input; a NaN
/// reported without a hang.
pub fn register_panels(client: &Client) {
    let hw = Hardware::of(client);
    // One cube per panel (no grid panels, which take tall panels by default on CUDA).
    let on = |panel: usize| QrParams {
        panel: Some(panel),
        panel_regs: Some(true),
        panel_grid: Some(0),
        ..QrParams::default()
    };
    let Some(launch) = QrLaunch::new(&hw, &on(32), 2, 512) else {
        assert!(hw.max_units_per_cube < 256, "refused on {hw:?}");
        return;
    };
    let off = |panel: usize| QrParams {
        panel_regs: Some(false),
        ..on(panel)
    };
    // The widest panel this device holds in registers at nb = 32.
    let cap = (1..=1024)
        .rev()
        .find(|&p| launch.panel_regs(p, true, true).is_some())
        .expect("the register kernel holds small panels");
    for panel in [8usize, 32] {
        let params = on(panel);
        for &(m, n) in &[
            (1usize, 1usize),
            (7, 1),
            (5, 4),
            (9, 8),
            (8, 9),
            (33, 32),
            (65, 63),
            (40, 100),
            (130, 97),
            (cap, 40),
            (cap + 1, 33),
        ] {
            let a = batch_of(&[MatrixClass::Dense; 2], m, n, (m * 37 + n) as u64);
            let out = geqrf_host(client, &a, &[2, m, n], &params).expect("geqrf");
            check_geqrf(
                client,
                &a,
                &out,
                &params,
                &format!("register panels {panel}"),
            );
        }
        let (m, n) = (96, 80);
        let classes = HARD_CLASSES;
        let a = batch_of(&classes, m, n, 29);
        let out = geqrf_host(client, &a, &[classes.len(), m, n], &params).expect("geqrf");
        check_geqrf(client, &a, &out, &params, "register panels, classes");
    }
    // Full rank: the shared-memory panel kernel's H and τ up to rounding (signs included).
    let (batch, m, n) = (3, cap.min(200), 48);
    let a = batch_of(&[MatrixClass::Dense; 3], m, n, 31);
    let x = geqrf_host(client, &a, &[batch, m, n], &off(16)).expect("shared panels");
    let y = geqrf_host(client, &a, &[batch, m, n], &on(16)).expect("register panels");
    assert_same_factors(&x, &y);
    let mut bad = a.clone();
    bad[2 * m * n + (m - 1) * n + 40] = f32::NAN;
    match geqrf_host(client, &bad, &[batch, m, n], &on(16)) {
        Err(QrError::NonFinite { batches }) => assert_eq!(batches, vec![2]),
        other => panic!("expected NonFinite, got {other:?}"),
    }
}

/// Grid panels (`QrParams::panel_grid`, where the device runs the register panel kernel and
/// fences global memory; elsewhere refused): the gates on shapes whose panels span two or more
/// cubes (ragged last cubes, cubes of only a few rows, m < n, panel widths 8, 32 and 64,
/// single matrices and batches), on every hard class; the H and τ of one-cube register panels up to
/// rounding; a NaN reported. Extreme scaling (the rescue's exchanges) is in
/// [`extreme_scaling`].
pub fn grid_panels(client: &Client) {
    let hw = Hardware::of(client);
    let grid = |panel: usize, rows: usize| QrParams {
        panel: Some(panel),
        panel_grid: Some(rows),
        ..QrParams::default()
    };
    let Some(launch) = QrLaunch::new(&hw, &grid(32, 64), 1, 128) else {
        assert!(
            hw.max_units_per_cube < 256 || !hw.co_resident,
            "refused on {hw:?}"
        );
        let a = batch_of(&[MatrixClass::Dense], 128, 40, 3);
        match geqrf_host(client, &a, &[128, 40], &grid(32, 64)) {
            Err(QrError::Unsupported(_)) => {}
            other => panic!("expected Unsupported, got {other:?}"),
        }
        return;
    };
    // Panels of 65–128 rows take two cubes of up to 64 rows wherever grids run.
    for p in [65usize, 100, 128] {
        let (_, cubes) = launch.panel_grid(p, 1).expect("a grid panel");
        assert_eq!(cubes, 2, "{p} rows");
    }
    let sms = hw.num_sms.unwrap_or(2).max(2) as usize;
    let mut cases = vec![
        // (batch, m, n, panel, rows per cube)
        (1usize, 128usize, 40usize, 32usize, 64usize),
        (2, 65, 33, 32, 64),
        (1, 100, 100, 32, 64),
        (1, 97, 120, 8, 64),
        (2, 120, 17, 8, 64),
        (3, 128, 64, 32, 64),
    ];
    // Many cubes, where the device runs them at once.
    if sms >= 16 {
        cases.extend([
            (1, 1000, 64, 32, 128),
            (2, 2100, 40, 32, 256),
            (4, 777, 96, 32, 100),
            // 64-column panels (the default for batches of 4096 rows and more).
            (2, 700, 150, 64, 128),
        ]);
    }
    // Both ways of combining an exchange, alternately.
    for (i, &(batch, m, n, panel, rows)) in cases.iter().enumerate() {
        let params = QrParams {
            grid_staged_sums: Some(i % 2 == 0),
            ..grid(panel, rows)
        };
        let l = QrLaunch::new(&hw, &params, batch, m).expect("grid launch");
        assert!(
            l.panel_grid(m, batch).is_some() || batch * 2 > sms,
            "{batch} × {m} × {n}: the first panel is a grid panel"
        );
        let a = batch_of(&[MatrixClass::Dense; 4][..batch], m, n, (m * 7 + n) as u64);
        let out = geqrf_host(client, &a, &[batch, m, n], &params).expect("geqrf");
        check_geqrf(
            client,
            &a,
            &out,
            &params,
            &format!("grid panels {panel}, cubes of {rows}"),
        );
    }
    // One matrix per call, so that every device runs them as grids.
    let params = grid(16, 64);
    let (m, n) = (128, 48);
    for (i, class) in HARD_CLASSES.iter().enumerate() {
        let params = QrParams {
            grid_staged_sums: Some(i % 2 == 0),
            ..params
        };
        let a = generate(*class, m, n, 37 + i as u64);
        let out = geqrf_host(client, &a, &[m, n], &params).expect("geqrf");
        check_geqrf(
            client,
            &a,
            &out,
            &params,
            &format!("grid panels, {class:?}"),
        );
    }
    // Full rank: one-cube register panels' H and τ up to rounding (signs included).
    let one = QrParams {
        panel_grid: Some(0),
        panel_regs: Some(true),
        ..params
    };
    let a = generate(MatrixClass::Dense, m, n, 39);
    let x = geqrf_host(client, &a, &[m, n], &one).expect("register panels");
    let y = geqrf_host(client, &a, &[m, n], &params).expect("grid panels");
    assert_same_factors(&x, &y);
    let unstaged = QrParams {
        grid_staged_sums: Some(false),
        ..params
    };
    let z = geqrf_host(client, &a, &[m, n], &unstaged).expect("grid panels");
    assert_same_factors(&x, &z);
    let mut bad = a.clone();
    bad[(m - 1) * n + 7] = f32::NAN;
    match geqrf_host(client, &bad, &[m, n], &params) {
        Err(QrError::NonFinite { batches }) => assert_eq!(batches, vec![0]),
        other => panic!("expected NonFinite, got {other:?}"),
    }
}

/// Look-ahead (`QrParams::lookahead`; refused where the register panel kernel does not run):
/// the gates on shapes whose steps take it — ragged last panels, a one-column last panel,
/// m < n, next panels of a few rows, panel widths 8, 16, 32 and 64, batches, outer blocks,
/// one-cube panels and (where grids run) grid panels — and on every hard
/// class; H and τ of the same panels without look-ahead up to rounding; a NaN reported. The
/// same with the rest updated in column strips (`QrParams::lookahead_strips`).
pub fn lookahead(client: &Client) {
    let hw = Hardware::of(client);
    let la = |panel: usize, rows: usize, grid: usize| QrParams {
        panel: Some(panel),
        panel_rows: Some(rows),
        panel_regs: Some(true),
        panel_grid: Some(grid),
        lookahead: Some(true),
        ..QrParams::default()
    };
    if QrLaunch::new(&hw, &la(32, 4, 0), 1, 128).is_none() {
        assert!(hw.max_units_per_cube < 256, "refused on {hw:?}");
        let a = batch_of(&[MatrixClass::Dense], 70, 70, 3);
        match geqrf_host(client, &a, &[70, 70], &la(32, 4, 0)) {
            Err(QrError::Unsupported(_)) => {}
            other => panic!("expected Unsupported, got {other:?}"),
        }
        return;
    }
    let mut cases = vec![
        // (batch, m, n, panel, row groups, grid rows per cube)
        (1usize, 70usize, 70usize, 32usize, 4usize, 0usize),
        (2, 100, 65, 32, 4, 0),
        (3, 64, 130, 32, 4, 0),
        (1, 40, 40, 32, 4, 0),
        (2, 90, 41, 8, 8, 0),
        (1, 200, 120, 16, 8, 0),
        (4, 257, 96, 32, 16, 0),
    ];
    if hw.co_resident && hw.num_sms.unwrap_or(0) >= 16 {
        cases.extend([
            (1, 300, 100, 32, 16, 64),
            (1, 1000, 70, 32, 16, 128),
            (1, 520, 200, 64, 8, 128),
            (3, 700, 100, 32, 16, 128),
        ]);
    }
    // Devices with little shared memory (lavapipe: 32 KiB) cannot hold some panels together
    // with the update's tiles: those steps go without look-ahead.
    let roomy = hw.max_shared_bytes >= 64 * 1024;
    let (mut ahead, mut in_strips) = (0, 0);
    for &(batch, m, n, panel, rows, grid) in &cases {
        let params = la(panel, rows, grid);
        let l = QrLaunch::new(&hw, &params, batch, m).expect("look-ahead launch");
        match l.lookahead_panel(m - panel, n, batch) {
            Some((cfg, cubes, _)) => {
                assert_eq!(cfg.grid, grid > 0 && cubes >= 2, "{batch} × {m} × {n}");
                ahead += 1;
            }
            None => assert!(!roomy, "{batch} × {m} × {n}: the first step looks ahead"),
        }
        let a = batch_of(&[MatrixClass::Dense; 4][..batch], m, n, (m * 11 + n) as u64);
        let what = format!("look-ahead, panels {panel}, grid {grid}");
        let y = geqrf_host(client, &a, &[batch, m, n], &params).expect("look-ahead");
        check_geqrf(client, &a, &y, &params, &what);
        let off = QrParams {
            lookahead: Some(false),
            ..params
        };
        let x = geqrf_host(client, &a, &[batch, m, n], &off).expect("without look-ahead");
        assert_same_factors(&x, &y);
        // The rest in column strips, each forming its own part of W.
        let strips = QrParams {
            lookahead_strips: Some(true),
            ..params
        };
        let ls = QrLaunch::new(&hw, &strips, batch, m).expect("strip launch");
        if ls.lookahead_panel(m - panel, n, batch).is_some() {
            in_strips += 1;
        }
        let z = geqrf_host(client, &a, &[batch, m, n], &strips).expect("strips");
        check_geqrf(client, &a, &z, &strips, &format!("{what}, strips"));
        assert_same_factors(&x, &z);
    }
    assert!(ahead >= 3, "only {ahead} cases looked ahead");
    assert!(
        in_strips >= 3,
        "only {in_strips} cases looked ahead in strips"
    );
    // Cubes of 1024 units (64 columns, 16 row groups) take none.
    let l = QrLaunch::new(&hw, &la(64, 16, 0), 1, 264).expect("launch");
    if let Some(cfg) = l.panel_regs(200, true, true) {
        assert_eq!(cfg.units(), 1024);
        assert!(l.lookahead_panel(200, 64, 1).is_none());
    }
    // Outer blocks: look-ahead inside each block, none across blocks.
    let params = QrParams {
        outer_block: Some(32),
        ..la(16, 4, 0)
    };
    let (batch, m, n) = (2, 150, 140);
    let a = batch_of(&[MatrixClass::Dense; 2], m, n, 43);
    let y = geqrf_host(client, &a, &[batch, m, n], &params).expect("outer blocks");
    check_geqrf(client, &a, &y, &params, "look-ahead, outer blocks");
    let off = QrParams {
        lookahead: Some(false),
        ..params
    };
    let x = geqrf_host(client, &a, &[batch, m, n], &off).expect("without look-ahead");
    assert_same_factors(&x, &y);
    let params = la(16, 4, 0);
    let (m, n) = (128, 48);
    let classes = HARD_CLASSES;
    let a = batch_of(&classes, m, n, 41);
    let out = geqrf_host(client, &a, &[classes.len(), m, n], &params).expect("geqrf");
    check_geqrf(client, &a, &out, &params, "look-ahead, classes");
    let strips = QrParams {
        lookahead_strips: Some(true),
        ..params
    };
    let out = geqrf_host(client, &a, &[classes.len(), m, n], &strips).expect("geqrf");
    check_geqrf(client, &a, &out, &strips, "look-ahead in strips, classes");
    let mut bad = a.clone();
    bad[m * n + (m - 1) * n + 40] = f32::NAN;
    match geqrf_host(client, &bad, &[classes.len(), m, n], &params) {
        Err(QrError::NonFinite { batches }) => assert_eq!(batches, vec![1]),
        other => panic!("expected NonFinite, got {other:?}"),
    }
}

/// Two columns per reduction in the register panel kernel (`QrParams::panel_pairs`; only where
/// that kernel runs): the gates on one-cube panels (odd and even widths, one-column panels,
/// m < n, panel widths 8, 16 and 32), on every hard class (rank-deficient, graded and zero
/// columns take the one-column fallback), under extreme scaling (the rescue), in grid panels
/// (both ways of combining an exchange; waits polling all late words,
/// `QrParams::grid_poll_all`) and in look-ahead steps where grids run; H and τ of the same
/// panels without pairs (and with serial waits) up to rounding.
pub fn panel_pairs(client: &Client) {
    panel_variant(client, PanelVariant::Pairs);
}

/// Lane segments in the register panel kernel (`QrParams::panel_segs`; only where planes have
/// a fixed width that the row groups divide): the same cases as [`panel_pairs`], against the
/// panels without segments or pairs.
pub fn panel_segs(client: &Client) {
    panel_variant(client, PanelVariant::Segs);
}

/// Grid panels whose exchange waits poll all of a unit's late words each round
/// (`QrParams::grid_poll_all`; only where grid panels run): the grid cases of [`panel_pairs`],
/// against the waits one word after another.
pub fn grid_poll_all(client: &Client) {
    panel_variant(client, PanelVariant::PollAll);
}

#[derive(Clone, Copy, Debug)]
enum PanelVariant {
    Pairs,
    Segs,
    PollAll,
}

fn panel_variant(client: &Client, variant: PanelVariant) {
    let hw = Hardware::of(client);
    let pairs = |panel: usize, grid: usize| QrParams {
        panel: Some(panel),
        panel_regs: Some(true),
        panel_grid: Some(grid),
        panel_pairs: Some(matches!(variant, PanelVariant::Pairs)),
        panel_segs: Some(matches!(variant, PanelVariant::Segs)),
        // Pairs with poll-all, their fastest setting; segments with the serial waits.
        grid_poll_all: Some(matches!(
            variant,
            PanelVariant::PollAll | PanelVariant::Pairs
        )),
        ..QrParams::default()
    };
    let Some(launch) = QrLaunch::new(&hw, &pairs(32, 0), 2, 512) else {
        assert!(hw.max_units_per_cube < 256, "refused on {hw:?}");
        return;
    };
    let cfg = launch.panel_regs(64, true, true).expect("a register panel");
    match variant {
        PanelVariant::Pairs => assert!(cfg.pairs && cfg.parts() == 2, "{cfg:?}"),
        PanelVariant::Segs if !cfg.segs_fit(&hw) => return,
        PanelVariant::Segs => assert!(cfg.segs && !cfg.pairs, "{cfg:?}"),
        // One-cube panels have no exchange.
        PanelVariant::PollAll => assert!(!cfg.pairs && !cfg.segs && !cfg.poll_all, "{cfg:?}"),
    }
    assert!(
        launch
            .panel_regs(64, false, true)
            .is_none_or(|c| !c.pairs && !c.segs)
    );
    let without = |p: &QrParams| QrParams {
        panel_pairs: Some(false),
        panel_segs: Some(false),
        grid_poll_all: Some(false),
        ..*p
    };
    let mut cases = vec![
        // (batch, m, n, panel, grid rows per cube)
        (2usize, 1usize, 1usize, 32usize, 0usize),
        (2, 7, 2, 32, 0),
        (2, 9, 8, 8, 0),
        (2, 8, 9, 8, 0),
        (2, 33, 32, 32, 0),
        (2, 65, 63, 32, 0),
        (2, 40, 100, 16, 0),
        (2, 130, 97, 32, 0),
        (1, 200, 45, 16, 0),
    ];
    let grids = hw.co_resident && hw.num_sms.unwrap_or(0) >= 16;
    if let PanelVariant::PollAll = variant {
        if !grids {
            return;
        }
        let grid = QrLaunch::new(&hw, &pairs(32, 128), 1, 1000)
            .and_then(|l| l.panel_grid(1000, 1))
            .expect("a grid panel")
            .0;
        assert!(grid.poll_all, "{grid:?}");
        cases.clear();
    }
    if grids {
        cases.extend([
            (1, 128, 40, 32, 64),
            (1, 100, 100, 32, 64),
            (2, 120, 17, 8, 64),
            (1, 1000, 64, 32, 128),
            (2, 700, 150, 64, 128),
        ]);
    }
    for (i, &(batch, m, n, panel, grid)) in cases.iter().enumerate() {
        let params = QrParams {
            grid_staged_sums: Some(i % 2 == 0),
            ..pairs(panel, grid)
        };
        let a = batch_of(&[MatrixClass::Dense; 2][..batch], m, n, (m * 13 + n) as u64);
        let what = format!("{variant:?}, panels {panel}, grid {grid}, {batch} × {m} × {n}");
        // Progress (shown with --nocapture): a case that hangs on a device is the last line.
        eprintln!("{what}");
        let y = geqrf_host(client, &a, &[batch, m, n], &params).expect("variant");
        check_geqrf(client, &a, &y, &params, &what);
        if m >= n {
            let x = geqrf_host(client, &a, &[batch, m, n], &without(&params)).expect("single");
            assert_same_factors(&x, &y);
        }
    }
    let mut hard = vec![pairs(16, 0), pairs(32, 0)];
    if let PanelVariant::PollAll = variant {
        hard.clear();
    }
    if grids {
        hard.push(pairs(16, 64));
        hard.push(QrParams {
            grid_staged_sums: Some(false),
            ..pairs(32, 64)
        });
        hard.push(QrParams {
            panel_rows: Some(16),
            lookahead: Some(true),
            ..pairs(32, 64)
        });
    }
    let (m, n) = (128, 48);
    for params in &hard {
        eprintln!("{variant:?}, hard cases, {params:?}");
        for (i, class) in HARD_CLASSES.iter().enumerate() {
            let a = generate(*class, m, n, 53 + i as u64);
            let out = geqrf_host(client, &a, &[m, n], params).expect("geqrf");
            check_geqrf(
                client,
                &a,
                &out,
                params,
                &format!("{variant:?}, {class:?}, {params:?}"),
            );
        }
        // Extreme scaling: the rescue (column j of a pair) and the fallback (column j + 1).
        for &scale in &[1e-20f32, 1e-30, 1e18, 3e36] {
            let a: Vec<f32> = generate(MatrixClass::GradedColumns { kappa: 1e5 }, m, n, 59)
                .iter()
                .map(|x| x * scale)
                .collect();
            let out = geqrf_host(client, &a, &[m, n], params).expect("geqrf");
            check_geqrf(
                client,
                &a,
                &out,
                params,
                &format!("{variant:?}, scaled by {scale:e}"),
            );
        }
        let mut a = generate(MatrixClass::Dense, m, n, 61);
        for i in 0..m {
            for j in (1..n).step_by(2) {
                a[i * n + j] *= 1e-22;
            }
            a[i * n + 4] = 0.0;
            a[i * n + 7] = 0.0;
        }
        let out = geqrf_host(client, &a, &[m, n], params).expect("geqrf");
        check_geqrf(
            client,
            &a,
            &out,
            params,
            &format!("{variant:?}, columns at 1 and 1e-22"),
        );
        assert_eq!((out.tau[4], out.tau[7]), (0.0, 0.0), "the zero columns' τ");
    }
    // Look-ahead steps with pairs: the same factors as without look-ahead.
    if grids {
        let params = QrParams {
            panel_rows: Some(16),
            lookahead: Some(true),
            ..pairs(32, 128)
        };
        let (batch, m, n) = (1, 1000, 70);
        let a = batch_of(&[MatrixClass::Dense], m, n, 67);
        let y = geqrf_host(client, &a, &[batch, m, n], &params).expect("look-ahead");
        check_geqrf(client, &a, &y, &params, &format!("{variant:?}, look-ahead"));
        let x = geqrf_host(client, &a, &[batch, m, n], &without(&params)).expect("single");
        assert_same_factors(&x, &y);
    }
}

/// Outer blocks (`QrParams::outer_block`): the gates on shapes straddling the block width
/// (ragged last blocks, m < n with columns past the reflectors, one column past a block), on
/// every hard class (zero columns: τ = 0 inside a block's T), on single matrices (split-K Gram
/// products) and batches, with one-cube and TSQR panels; H and τ of the same panels without
/// outer blocks up to rounding; the widest block whose T the device holds; bad widths refused.
pub fn outer_blocks(client: &Client) {
    let hw = Hardware::of(client);
    let with = |base: QrParams, ob: usize| QrParams {
        outer_block: Some(ob),
        ..base
    };
    let nb16 = QrParams {
        panel: Some(16),
        ..QrParams::default()
    };
    let widest = (2..=8)
        .rev()
        .map(|q| 16 * q)
        .find(|&ob| QrLaunch::new(&hw, &with(nb16, ob), 1, 64).is_some())
        .expect("blocks of 32 fit");
    for (base, ob) in [
        (small_panels(), 16),
        (small_panels(), 24),
        (tsqr_panels(8), 32),
        (nb16, widest),
    ] {
        let params = with(base, ob);
        for &(batch, m, n) in &[
            (2usize, 40usize, 40usize),
            (2, 33, 50),
            (1, 600, 70),
            (2, 70, ob + 1),
            (1, 2 * ob + 5, 3 * ob + 7),
        ] {
            let a = batch_of(&vec![MatrixClass::Dense; batch], m, n, (m * 13 + n) as u64);
            let out = geqrf_host(client, &a, &[batch, m, n], &params).expect("geqrf");
            check_geqrf(client, &a, &out, &params, &format!("outer blocks {ob}"));
            let plain = geqrf_host(client, &a, &[batch, m, n], &base).expect("geqrf");
            assert_same_factors(&plain, &out);
        }
        let (m, n) = (96, 80);
        let a = batch_of(&HARD_CLASSES, m, n, 41);
        let out = geqrf_host(client, &a, &[HARD_CLASSES.len(), m, n], &params).expect("geqrf");
        check_geqrf(client, &a, &out, &params, "outer blocks, classes");
    }
    // The default: outer blocks of 128 for single matrices of 8192 rows or more on GPUs with
    // plane operations (where T of 128 columns fits), none elsewhere.
    let default = |batch: usize, m: usize| {
        QrLaunch::new(&hw, &QrParams::default(), batch, m)
            .expect("default launch")
            .outer
    };
    let big = QrLaunch::new(&hw, &with(nb16, 128), 1, 64).is_some();
    assert_eq!(default(1, 8192), if hw.plane_ops && big { 128 } else { 0 });
    assert_eq!(default(1, 8191), 0);
    assert_eq!(default(2, 8192), 0);
    // Widths that are not a multiple of the panel, below it or too wide are refused.
    for ob in [24, 8, 16 * 9] {
        assert!(QrLaunch::new(&hw, &with(nb16, ob), 1, 64).is_none(), "{ob}");
        assert!(matches!(
            geqrf_host(client, &[1.0; 4], &[2, 2], &with(nb16, ob)),
            Err(QrError::Unsupported(_))
        ));
    }
}

/// Split-K GEMM (what the trailing update and the Gram matrices use for a few matrices on
/// GPUs) against f64: a transposed A, B a block of a larger matrix, ragged K, set and
/// subtract, one matrix and a batch of three with their own strides; on the default tiles
/// and, where the device runs them, the thin tiles of Vᵀ·C and the mma kernel's thin tiles
/// (3×TF32), with geqrf's gates on that kernel for every update.
pub fn gemm_split_k(client: &Client) {
    use linalg_common::gemm::{GemmKernel, GemmLaunch};
    use linalg_common::gemm_mma::{MMA_DEFAULT, MMA_THIN};
    let hw = Hardware::of(client);
    gemm_split_k_on(client, &GemmLaunch::new(&hw).expect("gemm"));
    if let Some(thin) = GemmLaunch::thin(&hw) {
        gemm_split_k_on(client, &thin);
    }
    // The mma kernel (3×TF32) on thin tiles, split, and geqrf with it for Vᵀ·C and every
    // update, where the device has it (`QrParams::gemm_thin`, `gemm_big`).
    let mma = QrParams {
        gemm_thin: Some(GemmKernel::Mma(MMA_THIN)),
        gemm_big: Some(GemmKernel::Mma(MMA_DEFAULT)),
        big_from: Some(1),
        ..QrParams::default()
    };
    let Some(thin) = GemmLaunch::mma(&hw, MMA_THIN) else {
        assert!(
            QrLaunch::new(&hw, &mma, 1, 64).is_none(),
            "refused on {hw:?}"
        );
        return;
    };
    gemm_split_k_on(client, &thin);
    for &(batch, m, n) in &[(2usize, 300usize, 200usize), (1, 700, 96), (3, 90, 130)] {
        let classes = [
            MatrixClass::Dense,
            MatrixClass::GradedColumns { kappa: 1e6 },
            MatrixClass::Dense,
        ];
        let a = batch_of(&classes[..batch], m, n, (m + n) as u64);
        let out = geqrf_host(client, &a, &[batch, m, n], &mma).expect("geqrf");
        check_geqrf(client, &a, &out, &mma, "mma updates");
    }
}

/// Vᵀ·C by the register product kernel (`QrParams::product_regs`; CUDA with `mma.sync`,
/// refused elsewhere): geqrf, householder_product and apply_q pass the gates and agree with
/// the default path, on products whose rows straddle its 8-row steps (m not a multiple of 8),
/// whose columns straddle its 32-column cubes, with reflector blocks narrower than 32
/// (householder_product's and apply_q's last blocks), batches, the look-ahead and grid panels
/// of a large matrix, K in slices over several cubes and not, other cube shapes (one plane;
/// loads four steps ahead; sums every step),
/// and C whose rows are not 4-vectors (n − 32 not a multiple of 4: the default path).
pub fn product_regs(client: &Client) {
    use qr_kernels::geqrf::{PRODUCT_DEFAULT, ProductConfig};
    let hw = Hardware::of(client);
    let on = QrParams {
        product_regs: Some(true),
        ..QrParams::default()
    };
    if ProductConfig::new(&hw, PRODUCT_DEFAULT).is_none() {
        assert!(
            !hw.tf32_manual_mma || hw.lanes != 32 || !hw.vector_views,
            "mma.sync, 32-lane planes and vector views, yet the product kernel is refused"
        );
        assert!(
            QrLaunch::new(&hw, &on, 1, 64).is_none(),
            "refused on {hw:?}"
        );
        // The default (on for a few tall matrices where it runs) stands down instead.
        let launch = QrLaunch::new(&hw, &QrParams::default(), 1, 4096).expect("default");
        assert!(launch.product.is_none());
        return;
    }
    let shapes: &[(usize, usize, usize)] = &[
        (1, 997, 300),
        (2, 1000, 516),
        (3, 257, 130),
        (1, 75, 68),
        (1, 2100, 2100),
    ];
    // (shape, most K slices): slices by default (tiles fewer than the resident cubes), none,
    // and at most two.
    let configs = [
        (PRODUCT_DEFAULT, None),
        (PRODUCT_DEFAULT, Some(1)),
        (
            ProductConfig {
                planes: 1,
                steps: 1,
                flush_steps: 1,
            },
            None,
        ),
        (
            ProductConfig {
                planes: 4,
                steps: 4,
                flush_steps: 8,
            },
            Some(2),
        ),
    ];
    for (ci, (cfg, most)) in configs.into_iter().enumerate() {
        let params = QrParams {
            product_config: Some(cfg),
            product_slices: most,
            ..on
        };
        for &(batch, m, n) in shapes {
            if ci > 0 && m > 1000 {
                continue;
            }
            let classes = [
                MatrixClass::Dense,
                MatrixClass::GradedColumns { kappa: 1e7 },
                MatrixClass::RankDeficient { rank: n / 3 },
            ];
            let a = batch_of(&classes[..batch], m, n, (7 * m + n) as u64);
            let ours = geqrf_host(client, &a, &[batch, m, n], &params).expect("geqrf");
            let what = format!("register products {cfg:?} slices {most:?}, {batch} × {m}×{n}");
            check_geqrf(client, &a, &ours, &params, &what);
            // Dense matrices only: rank-deficient ones' trailing reflectors are rounding noise.
            if batch == 1 {
                let off = QrParams {
                    product_regs: Some(false),
                    ..QrParams::default()
                };
                let base = geqrf_host(client, &a, &[batch, m, n], &off).expect("geqrf");
                assert_same_factors(&ours, &base);
            }
        }
        hp_and_apply_q_with(client, params, 2, &[(130, 70), (300, 97)]);
    }
}

fn gemm_split_k_on(client: &Client, g: &linalg_common::gemm::GemmLaunch) {
    use linalg_common::gemm::{GemmOp, Operand};
    let (m, k, n, ld) = (13usize, 1003usize, 21usize, 30usize);
    // Matrix q: Aᵀ stored k × m at q·a_bs, B = columns 4..4+n of the k × ld block at q·b_bs,
    // C m × n at q·c_bs (gaps between matrices, poisoned with NaN in C).
    let (a_bs, b_bs, c_bs) = (k * m + 7, k * ld + 5, m * n + 3);
    for batch in [1usize, 3] {
        let at = linalg_common::rng::uniform_vec(1 + batch as u64, batch * a_bs);
        let b = linalg_common::rng::uniform_vec(2 + batch as u64, batch * b_bs);
        let mut c0 = linalg_common::rng::uniform_vec(3 + batch as u64, batch * c_bs);
        for q in 0..batch {
            c0[q * c_bs + m * n..(q + 1) * c_bs].fill(f32::NAN);
        }
        for splits in [1usize, 3, 7] {
            for (accumulate, negate) in [(false, false), (true, true)] {
                let ha = client.create_from_slice(f32::as_bytes(&at));
                let hb = client.create_from_slice(f32::as_bytes(&b));
                let hc = client.create_from_slice(f32::as_bytes(&c0));
                let work = client.empty(batch * splits * m * n * 4);
                let op = GemmOp {
                    accumulate,
                    negate,
                    lower_only: false,
                    a_lower: false,
                };
                let av = View {
                    batch_stride: a_bs,
                    ..View::contiguous(k, m).t()
                };
                let bv = View {
                    batch_stride: b_bs,
                    ..View::contiguous(k, ld).block(0, 4, k, n)
                };
                let cv = View {
                    batch_stride: c_bs,
                    ..View::contiguous(m, n)
                };
                g.launch_split_k(
                    client,
                    batch,
                    Operand::new(&ha, at.len(), av),
                    Operand::new(&hb, b.len(), bv),
                    Operand::new(&hc, c0.len(), cv),
                    op,
                    splits,
                    (&work, batch * splits * m * n),
                );
                let c = f32::from_bytes(&client.read_one(hc).unwrap()).to_vec();
                for q in 0..batch {
                    for i in 0..m {
                        for j in 0..n {
                            let p: f64 = (0..k)
                                .map(|r| {
                                    at[q * a_bs + r * m + i] as f64
                                        * b[q * b_bs + r * ld + 4 + j] as f64
                                })
                                .sum();
                            let old = c0[q * c_bs + i * n + j] as f64;
                            let want = if accumulate { old - p } else { p };
                            let got = c[q * c_bs + i * n + j] as f64;
                            assert!(
                                (got - want).abs() <= 1e-4 * (1.0 + p.abs()),
                                "batch {batch} splits {splits} matrix {q} [{i},{j}]: {got} vs {want}"
                            );
                        }
                    }
                    // The gaps between the matrices of C are not written.
                    assert!(
                        c[q * c_bs + m * n..(q + 1) * c_bs]
                            .iter()
                            .all(|v| v.is_nan())
                    );
                }
            }
        }
    }
}

/// Matrices whose entries' squares under- or overflow f32 (uniformly scaled, and columns 1e22
/// apart), on every panel path this device runs: the gates hold, as LAPACK's scaled norms give.
pub fn extreme_scaling(client: &Client) {
    let hw = Hardware::of(client);
    let with = |panel_regs: bool, stage: bool| QrParams {
        panel: Some(16),
        panel_regs: Some(panel_regs),
        stage: Some(stage),
        ..QrParams::default()
    };
    let mut paths = vec![
        ("default", QrParams::default()),
        ("shared-memory panels", with(false, true)),
        ("global-memory panels", with(false, false)),
    ];
    if QrLaunch::new(&hw, &with(true, true), 2, 120).is_some_and(|l| l.regs) {
        paths.push(("register panels", with(true, true)));
    }
    if QrLaunch::new(&hw, &tsqr_panels(16), 2, 120).is_some_and(|l| l.recon.is_some()) {
        paths.push(("tsqr panels", tsqr_panels(16)));
    }
    // Two cubes of up to 64 rows for the 120-row panels.
    let grid = QrParams {
        panel_grid: Some(64),
        ..with(true, true)
    };
    if QrLaunch::new(&hw, &grid, 1, 120).is_some_and(|l| l.panel_grid(120, 1).is_some()) {
        paths.push(("grid panels", grid));
        let unstaged = QrParams {
            grid_staged_sums: Some(false),
            ..grid
        };
        paths.push(("grid panels, row group 0's sums", unstaged));
    }
    for (name, params) in &paths {
        for &(m, n) in &[(120usize, 40usize), (30, 50)] {
            for &scale in &[1e-20f32, 1e-30, 1e18, 3e36] {
                let a: Vec<f32> = batch_of(
                    &[
                        MatrixClass::Dense,
                        MatrixClass::GradedColumns { kappa: 1e5 },
                    ],
                    m,
                    n,
                    41,
                )
                .iter()
                .map(|x| x * scale)
                .collect();
                let out = geqrf_host(client, &a, &[2, m, n], params).expect("geqrf");
                check_geqrf(
                    client,
                    &a,
                    &out,
                    params,
                    &format!("{name}, scaled by {scale:e}"),
                );
            }
            // Columns of very different magnitudes, 1 and 1e-22, and a zero column.
            let mut a = batch_of(&[MatrixClass::Dense], m, n, 43);
            for i in 0..m {
                for j in (1..n).step_by(2) {
                    a[i * n + j] *= 1e-22;
                }
                a[i * n + 4] = 0.0;
            }
            let out = geqrf_host(client, &a, &[m, n], params).expect("geqrf");
            check_geqrf(
                client,
                &a,
                &out,
                params,
                &format!("{name}, columns at 1 and 1e-22"),
            );
            // LAPACK's τ = 0 for a zero column (TSQR panels rebuild a reflector from Q instead).
            if !name.starts_with("tsqr") {
                assert_eq!(out.tau[4], 0.0, "{name}: the zero column's τ");
            }
        }
    }
}

/// `QrParams::panel_grid_tall`: grid panels of at least FROM rows take about ROWS rows per
/// cube, shorter ones the default's (a host-side choice among grids `grid_panels` runs); a
/// ROWS below the default's, or without grids, is refused; ROWS = 0 turns it off. The
/// default is `DEFAULT_GRID_TALL` = (256, 4097).
#[test]
fn grid_tall_policy_on_hopper() {
    let hw = Hardware::hopper();
    let tall = |rows: usize, from: usize| QrParams {
        panel_grid_tall: Some((rows, from)),
        ..QrParams::default()
    };
    assert_eq!(qr_kernels::geqrf::DEFAULT_GRID_TALL, (256, 4097));
    let l = QrLaunch::new(&hw, &tall(256, 4097), 1, 8192).expect("launch");
    let by_default = QrLaunch::new(&hw, &QrParams::default(), 1, 8192).expect("launch");
    let d = QrLaunch::new(&hw, &tall(0, 0), 1, 8192).expect("launch");
    for (p, want, default) in [
        (8160usize, 32usize, 64usize),
        (6000, 24, 47),
        (4097, 17, 33),
        (4096, 32, 32),
        (2080, 17, 17),
    ] {
        let cubes = |l: &QrLaunch| l.panel_grid(p, 1).map(|(_, c)| c);
        assert_eq!(cubes(&l), Some(want), "{p} rows, tall rule");
        assert_eq!(cubes(&by_default), Some(want), "{p} rows, by default");
        let base = cubes(&d);
        // The default's tallest panels (64 cubes or more) take no grid.
        assert!(
            base.is_none() || base == Some(default),
            "{p} rows, default: {base:?}"
        );
    }
    assert!(QrLaunch::new(&hw, &tall(64, 1000), 1, 8192).is_none());
    let no_grid = QrParams {
        panel_grid: Some(0),
        ..tall(256, 1000)
    };
    assert!(QrLaunch::new(&hw, &no_grid, 1, 8192).is_none());
    // Grids by request take no tall rule unless asked.
    let grid_128 = QrParams {
        panel_grid: Some(128),
        ..QrParams::default()
    };
    let g = QrLaunch::new(&hw, &grid_128, 1, 8192).expect("launch");
    assert_eq!(g.grid_tall, None);
}

/// `QrParams::panel_pairs`: off by default; on, the factoring register panels (one cube and
/// grids, look-ahead steps included) take pairs and the given-reflector ones do not.
#[test]
fn pairs_policy_on_hopper() {
    let hw = Hardware::hopper();
    let on = QrParams {
        panel_pairs: Some(true),
        ..QrParams::default()
    };
    let d = QrLaunch::new(&hw, &QrParams::default(), 1, 4096).expect("launch");
    let l = QrLaunch::new(&hw, &on, 1, 4096).expect("launch");
    let grid = |l: &QrLaunch| l.panel_grid(4064, 1).expect("a grid panel");
    assert!(!grid(&d).0.pairs && grid(&l).0.pairs);
    assert_eq!(grid(&d).1, grid(&l).1, "the same cubes");
    assert!(l.panel_regs(480, true, true).expect("one cube").pairs);
    assert!(!d.panel_regs(480, true, true).expect("one cube").pairs);
    assert!(
        !l.panel_regs(480, false, true)
            .expect("given reflectors")
            .pairs
    );
    let (cfg, _, _) = l.lookahead_panel(4064, 4064, 1).expect("look-ahead");
    assert!(cfg.grid && cfg.pairs);
}

/// `QrParams::panel_segs`: off by default; on, the factoring register panels (one cube, grids
/// and look-ahead steps) take lane segments instead of pairs, and the given-reflector ones
/// neither.
#[test]
fn segs_policy_on_hopper() {
    let hw = Hardware::hopper();
    let on = QrParams {
        panel_segs: Some(true),
        ..QrParams::default()
    };
    let d = QrLaunch::new(&hw, &QrParams::default(), 1, 4096).expect("launch");
    let l = QrLaunch::new(&hw, &on, 1, 4096).expect("launch");
    let grid = |l: &QrLaunch| l.panel_grid(4064, 1).expect("a grid panel");
    assert!(!grid(&d).0.segs);
    assert!(grid(&l).0.segs && !grid(&l).0.pairs);
    assert_eq!(grid(&d).1, grid(&l).1, "the same cubes");
    let one = l.panel_regs(480, true, true).expect("one cube");
    assert!(one.segs && !one.pairs);
    let given = l.panel_regs(480, false, true).expect("given reflectors");
    assert!(!given.segs && !given.pairs);
    let (cfg, _, _) = l.lookahead_panel(4064, 4064, 1).expect("look-ahead");
    assert!(cfg.grid && cfg.segs);
}

/// `QrParams::grid_poll_all`: off by default; on, grid panels (alone, with segments or pairs,
/// and in look-ahead steps) poll all late words per round, and one-cube panels, which have no
/// exchange, are as they were.
#[test]
fn poll_all_policy_on_hopper() {
    let hw = Hardware::hopper();
    let with = |segs: bool, pairs: bool| {
        let p = QrParams {
            grid_poll_all: Some(true),
            panel_segs: Some(segs),
            panel_pairs: Some(pairs),
            ..QrParams::default()
        };
        QrLaunch::new(&hw, &p, 1, 4096).expect("launch")
    };
    let d = QrLaunch::new(&hw, &QrParams::default(), 1, 4096).expect("launch");
    let grid = |l: &QrLaunch| l.panel_grid(4064, 1).expect("a grid panel").0;
    assert!(!grid(&d).poll_all);
    for (segs, pairs) in [(false, false), (true, false), (false, true)] {
        let l = with(segs, pairs);
        let g = grid(&l);
        assert!(g.poll_all && g.segs == segs && g.pairs == pairs, "{g:?}");
        let (cfg, _, _) = l.lookahead_panel(4064, 4064, 1).expect("look-ahead");
        assert!(cfg.grid && cfg.poll_all, "{cfg:?}");
        let one = l.panel_regs(480, true, true).expect("one cube");
        assert!(!one.poll_all, "{one:?}");
    }
}

/// `QrParams::product_regs` by default: on for batches of at most 8 matrices of at least 2048
/// rows (where the device runs it), off otherwise; `Some(false)` turns it off.
#[test]
fn product_policy_on_hopper() {
    use qr_kernels::geqrf::{PRODUCT_FROM_ROWS, PRODUCT_MAX_BATCH};
    let hw = Hardware::hopper();
    assert_eq!((PRODUCT_FROM_ROWS, PRODUCT_MAX_BATCH), (2048, 8));
    for (batch, m, want) in [
        (1usize, 4096usize, true),
        (2, 4096, true),
        (8, 2048, true),
        (1, 8192, true),
        (1, 2047, false),
        (9, 2048, false),
        (60, 1024, false),
        (20, 32, false),
        (640, 512, false),
    ] {
        let l = QrLaunch::new(&hw, &QrParams::default(), batch, m).expect("launch");
        assert_eq!(l.product.is_some(), want, "{batch} × {m} rows");
    }
    let off = QrParams {
        product_regs: Some(false),
        ..QrParams::default()
    };
    let l = QrLaunch::new(&hw, &off, 1, 4096).expect("launch");
    assert!(l.product.is_none());
}

/// Where look-ahead applies on a 132-multiprocessor Hopper GPU (host-side policy, no
/// launch): single 4096² and 8192² matrices (grid panels of 32 cubes; 63 at 8192² without
/// the tall rule), 32 × 512² (one cube each); not 8 × 2048² (128 grid cubes: nothing would
/// run beside them), 640 × 512² (the panels alone fill the device) or 2 × 4096² (64-column
/// panels: cubes of 1024 units).
#[test]
fn lookahead_policy_on_hopper() {
    let hw = Hardware::hopper();
    let params = QrParams {
        lookahead: Some(true),
        ..QrParams::default()
    };
    // (batch, n, the next panel's rows, its look-ahead: Some(cubes) or None). 8192²'s first
    // panels take about 256 rows per cube (`DEFAULT_GRID_TALL`); with 128, they would be
    // too tall for a grid (64 cubes or more: exchange words) and go to TSQR.
    for (batch, n, p, want) in [
        (1usize, 4096usize, 4064usize, Some(32usize)),
        (1, 8192, 8160, Some(32)),
        (1, 8192, 8064, Some(32)),
        (32, 512, 480, Some(1)),
        (8, 2048, 2016, None),
        (640, 512, 480, None),
        (2, 4096, 4032, None),
    ] {
        let l = QrLaunch::new(&hw, &params, batch, n).expect("launch");
        let got = l.lookahead_panel(p, p, batch).map(|(cfg, cubes, gcfg)| {
            assert_eq!(cfg.units(), gcfg.units());
            assert_eq!(cfg.grid, cubes > 1);
            cubes
        });
        assert_eq!(got, want, "{batch} × {n}²");
    }
    let no_tall = QrParams {
        panel_grid_tall: Some((0, 0)),
        ..params
    };
    for (p, want) in [(8160usize, None), (8064, Some(63usize))] {
        let l = QrLaunch::new(&hw, &no_tall, 1, 8192).expect("launch");
        let got = l.lookahead_panel(p, p, 1).map(|(_, cubes, _)| cubes);
        assert_eq!(got, want, "no tall rule, 8192², p = {p}");
    }
    // The default: one matrix's grid panels on at most a quarter of the multiprocessors,
    // without outer blocks (8192² has them).
    for (batch, n, p, want) in [
        (1usize, 4096usize, 4064usize, Some(32usize)),
        (1, 4096, 1056, Some(9)),
        (1, 4096, 2080, Some(17)),
        (1, 8192, 8064, None),
        (1, 8192, 4160, None),
        (1, 4096, 480, None),
        (32, 512, 480, None),
        (2, 2048, 2016, None),
    ] {
        let l = QrLaunch::new(&hw, &QrParams::default(), batch, n).expect("launch");
        assert_eq!(l.lookahead, LookAhead::Auto);
        let got = l.lookahead_panel(p, p, batch).map(|(_, cubes, _)| cubes);
        assert_eq!(got, want, "default, {batch} × {n}², p = {p}");
    }
    // Strips (their partial sums in shared memory beside the panel's) where tiles go.
    let strips = QrParams {
        lookahead_strips: Some(true),
        ..params
    };
    for (batch, n, p) in [
        (1usize, 4096usize, 4064usize),
        (1, 4096, 480),
        (32, 512, 480),
    ] {
        let tiles = QrLaunch::new(&hw, &params, batch, n).expect("launch");
        let l = QrLaunch::new(&hw, &strips, batch, n).expect("launch");
        assert!(l.strips && !tiles.strips);
        let cubes = |l: &QrLaunch| l.lookahead_panel(p, p, batch).map(|(_, c, _)| c);
        assert!(cubes(&l).is_some(), "strips, {batch} × {n}², p = {p}");
        assert_eq!(cubes(&l), cubes(&tiles), "strips, {batch} × {n}², p = {p}");
    }
}

macro_rules! testgen {
    ($name:ident, $device:expr) => {
        mod $name {
            use super::*;
            fn client() -> Client {
                let client = $device.client();
                eprintln!("runtime {}: {:?}", stringify!($name), Hardware::of(&client));
                client
            }
            #[test]
            fn shapes_straddle_panels() {
                super::shapes_straddle_panels(&client());
            }
            #[test]
            fn tall_and_global_panels() {
                super::tall_and_global_panels(&client());
            }
            #[test]
            fn conditioning_and_rank() {
                super::conditioning_and_rank(&client());
            }
            #[test]
            fn large_batch() {
                super::large_batch(&client());
            }
            #[test]
            fn batch_is_independent() {
                super::batch_is_independent(&client());
            }
            #[test]
            fn strided_inputs() {
                super::strided_inputs(&client());
            }
            #[test]
            fn householder_product_and_apply_q() {
                super::householder_product_and_apply_q(&client());
            }
            #[test]
            fn apply_q_broadcasts() {
                super::apply_q_broadcasts(&client());
            }
            #[test]
            fn qr_modes() {
                super::qr_modes(&client());
            }
            #[test]
            fn gemm_split_k() {
                super::gemm_split_k(&client());
            }
            #[test]
            fn tsqr_panels_reconstruct() {
                super::tsqr_panels_reconstruct(&client());
            }
            #[test]
            fn register_panels() {
                super::register_panels(&client());
            }
            #[test]
            fn grid_panels() {
                super::grid_panels(&client());
            }
            #[test]
            fn lookahead() {
                super::lookahead(&client());
            }
            #[test]
            fn panel_pairs() {
                super::panel_pairs(&client());
            }

            #[test]
            fn panel_segs() {
                super::panel_segs(&client());
            }
            #[test]
            fn grid_poll_all() {
                super::grid_poll_all(&client());
            }
            #[test]
            fn outer_blocks() {
                super::outer_blocks(&client());
            }
            #[test]
            fn product_regs() {
                super::product_regs(&client());
            }
            #[test]
            fn extreme_scaling() {
                super::extreme_scaling(&client());
            }
            #[test]
            fn errors_and_empty() {
                super::errors_and_empty(&client());
            }
        }
    };
}

#[cfg(feature = "cpu")]
testgen!(cpu, cubecl::Device::cpu().expect("CPU runtime"));
#[cfg(feature = "cuda")]
testgen!(
    cuda,
    cubecl::Device::cuda(0).expect("a CUDA device (this binary was built for CUDA)")
);
#[cfg(feature = "wgpu")]
testgen!(
    wgpu,
    cubecl::Device::wgpu(Default::default()).expect("a wgpu adapter")
);
