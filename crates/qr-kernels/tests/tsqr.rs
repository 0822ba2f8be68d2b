//! TSQR against f64 host references, on every runtime this build links.
//!
//! Test bodies take a client; `testgen!` instantiates them once per runtime, so the same suite
//! runs on the CPU runtime (plane width 1, CI) and on CUDA (plane width 32, the H200).
use cubecl::client::Client;
use cubecl::prelude::*;
use linalg_common::launch::Hardware;
use linalg_common::matgen::{MatrixClass, generate};
use linalg_common::reference::{check_qr, householder_qr, orth_bound, resid_bound};
use qr_kernels::tsqr::{
    HostQr, MAX_COLUMNS, TsqrError, TsqrLaunch, TsqrMode, TsqrParams, levels, tsqr, tsqr_host,
};

fn launch_for(client: &Client, n: usize, params: &TsqrParams) -> TsqrLaunch {
    TsqrLaunch::new(&Hardware::of(client), n, params).expect("launch")
}

/// Draw a batch, each element of its own class and seed.
fn batch_of(classes: &[MatrixClass], m: usize, n: usize, seed: u64) -> Vec<f32> {
    classes
        .iter()
        .enumerate()
        .flat_map(|(i, c)| generate(*c, m, n, seed * 1000 + i as u64))
        .collect()
}

/// Factor in both modes, check every batch element against the gates, and check that R is
/// the same in both modes. Returns the Q-and-R result.
fn factor_and_check(
    client: &Client,
    a: &[f32],
    batch: usize,
    m: usize,
    n: usize,
    params: &TsqrParams,
    what: &str,
) -> HostQr {
    let shape = [batch, m, n];
    let full = tsqr_host(client, a, &shape, TsqrMode::Reduced, params).expect(what);
    let ronly = tsqr_host(client, a, &shape, TsqrMode::R, params).expect(what);
    assert!(ronly.q.is_none(), "{what}: R mode returned Q");
    assert_eq!(full.r, ronly.r, "{what}: R differs between modes");
    let q = full.q.as_ref().expect("Q");
    for b in 0..batch {
        let ab = &a[b * m * n..(b + 1) * m * n];
        let qb = &q[b * m * n..(b + 1) * m * n];
        let rb = &full.r[b * n * n..(b + 1) * n * n];
        let c = check_qr(ab, Some(qb), rb, m, n);
        assert!(
            c.passes(n),
            "{what} [batch {b}, m={m}, n={n}]: orth {:.3e} (bound {:.3e}), resid {:.3e} (bound {:.3e}), r_lower {:e}, finite {}",
            c.orth,
            orth_bound(n),
            c.resid,
            resid_bound(n),
            c.r_lower,
            c.finite
        );
        assert!(
            c.gram <= 100.0 * n as f64 * f32::EPSILON as f64,
            "{what}: RᵀR far from AᵀA: {:e}",
            c.gram
        );
    }
    full
}

pub fn shapes_straddle_blocks(client: &Client) {
    for &n in &[1usize, 2, 7, 31, 32, 33, 64] {
        let launch = launch_for(client, n, &TsqrParams::default());
        let b = launch.rows_per_block();
        // m = n, one short of a block, a block, one past, ragged multi-block, two tree levels.
        let many = (b / n) * b + 3 * b / 2 + 1;
        for (i, &m) in [n, b - 1, b, b + 1, 2 * b + 3, many].iter().enumerate() {
            let a = generate(MatrixClass::Dense, m, n, 17 + 31 * n as u64 + i as u64);
            factor_and_check(
                client,
                &a,
                1,
                m,
                n,
                &TsqrParams::default(),
                &format!("dense n={n} m={m} b={b}"),
            );
        }
    }
}

pub fn n_above_64(client: &Client) {
    for &n in &[96usize, MAX_COLUMNS] {
        let hw = Hardware::of(client);
        let Some(launch) = TsqrLaunch::new(&hw, n, &TsqrParams::default()) else {
            // The CPU runtime offers 32 KiB of shared memory: n ≤ 64 there. GPUs must run it.
            assert!(
                hw.max_shared_bytes < n * (2 * n + 1) * 4,
                "n = {n} refused on {hw:?}"
            );
            eprintln!(
                "n = {n}: needs {} bytes of shared memory, device has {}",
                n * 2 * n * 4,
                hw.max_shared_bytes
            );
            let a = generate(MatrixClass::Dense, 2 * n, n, 1);
            let err = tsqr_host(client, &a, &[2 * n, n], TsqrMode::R, &TsqrParams::default())
                .unwrap_err();
            assert!(matches!(err, TsqrError::Unsupported { .. }), "{err:?}");
            continue;
        };
        let m = 3 * launch.rows_per_block() + 5;
        let a = generate(MatrixClass::Dense, m, n, 900 + n as u64);
        factor_and_check(
            client,
            &a,
            1,
            m,
            n,
            &TsqrParams::default(),
            &format!("n={n}"),
        );
    }
}

pub fn small_blocks_deep_tree(client: &Client) {
    let hw = Hardware::of(client);
    let lanes = hw.lanes;
    for &(n, m, planes) in &[
        (4usize, 3001usize, 1usize),
        (8, 2000, 2),
        (5, 777, 3),
        (16, 4099, 4),
    ] {
        let rows = (2 * n).div_ceil(lanes) * lanes;
        let planes = planes.min(hw.max_units_per_cube / lanes);
        let params = TsqrParams {
            rows_per_block: Some(rows),
            planes_per_cube: Some(planes),
            top_rows: None,
        };
        assert!(levels(m, n, rows).len() >= 3, "want a deep tree");
        let a = generate(MatrixClass::Dense, m, n, 5000 + m as u64);
        factor_and_check(
            client,
            &a[..2 * (m / 2) * n],
            2,
            m / 2,
            n,
            &params,
            "half batch",
        );
        factor_and_check(
            client,
            &a,
            1,
            m,
            n,
            &params,
            &format!("deep tree n={n} m={m} b={rows} planes={planes}"),
        );
        // A bigger last cube that takes the plain tree's last two levels: exactly the rows of
        // the one before last (ragged, rounded up to whole blocks), and 8 blocks' rows (rows ≤
        // 8n here, so that level has at most rows²/n ≤ 8·rows rows).
        let plain = levels(m, n, rows);
        for top in [plain[plain.len() - 2].rows_in, 8 * rows] {
            let params = TsqrParams {
                top_rows: Some(top),
                ..params
            };
            let launch = TsqrLaunch::new(&hw, n, &params).expect("top block fits");
            let lv = launch.levels(m, n);
            assert!(lv.len() < levels(m, n, rows).len(), "{lv:?}");
            let last = lv[lv.len() - 1];
            assert!(
                last.nblocks == 1 && last.rows >= last.rows_in && last.rows.is_multiple_of(rows)
            );
            factor_and_check(
                client,
                &a,
                1,
                m,
                n,
                &params,
                &format!("deep tree n={n} m={m} b={rows} top={top}"),
            );
        }
    }
}

pub fn conditioning_classes(client: &Client) {
    for &n in &[32usize, 64] {
        let b = launch_for(client, n, &TsqrParams::default()).rows_per_block();
        let m = 4 * b + 13;
        let classes = [
            MatrixClass::Conditioned { kappa: 1e7 },
            MatrixClass::GradedColumns { kappa: 1e7 },
            MatrixClass::RankDeficient { rank: 5 },
            MatrixClass::Clustered,
            MatrixClass::ZeroColumns { first: 3, every: 7 },
            MatrixClass::RankDeficient { rank: 1 },
        ];
        for (i, class) in classes.iter().enumerate() {
            let a = generate(*class, m, n, 70 + i as u64);
            factor_and_check(
                client,
                &a,
                1,
                m,
                n,
                &TsqrParams::default(),
                &format!("{class:?} n={n}"),
            );
        }
        // The all-zero matrix: R = 0 and Q still orthonormal.
        let z = vec![0.0f32; m * n];
        let out = factor_and_check(client, &z, 1, m, n, &TsqrParams::default(), "zero matrix");
        assert!(out.r.iter().all(|&x| x == 0.0), "zero matrix: R not zero");
    }
}

pub fn extreme_scaling(client: &Client) {
    // Sums of squares that under- or overflow f32 take the rescaled norm path.
    let (m, n) = (700, 16);
    for &scale in &[1e-20f32, 1e-30, 1e18, 3e36] {
        let a: Vec<f32> = generate(MatrixClass::Dense, m, n, 31)
            .iter()
            .map(|x| x * scale)
            .collect();
        factor_and_check(
            client,
            &a,
            1,
            m,
            n,
            &TsqrParams::default(),
            &format!("scaled by {scale:e}"),
        );
    }
    let mut a = generate(MatrixClass::Dense, m, n, 32);
    for i in 0..m {
        for j in (1..n).step_by(2) {
            a[i * n + j] *= 1e-22;
        }
    }
    factor_and_check(
        client,
        &a,
        1,
        m,
        n,
        &TsqrParams::default(),
        "columns at 1 and 1e-22",
    );
}

pub fn zero_column_semantics(client: &Client) {
    let n = 8;
    let m = 300;
    let mut a = generate(MatrixClass::Dense, m, n, 4242);
    for i in 0..m {
        a[i * n + 2] = 0.0;
    }
    let out = factor_and_check(client, &a, 1, m, n, &TsqrParams::default(), "zero column");
    // R's column 2 is zero on and below the diagonal.
    for i in 2..n {
        assert_eq!(out.r[i * n + 2], 0.0, "R[{i}][2]");
    }
}

pub fn batched_independent(client: &Client) {
    let n = 32;
    let b = launch_for(client, n, &TsqrParams::default()).rows_per_block();
    let m = 3 * b + 7;
    let classes = [
        MatrixClass::Dense,
        MatrixClass::Conditioned { kappa: 1e6 },
        MatrixClass::RankDeficient { rank: 3 },
        MatrixClass::GradedColumns { kappa: 1e5 },
        MatrixClass::Clustered,
    ];
    let a = batch_of(&classes, m, n, 99);
    let batched = factor_and_check(
        client,
        &a,
        classes.len(),
        m,
        n,
        &TsqrParams::default(),
        "batch",
    );
    // Each element alone gives the same bits: batch elements do not interact.
    for i in 0..classes.len() {
        let one = tsqr_host(
            client,
            &a[i * m * n..(i + 1) * m * n],
            &[m, n],
            TsqrMode::Reduced,
            &TsqrParams::default(),
        )
        .unwrap();
        assert_eq!(
            one.r,
            batched.r[i * n * n..(i + 1) * n * n],
            "R of element {i}"
        );
        assert_eq!(
            one.q.unwrap(),
            batched.q.as_ref().unwrap()[i * m * n..(i + 1) * m * n],
            "Q of element {i}"
        );
    }
    // Many small matrices in one launch per level.
    let many = 300;
    let a = batch_of(&vec![MatrixClass::Dense; many], 40, 7, 3);
    factor_and_check(
        client,
        &a,
        many,
        40,
        7,
        &TsqrParams::default(),
        "batch of 300",
    );
}

pub fn matches_f64_reference(client: &Client) {
    let (m, n) = (1500, 24);
    let a = generate(MatrixClass::Conditioned { kappa: 1e3 }, m, n, 12);
    let out = tsqr_host(client, &a, &[m, n], TsqrMode::R, &TsqrParams::default()).unwrap();
    let a64: Vec<f64> = a.iter().map(|&x| x as f64).collect();
    let (_, r_ref) = householder_qr(&a64, m, n);
    // R is unique up to the sign of each row.
    for i in 0..n {
        let s = if (out.r[i * n + i] as f64) * r_ref[i * n + i] < 0.0 {
            -1.0
        } else {
            1.0
        };
        for j in i..n {
            let d = (s * out.r[i * n + j] as f64 - r_ref[i * n + j]).abs();
            assert!(
                d <= 1e-4 * r_ref[i * n + i].abs().max(1.0),
                "R[{i}][{j}]: {} vs {}",
                out.r[i * n + j],
                r_ref[i * n + j]
            );
        }
    }
}

pub fn errors(client: &Client) {
    let p = TsqrParams::default();
    let a = generate(MatrixClass::Dense, 64, 4, 1);
    let h = client.create_from_slice(f32::as_bytes(&a));
    let e = |shape: &[usize]| tsqr(client, &h, shape, TsqrMode::Reduced, &p).unwrap_err();
    assert!(matches!(e(&[256]), TsqrError::WrongRank { rank: 1 }));
    assert!(matches!(
        e(&[1, 1, 64, 4]),
        TsqrError::WrongRank { rank: 4 }
    ));
    assert!(matches!(e(&[4, 64]), TsqrError::WideMatrix { m: 4, n: 64 }));
    let msg = e(&[4, 64]).to_string();
    assert!(
        msg.contains("geqrf"),
        "wide-matrix error should say what to use: {msg}"
    );
    assert!(matches!(e(&[64, 0]), TsqrError::Empty { .. }));
    assert!(matches!(e(&[0, 64, 4]), TsqrError::Empty { .. }));
    assert!(matches!(
        e(&[200, MAX_COLUMNS + 1]),
        TsqrError::TooManyColumns { .. }
    ));
    assert!(matches!(
        e(&[70_000, 70_000, 1]),
        TsqrError::IndexOverflow { .. }
    ));
    assert!(matches!(e(&[2, 64, 4]), TsqrError::BufferTooSmall { .. }));
    let bad = TsqrParams {
        rows_per_block: Some(6),
        planes_per_cube: None,
        top_rows: None,
    };
    assert!(matches!(
        tsqr(client, &h, &[64, 4], TsqrMode::R, &bad).unwrap_err(),
        TsqrError::Unsupported { .. }
    ));
    // A last cube smaller than the others.
    let bad = TsqrParams {
        rows_per_block: Some(64),
        planes_per_cube: None,
        top_rows: Some(32),
    };
    assert!(matches!(
        tsqr(client, &h, &[64, 4], TsqrMode::R, &bad).unwrap_err(),
        TsqrError::Unsupported { .. }
    ));
    let bad = TsqrParams {
        rows_per_block: None,
        planes_per_cube: Some(100_000),
        top_rows: None,
    };
    assert!(matches!(
        tsqr(client, &h, &[64, 4], TsqrMode::R, &bad).unwrap_err(),
        TsqrError::Unsupported { .. }
    ));
    assert!(matches!(
        tsqr_host(client, &a[..10], &[64, 4], TsqrMode::R, &p).unwrap_err(),
        TsqrError::DataLength { .. }
    ));
    // Non-finite input is reported per batch element, in both modes.
    let (m, n) = (300, 5);
    for (bad_val, mode) in [
        (f32::NAN, TsqrMode::Reduced),
        (f32::INFINITY, TsqrMode::R),
        (f32::NEG_INFINITY, TsqrMode::Reduced),
    ] {
        let mut a = batch_of(&[MatrixClass::Dense; 3], m, n, 8);
        a[m * n + 277 * n + 3] = bad_val;
        match tsqr_host(client, &a, &[3, m, n], mode, &p) {
            Err(TsqrError::NonFinite { batches }) => assert_eq!(batches, vec![1]),
            other => panic!("{bad_val} in batch 1: expected NonFinite, got {other:?}"),
        }
    }
}

macro_rules! testgen {
    ($name:ident, $device:expr) => {
        mod $name {
            use super::*;
            fn client() -> Client {
                let device = $device;
                let client = device.client();
                eprintln!("runtime {}: {:?}", stringify!($name), Hardware::of(&client));
                client
            }
            #[test]
            fn shapes_straddle_blocks() {
                super::shapes_straddle_blocks(&client());
            }
            #[test]
            fn n_above_64() {
                super::n_above_64(&client());
            }
            #[test]
            fn small_blocks_deep_tree() {
                super::small_blocks_deep_tree(&client());
            }
            #[test]
            fn conditioning_classes() {
                super::conditioning_classes(&client());
            }
            #[test]
            fn extreme_scaling() {
                super::extreme_scaling(&client());
            }
            #[test]
            fn zero_column_semantics() {
                super::zero_column_semantics(&client());
            }
            #[test]
            fn batched_independent() {
                super::batched_independent(&client());
            }
            #[test]
            fn matches_f64_reference() {
                super::matches_f64_reference(&client());
            }
            #[test]
            fn errors() {
                super::errors(&client());
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
