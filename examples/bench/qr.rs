//! Blocked-QR cases of the benchmark: geqrf on the GPU MODE qr_v2 set (and 1×8192², 32×512²,
//! 1×4096²), householder_product and qr(reduced) on the square cases, and the TSQR/geqrf
//! crossover of qr() on tall shapes (same JSON records as the other cases).
use super::Record;
use super::chol::Bench;
use cubecl::prelude::*;
use linalg_common::gemm::{BIG_TILES, GemmKernel};
use linalg_common::gemm_tc::TC_DEFAULT;
use linalg_common::reference::{check_qr, norm1, q_from_reflectors};
use linalg_common::rng::uniform_vec;
use qr_kernels::geqrf::GPU_TSQR_PANEL_PARAMS;
use qr_kernels::tsqr::TsqrParams;
use qr_kernels::{MatrixRef, QrMode, QrParams, geqrf, householder_product, qr};
use qrchol::timing::measure;

/// (batch, n) of the square qr_v2 cases, then extra cases.
fn square_cases(quick: bool) -> Vec<(usize, usize)> {
    if quick {
        return vec![(20, 32), (640, 512), (1, 4096)];
    }
    vec![
        (20, 32),
        (40, 176),
        (40, 352),
        (640, 512),
        (60, 1024),
        (8, 2048),
        (2, 4096),
        (1, 8192),
        (32, 512),
        (1, 4096),
    ]
}

/// Accuracy of matrix 0 of a geqrf result: (‖QᵀQ − I‖₁, ‖A − QR‖₁/‖A‖₁) with Q rebuilt on the
/// host in f64.
fn geqrf_check(a: &[f32], h: &[f32], tau: &[f32], n: usize) -> (f64, f64) {
    let q = q_from_reflectors(&h[..n * n], &tau[..n], n, n, n);
    let r: Vec<f64> = (0..n * n)
        .map(|x| if x % n >= x / n { h[x] as f64 } else { 0.0 })
        .collect();
    let qr = linalg_common::reference::matmul(&q, &r, n, n, n);
    let a64: Vec<f64> = a[..n * n].iter().map(|&x| x as f64).collect();
    let d: Vec<f64> = a64.iter().zip(&qr).map(|(x, y)| x - y).collect();
    (orth_error(&q, n), norm1(&d, n, n) / norm1(&a64, n, n))
}

/// ‖QᵀQ − I‖₁ of an n × n matrix.
fn orth_error(q: &[f64], n: usize) -> f64 {
    let qt: Vec<f64> = (0..n * n).map(|x| q[(x % n) * n + x / n]).collect();
    let mut g = linalg_common::reference::matmul(&qt, q, n, n, n);
    for i in 0..n {
        g[i * n + i] -= 1.0;
    }
    norm1(&g, n, n)
}

/// The QR sweeps' square shapes (batch, n).
const SWEEP_SHAPES: [(usize, usize); 7] = [
    (1, 1024),
    (1, 4096),
    (1, 8192),
    (2, 4096),
    (8, 2048),
    (60, 1024),
    (32, 512),
];

/// Print a sweep's header (the row-label column, one column per square shape (batch, n), then
/// `tail`) and return its seeded inputs.
fn sweep_start(label: &str, width: usize, shapes: &[(usize, usize)], tail: &str) -> Vec<Vec<f32>> {
    print!("{label:<width$}");
    for (b, n) in shapes {
        print!(" {:>10}", format!("{b}x{n}²"));
    }
    println!("{tail}");
    shapes
        .iter()
        .map(|&(b, n)| uniform_vec(3, b * n * n))
        .collect()
}

/// One cell of a sweep row: the median ms of `run`, or "-" where the parameters are refused
/// (`ok` false).
fn sweep_cell(ctx: &Bench, ok: bool, run: impl FnMut()) {
    if ok {
        let (d, w) = measure(ctx.client, ctx.samples, 0.05, run);
        print!(" {:>10.3}", d.unwrap_or(w) * 1e3);
    } else {
        print!(" {:>10}", "-");
    }
}

#[allow(clippy::too_many_arguments)]
fn record(
    ctx: &Bench,
    name: String,
    op: &str,
    mode: &str,
    (batch, m, n): (usize, usize, usize),
    seed: u64,
    checksum: f64,
    (dev_t, wall_t): (Option<f64>, f64),
    flops: f64,
    acc: Option<(f64, f64)>,
) -> Record {
    let t = dev_t.unwrap_or(wall_t);
    let k = m.min(n);
    let passes = acc.map(|(o, r)| {
        o <= linalg_common::reference::orth_bound(k)
            && r <= linalg_common::reference::resid_bound(k)
    });
    Record {
        name,
        op: op.into(),
        mode: mode.into(),
        batch,
        m,
        n,
        seed,
        checksum,
        device: ctx.kind.to_string(),
        ours_ms: t * 1e3,
        ours_wall_ms: wall_t * 1e3,
        launches: 0,
        rows_per_block: 0,
        rhs: 0,
        gbps: (2 * batch * m * n * 4) as f64 / t / 1e9,
        gflops: flops / t / 1e9,
        orth: acc.map(|a| a.0),
        resid: acc.map(|a| a.1),
        passes,
    }
}

pub fn qr_benches(ctx: &Bench, quick: bool) -> Vec<Record> {
    let client = ctx.client;
    let p = QrParams {
        tsqr_panel_rows: ctx.qr_tsqr_rows,
        panel_regs: ctx.qr_panel_regs,
        outer_block: ctx.qr_outer,
        panel_rows: ctx.qr_panel_rows,
        apply_block: ctx.qr_apply_block,
        split_matrices: ctx.qr_split_matrices,
        split_chunk: ctx.qr_split_chunk,
        split_per_sm: ctx.qr_split_per_sm,
        gemm_big: ctx.qr_big_gemm,
        gemm_thin: ctx.qr_thin_gemm,
        recon_top_rows: ctx.qr_recon_top_rows,
        panel_grid: ctx.qr_panel_grid,
        panel_grid_tall: ctx.qr_panel_grid_tall,
        lookahead: ctx.qr_lookahead,
        lookahead_strips: ctx.qr_lookahead_strips,
        grid_staged_sums: ctx.qr_grid_staged,
        product_regs: ctx.qr_product,
        panel_pairs: ctx.qr_panel_pairs,
        panel_segs: ctx.qr_panel_segs,
        grid_poll_all: ctx.qr_grid_poll_all,
        product_config: ctx.qr_product_shape,
        product_slices: ctx.qr_product_slices,
        tsqr_panel_params: ctx.qr_tsqr_top.map(|top| TsqrParams {
            top_rows: Some(top),
            ..GPU_TSQR_PANEL_PARAMS
        }),
        ..QrParams::default()
    };
    let mut out = Vec::new();
    for (i, (batch, n)) in square_cases(quick).into_iter().enumerate() {
        let seed = 9000 + i as u64;
        let a = uniform_vec(seed, batch * n * n);
        let checksum: f64 = a.iter().map(|&x| x as f64).sum();
        let ha = client.create_from_slice(f32::as_bytes(&a));
        let am = MatrixRef::dense(&ha, batch, n, n);
        let nf = n as f64;
        let geqrf_flops = batch as f64 * 4.0 / 3.0 * nf * nf * nf;
        let shape = (batch, n, n);
        // geqrf
        let name = format!("geqrf {batch}x{n}x{n}");
        if super::wanted(&name, ctx.filter) {
            let first = geqrf(client, am, &p)
                .expect("geqrf")
                .read(client)
                .expect("read");
            let acc = (n <= 1024).then(|| geqrf_check(&a, &first.h, &first.tau, n));
            let t = measure(client, ctx.samples, 0.05, || {
                let _ = geqrf(client, am, &p).expect("geqrf");
            });
            let rec = record(
                ctx,
                name,
                "geqrf",
                "",
                shape,
                seed,
                checksum,
                t,
                geqrf_flops,
                acc,
            );
            super::print_row(&rec);
            out.push(rec);
        }
        // householder_product on geqrf's output
        let name = format!("orgqr {batch}x{n}x{n}");
        if super::wanted(&name, ctx.filter) {
            let f = geqrf(client, am, &p).expect("geqrf");
            let t = measure(client, ctx.samples, 0.05, || {
                let _ = householder_product(client, f.h_ref(), f.tau_ref(), &p).expect("orgqr");
            });
            let rec = record(
                ctx,
                name,
                "orgqr",
                "",
                shape,
                seed,
                checksum,
                t,
                geqrf_flops,
                None,
            );
            super::print_row(&rec);
            out.push(rec);
        }
        // qr(reduced)
        let name = format!("qr reduced {batch}x{n}x{n}");
        if super::wanted(&name, ctx.filter) {
            let first = qr(client, am, QrMode::Reduced, &p)
                .expect("qr")
                .read(client)
                .expect("read");
            let acc = (n <= 1024).then(|| {
                let c = check_qr(
                    &a[..n * n],
                    Some(&first.q.as_ref().unwrap()[..n * n]),
                    &first.r[..n * n],
                    n,
                    n,
                );
                (c.orth, c.resid)
            });
            let t = measure(client, ctx.samples, 0.05, || {
                let _ = qr(client, am, QrMode::Reduced, &p).expect("qr");
            });
            let rec = record(
                ctx,
                name,
                "qr",
                "reduced",
                shape,
                seed,
                checksum,
                t,
                2.0 * geqrf_flops,
                acc,
            );
            super::print_row(&rec);
            out.push(rec);
        }
    }
    out
}

/// qr(reduced) on tall shapes with the TSQR path forced on and off (the crossover table).
pub fn qr_crossover(ctx: &Bench) {
    let client = ctx.client;
    println!(
        "{:<28} {:>12} {:>12} {:>8}",
        "shape", "tsqr ms", "geqrf ms", "geqrf/tsqr"
    );
    for &(batch, m, n) in &[
        (1usize, 4096usize, 32usize),
        (1, 16384, 32),
        (1, 131072, 32),
        (1, 1024, 64),
        (1, 4096, 64),
        (1, 32768, 64),
        (1, 1024, 128),
        (1, 8192, 128),
        (1, 65536, 128),
        (64, 512, 32),
        (64, 2048, 64),
        (16, 1024, 128),
        (256, 256, 32),
        (1, 128, 128),
        (1, 256, 128),
        (1, 512, 128),
        (32, 64, 64),
        (32, 128, 64),
        (32, 256, 64),
        (128, 32, 32),
        (128, 64, 32),
    ] {
        let a = uniform_vec(7, batch * m * n);
        let ha = client.create_from_slice(f32::as_bytes(&a));
        let am = MatrixRef::dense(&ha, batch, m, n);
        let mut ts = Vec::new();
        for tsqr_on in [true, false] {
            let p = QrParams {
                tsqr_max_cols: Some(if tsqr_on { 128 } else { 0 }),
                tsqr_min_ratio: Some(1),
                ..QrParams::default()
            };
            let (d, w) = measure(client, ctx.samples, 0.05, || {
                let _ = qr(client, am, QrMode::Reduced, &p).expect("qr");
            });
            ts.push(d.unwrap_or(w) * 1e3);
        }
        println!(
            "{:<28} {:>12.4} {:>12.4} {:>8.2}",
            format!("{batch}x{m}x{n}"),
            ts[0],
            ts[1],
            ts[1] / ts[0]
        );
    }
}

/// geqrf over panel widths, the TSQR-panel threshold (`tsqr_panel_rows`; "off": the
/// one-cube panel only) and the panel kernel's row groups on a few shapes, with the accuracy
/// of 1×1024² (printed only).
pub fn qr_sweep(ctx: &Bench) {
    let client = ctx.client;
    let shapes = SWEEP_SHAPES;
    let inputs = sweep_start(
        "panel x tsqr rows g tc",
        26,
        &shapes,
        &format!(
            " {:>9} {:>9}   (geqrf ms; accuracy of 1x1024²)",
            "orth", "resid"
        ),
    );
    let handles: Vec<_> = inputs
        .iter()
        .map(|a| client.create_from_slice(f32::as_bytes(a)))
        .collect();
    // (panel, tsqr_panel_rows, row groups of the panel kernels (0: the default), the GEMM of
    // updates of at least 1024 rows and columns ("": the default 64×64 SIMT tiles, "b128":
    // 128×128 SIMT tiles, "tc": 3×TF32 on tensor cores), Vᵀ·C of 32-column panels on the
    // 32×128 tiles, the register panel kernel, outer blocks (0: none), rows of the TSQR
    // panels' last cube (0: the default)).
    let configs = [
        (32usize, 256usize, 0usize, "", true, true, 0usize, 0usize),
        (32, 256, 0, "", true, true, 0, 256),
        (32, 256, 0, "", true, true, 0, 512),
        (32, 256, 0, "", true, true, 0, 1024),
        (32, 256, 16, "", true, true, 0, 512),
        (32, 256, 0, "", true, true, 128, 0),
        (32, 256, 0, "b128", true, true, 128, 0),
        (64, 256, 0, "", true, true, 0, 0),
        (64, 256, 0, "", true, true, 0, 256),
    ];
    for (panel, rows, groups, big, thin, regs, outer, top) in configs {
        let p = QrParams {
            panel: Some(panel),
            tsqr_panel_rows: Some(rows),
            panel_rows: (groups > 0).then_some(groups),
            gemm_big: match big {
                "tc" => Some(GemmKernel::Tf32x3(TC_DEFAULT)),
                "b128" => Some(GemmKernel::Simt(BIG_TILES)),
                _ => None,
            },
            thin_tiles: Some(thin),
            panel_regs: Some(regs),
            outer_block: Some(outer),
            tsqr_panel_params: (top > 0).then_some(TsqrParams {
                top_rows: Some(top),
                ..GPU_TSQR_PANEL_PARAMS
            }),
            ..QrParams::default()
        };
        let mut label = match rows {
            usize::MAX => "off".to_string(),
            r => r.to_string(),
        };
        if groups > 0 {
            label += &format!(" g{groups}");
        }
        if !big.is_empty() {
            label += &format!(" {big}");
        }
        if !thin {
            label += " nothin";
        }
        if !regs {
            label += " noregs";
        }
        if outer > 0 {
            label += &format!(" ob{outer}");
        }
        if top > 0 {
            label += &format!(" top{top}");
        }
        print!("{:<26}", format!("{panel} x {label}"));
        for (&(b, n), h) in shapes.iter().zip(&handles) {
            let am = MatrixRef::dense(h, b, n, n);
            sweep_cell(ctx, geqrf(client, am, &p).is_ok(), || {
                let _ = geqrf(client, am, &p).expect("geqrf");
            });
        }
        let n = shapes[0].1;
        let am = MatrixRef::dense(&handles[0], 1, n, n);
        let f = geqrf(client, am, &p)
            .expect("geqrf")
            .read(client)
            .expect("read");
        let (o, r) = geqrf_check(&inputs[0], &f.h, &f.tau, n);
        println!(" {o:>9.2e} {r:>9.2e}");
    }
}

/// householder_product over the block width of the given-reflector path (`apply_block`) and
/// the row threshold of that path (`tsqr_panel_rows`; "off": the panel kernel's blocks), with
/// the 64×64 or the 128×128 GEMM tiles for the big updates, on geqrf's output of a few shapes;
/// with ‖QᵀQ − I‖₁ and the largest difference from Q formed on the host of 1×1024² (printed
/// only).
pub fn orgqr_sweep(ctx: &Bench) {
    use linalg_common::gemm::BIG_TILES;
    let client = ctx.client;
    let shapes: Vec<_> = SWEEP_SHAPES
        .into_iter()
        .chain([(40, 352), (40, 176)])
        .collect();
    let inputs = sweep_start(
        "block rows tiles",
        22,
        &shapes,
        &format!(
            " {:>9} {:>9}   (orgqr ms; accuracy of 1x1024²)",
            "orth", "vs host"
        ),
    );
    let factors: Vec<_> = shapes
        .iter()
        .zip(&inputs)
        .map(|(&(b, n), a)| {
            let h = client.create_from_slice(f32::as_bytes(a));
            geqrf(client, MatrixRef::dense(&h, b, n, n), &QrParams::default()).expect("geqrf")
        })
        .collect();
    let n0 = shapes[0].1;
    let f0 = factors[0].clone().read(client).expect("read");
    let q_host = q_from_reflectors(&f0.h[..n0 * n0], &f0.tau[..n0], n0, n0, n0);
    // (apply_block (0: the default), tsqr_panel_rows (0: the default), 128×128 big tiles).
    let configs = [
        (0usize, 0usize, false),
        (64, 0, false),
        (128, 0, false),
        (128, 0, true),
        (256, 0, false),
        (64, 256, false),
        (32, 256, false),
        (0, usize::MAX, false),
    ];
    for (block, rows, big) in configs {
        let p = QrParams {
            apply_block: (block > 0).then_some(block),
            tsqr_panel_rows: (rows > 0).then_some(rows),
            gemm_big: big.then_some(GemmKernel::Simt(BIG_TILES)),
            ..QrParams::default()
        };
        let label = format!(
            "{} {} {}",
            if block > 0 {
                block.to_string()
            } else {
                "def".into()
            },
            match rows {
                0 => "def".to_string(),
                usize::MAX => "off".to_string(),
                r => r.to_string(),
            },
            if big { "128x128" } else { "64x64" }
        );
        print!("{label:<22}");
        for f in &factors {
            let ok = householder_product(client, f.h_ref(), f.tau_ref(), &p).is_ok();
            sweep_cell(ctx, ok, || {
                let _ = householder_product(client, f.h_ref(), f.tau_ref(), &p).expect("orgqr");
            });
        }
        let q = householder_product(client, factors[0].h_ref(), factors[0].tau_ref(), &p)
            .expect("orgqr")
            .read(client)
            .expect("read")
            .data;
        let q64: Vec<f64> = q.iter().map(|&x| x as f64).collect();
        let diff = q64
            .iter()
            .zip(&q_host)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, linalg_common::reference::max_nan);
        println!(" {:>9.2e} {diff:>9.2e}", orth_error(&q64, n0));
    }
}
