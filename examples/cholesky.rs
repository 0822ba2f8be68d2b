//! Cholesky on the default device (CUDA when present, else the CPU runtime): factor a batch of
//! SPD matrices, solve with the factor, and check both against f64 host references.
//!
//! cargo run --release --example cholesky -- [--n 512] [--batch 4] [--rhs 16] [--upper]
//!                                            [--device cuda|cpu] [--seed 1] [--samples 10]
use cholesky_kernels::{CholeskyParams, MatrixRef, cholesky_solve, potrf};
use cubecl::prelude::*;
use linalg_common::matgen::spd_from_factor;
use linalg_common::reference::{cholesky_bound, cholesky_residual};
use linalg_common::rng::uniform_vec;
use qrchol::cli::{Args, device};
use qrchol::timing::measure;

const USAGE: &str = "cholesky [--n 512] [--batch 4] [--rhs 16] [--upper] [--kappa 1e4] [--device cuda|cuda:N|cpu|wgpu] [--seed 1] [--samples 10]";

fn main() {
    let args = Args::parse(USAGE);
    let (n, batch, k) = (
        args.num("n", 512usize),
        args.num("batch", 4usize),
        args.num("rhs", 16usize),
    );
    let (upper, kappa, seed) = (
        args.flag("upper"),
        args.num("kappa", 1e4f64),
        args.num("seed", 1u64),
    );
    let dev = device(&args);
    let client = dev.client();
    println!(
        "cholesky of {batch} SPD {n}×{n} matrices (cond ≈ {kappa:.0e}), {} factor, on {}",
        if upper { "upper" } else { "lower" },
        linalg_common::device::device_kind(&dev)
    );
    let mut a = Vec::with_capacity(batch * n * n);
    for b in 0..batch {
        a.extend(spd_from_factor(n, kappa, seed * 1000 + b as u64).0);
    }
    let ha = client.create_from_slice(f32::as_bytes(&a));
    let am = MatrixRef::dense(&ha, batch, n, n);
    let params = CholeskyParams::default();
    let out = potrf(&client, am, upper, &params).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    let lh = out.l.clone();
    let host = out.read(&client).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(1)
    });
    let mut worst = 0.0f64;
    for b in 0..batch {
        let s = b * n * n..(b + 1) * n * n;
        let (r, zero, finite) = cholesky_residual(&a[s.clone()], &host.l[s], n, upper);
        assert!(
            zero && finite,
            "matrix {b}: factor not triangular or not finite"
        );
        worst = worst.max(r);
    }
    let bad: Vec<_> = host
        .info
        .iter()
        .enumerate()
        .filter(|(_, i)| **i != 0)
        .collect();
    println!(
        "‖A − LLᵀ‖₁/‖A‖₁ = {worst:.2e} (gate {:.2e}) {}; info ≠ 0: {bad:?}",
        cholesky_bound(n),
        if worst <= cholesky_bound(n) {
            "ok"
        } else {
            "FAIL"
        }
    );
    let rhs = uniform_vec(seed + 7, batch * n * k);
    let hb = client.create_from_slice(f32::as_bytes(&rhs));
    let bm = MatrixRef::dense(&hb, batch, n, k);
    let lm = MatrixRef::dense(&lh, batch, n, n);
    let x = cholesky_solve(&client, bm, lm, upper, &params)
        .and_then(|o| o.read(&client))
        .expect("solve");
    // ‖A·X − B‖₁ / (‖A‖₁‖X‖₁ + ‖B‖₁) for matrix 0, in f64.
    let (a0, x0, b0) = (&a[..n * n], &x.x[..n * k], &rhs[..n * k]);
    let ax: Vec<f64> = (0..n * k)
        .map(|idx| {
            (0..n)
                .map(|p| a0[(idx / k) * n + p] as f64 * x0[p * k + idx % k] as f64)
                .sum()
        })
        .collect();
    let norm1 = |v: &[f64], r: usize, c: usize| linalg_common::reference::norm1(v, r, c);
    let d: Vec<f64> = ax.iter().zip(b0).map(|(p, q)| p - *q as f64).collect();
    let f = |v: &[f32]| v.iter().map(|x| *x as f64).collect::<Vec<_>>();
    let rel = norm1(&d, n, k) / (norm1(&f(a0), n, n) * norm1(&f(x0), n, k) + norm1(&f(b0), n, k));
    println!("cholesky_solve with {k} right-hand sides: ‖AX − B‖ relative {rel:.2e}");
    let samples = args.num("samples", 10usize);
    let (d, w) = measure(&client, samples, 0.05, || {
        let _ = potrf(&client, am, upper, &params).expect("potrf");
    });
    let t = d.unwrap_or(w);
    println!(
        "potrf: {:.4} ms per call ({:.1} GFLOP/s)",
        t * 1e3,
        batch as f64 * (n as f64).powi(3) / 3.0 / t / 1e9
    );
    if worst > cholesky_bound(n) || !bad.is_empty() {
        std::process::exit(1);
    }
}
