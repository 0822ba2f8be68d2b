//! Benchmarks of our ops on the default device, written as JSON for `scripts/torch_anchor.py`,
//! which times cuSOLVER (through PyTorch) on the same inputs in the same device command and
//! prints the comparison. Inputs come from `linalg_common::rng::uniform_vec(seed, len)`, which
//! the Python side reproduces bit for bit (a checksum in the JSON proves it).
//!
//! cargo run --release --example bench -- [--json bench.json] [--filter tsqr] [--quick] [--samples 15]
use cubecl::prelude::*;
use linalg_common::reference::check_qr_batch;
use linalg_common::rng::uniform_vec;
use qr_kernels::tsqr::{TsqrLaunch, TsqrMode, TsqrParams, tsqr};
use qrchol::cli::{Args, device};
use qrchol::timing::measure;

mod burn;
mod chol;
mod optim;
mod qr;
use chol::{Bench, cholesky_benches};

use serde::Serialize;

const USAGE: &str = "bench [--json FILE] [--filter SUBSTRING|SUBSTRING] [--quick] [--samples 15] [--device cuda|cpu] [--check-max-elems 40000000]
      [--burn-compare] (qr through the Burn API: burn-ext against burn-linalg, printed only)
      [--optim] [--optim-shapes 4096x4096,4096x14336] [--optim-linalg]   (one optimizer step: AdamW, Muon, SOAP, Dion; printed only)
      [--potrf-probe 1024x64] [--upper] [--small-load 1|2] [--potrf-batched-leaf rows|crout|tiled] [--calls 3] [--samples 0] (potrf with the default parameters but these flags, a few calls and nothing else, for ncu; then timed if samples > 0; --small-load: the rows kernel's vector load in one trip or two)
      [--blocked-sweep] (potrf: right-looking cutoff against the recursion, printed only)
      [--fuse-sweep]   (potrf: SYRK fused with the next diagonal block, or not; GEMM K windows; the diagonal-block look-ahead)
      [--leaf-sweep]   (potrf: the step diagonal-block kernel against the blocked one, by leaf order, sub-block, K trip; --quick: blocked 64 by K trip only)
      [--inv-rhs-sweep] [--inv-rhs-shapes 1x4096x128,8x2048x128] (solves with fewer right-hand sides than inv_block: whole inverted blocks of order up to inv_rhs·k, without block substitution; last column the defaults)
      [--trsv-sweep]   (solves with few right-hand sides: GEMM recursion against block substitution, per block or in one launch; potrf big_min_k)
      [--big-sweep]    (potrf: which updates take the large-update GEMM, and the right-looking cutoff)
      [--small-sweep]  (potrf on batches of small matrices: register rows, Crout, the tiled leaf)
      [--inv-sweep]    (potrf: the TRSMs' whole inverted diagonal blocks by order, 3×TF32 and TF32 updates)
      [--leaf-order-sweep] [--leaf-order-shapes 1x4096,64x1024] (potrf: leaf 64 against 128, with 64- or 128-row GEMM tiles, 3×TF32 and TF32 updates)
      [--solve-sweep] [--solve-shapes 1x4096,64x1024] (potrf and solve_triangular: tilings of the GEMM that applies a diagonal block's inverse)
      [--chol-sweep]   (potrf over leaf / SYRK split / GEMM tiling, printed only)
      [--launch-probe] (host cost of one launch)
      [--gemm-sweep]   (GEMM tilings: 4096³ TFLOP/s and potrf 4096 ms, printed only)
      [--tc-sweep]     (tensor-core GEMM tilings, 3×TF32 and plain TF32: TFLOP/s, error, potrf with them, printed only)
      [--precision-sweep] (potrf with 3×TF32 and plain-TF32 updates on G·Gᵀ + δ·I: ms, info, residual, printed only)
      [--qr-crossover] (qr reduced on tall shapes, TSQR path against blocked geqrf, printed only)
      [--qr-tsqr-rows N] (the main geqrf / orgqr / qr rows with TSQR panels from N rows, or never)
      [--qr-panel-regs on|off] (the main geqrf / orgqr / qr rows with or without the register panel kernel)
      [--qr-outer N] (the main geqrf / orgqr / qr rows with geqrf's outer blocks of N columns; 0: none)
      [--qr-panel-rows N] (the main geqrf / orgqr / qr rows with N row groups in the panel kernels: cubes of N × min(nb, 32) units)
      [--qr-apply-block N] (the main orgqr / qr rows with householder_product's wide blocks of N columns)
      [--qr-split-matrices N] (the main QR rows with split-K products for at most N matrices; 1: single matrices only)
      [--qr-split-chunk N] (the main QR rows' split-K products with at least N rows per chunk)
      [--qr-split-per-sm N] (the main QR rows' split-K products within N cubes per multiprocessor, chunks rounded down)
      [--qr-tsqr-top N] (the main geqrf / orgqr / qr rows with N rows in the last cube of geqrf's TSQR panels)
      [--qr-recon-top rows|elements] (the main geqrf / qr rows with the reconstruction's top block by a unit per row or per element)
      [--qr-panel-grid ROWS] (the main geqrf / qr rows with grid panels of about ROWS rows per cube; 0: none)
      [--qr-panel-grid-tall ROWS,FROM] (the main geqrf / qr rows' grid panels of at least FROM rows with about ROWS rows per cube; 0,0: none; default 256,4097 where grid panels are on by default)
      [--qr-grid-staged on|off] (the main geqrf / qr rows' grid panels: each unit's sums staged for all (on), or row group 0 adding the cubes' words after one more barrier (off))
      [--qr-panel-pairs on|off] (geqrf's register panels take two columns per reduction where the second one's downdated norm is safe; default off)
      [--qr-panel-segs on|off] (geqrf's register panels keep a column's row groups in one plane's lanes: sums by shuffles, one cube barrier per column; default off)
      [--qr-grid-poll-all on|off] (geqrf's grid panels re-load all of a unit's late exchange words each round, not one word after another; default off)
      [--qr-product on|off] (the main geqrf / orgqr / qr rows' update products Vᵀ·C by the register product kernel or the thin mma GEMM with split-K; default: on for batches of at most 8 matrices of at least 2048 rows)
      [--qr-product-shape PLANES,STEPS,FLUSH] (that kernel's planes per cube, K steps loaded ahead, steps between f32 flushes)
      [--qr-product-slices N] (that kernel's most K slices per 32-column tile; 1: none)
      [--qr-lookahead on|strips|off] (the main geqrf / qr rows with or without look-ahead (strips: the rest updated in column strips): each step's update and the next panel in one launch; default: where QrParams::lookahead's default puts it)
      [--qr-big-gemm simt|tc|mma|mma512|mma-tf32|mma-sh|mma-stored|mma-tf32-stored] (the main geqrf / orgqr / qr rows with that GEMM for updates of >= 1024 x 1024)
      [--qr-thin-gemm simt-thin|mma-thin|mma-thin-tf32|…] (the main geqrf / orgqr / qr rows with that GEMM for Vᵀ·C of 32-column panels)
      [--gemm-kernel simt|tc|mma|mma512|mma-tf32|mma-sh|mma-stored|mma-tf32-stored] (the gemm row's kernel)
      [--chol-big-gemm simt|tc|mma|mma512|mma-tf32|mma-sh|mma-stored|mma-tf32-stored] (the Cholesky rows' GEMM for large updates)
      [--potrf-staged on|off] (the Cholesky rows' fused steps hand their block over in shared memory, or through global memory; default: staged)
      [--potrf-c-first on|off] (staged fused steps load C with the product's first loads, or after it; default off)
      [--potrf-leaf-subst on|off] (blocks factored without inverses: their sub-blocks not inverted either, the panels below them solved by substitution; default on)
      [--potrf-tri-grid on|off] (the fused steps' grid lists only the update's tiles on and below the diagonal, or the whole square; default on)
      [--potrf-fused-mma on|leaf|off] (the fused steps' update cubes by 3xTF32 mma.sync from registers (leaf: the diagonal block's cube too), or the SIMT tiles; default: on where the device runs it, in right-looking regions of order >= 4096)
      [--potrf-fused-mma-rows N] (the tensor-core update only in fused steps whose update has at least N rows; default 0)
      [--potrf-batched-leaf rows|crout|tiled] (potrf of order <= leaf: the register-row kernel, the Crout one, or the tiled diagonal-block kernel; default rows)
      [--potrf-step-substitution on|off] (diagonal blocks factored without their inverses, the steps' panels solved by substitution from L11; default on where the panel kernel runs, steps of one leaf)
      [--potrf-leaf-plane on|off] (those diagonal blocks factored by one plane in two halves, no barrier between columns; default off)
      [--potrf-panel-mma on|off] (the right-looking steps' panel solve by 3xTF32 mma.sync from registers, or the TRSM GEMM; default off)
      [--qr-sweep]     (geqrf over panel width and the TSQR-panel threshold, printed only)
      [--orgqr-sweep]  (householder_product over the width of its blocks and the GEMM tiles, printed only)
      [--sweep] [--sweep-rows 128,256,512] [--sweep-planes 2,4,8,16,32]   (TSQR knob sweep, printed only)";

fn list(args: &Args, key: &str, default: &str) -> Vec<usize> {
    args.get(key)
        .unwrap_or(default)
        .split(',')
        .map(|x| x.trim().parse().expect("a comma-separated list of numbers"))
        .collect()
}

/// `--KEY on|off` as a bool, `None` where absent.
fn on_off(args: &Args, key: &str) -> Option<bool> {
    args.get(key).map(|v| match v {
        "on" => true,
        "off" => false,
        _ => panic!("--{key}: on or off"),
    })
}

/// `--KEY N` as a number, `None` where absent.
fn number(args: &Args, key: &str) -> Option<usize> {
    args.get(key)
        .map(|v| v.parse().unwrap_or_else(|_| panic!("--{key}: a number")))
}

/// `--KEY A,B,…` as exactly `n` comma-separated numbers named by `what`, `None` where absent.
fn numbers(args: &Args, key: &str, n: usize, what: &str) -> Option<Vec<usize>> {
    args.get(key).map(|v| {
        let x: Vec<usize> = v
            .split(',')
            .map(|t| t.parse().unwrap_or_else(|_| panic!("--{key}: {what}")))
            .collect();
        assert_eq!(x.len(), n, "--{key}: {what}");
        x
    })
}

/// A comma-separated list of `AxB` pairs (shapes: MxN, or BATCHxN).
fn pairs(args: &Args, key: &str, default: &str) -> Vec<(usize, usize)> {
    args.get(key)
        .unwrap_or(default)
        .split(',')
        .map(|s| {
            let (a, b) = s.trim().split_once('x').expect("pairs as AxB");
            (a.parse().expect("A"), b.parse().expect("B"))
        })
        .collect()
}

/// Time TSQR over a grid of (rows_per_block, planes_per_cube) on a few shapes.
fn sweep(args: &Args, client: &cubecl::client::Client, hw: &linalg_common::launch::Hardware) {
    let rows = list(args, "sweep-rows", "128,256,512");
    let planes = list(args, "sweep-planes", "2,4,8,16,32");
    let samples = args.num("samples", 15usize).min(7);
    println!(
        "{:<30} {:>6} {:>6} {:>10} {:>10}",
        "sweep case", "rows", "planes", "ms", "GB/s"
    );
    for &(m, n, mode) in &[
        (1048576usize, 32usize, TsqrMode::Reduced),
        (1048576, 32, TsqrMode::R),
        (32768, 32, TsqrMode::Reduced),
        (1048576, 64, TsqrMode::Reduced),
    ] {
        let a = uniform_vec(7, m * n);
        let handle = client.create_from_slice(f32::as_bytes(&a));
        for &b in &rows {
            for &p in &planes {
                let params = TsqrParams {
                    rows_per_block: Some(b),
                    planes_per_cube: Some(p),
                    top_rows: None,
                };
                if TsqrLaunch::new(hw, n, &params).is_none() {
                    continue;
                }
                let (d, w) = measure(client, samples, 0.02, || {
                    let _ = tsqr(client, &handle, &[m, n], mode, &params).expect("tsqr");
                });
                let t = d.unwrap_or(w);
                let bytes = (m * n * 4) as f64 * if mode == TsqrMode::Reduced { 2.0 } else { 1.0 };
                println!(
                    "{:<30} {:>6} {:>6} {:>10.4} {:>10.1}",
                    format!("tsqr {mode} {m}x{n}"),
                    b,
                    p,
                    t * 1e3,
                    bytes / t / 1e9
                );
            }
        }
    }
}

#[derive(Serialize)]
struct Record {
    name: String,
    op: String,
    mode: String,
    batch: usize,
    m: usize,
    n: usize,
    seed: u64,
    /// Σ input in f64: the anchor checks it draws the same matrix.
    checksum: f64,
    device: String,
    /// Median device time per call (profiler window), ms; wall time where no device timer.
    ours_ms: f64,
    ours_wall_ms: f64,
    launches: usize,
    rows_per_block: usize,
    /// Right-hand sides (solves), else 0.
    rhs: usize,
    gbps: f64,
    gflops: f64,
    orth: Option<f64>,
    resid: Option<f64>,
    passes: Option<bool>,
}

/// Whether a case is selected: `filter` is `|`-separated substrings (empty: every case).
fn wanted(name: &str, filter: &str) -> bool {
    filter.split('|').any(|f| name.contains(f))
}

/// One line of the results table (the JSON holds the rest).
fn print_row(rec: &Record) {
    let f = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.2e}"));
    println!(
        "{:<34} {:>10.4} {:>10.4} {:>9.1} {:>9.1} {:>10} {:>10}{}",
        rec.name,
        rec.ours_ms,
        rec.ours_wall_ms,
        rec.gbps,
        rec.gflops,
        f(rec.orth),
        f(rec.resid),
        if rec.passes == Some(false) {
            "  FAIL"
        } else {
            ""
        }
    );
}

struct Case {
    batch: usize,
    m: usize,
    n: usize,
    mode: TsqrMode,
}

fn tsqr_cases(quick: bool) -> Vec<Case> {
    let c = |batch, m, n, mode| Case { batch, m, n, mode };
    let mut v = Vec::new();
    let ms: &[usize] = if quick {
        &[32768, 262144]
    } else {
        &[32768, 262144, 1048576, 8388608]
    };
    for &m in ms {
        v.push(c(1, m, 32, TsqrMode::Reduced));
        v.push(c(1, m, 32, TsqrMode::R));
    }
    if !quick {
        for n in [64, 128] {
            v.push(c(1, 1048576, n, TsqrMode::Reduced));
            v.push(c(1, 1048576, n, TsqrMode::R));
        }
    }
    v.push(c(128, 256, 32, TsqrMode::Reduced));
    v
}

fn main() {
    let args = Args::parse(USAGE);
    let dev = device(&args);
    let client = dev.client();
    let kind = linalg_common::device::device_kind(&dev).to_string();
    let filter = args.get("filter").unwrap_or("").to_string();
    let samples = args.num("samples", 15usize);
    let check_max = args.num("check-max-elems", 40_000_000usize);
    let hw = linalg_common::launch::Hardware::of(&client);
    eprintln!("bench on {kind}: {hw:?}");
    if args.flag("optim") {
        let shapes = pairs(&args, "optim-shapes", "4096x4096,4096x14336");
        optim::optim_bench(samples.min(9), &shapes, args.flag("optim-linalg"));
        return;
    }
    if args.flag("burn-compare") {
        burn::burn_compare(samples.min(9));
        return;
    }
    if args.flag("launch-probe") {
        chol::launch_probe(&client);
        return;
    }
    if let Some(shape) = args.get("potrf-probe") {
        let shape = pairs(&args, "potrf-probe", shape)[0];
        let calls = args.num("calls", 3usize);
        let load_whole = args.get("small-load").map(|t| match t {
            "1" => true,
            "2" => false,
            _ => {
                eprintln!("--small-load {t}: 1 or 2 (trips of the rows kernel's vector load)");
                std::process::exit(2);
            }
        });
        let p = cholesky_kernels::CholeskyParams {
            small_load_whole: load_whole,
            batched_leaf: args.get("potrf-batched-leaf").map(batched_leaf),
            ..Default::default()
        };
        chol::potrf_probe(
            &client,
            shape,
            args.flag("upper"),
            &p,
            calls,
            args.num("samples", 0usize),
        );
        return;
    }
    if args.flag("blocked-sweep") {
        chol::blocked_sweep(&client, samples);
        return;
    }
    if args.flag("fuse-sweep") {
        chol::fuse_sweep(&client, samples);
        return;
    }
    if args.flag("leaf-sweep") {
        chol::leaf_sweep(&client, samples, args.flag("quick"));
        return;
    }
    if args.flag("inv-rhs-sweep") {
        let shapes: Vec<[usize; 3]> = args
            .get("inv-rhs-shapes")
            .unwrap_or(
                "1x1024x128,1x2048x128,1x4096x32,1x4096x64,1x4096x128,1x4096x512,\
                 1x8192x128,1x16384x128,8x2048x128,64x1024x128",
            )
            .split(',')
            .map(|s| {
                let v: Vec<usize> = s
                    .trim()
                    .split('x')
                    .map(|x| x.parse().expect("BxNxK"))
                    .collect();
                assert_eq!(v.len(), 3, "inv-rhs-shapes as BxNxK");
                [v[0], v[1], v[2]]
            })
            .collect();
        chol::inv_rhs_sweep(&client, samples, &shapes);
        return;
    }
    if args.flag("trsv-sweep") {
        chol::trsv_sweep(&client, samples);
        return;
    }
    if args.flag("big-sweep") {
        chol::big_sweep(&client, samples.min(7));
        return;
    }
    if args.flag("small-sweep") {
        chol::small_sweep(&client, samples);
        return;
    }
    if args.flag("inv-sweep") {
        chol::inv_sweep(&client, samples.min(7));
        return;
    }
    if args.flag("leaf-order-sweep") {
        let shapes = pairs(
            &args,
            "leaf-order-shapes",
            "1x1024,1x2048,1x4096,1x8192,1x16384,64x1024",
        );
        chol::leaf_order_sweep(&client, samples.min(7), &shapes);
        return;
    }
    if args.flag("solve-sweep") {
        let shapes = pairs(
            &args,
            "solve-shapes",
            "1x1024,1x2048,1x4096,1x8192,1x16384,64x1024,256x256",
        );
        chol::solve_sweep(&client, samples.min(7), &shapes);
        return;
    }
    if args.flag("chol-sweep") {
        chol::chol_sweep(&client, samples.min(5));
        return;
    }
    if args.flag("precision-sweep") {
        chol::precision_sweep(&client, samples.min(5));
        return;
    }
    if args.flag("tc-sweep") {
        chol::tc_sweep(&client, samples.min(7));
        return;
    }
    if args.flag("gemm-sweep") {
        chol::gemm_sweep(&client, samples.min(7));
        return;
    }
    if args.flag("sweep") {
        sweep(&args, &client, &hw);
        return;
    }
    // The QR sweeps: printed only, fewer samples.
    type Sweep = fn(&Bench);
    let qr_sweeps: [(&str, usize, Sweep); 3] = [
        ("qr-crossover", 7, qr::qr_crossover),
        ("orgqr-sweep", 5, qr::orgqr_sweep),
        ("qr-sweep", 5, qr::qr_sweep),
    ];
    for (flag, most, run) in qr_sweeps {
        if args.flag(flag) {
            run(&Bench {
                client: &client,
                kind: &kind,
                filter: &filter,
                samples: samples.min(most),
                check_max,
                qr_tsqr_rows: None,
                qr_panel_regs: None,
                qr_outer: None,
                qr_panel_rows: None,
                qr_apply_block: None,
                qr_split_matrices: None,
                qr_split_chunk: None,
                qr_split_per_sm: None,
                qr_tsqr_top: None,
                qr_recon_top_rows: None,
                qr_panel_grid: None,
                qr_panel_grid_tall: None,
                qr_lookahead: None,
                qr_grid_staged: None,
                qr_product: None,
                qr_panel_pairs: None,
                qr_panel_segs: None,
                qr_grid_poll_all: None,
                qr_product_shape: None,
                qr_product_slices: None,
                qr_lookahead_strips: None,
                qr_big_gemm: None,
                qr_thin_gemm: None,
                gemm_kernel: None,
                chol_big_gemm: None,
                chol_staged: None,
                chol_c_first: None,
                chol_tri_grid: None,
                chol_leaf_subst: None,
                chol_fused_mma: None,
                chol_fused_mma_leaf: None,
                chol_fused_mma_rows: None,
                chol_batched_leaf: None,
                chol_step_substitution: None,
                chol_leaf_plane: None,
                chol_panel_mma: None,
            });
            return;
        }
    }
    let mut records = Vec::new();
    println!(
        "{:<34} {:>10} {:>10} {:>9} {:>9} {:>10} {:>10}",
        "case", "ours ms", "wall ms", "GB/s", "GFLOP/s", "orth", "resid"
    );
    for (i, case) in tsqr_cases(args.flag("quick")).into_iter().enumerate() {
        let Case { batch, m, n, mode } = case;
        let name = format!("tsqr {mode} {batch}x{m}x{n}");
        if !wanted(&name, &filter) {
            continue;
        }
        let params = TsqrParams::default();
        let Some(launch) = TsqrLaunch::new(&hw, n, &params) else {
            println!("{name:<34} not supported on this device");
            continue;
        };
        let seed = 1000 + i as u64;
        let a = uniform_vec(seed, batch * m * n);
        let checksum: f64 = a.iter().map(|&x| x as f64).sum();
        let handle = client.create_from_slice(f32::as_bytes(&a));
        let shape = [batch, m, n];
        // Accuracy of the very output we time (first call), checked in f64 on the host.
        let first = tsqr(&client, &handle, &shape, mode, &params)
            .expect("tsqr")
            .read(&client)
            .expect("read");
        let (orth, resid, passes) = if batch * m * n <= check_max {
            let (o, r, p) = check_qr_batch(&a, first.q.as_deref(), &first.r, batch, m, n);
            (Some(o), Some(r), Some(p))
        } else {
            (None, None, None)
        };
        drop(first);
        let (dev_t, wall_t) = measure(&client, samples, 0.05, || {
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
        let fl = 2.0 * mf * nf * nf - 2.0 * nf * nf * nf / 3.0;
        let flops = batch as f64
            * if mode == TsqrMode::Reduced {
                2.0 * fl
            } else {
                fl
            };
        let nlev = launch.levels(m, n).len();
        let rec = Record {
            name: name.clone(),
            op: "tsqr".into(),
            mode: mode.to_string(),
            batch,
            m,
            n,
            seed,
            checksum,
            device: kind.clone(),
            ours_ms: t * 1e3,
            ours_wall_ms: wall_t * 1e3,
            launches: if mode == TsqrMode::Reduced {
                2 * nlev
            } else {
                nlev
            },
            rows_per_block: launch.rows_per_block(),
            rhs: 0,
            gbps: bytes / t / 1e9,
            gflops: flops / t / 1e9,
            orth,
            resid,
            passes,
        };
        print_row(&rec);
        records.push(rec);
    }
    let ctx = Bench {
        client: &client,
        kind: &kind,
        filter: &filter,
        samples,
        check_max,
        qr_tsqr_rows: args.get("qr-tsqr-rows").map(|v| match v {
            "never" => usize::MAX,
            v => v
                .parse()
                .expect("--qr-tsqr-rows: a number of rows, or never"),
        }),
        qr_panel_regs: args.get("qr-panel-regs").map(|v| v == "on"),
        qr_outer: number(&args, "qr-outer"),
        qr_panel_rows: number(&args, "qr-panel-rows"),
        qr_apply_block: number(&args, "qr-apply-block"),
        qr_split_chunk: number(&args, "qr-split-chunk"),
        qr_split_per_sm: number(&args, "qr-split-per-sm"),
        qr_split_matrices: number(&args, "qr-split-matrices"),
        qr_tsqr_top: number(&args, "qr-tsqr-top"),
        qr_recon_top_rows: args.get("qr-recon-top").map(|v| match v {
            "rows" => true,
            "elements" => false,
            _ => panic!("--qr-recon-top: rows or elements"),
        }),
        qr_panel_grid: number(&args, "qr-panel-grid"),
        qr_panel_grid_tall: numbers(&args, "qr-panel-grid-tall", 2, "ROWS,FROM")
            .map(|x| (x[0], x[1])),
        qr_lookahead: args.get("qr-lookahead").map(|v| match v {
            "on" | "strips" => true,
            "off" => false,
            _ => panic!("--qr-lookahead: on, strips or off"),
        }),
        qr_lookahead_strips: args.get("qr-lookahead").map(|v| v == "strips"),
        qr_grid_staged: on_off(&args, "qr-grid-staged"),
        qr_product: on_off(&args, "qr-product"),
        qr_panel_pairs: on_off(&args, "qr-panel-pairs"),
        qr_panel_segs: on_off(&args, "qr-panel-segs"),
        qr_grid_poll_all: on_off(&args, "qr-grid-poll-all"),
        qr_product_slices: number(&args, "qr-product-slices"),
        qr_product_shape: numbers(&args, "qr-product-shape", 3, "PLANES,STEPS,FLUSH").map(|x| {
            qr_kernels::geqrf::ProductConfig {
                planes: x[0],
                steps: x[1],
                flush_steps: x[2],
            }
        }),
        qr_big_gemm: args.get("qr-big-gemm").map(chol::gemm_kernel),
        qr_thin_gemm: args.get("qr-thin-gemm").map(chol::gemm_kernel),
        gemm_kernel: args.get("gemm-kernel").map(chol::gemm_kernel),
        chol_big_gemm: args.get("chol-big-gemm").map(chol::gemm_kernel),
        chol_staged: on_off(&args, "potrf-staged"),
        chol_c_first: on_off(&args, "potrf-c-first"),
        chol_tri_grid: on_off(&args, "potrf-tri-grid"),
        chol_leaf_subst: on_off(&args, "potrf-leaf-subst"),
        chol_fused_mma: args.get("potrf-fused-mma").map(|v| match v {
            "on" | "leaf" => true,
            "off" => false,
            _ => panic!("--potrf-fused-mma: on, leaf or off"),
        }),
        chol_fused_mma_leaf: args.get("potrf-fused-mma").map(|v| v == "leaf"),
        chol_fused_mma_rows: number(&args, "potrf-fused-mma-rows"),
        chol_step_substitution: on_off(&args, "potrf-step-substitution"),
        chol_leaf_plane: on_off(&args, "potrf-leaf-plane"),
        chol_batched_leaf: args.get("potrf-batched-leaf").map(batched_leaf),
        chol_panel_mma: on_off(&args, "potrf-panel-mma"),
    };
    records.extend(cholesky_benches(&ctx, args.flag("quick")));
    records.extend(qr::qr_benches(&ctx, args.flag("quick")));
    if let Some(path) = args.get("json") {
        std::fs::write(path, serde_json::to_string_pretty(&records).unwrap()).expect("write json");
        eprintln!("wrote {path}");
    }
    if records.iter().any(|r| r.passes == Some(false)) {
        std::process::exit(1);
    }
}

/// `--potrf-batched-leaf`: the kernel for batches of matrices of at most a leaf's order.
fn batched_leaf(v: &str) -> cholesky_kernels::BatchedLeaf {
    match v {
        "rows" => cholesky_kernels::BatchedLeaf::Rows,
        "crout" => cholesky_kernels::BatchedLeaf::Crout,
        "tiled" => cholesky_kernels::BatchedLeaf::Tiled,
        _ => panic!("--potrf-batched-leaf: rows, crout or tiled"),
    }
}
