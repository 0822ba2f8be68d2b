//! The seed experiment (shared/seeds/000): QR of a tall-skinny matrix (32768×32 by default) by
//! TSQR on the default device (CUDA when present, else the CPU runtime).
//!
//! cargo run --release --example tsqr -- [--m 32768] [--n 32] [--batch 1] [--device cuda|cpu]
//!                                        [--mode reduced|r] [--seed 1] [--samples 10]
//! Prints ‖QᵀQ − I‖₁ and ‖A − QR‖₁/‖A‖₁ (f64, against the qr_v2 bounds), the time, and the
//! achieved GB/s (A read once, Q written once) and GFLOP/s (geqrf + orgqr flop counts).
use cubecl::prelude::*;
use linalg_common::reference::{check_qr_batch, orth_bound, resid_bound};
use linalg_common::rng::uniform_vec;
use qr_kernels::tsqr::{TsqrLaunch, TsqrMode, TsqrParams, tsqr};
use qrchol::cli::{Args, device};
use qrchol::timing::measure;

const USAGE: &str = "tsqr [--m 32768] [--n 32] [--batch 1] [--device cuda|cuda:N|cpu|wgpu] [--mode reduced|r] [--seed 1] [--samples 10] [--rows-per-block B] [--planes P] [--top-rows T]";

fn main() {
    let args = Args::parse(USAGE);
    let (m, n, batch) = (
        args.num("m", 32768usize),
        args.num("n", 32usize),
        args.num("batch", 1usize),
    );
    let mode = match args.get("mode").unwrap_or("reduced") {
        "reduced" => TsqrMode::Reduced,
        "r" => TsqrMode::R,
        other => {
            eprintln!("--mode: {other:?} is not reduced or r");
            std::process::exit(2)
        }
    };
    let params = TsqrParams {
        rows_per_block: args
            .get("rows-per-block")
            .map(|_| args.num("rows-per-block", 0)),
        planes_per_cube: args.get("planes").map(|_| args.num("planes", 0)),
        top_rows: args.get("top-rows").map(|_| args.num("top-rows", 0)),
    };
    let dev = device(&args);
    let client = dev.client();
    let hw = linalg_common::launch::Hardware::of(&client);
    println!(
        "device: {} ({:?}); plane lanes {}, max units/cube {}",
        linalg_common::device::device_kind(&dev),
        dev,
        hw.lanes,
        hw.max_units_per_cube
    );

    let a = uniform_vec(args.num("seed", 1u64), batch * m * n);
    let handle = client.create_from_slice(f32::as_bytes(&a));
    let shape = [batch, m, n];
    let out = match tsqr(&client, &handle, &shape, mode, &params) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    };
    let launch = TsqrLaunch::new(&hw, n, &params).expect("validated above");
    let lv = launch.levels(m, n);
    println!(
        "TSQR {batch}×{m}×{n} mode={mode}: {} rows/block, {} planes × {} lanes per cube, {} tree levels ({} launches)",
        launch.rows_per_block(),
        launch.planes_per_cube(),
        launch.lanes(),
        lv.len(),
        if mode == TsqrMode::Reduced {
            2 * lv.len()
        } else {
            lv.len()
        }
    );
    let host = match out.read(&client) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    };

    // Accuracy, per batch element (worst reported).
    let (worst_orth, worst_resid, ok) =
        check_qr_batch(&a, host.q.as_deref(), &host.r, batch.min(8), m, n);
    if mode == TsqrMode::Reduced {
        println!(
            "‖QᵀQ − I‖₁          = {worst_orth:.3e}   (bound 100·n·ε = {:.3e})",
            orth_bound(n)
        );
        println!(
            "‖A − QR‖₁ / ‖A‖₁    = {worst_resid:.3e}   (bound 20·n·ε = {:.3e})",
            resid_bound(n)
        );
    } else {
        println!("‖RᵀR − AᵀA‖₁/‖A‖₁²  = {worst_resid:.3e}   (R only)");
    }
    println!("accuracy: {}", if ok { "PASS" } else { "FAIL" });

    let (dev_t, wall_t) = measure(&client, args.num("samples", 10usize), 0.02, || {
        let _ = tsqr(&client, &handle, &shape, mode, &params).expect("tsqr");
    });
    let t = dev_t.unwrap_or(wall_t);
    let elems = (batch * m * n) as f64;
    let bytes = if mode == TsqrMode::Reduced {
        2.0 * elems * 4.0
    } else {
        elems * 4.0
    };
    let (mf, nf) = (m as f64, n as f64);
    let flops_geqrf = 2.0 * mf * nf * nf - 2.0 * nf * nf * nf / 3.0;
    let flops = batch as f64
        * if mode == TsqrMode::Reduced {
            2.0 * flops_geqrf
        } else {
            flops_geqrf
        };
    println!(
        "time: {:.3} ms device{} | {:.3} ms wall per call (median)",
        t * 1e3,
        if dev_t.is_some() { "" } else { " (n/a: wall)" },
        wall_t * 1e3
    );
    println!(
        "throughput: {:.1} GB/s (unique bytes), {:.1} GFLOP/s (geqrf{} flop count)",
        bytes / t / 1e9,
        flops / t / 1e9,
        if mode == TsqrMode::Reduced {
            " + orgqr"
        } else {
            ""
        }
    );
    if !ok {
        std::process::exit(1);
    }
}
