//! Blocked QR on the default device (CUDA when present, else the CPU runtime): geqrf of a batch
//! in LAPACK's (H, τ) form, Q rebuilt with householder_product, qr(mode), all checked against
//! the GPU MODE qr_v2 gates in f64 on the host.
//!
//! cargo run --release --example qr -- [--m 512] [--n 512] [--batch 4] [--kappa 1e4]
//!                                      [--device cuda|cpu] [--seed 1] [--samples 10]
use cubecl::prelude::*;
use linalg_common::matgen::{MatrixClass, generate};
use linalg_common::reference::{
    check_qr, matmul, norm1, orth_bound, q_from_reflectors, resid_bound,
};
use qr_kernels::{MatrixRef, QrMode, QrParams, geqrf, householder_product, qr};
use qrchol::cli::{Args, device};
use qrchol::timing::measure;

const USAGE: &str = "qr [--m 512] [--n 512] [--batch 4] [--kappa 1e4] [--device cuda|cuda:N|cpu|wgpu] [--seed 1] [--samples 10]";

fn fail(e: impl std::fmt::Display) -> ! {
    eprintln!("error: {e}");
    std::process::exit(1)
}

fn main() {
    let args = Args::parse(USAGE);
    let (m, n, batch) = (
        args.num("m", 512usize),
        args.num("n", 512usize),
        args.num("batch", 4usize),
    );
    let (kappa, seed) = (args.num("kappa", 1e4f64), args.num("seed", 1u64));
    let dev = device(&args);
    let client = dev.client();
    let k = m.min(n);
    println!(
        "geqrf of {batch} matrices {m}×{n} (cond {kappa:.0e}) on {}",
        linalg_common::device::device_kind(&dev)
    );
    let a: Vec<f32> = (0..batch)
        .flat_map(|b| {
            generate(
                MatrixClass::Conditioned { kappa },
                m,
                n,
                seed * 1000 + b as u64,
            )
        })
        .collect();
    let ha = client.create_from_slice(f32::as_bytes(&a));
    let am = MatrixRef::dense(&ha, batch, m, n);
    let params = QrParams::default();
    let f = geqrf(&client, am, &params).unwrap_or_else(|e| fail(e));
    let q = householder_product(&client, f.h_ref(), f.tau_ref(), &params)
        .and_then(|q| q.read(&client))
        .map(|q| q.data);
    let host = f.clone().read(&client).unwrap_or_else(|e| fail(e));
    // Q from (H, τ) two ways (our householder_product when m ≥ n, and in f64 on the host),
    // R = triu(H); the qr_v2 gates on every matrix.
    let (mut orth, mut resid) = (0.0f64, 0.0f64);
    for b in 0..batch {
        let hb = &host.h[b * m * n..(b + 1) * m * n];
        let tb = &host.tau[b * k..(b + 1) * k];
        let qh = q_from_reflectors(hb, tb, m, n, k);
        let r: Vec<f64> = (0..k * n)
            .map(|x| if x % n >= x / n { hb[x] as f64 } else { 0.0 })
            .collect();
        let qt: Vec<f64> = (0..k * m).map(|x| qh[(x % m) * k + x / m]).collect();
        let mut g = matmul(&qt, &qh, k, m, k);
        for i in 0..k {
            g[i * k + i] -= 1.0;
        }
        let ab: Vec<f64> = a[b * m * n..(b + 1) * m * n]
            .iter()
            .map(|&x| x as f64)
            .collect();
        let d: Vec<f64> = matmul(&qh, &r, m, k, n)
            .iter()
            .zip(&ab)
            .map(|(x, y)| x - y)
            .collect();
        orth = orth.max(norm1(&g, k, k));
        resid = resid.max(norm1(&d, m, n) / norm1(&ab, m, n));
        if let Ok(q) = &q {
            let c = check_qr(
                &a[b * m * n..(b + 1) * m * n],
                Some(&q[b * m * n..(b + 1) * m * n]),
                &r.iter().map(|&x| x as f32).collect::<Vec<_>>(),
                m,
                n,
            );
            orth = orth.max(c.orth);
        }
    }
    let ok = orth <= orth_bound(k) && resid <= resid_bound(k);
    println!(
        "‖QᵀQ − I‖₁ = {orth:.2e} (gate {:.2e}), ‖A − QR‖₁/‖A‖₁ = {resid:.2e} (gate {:.2e}): {}",
        orth_bound(k),
        resid_bound(k),
        if ok { "ok" } else { "FAIL" }
    );
    let samples = args.num("samples", 10usize);
    let nf = n as f64;
    let mf = m as f64;
    let flops = batch as f64 * (2.0 * mf * nf * nf - 2.0 * nf * nf * nf / 3.0).max(0.0);
    for (name, mode) in [("geqrf", None), ("qr reduced", Some(QrMode::Reduced))] {
        let (d, w) = measure(&client, samples, 0.05, || match mode {
            None => drop(geqrf(&client, am, &params).expect("geqrf")),
            Some(mode) => drop(qr(&client, am, mode, &params).expect("qr")),
        });
        let t = d.unwrap_or(w);
        println!(
            "{name}: {:.4} ms per call ({:.1} GFLOP/s, geqrf flop count)",
            t * 1e3,
            flops / t / 1e9
        );
    }
    if !ok {
        std::process::exit(1);
    }
}
