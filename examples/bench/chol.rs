//! Cholesky, solve and GEMM cases of the benchmark (same JSON records as TSQR).
use super::Record;
use cholesky_kernels::{
    CholeskyOutput, CholeskyParams, MatrixRef, PotrfGraph, cholesky_solve, potrf, solve_triangular,
};
use cubecl::client::Client;
use cubecl::prelude::*;
use linalg_common::gemm::{GemmLaunch, GemmOp, Operand, View};
use linalg_common::matgen::spd_dominant;
use linalg_common::reference::{cholesky_bound, cholesky_residual, cholesky_residual_columns};
use linalg_common::rng::uniform_vec;
use qrchol::timing::measure;

pub struct Bench<'a> {
    pub client: &'a Client,
    pub kind: &'a str,
    pub filter: &'a str,
    pub samples: usize,
    pub check_max: usize,
    /// geqrf's TSQR-panel threshold for the main QR rows (`--qr-tsqr-rows`; `None`: default).
    pub qr_tsqr_rows: Option<usize>,
    /// geqrf's register panel kernel for the main QR rows (`--qr-panel-regs on|off`).
    pub qr_panel_regs: Option<bool>,
    /// geqrf's outer block width for the main QR rows (`--qr-outer N`; 0: none).
    pub qr_outer: Option<usize>,
    /// Row groups of geqrf's panel kernels for the main QR rows (`--qr-panel-rows N`).
    pub qr_panel_rows: Option<usize>,
    /// Block width of householder_product / apply_q's wide blocks for the main QR rows
    /// (`--qr-apply-block N`; `None`: default).
    pub qr_apply_block: Option<usize>,
    /// Split-K for at most this many matrices in the main QR rows
    /// (`--qr-split-matrices N`; `None`: default).
    pub qr_split_matrices: Option<usize>,
    /// Fewest rows per K chunk of the split products (`--qr-split-chunk N`).
    pub qr_split_chunk: Option<usize>,
    /// Split products within N cubes per multiprocessor (`--qr-split-per-sm N`).
    pub qr_split_per_sm: Option<usize>,
    /// Rows of the last cube of geqrf's TSQR panels for the main QR rows (`--qr-tsqr-top N`).
    pub qr_tsqr_top: Option<usize>,
    /// The reconstruction's top-block kernel for the main QR rows (`--qr-recon-top
    /// rows|elements`: a unit per row or per element).
    pub qr_recon_top_rows: Option<bool>,
    /// geqrf's grid panels for the main QR rows (`--qr-panel-grid ROWS`: about ROWS rows per
    /// cube; 0: none).
    pub qr_panel_grid: Option<usize>,
    /// Grid panels of at least FROM rows with about ROWS rows per cube
    /// (`--qr-panel-grid-tall ROWS,FROM`).
    pub qr_panel_grid_tall: Option<(usize, usize)>,
    pub qr_lookahead: Option<bool>,
    /// How grid panels combine an exchange (`--qr-grid-staged on|off`).
    pub qr_grid_staged: Option<bool>,
    /// geqrf's update products by the register product kernel (`--qr-product on|off`).
    pub qr_product: Option<bool>,
    /// `--qr-panel-pairs`: two columns per reduction in the register panel kernel.
    pub qr_panel_pairs: Option<bool>,
    /// `--qr-panel-segs`: lane segments in the register panel kernel.
    pub qr_panel_segs: Option<bool>,
    /// `--qr-grid-poll-all`: grid panels' exchange waits poll all late words per round.
    pub qr_grid_poll_all: Option<bool>,
    /// Its shape (`--qr-product-shape PLANES,STEPS,FLUSH`).
    pub qr_product_shape: Option<qr_kernels::geqrf::ProductConfig>,
    /// Its most K slices per tile (`--qr-product-slices N`).
    pub qr_product_slices: Option<usize>,
    /// `--qr-lookahead strips`: look-ahead with the strip update.
    pub qr_lookahead_strips: Option<bool>,
    /// geqrf's GEMM for updates of at least 1024 × 1024 for the main QR rows
    /// (`--qr-big-gemm simt|tc|mma`; `None`: default).
    pub qr_big_gemm: Option<linalg_common::gemm::GemmKernel>,
    /// geqrf's GEMM for Vᵀ·C of 32-column panels for the main QR rows (`--qr-thin-gemm`, as
    /// [`gemm_kernel`]; `None`: default).
    pub qr_thin_gemm: Option<linalg_common::gemm::GemmKernel>,
    /// The kernel of the `gemm` row (`--gemm-kernel`, as [`gemm_kernel`]; `None`: the device
    /// default).
    pub gemm_kernel: Option<linalg_common::gemm::GemmKernel>,
    /// The Cholesky rows' large-update GEMM (`--chol-big-gemm`, as [`gemm_kernel`]; `None`:
    /// the default).
    pub chol_big_gemm: Option<linalg_common::gemm::GemmKernel>,
    /// The Cholesky rows' fused steps staged or not (`--potrf-staged on|off`; `None`: the
    /// default).
    pub chol_staged: Option<bool>,
    /// Staged fused steps load C with the product's first loads or after it
    /// (`--potrf-c-first on|off`; `None`: the default).
    pub chol_c_first: Option<bool>,
    pub chol_tri_grid: Option<bool>,
    pub chol_leaf_subst: Option<bool>,
    /// The fused steps' update cubes on tensor cores or not (`--potrf-fused-mma
    /// on|leaf|off`; `None`: the default).
    pub chol_fused_mma: Option<bool>,
    /// The diagonal block's cube too (`--potrf-fused-mma leaf`).
    pub chol_fused_mma_leaf: Option<bool>,
    /// `--potrf-fused-mma-rows N`.
    pub chol_fused_mma_rows: Option<usize>,
    /// `--potrf-panel-mma on|off`.
    pub chol_panel_mma: Option<bool>,
    /// `--potrf-batched-leaf rows|crout|tiled`.
    pub chol_batched_leaf: Option<cholesky_kernels::BatchedLeaf>,
    /// `--potrf-step-substitution on|off`.
    pub chol_step_substitution: Option<bool>,
    /// `--potrf-leaf-plane on|off`.
    pub chol_leaf_plane: Option<bool>,
}

impl Bench<'_> {
    /// The Cholesky rows' parameters: the defaults, with `--chol-big-gemm`'s kernel,
    /// `--potrf-staged`, `--potrf-c-first`, `--potrf-fused-mma`, `--potrf-fused-mma-rows` and
    /// `--potrf-panel-mma`, `--potrf-batched-leaf`, `--potrf-step-substitution` and
    /// `--potrf-leaf-plane`.
    fn chol_params(&self) -> CholeskyParams {
        CholeskyParams {
            gemm_big: self.chol_big_gemm,
            fused_staged: self.chol_staged,
            fused_c_first: self.chol_c_first,
            fused_tri_grid: self.chol_tri_grid,
            leaf_subst: self.chol_leaf_subst,
            fused_mma: self.chol_fused_mma,
            fused_mma_leaf: self.chol_fused_mma_leaf,
            fused_mma_rows: self.chol_fused_mma_rows,
            panel_mma: self.chol_panel_mma,
            batched_leaf: self.chol_batched_leaf,
            step_substitution: self.chol_step_substitution,
            leaf_plane: self.chol_leaf_plane,
            ..CholeskyParams::default()
        }
    }
}

/// A GEMM kernel by name: `simt` (128 × 128 vector tiles), `tc` (3×TF32, WMMA), `mma`
/// (3×TF32, mma.sync, the default tiling), `mma512` (mma.sync, 4 × 4 planes of 2 × 4),
/// `mma-tf32` (the default tiling, one TF32 product), `mma-sh` (the default tiling, sums in
/// shared memory), `mma-stored` / `mma-tf32-stored` (`mma` with the sums in shared memory /
/// `mma-tf32`, hi and lo split when stored: session 23's kernels).
pub fn gemm_kernel(name: &str) -> linalg_common::gemm::GemmKernel {
    use linalg_common::gemm::{BIG_TILES, GemmKernel};
    use linalg_common::gemm_mma::{MMA_DEFAULT, MmaTiles};
    match name {
        "simt" => GemmKernel::Simt(BIG_TILES),
        "simt-thin" => GemmKernel::Simt(linalg_common::gemm::THIN_TILES),
        "tc" => GemmKernel::Tf32x3(linalg_common::gemm_tc::TC_DEFAULT),
        "mma" => GemmKernel::Mma(MMA_DEFAULT),
        "mma512" => GemmKernel::Mma(MmaTiles {
            warps_m: 4,
            warps_n: 4,
            tiles_m: 2,
            tiles_n: 4,
            ..MMA_DEFAULT
        }),
        "mma-tf32" => GemmKernel::Mma(linalg_common::gemm_mma::MMA_TF32),
        "mma-thin" => GemmKernel::Mma(linalg_common::gemm_mma::MMA_THIN),
        "mma-thin-tf32" => GemmKernel::Mma(MmaTiles {
            compensated: false,
            ..linalg_common::gemm_mma::MMA_THIN
        }),
        "mma-sh" => GemmKernel::Mma(MmaTiles {
            sums_in_shared: true,
            ..MMA_DEFAULT
        }),
        "mma-stored" => GemmKernel::Mma(linalg_common::gemm_mma::MMA_STORED),
        "mma-tf32-stored" => GemmKernel::Mma(MmaTiles {
            split_on_read: false,
            ..linalg_common::gemm_mma::MMA_TF32
        }),
        _ => panic!(
            "a GEMM kernel: simt, simt-thin, tc, mma, mma512, mma-tf32, mma-thin, mma-thin-tf32, mma-sh, mma-stored or mma-tf32-stored"
        ),
    }
}

#[derive(Clone, Copy)]
enum Op {
    Potrf,
    /// potrf recorded once as a device graph; timed: input copy + replay.
    PotrfGraph,
    CholeskySolve,
    SolveTriangular,
    Gemm,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Potrf | Op::PotrfGraph => "potrf",
            Op::CholeskySolve => "cholesky_solve",
            Op::SolveTriangular => "solve_triangular",
            Op::Gemm => "gemm",
        }
    }
}

fn cases(quick: bool) -> Vec<(Op, usize, usize, usize)> {
    use Op::*;
    let mut v = vec![
        (Potrf, 1, 1024, 0),
        (Potrf, 1, 4096, 0),
        (Potrf, 1024, 64, 0),
        (Potrf, 1, 64, 0),
        (Potrf, 256, 256, 0),
        (CholeskySolve, 1, 4096, 128),
        (SolveTriangular, 1, 4096, 128),
        (Gemm, 1, 4096, 4096),
        (PotrfGraph, 1, 1024, 0),
        (PotrfGraph, 1, 4096, 0),
    ];
    if !quick {
        v.extend([
            (Potrf, 1, 2048, 0),
            (Potrf, 1, 8192, 0),
            (Potrf, 1, 16384, 0),
            (Potrf, 4096, 32, 0),
            (Potrf, 64, 1024, 0),
            (CholeskySolve, 1, 4096, 1),
            (CholeskySolve, 1024, 64, 128),
            (SolveTriangular, 1024, 64, 128),
            (CholeskySolve, 1, 16384, 128),
            (CholeskySolve, 1, 4096, 32),
            (CholeskySolve, 8, 2048, 128),
            (Potrf, 2, 8192, 0),
            (PotrfGraph, 1, 2048, 0),
            (PotrfGraph, 1, 8192, 0),
            (PotrfGraph, 1, 16384, 0),
            (PotrfGraph, 64, 1024, 0),
        ]);
    }
    v
}

fn factor(
    client: &Client,
    h: &cubecl::server::Handle,
    batch: usize,
    n: usize,
    p: &CholeskyParams,
) -> CholeskyOutput {
    let a = MatrixRef::dense(h, batch, n, n);
    potrf(client, a, false, p).expect("potrf")
}

/// Residual of the first right-hand side, ‖A·x − b‖₁ / (‖A‖₁‖x‖₁ + ‖b‖₁), of matrix 0, where
/// `x` solves A (`chol`) or L (the lower triangle of `a`, read as the factor).
fn rhs_residual(a: &[f32], x: &[f32], b: &[f32], n: usize, k: usize, tri: bool) -> f64 {
    let mut d = 0.0f64;
    let mut na = 0.0f64;
    let mut nx = 0.0f64;
    let mut nb = 0.0f64;
    for i in 0..n {
        let mut s = 0.0f64;
        for j in 0..n {
            if tri && j > i {
                break;
            }
            s += a[i * n + j] as f64 * x[j * k] as f64;
        }
        d += (s - b[i * k] as f64).abs();
        nx += (x[i * k] as f64).abs();
        nb += (b[i * k] as f64).abs();
    }
    for j in 0..n {
        let c: f64 = (0..n)
            .filter(|i| !tri || *i >= j)
            .map(|i| (a[i * n + j] as f64).abs())
            .sum();
        na = na.max(c);
    }
    d / (na * nx + nb)
}

pub fn cholesky_benches(ctx: &Bench, quick: bool) -> Vec<Record> {
    let params = ctx.chol_params();
    let client = ctx.client;
    let mut out = Vec::new();
    for (i, (op, batch, n, k)) in cases(quick).into_iter().enumerate() {
        let name = match op {
            Op::Potrf => format!("potrf {batch}x{n}"),
            Op::PotrfGraph => format!("potrf graph {batch}x{n}"),
            Op::Gemm => format!("gemm {n}x{n}x{n}"),
            _ => format!("{} {batch}x{n} rhs {k}", op.name()),
        };
        if !super::wanted(&name, ctx.filter) {
            continue;
        }
        let seed = 5000 + i as u64;
        let a = match op {
            Op::Gemm => uniform_vec(seed, n * n),
            _ => spd_dominant(seed, batch, n),
        };
        let checksum: f64 = a.iter().map(|&x| x as f64).sum();
        let ha = client.create_from_slice(f32::as_bytes(&a));
        let (nf, kf, bf) = (n as f64, k as f64, batch as f64);
        let mut resid = None;
        let (timed, flops, bytes): (Box<dyn FnMut()>, f64, f64) = match op {
            Op::Potrf | Op::PotrfGraph => {
                let graph = matches!(op, Op::PotrfGraph)
                    .then(|| PotrfGraph::new(client, batch, n, false, &params).expect("graph"));
                let first = match &graph {
                    Some(g) => {
                        let m = MatrixRef::dense(&ha, batch, n, n);
                        g.run(client, m).expect("run").clone()
                    }
                    None => factor(client, &ha, batch, n, &params),
                };
                let first = first.read(client).expect("read");
                assert!(first.info.iter().all(|&x| x == 0), "{name}: info");
                let l = &first.l;
                resid = Some(if n * n * n <= ctx.check_max * 64 {
                    let mut w = 0.0f64;
                    for b in [0, batch - 1] {
                        let s = b * n * n..(b + 1) * n * n;
                        w = w.max(cholesky_residual(&a[s.clone()], &l[s], n, false).0);
                    }
                    w
                } else {
                    let cols: Vec<usize> = (0..16).map(|c| (c * 7919) % n).chain([n - 1]).collect();
                    cholesky_residual_columns(&a[..n * n], &l[..n * n], n, &cols)
                });
                let h = ha.clone();
                (
                    Box::new(move || match &graph {
                        Some(g) => {
                            let _ = g.run(client, MatrixRef::dense(&h, batch, n, n));
                        }
                        None => {
                            let _ = factor(client, &h, batch, n, &params);
                        }
                    }),
                    bf * nf * nf * nf / 3.0,
                    2.0 * bf * nf * nf * 4.0,
                )
            }
            Op::CholeskySolve | Op::SolveTriangular => {
                let l = factor(client, &ha, batch, n, &params);
                let bvec = uniform_vec(seed + 1, batch * n * k);
                let hb = client.create_from_slice(f32::as_bytes(&bvec));
                let lh = l.l.clone();
                let tri = matches!(op, Op::SolveTriangular);
                let run = move |client: &Client| {
                    let lm = MatrixRef::dense(&lh, batch, n, n);
                    let bm = MatrixRef::dense(&hb, batch, n, k);
                    let p = params;
                    if tri {
                        solve_triangular(client, lm, bm, false, true, false, &p)
                    } else {
                        cholesky_solve(client, bm, lm, false, &p)
                    }
                    .expect("solve")
                };
                let x = run(client).read(client).expect("read");
                let lhost = f32::from_bytes(&client.read_one(l.l.clone()).unwrap()).to_vec();
                let m = if tri { &lhost } else { &a };
                resid = Some(rhs_residual(
                    &m[..n * n],
                    &x.x[..n * k],
                    &bvec[..n * k],
                    n,
                    k,
                    tri,
                ));
                let f = if tri { 1.0 } else { 2.0 };
                (
                    Box::new(move || {
                        let _ = run(client);
                    }),
                    f * bf * nf * nf * kf,
                    bf * (nf * nf + 2.0 * nf * kf) * 4.0,
                )
            }
            Op::Gemm => {
                let hw = linalg_common::launch::Hardware::of(client);
                let g = match ctx.gemm_kernel {
                    Some(k) => GemmLaunch::of_kernel(&hw, k).expect("the device runs this kernel"),
                    None => GemmLaunch::new(&hw).unwrap(),
                };
                let hc = client.empty(n * n * 4);
                let h = ha.clone();
                (
                    Box::new(move || {
                        let v = View::contiguous(n, n);
                        let o = Operand::new(&h, n * n, v);
                        let op = GemmOp::SET;
                        g.launch(
                            client,
                            1,
                            o,
                            o.with_view(v.t()),
                            Operand::new(&hc, n * n, v),
                            op,
                        );
                    }),
                    2.0 * nf * nf * nf,
                    3.0 * nf * nf * 4.0,
                )
            }
        };
        let mut timed = timed;
        let (dev_t, wall_t) = measure(client, ctx.samples, 0.05, &mut timed);
        let t = dev_t.unwrap_or(wall_t);
        let passes = resid.map(|r| r <= cholesky_bound(n) * if k > 0 { 2.0 } else { 1.0 });
        let rec = Record {
            name: name.clone(),
            op: op.name().into(),
            mode: String::new(),
            batch,
            m: n,
            n,
            seed,
            checksum,
            device: ctx.kind.to_string(),
            ours_ms: t * 1e3,
            ours_wall_ms: wall_t * 1e3,
            launches: 0,
            rows_per_block: 0,
            rhs: k,
            gbps: bytes / t / 1e9,
            gflops: flops / t / 1e9,
            orth: None,
            resid,
            passes,
        };
        super::print_row(&rec);
        out.push(rec);
    }
    out
}

/// The SIMT GEMM over tilings, scalar and 4-vector shared tiles: TFLOP/s on 4096³ (A·B, A·Bᵀ,
/// Aᵀ·B) and on the rank-64 and rank-32 updates C −= A·Bᵀ of 4096² (Cholesky's SYRK, QR's
/// trailing update), then potrf and geqrf with that tiling for every GEMM of their own (ms;
/// the first row is each op's defaults). Printed only.
pub fn gemm_sweep(client: &Client, samples: usize) {
    use linalg_common::gemm::{GemmConfig, GemmKernel};
    use qr_kernels::{QrParams, geqrf};
    let hw = linalg_common::launch::Hardware::of(client);
    let n = 4096;
    let a = uniform_vec(1, n * n);
    let ha = client.create_from_slice(f32::as_bytes(&a));
    let hc = client.empty(n * n * 4);
    let spds: Vec<_> = [1024usize, 4096, 8192, 16384]
        .iter()
        .map(|&m| {
            (
                m,
                client.create_from_slice(f32::as_bytes(&spd_dominant(2, 1, m))),
            )
        })
        .collect();
    let qrs: Vec<_> = [(1usize, 4096usize), (8, 2048), (32, 512)]
        .iter()
        .map(|&(b, m)| {
            (
                b,
                m,
                client.create_from_slice(f32::as_bytes(&uniform_vec(3, b * m * m))),
            )
        })
        .collect();
    print!(
        "{:<28} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "gemm config", "AB", "ABt", "AtB", "k64", "k32"
    );
    for (m, _) in &spds {
        print!(" {:>9}", format!("potrf{m}"));
    }
    for (b, m, _) in &qrs {
        print!(" {:>9}", format!("qr{b}x{m}"));
    }
    println!("   (TFLOP/s; ms)");
    let cfg = |ux, uy, tm, tn, tile_k, vector| GemmConfig {
        units_x: ux,
        units_y: uy,
        tm,
        tn,
        tile_k,
        unroll: true,
        vector,
    };
    let mut rows: Vec<Option<GemmConfig>> = vec![None];
    rows.extend(
        [
            cfg(16, 16, 4, 4, 16, false),
            cfg(16, 16, 8, 8, 8, false),
            cfg(16, 16, 4, 4, 16, true),
            cfg(16, 16, 8, 8, 8, true),
            cfg(16, 16, 8, 4, 16, true),
            cfg(8, 16, 8, 8, 8, true),
            cfg(16, 8, 4, 4, 16, true),
            cfg(8, 8, 4, 4, 32, true),
        ]
        .map(Some),
    );
    let op = |accumulate, negate| GemmOp {
        accumulate,
        negate,
        lower_only: false,
        a_lower: false,
    };
    for row in rows {
        let label = match row {
            None => "defaults".to_string(),
            Some(c) => format!(
                "{}x{} u {}x{} k{}{}",
                c.units_x,
                c.units_y,
                c.tm,
                c.tn,
                c.tile_k,
                if c.vector { " vec" } else { "" }
            ),
        };
        print!("{label:<28}");
        let g = match row {
            None => GemmLaunch::big(&hw),
            Some(c) => GemmLaunch::with_config(&hw, c),
        };
        let Some(g) = g else {
            println!(" not supported");
            continue;
        };
        let v = View::contiguous(n, n);
        for (at, bt, k, acc) in [
            (false, false, n, false),
            (false, true, n, false),
            (true, false, n, false),
            (false, true, 64, true),
            (false, true, 32, true),
        ] {
            let av = if at { v.t() } else { v.block(0, 0, n, k) };
            let bv = if bt { v.block(0, 0, n, k).t() } else { v };
            let (d, w) = measure(client, samples, 0.05, || {
                g.launch(
                    client,
                    1,
                    Operand::new(&ha, n * n, av),
                    Operand::new(&ha, n * n, bv),
                    Operand::new(&hc, n * n, v),
                    op(acc, acc),
                );
            });
            print!(" {:>7.2}", 2.0 * (n * n * k) as f64 / d.unwrap_or(w) / 1e12);
        }
        let params = CholeskyParams {
            gemm: row,
            gemm_big: row.map(GemmKernel::Simt),
            ..CholeskyParams::default()
        };
        for (m, h) in &spds {
            let am = MatrixRef::dense(h, 1, *m, *m);
            let ms = match potrf(client, am, false, &params) {
                Ok(_) => {
                    let (d, w) = measure(client, samples.min(5), 0.05, || {
                        let _ = potrf(client, am, false, &params).expect("potrf");
                    });
                    format!("{:.3}", d.unwrap_or(w) * 1e3)
                }
                Err(_) => "-".into(),
            };
            print!(" {ms:>9}");
        }
        let qp = QrParams {
            gemm: row,
            gemm_big: row.map(GemmKernel::Simt),
            ..QrParams::default()
        };
        for (b, m, h) in &qrs {
            let am = qr_kernels::MatrixRef::dense(h, *b, *m, *m);
            let ms = match geqrf(client, am, &qp) {
                Ok(_) => {
                    let (d, w) = measure(client, samples.min(5), 0.05, || {
                        let _ = geqrf(client, am, &qp).expect("geqrf");
                    });
                    format!("{:.3}", d.unwrap_or(w) * 1e3)
                }
                Err(_) => "-".into(),
            };
            print!(" {ms:>9}");
        }
        println!();
    }
    combo_sweep(client, samples, &spds, &qrs);
}

/// potrf and geqrf with one tiling for the small GEMMs and another (or the 3×TF32 kernel)
/// for the large updates (ms).
fn combo_sweep(
    client: &Client,
    samples: usize,
    spds: &[(usize, cubecl::server::Handle)],
    qrs: &[(usize, usize, cubecl::server::Handle)],
) {
    use linalg_common::gemm::{GemmConfig, GemmKernel};
    use linalg_common::gemm_tc::TC_DEFAULT;
    use qr_kernels::{QrParams, geqrf};
    let cfg = |ux, uy, tm, tn, tile_k| GemmConfig {
        units_x: ux,
        units_y: uy,
        tm,
        tn,
        tile_k,
        unroll: true,
        vector: true,
    };
    let small = cfg(16, 16, 4, 4, 16);
    let bigs = [
        ("tc", GemmKernel::Tf32x3(TC_DEFAULT)),
        ("vec 8x8 k8", GemmKernel::Simt(cfg(16, 16, 8, 8, 8))),
        ("vec 8x4 k16", GemmKernel::Simt(cfg(16, 16, 8, 4, 16))),
        ("vec 4x4 k16", GemmKernel::Simt(small)),
    ];
    println!("small gemm vec 4x4 k16, big gemm:");
    for (label, big) in bigs {
        print!("{label:<28}");
        let params = CholeskyParams {
            gemm: Some(small),
            gemm_big: Some(big),
            ..CholeskyParams::default()
        };
        for (m, h) in spds {
            let am = MatrixRef::dense(h, 1, *m, *m);
            let (d, w) = measure(client, samples.min(5), 0.05, || {
                let _ = potrf(client, am, false, &params).expect("potrf");
            });
            print!(" {:>9.3}", d.unwrap_or(w) * 1e3);
        }
        let qp = QrParams {
            gemm: Some(small),
            gemm_big: Some(big),
            ..QrParams::default()
        };
        for (b, m, h) in qrs {
            let am = qr_kernels::MatrixRef::dense(h, *b, *m, *m);
            let (d, w) = measure(client, samples.min(5), 0.05, || {
                let _ = geqrf(client, am, &qp).expect("geqrf");
            });
            print!(" {:>9.3}", d.unwrap_or(w) * 1e3);
        }
        println!();
    }
}

/// The tensor-core GEMMs (3×TF32, and the `mma.sync` kernel's plain-TF32 mode) over tilings against the true-f32 SIMT kernel for large
/// updates (128×128 tiles): 4096³ TFLOP/s for A·B, A·Bᵀ and Aᵀ·B, the largest error relative to Σ|a||b| on 64
/// sampled entries of A·Bᵀ (f64 reference), and potrf at 4096 / 8192 / 16384 with each kernel
/// on the large updates (ms and residual).
pub fn tc_sweep(client: &Client, samples: usize) {
    use linalg_common::gemm::GemmKernel;
    use linalg_common::gemm_mma::{MMA_DEFAULT, MMA_STORED, MMA_TF32, MmaTiles};
    use linalg_common::gemm_tc::TC_DEFAULT;
    let hw = linalg_common::launch::Hardware::of(client);
    let n = 4096;
    let a = uniform_vec(1, n * n);
    let ha = client.create_from_slice(f32::as_bytes(&a));
    let hc = client.empty(n * n * 4);
    let orders = [4096usize, 8192, 16384];
    let spds: Vec<_> = orders.iter().map(|&m| spd_dominant(2, 1, m)).collect();
    let hs: Vec<_> = spds
        .iter()
        .map(|s| client.create_from_slice(f32::as_bytes(s)))
        .collect();
    print!(
        "{:<34} {:>8} {:>8} {:>8} {:>9}",
        "kernel", "AB TF/s", "ABt TF/s", "AtB TF/s", "max err"
    );
    for m in orders {
        print!(" {:>10} {:>9}", format!("potrf {m}"), "resid");
    }
    println!();
    // The SIMT row names its kernel: `gemm_big: None` is the tensor-core default on GPUs that
    // have one.
    let simt = GemmLaunch::big(&hw).map(|g| g.kernel);
    let mut kernels: Vec<(String, Option<GemmKernel>)> = vec![("simt 128x128".into(), simt)];
    // "<kind> <warps>w <fragments or tiles per warp><f|t> k<K window> flush <K>[ sh]".
    let label = |k: GemmKernel| {
        let (kind, w, f, kw, flush, sh) = match k {
            GemmKernel::Tf32x3(c) => (
                "tc",
                (c.warps_m, c.warps_n),
                (c.frags_m, c.frags_n, 'f'),
                c.tile_k,
                c.flush_k,
                c.sums_in_shared,
            ),
            GemmKernel::Mma(c) => (
                match (c.compensated, c.split_on_read) {
                    (true, true) => "mma",
                    (false, true) => "mma-tf32",
                    (true, false) => "mma-stored",
                    (false, false) => "mma-tf32-stored",
                },
                (c.warps_m, c.warps_n),
                (c.tiles_m, c.tiles_n, 't'),
                c.tile_k,
                c.flush_k,
                c.sums_in_shared,
            ),
            GemmKernel::Simt(_) => unreachable!("the SIMT row is labelled above"),
        };
        let sh = if sh { " sh" } else { "" };
        format!(
            "{kind} {}x{}w {}x{}{} k{kw} flush {flush}{sh}",
            w.0, w.1, f.0, f.1, f.2
        )
    };
    // After the WMMA kernel and the mma default: the default's sums in the other place, session
    // 23's default (hi and lo stored, sums in shared memory), then one TF32 product per step,
    // split on read and stored (session 38 measured split on read with K windows of 64 at
    // 50–52 TFLOP/s: BENCHMARKS.md). (Session 23 measured the tilings that fit 16 warps per
    // multiprocessor by local ptxas registers — 2×4 planes of 4×2 tiles at k 16, also with
    // shared sums, and 4×4 planes of 2×2 — at 28–41 TFLOP/s against the default's 44–52:
    // BENCHMARKS.md.)
    for k in [
        GemmKernel::Tf32x3(TC_DEFAULT),
        GemmKernel::Mma(MMA_DEFAULT),
        GemmKernel::Mma(MmaTiles {
            sums_in_shared: !MMA_DEFAULT.sums_in_shared,
            ..MMA_DEFAULT
        }),
        GemmKernel::Mma(MMA_STORED),
        GemmKernel::Mma(MMA_TF32),
        GemmKernel::Mma(MmaTiles {
            split_on_read: false,
            ..MMA_TF32
        }),
    ] {
        kernels.push((label(k), Some(k)));
    }
    for (label, kernel) in kernels {
        let g = kernel.and_then(|k| GemmLaunch::of_kernel(&hw, k));
        let Some(g) = g else {
            println!("{label:<34} not supported");
            continue;
        };
        print!("{label:<34}");
        let v = View::contiguous(n, n);
        let op = GemmOp::SET;
        for (at, bt) in [(false, false), (false, true), (true, false)] {
            let av = if at { v.t() } else { v };
            let bv = if bt { v.t() } else { v };
            let (d, w) = measure(client, samples, 0.05, || {
                g.launch(
                    client,
                    1,
                    Operand::new(&ha, n * n, av),
                    Operand::new(&ha, n * n, bv),
                    Operand::new(&hc, n * n, v),
                    op,
                );
            });
            print!(" {:>8.2}", 2.0 * (n as f64).powi(3) / d.unwrap_or(w) / 1e12);
        }
        // Error of A·Aᵀ against f64.
        g.launch(
            client,
            1,
            Operand::new(&ha, n * n, v),
            Operand::new(&ha, n * n, v.t()),
            Operand::new(&hc, n * n, v),
            op,
        );
        let c = f32::from_bytes(&client.read_one(hc.clone()).unwrap()).to_vec();
        let mut err = 0.0f64;
        for t in 0..64usize {
            let (i, j) = ((t * 7919) % n, (t * 104729 + 13) % n);
            let (mut p, mut s) = (0.0f64, 0.0f64);
            for q in 0..n {
                let x = a[i * n + q] as f64 * a[j * n + q] as f64;
                p += x;
                s += x.abs();
            }
            err = err.max((c[i * n + j] as f64 - p).abs() / s);
        }
        print!(" {err:>9.2e}");
        let params = CholeskyParams {
            gemm_big: kernel,
            ..CholeskyParams::default()
        };
        for (k, &m) in orders.iter().enumerate() {
            let mr = MatrixRef::dense(&hs[k], 1, m, m);
            let (d, w) = measure(client, samples.min(5), 0.05, || {
                let _ = potrf(client, mr, false, &params).expect("potrf");
            });
            let l = potrf(client, mr, false, &params)
                .expect("potrf")
                .read(client)
                .expect("read")
                .l;
            let cols: Vec<usize> = (0..16).map(|c| (c * 7919) % m).chain([m - 1]).collect();
            let r = cholesky_residual_columns(&spds[k], &l, m, &cols);
            print!(" {:>10.3} {:>9.2e}", d.unwrap_or(w) * 1e3, r);
        }
        println!();
    }
}

/// potrf with f32-accurate (3×TF32, the default) and plain-TF32 (`MMA_TF32`) large updates on
/// matrices that are not diagonally dominant: A = G·Gᵀ + δ·I, G uniform in [−1, 1] scaled by
/// 1/√n (λ_max ≈ 4/3 by Marchenko–Pastur, λ_min ≈ δ), formed on the device by the true-f32
/// SIMT GEMM. Prints ms (median), the first nonzero `info` (0: success) and the residual
/// ‖A − LLᵀ‖₁/‖A‖₁ over 9 sampled columns, against the gate 20·n·ε.
pub fn precision_sweep(client: &Client, samples: usize) {
    use linalg_common::gemm::GemmKernel;
    use linalg_common::gemm_mma::{MMA_DEFAULT, MMA_TF32};
    let hw = linalg_common::launch::Hardware::of(client);
    let Some(simt) = GemmLaunch::big(&hw) else {
        println!("no SIMT GEMM on this device");
        return;
    };
    let kernels = [("3xtf32 (default)", MMA_DEFAULT), ("tf32", MMA_TF32)];
    println!(
        "{:<8} {:>8} {:<18} {:>10} {:>6} {:>10} {:>10}",
        "n", "delta", "updates", "ms", "info", "resid", "gate"
    );
    for n in [4096usize, 16384] {
        let scale = 1.0 / (n as f32).sqrt();
        let g: Vec<f32> = uniform_vec(7000 + n as u64, n * n)
            .into_iter()
            .map(|x| x * scale)
            .collect();
        let hg = client.create_from_slice(f32::as_bytes(&g));
        drop(g);
        for delta in [1e-1f32, 1e-3, 1e-5] {
            let mut a0 = vec![0.0f32; n * n];
            for i in 0..n {
                a0[i * n + i] = delta;
            }
            let ha = client.create_from_slice(f32::as_bytes(&a0));
            drop(a0);
            let v = View::contiguous(n, n);
            simt.launch(
                client,
                1,
                Operand::new(&hg, n * n, v),
                Operand::new(&hg, n * n, v.t()),
                Operand::new(&ha, n * n, v),
                GemmOp {
                    accumulate: true,
                    negate: false,
                    lower_only: false,
                    a_lower: false,
                },
            );
            let a = f32::from_bytes(&client.read_one(ha.clone()).unwrap()).to_vec();
            for (label, tiles) in kernels {
                let params = CholeskyParams {
                    gemm_big: Some(GemmKernel::Mma(tiles)),
                    ..CholeskyParams::default()
                };
                if GemmLaunch::mma(&hw, tiles).is_none() {
                    println!("{n:<8} {delta:>8.0e} {label:<18} not supported");
                    continue;
                }
                let mr = MatrixRef::dense(&ha, 1, n, n);
                let (d, w) = measure(client, samples, 0.05, || {
                    let _ = potrf(client, mr, false, &params).expect("potrf");
                });
                let out = potrf(client, mr, false, &params)
                    .expect("potrf")
                    .read(client)
                    .expect("read");
                let info = out.info[0];
                let cols: Vec<usize> = (0..8).map(|c| (c * 7919) % n).chain([n - 1]).collect();
                let r = if info == 0 {
                    cholesky_residual_columns(&a, &out.l, n, &cols)
                } else {
                    f64::NAN
                };
                println!(
                    "{n:<8} {delta:>8.0e} {label:<18} {:>10.3} {info:>6} {r:>10.2e} {:>10.2e}",
                    d.unwrap_or(w) * 1e3,
                    20.0 * n as f64 * f32::EPSILON as f64
                );
            }
        }
    }
}

/// `calls` potrf calls on one batch of SPD matrices with the parameters `p` (the defaults
/// but for the probe's flags), then a check that every matrix factored: a short launch
/// sequence for a profiler; then, with `samples` > 0, the median time per call (device and
/// wall clock).
pub fn potrf_probe(
    client: &Client,
    (b, n): (usize, usize),
    upper: bool,
    p: &CholeskyParams,
    calls: usize,
    samples: usize,
) {
    if b == 0 || n == 0 {
        eprintln!("--potrf-probe {b}x{n}: a batch of at least one matrix of order at least 1");
        std::process::exit(2);
    }
    let a = spd_dominant(17, b, n);
    let h = client.create_from_slice(f32::as_bytes(&a));
    let m = MatrixRef::dense(&h, b, n, n);
    for _ in 1..calls.max(1) {
        let _ = potrf(client, m, upper, p).expect("potrf");
    }
    let out = potrf(client, m, upper, p)
        .expect("potrf")
        .read(client)
        .expect("read");
    assert!(out.info.iter().all(|&x| x == 0), "{b}x{n}: info");
    let s = (b - 1) * n * n..b * n * n;
    // The dense residual is O(n³) on the host: only for the small orders profiled here.
    let resid = (n <= 1368).then(|| cholesky_residual(&a[s.clone()], &out.l[s], n, upper).0);
    let resid = resid.map_or("not checked".to_string(), |r| format!("{r:.1e}"));
    println!(
        "potrf probe {b}x{n} upper={upper} calls={calls}: residual of the last matrix {resid}"
    );
    if samples > 0 {
        let (d, w) = measure(client, samples, 0.05, || {
            let _ = potrf(client, m, upper, p).expect("potrf");
        });
        let d = d.map_or("-".to_string(), |d| format!("{:.4}", d * 1e3));
        println!(
            "potrf probe {b}x{n} upper={upper}: ms per call, device {d}, wall {:.4}",
            w * 1e3
        );
    }
}

/// Host cost of one kernel launch: 2000 launches of a 1×1×1 GEMM between two synchronisations.
pub fn launch_probe(client: &Client) {
    let hw = linalg_common::launch::Hardware::of(client);
    let g = GemmLaunch::new(&hw).expect("gemm");
    let h = client.create_from_slice(f32::as_bytes(&[1.0f32; 4]));
    let c = client.create_from_slice(f32::as_bytes(&[0.0f32; 4]));
    let v = View::contiguous(1, 1);
    let op = GemmOp {
        accumulate: true,
        negate: false,
        lower_only: false,
        a_lower: false,
    };
    let run = |count: usize| {
        qrchol::timing::sync(client);
        let t0 = std::time::Instant::now();
        for _ in 0..count {
            g.launch(
                client,
                1,
                Operand::new(&h, 4, v),
                Operand::new(&h, 4, v),
                Operand::new(&c, 4, v),
                op,
            );
        }
        let host = t0.elapsed().as_secs_f64();
        qrchol::timing::sync(client);
        (
            host / count as f64,
            t0.elapsed().as_secs_f64() / count as f64,
        )
    };
    run(100);
    let (host, total) = run(2000);
    println!(
        "launch probe: {:.2} us host per launch, {:.2} us per launch until synced",
        host * 1e6,
        total * 1e6
    );
}

/// Time potrf over the Cholesky knobs (leaf, SYRK split, GEMM tiling) on a few shapes.
pub fn chol_sweep(client: &Client, samples: usize) {
    use linalg_common::gemm::GemmConfig;
    let shapes = [
        (1usize, 1024usize),
        (1, 4096),
        (1, 8192),
        (1024, 64),
        (4096, 32),
        (256, 256),
        (64, 1024),
    ];
    let inputs: Vec<_> = shapes
        .iter()
        .map(|&(b, n)| client.create_from_slice(f32::as_bytes(&spd_dominant(3, b, n))))
        .collect();
    let big = GemmConfig {
        units_x: 16,
        units_y: 16,
        tm: 8,
        tn: 8,
        tile_k: 16,
        unroll: true,
        vector: false,
    };
    print!("{:<34}", "leaf syrk gemm \\ ms");
    for (b, n) in shapes {
        print!(" {:>10}", format!("{b}x{n}"));
    }
    println!();
    for leaf in [32usize, 64, 128] {
        for syrk in [256usize, usize::MAX] {
            for gemm in [None, Some(big)] {
                let params = CholeskyParams {
                    leaf: Some(leaf),
                    syrk_leaf: Some(syrk),
                    gemm,
                    gemm_big: gemm.map(linalg_common::gemm::GemmKernel::Simt),
                    ..CholeskyParams::default()
                };
                let label = format!(
                    "{leaf} {} {}",
                    if syrk == usize::MAX {
                        "one".to_string()
                    } else {
                        syrk.to_string()
                    },
                    if gemm.is_some() { "8x8k16" } else { "default" }
                );
                print!("{label:<34}");
                for (&(b, n), h) in shapes.iter().zip(&inputs) {
                    if leaf != 64 && n <= 64 && syrk != usize::MAX {
                        print!(" {:>10}", "-");
                        continue;
                    }
                    let m = MatrixRef::dense(h, b, n, n);
                    let (d, w) = measure(client, samples, 0.05, || {
                        let _ = potrf(client, m, false, &params).expect("potrf");
                    });
                    print!(" {:>10.4}", d.unwrap_or(w) * 1e3);
                }
                println!();
            }
        }
    }
}

/// Time potrf under each of `variants` (label, params) on each shape (batch, n), the same
/// inputs for all; a table of ms with the worst residual of the last matrix (f64; sampled
/// columns above n = 1368) over the variants.
fn params_table(
    client: &Client,
    samples: usize,
    shapes: &[(usize, usize)],
    variants: &[(String, CholeskyParams)],
) {
    uplo_table(client, samples, shapes, variants, false);
}

/// [`params_table`] for the lower or the upper factor.
fn uplo_table(
    client: &Client,
    samples: usize,
    shapes: &[(usize, usize)],
    variants: &[(String, CholeskyParams)],
    upper: bool,
) {
    print!("{:<14}", if upper { "upper b x n" } else { "batch x n" });
    for (label, _) in variants {
        print!(" {label:>9}");
    }
    println!(" {:>9}", "resid");
    for &(b, n) in shapes {
        let a = spd_dominant(17, b, n);
        let h = client.create_from_slice(f32::as_bytes(&a));
        let m = MatrixRef::dense(&h, b, n, n);
        print!("{:<14}", format!("{b}x{n}"));
        let mut worst = 0.0f64;
        for (label, p) in variants {
            // A configuration this device refuses (e.g. a leaf whose kernel does not fit).
            let Ok(out) = potrf(client, m, upper, p) else {
                print!(" {:>9}", "refused");
                continue;
            };
            let out = out.read(client).expect("read");
            assert!(out.info.iter().all(|&x| x == 0), "{b}x{n} {label}: info");
            let s = (b - 1) * n * n..b * n * n;
            let resid = if n <= 1368 {
                cholesky_residual(&a[s.clone()], &out.l[s], n, upper).0
            } else {
                assert!(!upper, "sampled columns of lower factors only");
                let cols: Vec<usize> = (0..16).map(|c| (c * 7919) % n).chain([n - 1]).collect();
                cholesky_residual_columns(&a[s.clone()], &out.l[s], n, &cols)
            };
            worst = worst.max(resid);
            let (d, w) = measure(client, samples, 0.05, || {
                let _ = potrf(client, m, upper, p).expect("potrf");
            });
            print!(" {:>9.4}", d.unwrap_or(w) * 1e3);
        }
        println!(" {worst:>9.1e}");
    }
}

/// The kernels for a whole op on small matrices: rows in registers (the default, twice,
/// alternating with `scalar`: scalar I/O, so a unit per row; 32 units and two matrices per
/// cube; 64 units with vector I/O; 16 units; units capped at nb; a width whose rows do not fit
/// the registers runs the Crout kernel), left-looking with a small cube per matrix
/// (a unit per row), and the register-tiled leaf, the vector load in one trip (`load1`) and
/// in two (`load2`); then the rows kernel's variants for upper, and its loads likewise.
pub fn small_sweep(client: &Client, samples: usize) {
    use cholesky_kernels::BatchedLeaf;
    let shapes = [
        (1024, 64),
        (4096, 64),
        (4096, 32),
        (16384, 16),
        (256, 64),
        (1, 64),
        (1, 1),
        (1024, 48),
        (8192, 8),
    ];
    let variant = |label: &str, kind, units, mats| {
        let p = CholeskyParams {
            batched_leaf: Some(kind),
            small_units: units,
            small_mats: mats,
            ..CholeskyParams::default()
        };
        (label.to_string(), p)
    };
    let scalar = CholeskyParams {
        small_vec: Some(false),
        ..variant("", BatchedLeaf::Rows, None, None).1
    };
    // The vector load forced to one trip and to two.
    let load = |label: &str, whole| {
        let p = CholeskyParams {
            small_load_whole: Some(whole),
            ..CholeskyParams::default()
        };
        (label.to_string(), p)
    };
    let variants = [
        variant("rows", BatchedLeaf::Rows, None, None),
        ("scalar".to_string(), scalar),
        variant("rows", BatchedLeaf::Rows, None, None),
        ("scalar".to_string(), scalar),
        variant("rows32x2", BatchedLeaf::Rows, Some(32), Some(2)),
        (
            "rows64v".to_string(),
            CholeskyParams {
                small_vec: Some(true),
                ..variant("", BatchedLeaf::Rows, Some(64), None).1
            },
        ),
        variant("rows16", BatchedLeaf::Rows, Some(16), None),
        variant("crout", BatchedLeaf::Crout, None, None),
        variant("tiled", BatchedLeaf::Tiled, None, None),
        load("load1", true),
        load("load2", false),
    ];
    params_table(client, samples, &shapes, &variants);
    // Upper: the transposed views (vector I/O down their columns where it fits), with its
    // block load forced to one trip and to two.
    let mut upper = variants[..6].to_vec();
    upper.extend([load("load1", true), load("load2", false)]);
    uplo_table(client, samples, &shapes, &upper, true);
}

/// The right-looking cutoff (`blocked_below`: diagonal blocks up to this order split off one
/// leaf at a time; 0 = halve recursively all the way, `all` = never halve).
pub fn blocked_sweep(client: &Client, samples: usize) {
    let shapes = POTRF_SWEEP_SHAPES;
    let variants: Vec<_> = [0usize, 512, 1024, 2048, 4096, 8192, usize::MAX]
        .into_iter()
        .map(|c| {
            let label = if c == usize::MAX {
                "all".to_string()
            } else {
                c.to_string()
            };
            let p = CholeskyParams {
                blocked_below: Some(c),
                ..CholeskyParams::default()
            };
            (label, p)
        })
        .collect();
    params_table(client, samples, &shapes, &variants);
}

/// (batch, n) of the potrf sweeps: single matrices 1024…16384 and two batches.
const POTRF_SWEEP_SHAPES: [(usize, usize); 7] = [
    (1, 1024),
    (1, 2048),
    (1, 4096),
    (1, 8192),
    (1, 16384),
    (64, 1024),
    (256, 256),
];

/// potrf against: the Cholesky ops' default GEMM tiles with K windows of 16 instead of 32,
/// each right-looking step's SYRK and the next diagonal block as separate launches, and the
/// diagonal-block kernel without its look-ahead (ms, printed only; session 16's sweep also had
/// fused for batches, a raised right-looking cutoff and K windows of 8 and 64).
pub fn fuse_sweep(client: &Client, samples: usize) {
    use linalg_common::gemm::{GemmConfig, GemmKernel};
    let shapes = POTRF_SWEEP_SHAPES;
    let hw = linalg_common::launch::Hardware::of(client);
    let tiles = cholesky_kernels::CholeskyLaunch::new(&hw, &CholeskyParams::default())
        .map(|l| l.gemm.kernel);
    let variant = |label: &str, fuse: Option<bool>, k: Option<usize>| {
        let gemm = match (k, tiles) {
            (Some(tile_k), Some(GemmKernel::Simt(cfg))) => Some(GemmConfig { tile_k, ..cfg }),
            _ => None,
        };
        let p = CholeskyParams {
            fuse_leaf: fuse,
            gemm,
            ..CholeskyParams::default()
        };
        (label.to_string(), p)
    };
    let variants = [
        variant("default", None, None),
        variant("k16", None, Some(16)),
        variant("separate", Some(false), None),
        (
            "no-la".to_string(),
            CholeskyParams {
                leaf_lookahead: Some(false),
                ..CholeskyParams::default()
            },
        ),
    ];
    params_table(client, samples, &shapes, &variants);
}

/// The diagonal-block kernels (step kernel against the blocked one) at several leaf orders,
/// sub-block orders and K-trip lengths of the blocked kernel (`uN`).
pub fn leaf_sweep(client: &Client, samples: usize, quick: bool) {
    use cholesky_kernels::LeafKernel;
    let shapes = POTRF_SWEEP_SHAPES;
    let variant_ku = |kernel, leaf: usize, sub: Option<usize>, ku: Option<usize>| {
        let mut label = match (kernel, sub) {
            (LeafKernel::Steps, _) => format!("steps{leaf}"),
            (LeafKernel::Blocked, None) => format!("blk{leaf}"),
            (LeafKernel::Blocked, Some(s)) => format!("blk{leaf}/{s}"),
        };
        if let Some(u) = ku {
            label += &format!("u{u}");
        }
        let p = CholeskyParams {
            leaf: Some(leaf),
            leaf_kernel: Some(kernel),
            leaf_sub: sub,
            leaf_unroll: ku,
            ..CholeskyParams::default()
        };
        (label, p)
    };
    let variant_sub = |kernel, leaf, sub| variant_ku(kernel, leaf, sub, None);
    let variant = |kernel, leaf| variant_sub(kernel, leaf, None);
    let variants = [
        variant(LeafKernel::Steps, 64),
        variant(LeafKernel::Blocked, 48),
        variant(LeafKernel::Blocked, 64),
        variant_ku(LeafKernel::Blocked, 64, None, Some(16)),
        variant_ku(LeafKernel::Blocked, 64, None, Some(8)),
        variant_ku(LeafKernel::Blocked, 64, None, Some(4)),
        variant_sub(LeafKernel::Blocked, 64, Some(8)),
        variant_sub(LeafKernel::Blocked, 64, Some(32)),
    ];
    let variants = if quick {
        &variants[2..5]
    } else {
        &variants[..]
    };
    params_table(client, samples, &shapes, variants);
    if quick {
        return;
    }
    // The kernel alone: a batch of small matrices as one launch of the diagonal-block kernel.
    let tiled = |(label, p): (String, CholeskyParams)| {
        let p = CholeskyParams {
            batched_leaf: Some(cholesky_kernels::BatchedLeaf::Tiled),
            ..p
        };
        (label, p)
    };
    let small = [
        (1usize, 64usize),
        (132, 64),
        (1024, 64),
        (1, 32),
        (1024, 32),
    ];
    let variants = [
        tiled(variant(LeafKernel::Steps, 64)),
        tiled(variant(LeafKernel::Blocked, 64)),
    ];
    params_table(client, samples, &small, &variants);
    // Right-looking steps of several leaves (each step's diagonal block factored recursively).
    let variants: Vec<_> = [64usize, 128, 192, 256, 512]
        .into_iter()
        .map(|step| {
            let p = CholeskyParams {
                step: Some(step),
                ..CholeskyParams::default()
            };
            (format!("step{step}"), p)
        })
        .collect();
    params_table(client, samples, &shapes, &variants);
}

/// Solves with few right-hand sides: the GEMM recursion (`trsv_max_k = 0`) against block
/// substitution (the default: a launch per diagonal block) and against the substitution in
/// one launch (`trsv_chain`), ms with the residual of each; then potrf with large SYRK
/// updates of K = leaf on the SIMT GEMM (`big_min_k`).
pub fn trsv_sweep(client: &Client, samples: usize) {
    let hw = linalg_common::launch::Hardware::of(client);
    println!(
        "{:<34} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9} {:>9} {:>9}",
        "op n k",
        "gemm ms",
        "trsv ms",
        "chain ms",
        "ahead ms",
        "resid g",
        "resid t",
        "resid c",
        "resid a"
    );
    for (n, k) in [
        (1024usize, 1usize),
        (4096, 1),
        (4096, 4),
        (4096, 16),
        (16384, 1),
    ] {
        let a = spd_dominant(23, 1, n);
        let ha = client.create_from_slice(f32::as_bytes(&a));
        let l = factor(client, &ha, 1, n, &CholeskyParams::default());
        let lhost = f32::from_bytes(&client.read_one(l.l.clone()).unwrap()).to_vec();
        let bvec = uniform_vec(29, n * k);
        let hb = client.create_from_slice(f32::as_bytes(&bvec));
        for tri in [true, false] {
            let mut cells = Vec::new();
            // The GEMM recursion, one launch per block, one launch with each cube's inverse
            // staged after its wait, and staged ahead of it (`trsv_prefetch`).
            for (max_k, chain, ahead) in [
                (0usize, false, None),
                (16, false, None),
                (16, true, Some(false)),
                (16, true, Some(true)),
            ] {
                let p = CholeskyParams {
                    trsv_max_k: Some(max_k),
                    trsv_chain: Some(chain),
                    trsv_prefetch: ahead,
                    ..CholeskyParams::default()
                };
                if cholesky_kernels::CholeskyLaunch::new(&hw, &p).is_none() {
                    // Refused here (the chain, or the inverse ahead, does not fit).
                    cells.push((f64::NAN, f64::NAN));
                    continue;
                }
                let run = || {
                    let lm = MatrixRef::dense(&l.l, 1, n, n);
                    let bm = MatrixRef::dense(&hb, 1, n, k);
                    if tri {
                        solve_triangular(client, lm, bm, false, true, false, &p)
                    } else {
                        cholesky_solve(client, bm, lm, false, &p)
                    }
                    .expect("solve")
                };
                let x = run().read(client).expect("read");
                let m = if tri { &lhost } else { &a };
                let r = rhs_residual(m, &x.x, &bvec, n, k, tri);
                let (d, w) = measure(client, samples, 0.05, || {
                    let _ = run();
                });
                cells.push((d.unwrap_or(w) * 1e3, r));
            }
            let name = if tri {
                "solve_triangular"
            } else {
                "cholesky_solve"
            };
            print!("{:<34}", format!("{name} {n} {k}"));
            for c in &cells {
                print!(" {:>10.4}", c.0);
            }
            for c in &cells {
                print!(" {:>9.1e}", c.1);
            }
            println!();
        }
    }
    let shapes = [
        (1usize, 1024usize),
        (1, 4096),
        (1, 8192),
        (1, 16384),
        (64, 1024),
    ];
    let variants: Vec<_> = [0usize, 128]
        .into_iter()
        .map(|k| {
            let p = CholeskyParams {
                big_min_k: Some(k),
                ..CholeskyParams::default()
            };
            (format!("bigk{k}"), p)
        })
        .collect();
    params_table(client, samples, &shapes, &variants);
}

/// Solves with fewer right-hand sides than `inv_block`: recursion down to the leaves
/// (`inv_rhs` 0) against whole inverted diagonal blocks of order up to `inv_rhs`·k, ms; the
/// residual of the first right-hand side and the largest |X − X₀| / max |X₀| against the
/// recursion's X₀.
pub fn inv_rhs_sweep(client: &Client, samples: usize, shapes: &[[usize; 3]]) {
    // None: the defaults (for k ≤ trsv_max_k, block substitution); the ratios run without
    // block substitution, so that they apply to any k.
    let ratios = [
        Some(0usize),
        Some(1),
        Some(2),
        Some(4),
        Some(8),
        Some(16),
        Some(32),
        None,
    ];
    print!("{:<36}", "op batch x n, k");
    for r in ratios {
        let label = r.map_or("default".to_string(), |r| format!("rhs{r}"));
        print!(" {:>10}", format!("{label} ms"));
    }
    println!(" {:>9} {:>9}", "resid", "max diff");
    for &[batch, n, k] in shapes {
        let a = spd_dominant(23, batch, n);
        let ha = client.create_from_slice(f32::as_bytes(&a));
        let l = factor(client, &ha, batch, n, &CholeskyParams::default());
        let lhost = f32::from_bytes(&client.read_one(l.l.clone()).unwrap()).to_vec();
        let bvec = uniform_vec(29, batch * n * k);
        let hb = client.create_from_slice(f32::as_bytes(&bvec));
        for tri in [true, false] {
            let mut x0: Option<Vec<f32>> = None;
            let (mut resid, mut diff) = (0.0f64, 0.0f64);
            let name = if tri {
                "solve_triangular"
            } else {
                "cholesky_solve"
            };
            print!("{:<36}", format!("{name} {batch}x{n}, {k}"));
            for r in ratios {
                let p = match r {
                    Some(_) => CholeskyParams {
                        inv_rhs: r,
                        trsv_max_k: Some(0),
                        ..CholeskyParams::default()
                    },
                    None => CholeskyParams::default(),
                };
                let run = || {
                    let lm = MatrixRef::dense(&l.l, batch, n, n);
                    let bm = MatrixRef::dense(&hb, batch, n, k);
                    if tri {
                        solve_triangular(client, lm, bm, false, true, false, &p)
                    } else {
                        cholesky_solve(client, bm, lm, false, &p)
                    }
                    .expect("solve")
                };
                let x = run().read(client).expect("read").x;
                let m = if tri { &lhost } else { &a };
                resid =
                    linalg_common::reference::max_nan(resid, rhs_residual(m, &x, &bvec, n, k, tri));
                if let Some(x0) = &x0 {
                    let big = x0.iter().fold(0.0f32, |m, v| m.max(v.abs())) as f64;
                    let d = x0.iter().zip(&x).fold(0.0f32, |m, (a, b)| {
                        linalg_common::reference::max_nan(m, (a - b).abs())
                    });
                    diff = linalg_common::reference::max_nan(diff, d as f64 / big);
                } else {
                    x0 = Some(x);
                }
                let (d, w) = measure(client, samples, 0.05, || {
                    let _ = run();
                });
                print!(" {:>10.4}", d.unwrap_or(w) * 1e3);
            }
            println!(" {resid:>9.1e} {diff:>9.1e}");
        }
    }
}

/// potrf with the large-update GEMM (the `mma.sync` kernel on GPUs that run it) taking more or
/// fewer updates: from `big_from` rows and columns, from K = `big_min_k`, and with the
/// right-looking cutoff `blocked_below` moved, ms per variant.
pub fn big_sweep(client: &Client, samples: usize) {
    let shapes = [(1usize, 2048usize), (1, 4096), (1, 8192), (1, 16384)];
    let variant = |label: &str, set: fn(&mut CholeskyParams)| {
        let mut p = CholeskyParams::default();
        set(&mut p);
        (label.to_string(), p)
    };
    let variants = [
        variant("default", |_| {}),
        variant("from512", |p| p.big_from = Some(512)),
        variant("from2048", |p| p.big_from = Some(2048)),
        variant("k64", |p| p.big_min_k = Some(64)),
        variant("k256", |p| p.big_min_k = Some(256)),
        variant("rl2048", |p| p.blocked_below = Some(2048)),
        variant("rl8192", |p| p.blocked_below = Some(8192)),
    ];
    params_table(client, samples, &shapes, &variants);
}

/// The TRSMs' inverted diagonal blocks (`inv_block`: 0 = recursion down to the leaves, else
/// the order of the blocks inverted whole and applied as one GEMM), with the default
/// (3×TF32) large updates and with plain TF32 ones (`tf32-…`).
pub fn inv_sweep(client: &Client, samples: usize) {
    let shapes = [(1usize, 4096usize), (1, 8192), (1, 16384), (2, 8192)];
    let variant = |label: &str, inv: usize, big: Option<&str>| {
        let p = CholeskyParams {
            inv_block: Some(inv),
            gemm_big: big.map(gemm_kernel),
            ..CholeskyParams::default()
        };
        (label.to_string(), p)
    };
    let variants = [
        variant("inv0", 0, None),
        variant("inv512", 512, None),
        variant("inv1024", 1024, None),
        variant("inv2048", 2048, None),
        variant("tf32-0", 0, Some("mma-tf32")),
        variant("tf32-1024", 1024, Some("mma-tf32")),
        variant("tf32-2048", 2048, Some("mma-tf32")),
    ];
    params_table(client, samples, &shapes, &variants);
    // Triangular solves with n right-hand sides (lower, left, 4096²): ms, and the largest
    // difference from the recursion's X.
    let n = 4096;
    let t = spd_dominant(5, 1, n);
    let b = uniform_vec(6, n * n);
    let ht = client.create_from_slice(f32::as_bytes(&t));
    let hb = client.create_from_slice(f32::as_bytes(&b));
    let tm = MatrixRef::dense(&ht, 1, n, n);
    let bm = MatrixRef::dense(&hb, 1, n, n);
    let mut first: Option<Vec<f32>> = None;
    println!("solve_triangular 1x{n}, {n} right-hand sides (ms, max |X - X_inv0|)");
    for (label, p) in &variants[..4] {
        let x = solve_triangular(client, tm, bm, false, true, false, p)
            .expect("solve")
            .read(client)
            .expect("read")
            .x;
        let diff = first.as_ref().map_or(0.0, |f| {
            f.iter()
                .zip(&x)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, linalg_common::reference::max_nan)
        });
        first.get_or_insert(x);
        let (d, w) = measure(client, samples, 0.05, || {
            let _ = solve_triangular(client, tm, bm, false, true, false, p).expect("solve");
        });
        println!("{label:>10} {:>9.4} {diff:>9.1e}", d.unwrap_or(w) * 1e3);
    }
}

/// potrf by leaf order: 64 (the default), 128 with the default 64 × 64 GEMM tiles (the SYRK
/// and the next diagonal block in separate launches), and 128 with 128 × 128 vector tiles
/// (fused, as 64 is); each also with TF32 updates.
pub fn leaf_order_sweep(client: &Client, samples: usize, shapes: &[(usize, usize)]) {
    use linalg_common::gemm::GemmConfig;
    let tiles128 = GemmConfig {
        units_x: 16,
        units_y: 16,
        tm: 8,
        tn: 8,
        tile_k: 32,
        unroll: true,
        vector: true,
    };
    let variant = |label: &str, leaf: usize, gemm: Option<GemmConfig>, big: Option<&str>| {
        let p = CholeskyParams {
            leaf: Some(leaf),
            gemm,
            gemm_big: big.map(gemm_kernel),
            ..CholeskyParams::default()
        };
        (label.to_string(), p)
    };
    let variants = [
        variant("leaf64", 64, None, None),
        variant("leaf128", 128, None, None),
        variant("leaf128f", 128, Some(tiles128), None),
        variant("tf32-64", 64, None, Some("mma-tf32")),
        variant("tf32-128f", 128, Some(tiles128), Some("mma-tf32")),
    ];
    params_table(client, samples, shapes, &variants);
}

/// The GEMM that applies a diagonal block's inverse in place (each right-looking step's
/// panel, the TRSM leaves) by tiling: the default 64 × 32 vector tiles ([`SOLVE_TILES`])
/// against `gemm`'s 64 × 64 and other shapes (`v`: 4-vector tiles, `kN`: K windows of N,
/// `Nu`: N units). Then solve_triangular 4096² with 128 right-hand sides (lower, left)
/// under each.
///
/// [`SOLVE_TILES`]: cholesky_kernels::SOLVE_TILES
pub fn solve_sweep(client: &Client, samples: usize, shapes: &[(usize, usize)]) {
    use linalg_common::gemm::GemmConfig;
    let tiles = |ux: usize, uy: usize, tm: usize, tn: usize, k: usize, vector: bool| GemmConfig {
        units_x: ux,
        units_y: uy,
        tm,
        tn,
        tile_k: k,
        unroll: true,
        vector,
    };
    let variant = |label: &str, cfg: Option<GemmConfig>| {
        let p = CholeskyParams {
            solve_gemm: cfg,
            ..CholeskyParams::default()
        };
        (label.to_string(), p)
    };
    // Session 26's run 2 had 64x32 scalar, 64x16 scalar (K windows of 32 and 64) and 64x8
    // scalar too, all slower than the 64x32 vector tiles that became the default.
    let variants = [
        variant("default", None),
        variant("64x64v", Some(tiles(16, 16, 4, 4, 32, true))),
        variant("64x32v-k16", Some(tiles(8, 16, 4, 4, 16, true))),
        variant("64x32v-k64", Some(tiles(8, 16, 4, 4, 64, true))),
        variant("64x64v-128u", Some(tiles(8, 16, 4, 8, 32, true))),
        variant("64x32v-64u", Some(tiles(4, 16, 4, 8, 32, true))),
        variant("64x16v", Some(tiles(4, 16, 4, 4, 32, true))),
    ];
    params_table(client, samples, shapes, &variants);
    let n = 4096;
    let k = 128;
    let t = spd_dominant(5, 1, n);
    let b = uniform_vec(6, n * k);
    let ht = client.create_from_slice(f32::as_bytes(&t));
    let hb = client.create_from_slice(f32::as_bytes(&b));
    let tm = MatrixRef::dense(&ht, 1, n, n);
    let bm = MatrixRef::dense(&hb, 1, n, k);
    println!("solve_triangular 1x{n}, {k} right-hand sides (ms)");
    for (label, p) in &variants {
        if solve_triangular(client, tm, bm, false, true, false, p).is_err() {
            println!("{label:>10} {:>9}", "refused");
            continue;
        }
        let (d, w) = measure(client, samples, 0.05, || {
            let _ = solve_triangular(client, tm, bm, false, true, false, p).expect("solve");
        });
        println!("{label:>10} {:>9.4}", d.unwrap_or(w) * 1e3);
    }
}
