//! Compile the 3×TF32 `mma.sync` GEMM kernel (`linalg_common::gemm_mma`), or Cholesky's
//! batched rows kernel, for CUDA sm_90 on a host without a GPU, through the CUDA backend's default LLVM path, and print the LLVM IR or
//! the compiler's error. It reproduces here what a launch on the H200 would compile, so kernel
//! code can be checked without device time (session 20 found an inline-PTX variant's
//! verification failure this way).
//!
//! ```sh
//! source scripts/offline-llvm.sh
//! cargo run --release --no-default-features --features "cuda cpu" --target-dir target-cuda \
//!     --example ptx_probe -- [acm] [bcm] [sh] [tf32] [stored] [tiles=...] > kernel.ll
//! cargo run ... --example ptx_probe -- rows [NB] [scalar | cols [whole]] [units=U] > rows.ll
//! cargo run ... --example ptx_probe -- fused > fused.ll
//! cargo run ... --example ptx_probe -- panel > panel.ll
//! cargo run ... --example ptx_probe -- vec [set] > vec.ll
//! cargo run ... --example ptx_probe -- qpanel [P NB GY] > qpanel.ll
//! cargo run ... --example ptx_probe -- recon [NB] [old] > recon.ll
//! ```
//! Without arguments, `MMA_DEFAULT`. `acm` / `bcm`: A / B column-major; `sh`: the sums in
//! shared memory; `tf32`: one TF32 product per step instead of three; `stored`: the windows
//! split when stored instead of on read (`sh stored`: session 23's default);
//! `tiles=2x4x4x4x32x128`: another tiling (warps_m × warps_n × tiles_m × tiles_n × tile_k ×
//! flush_k). `rows`: the batched rows kernel of Cholesky
//! (`cholesky_kernels::potrf::rows_kernel`) at order NB (64), one matrix per cube, a unit per
//! row (`units=U`: U units; the GPU default at 64 is `units=32`), with vector I/O (`scalar`:
//! without; `cols`: down the columns of upper's transposed views, `whole`: their block load in
//! one trip). `fused`: potrf's fused SYRK + next
//! diagonal block (`cholesky_kernels::potrf::syrk_leaf_kernel`) with the H200's defaults
//! (`scripts/local-sass.sh fused` prints its registers and spills; session 31 found a variant's
//! spill that way). `vec [set]`: the SIMT GEMM with 4-vector tiles at the GPU default
//! tiling, C −= A·B (`set`: C = A·B). `qpanel`: geqrf's register panel kernel.
//! `recon [NB] [old]`: the top block of geqrf's Householder reconstruction with a unit per
//! row (`old`: per element), for panels of NB columns (32; the per-row kernel serves at most
//! 32, wider ones compile slowly). With `PTX=1` in the environment it prints the PTX the CUDA
//! runtime hands the driver instead of the IR (`scripts/local-sass.sh` assembles that into
//! SASS).
use cholesky_kernels::RowsConfig;
use cholesky_kernels::potrf::rows_kernel;
use cubecl::prelude::*;
use linalg_common::gemm::{GemmOp, Layout, MatArgsLaunch, StridesLaunch, View};
use linalg_common::gemm_mma::{MMA_DEFAULT, MmaTiles, gemm_mma_kernel};
use linalg_common::launch::Hardware;
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // The CPU runtime supplies device properties and buffers for the kernel's arguments; the
    // target properties are CUDA's.
    let client = cubecl::Device::cpu().expect("cpu runtime").client();
    let props = Arc::new(client.properties().clone());
    let target =
        Arc::new(<cubecl::cuda::CudaRuntime as cubecl::__private::Runtime>::target_properties());
    let h = client.empty(64);
    // SAFETY: the kernels are only defined and compiled, never launched.
    let arg = || unsafe { BufferArg::from_raw_parts(h.clone(), 16) };
    if args.get(1).map(String::as_str) == Some("rows") {
        let nb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(64);
        let units = args
            .iter()
            .find_map(|a| a.strip_prefix("units=").and_then(|u| u.parse().ok()))
            .unwrap_or(nb);
        let cfg = RowsConfig {
            nb,
            units,
            mats: 1,
            unroll: true,
            vec: !args.iter().any(|a| a == "scalar"),
            cols: args.iter().any(|a| a == "cols"),
            load_whole: args.iter().any(|a| a == "whole"),
        };
        // `cols`: upper's transposed views (columns contiguous).
        let strides = || {
            if cfg.cols {
                StridesLaunch::new(0, 1, nb, nb * nb)
            } else {
                StridesLaunch::new(0, nb, 1, nb * nb)
            }
        };
        compile(&rows_kernel::create_dummy_kernel::<f32>(
            props,
            target,
            CubeCount::Static(1, 1, 1),
            CubeDim::new_1d(units as u32),
            arg(),
            arg(),
            arg(),
            arg(),
            strides(),
            strides(),
            nb,
            1,
            cfg,
        ));
        return;
    }
    // `panel`: Cholesky's panel solve on tensor cores (`potrf/panel_mma.rs`).
    // `psolve`: potrf's panel solve by substitution (`potrf/panel_solve.rs`) at the Hopper
    // shape (leaf 64, 16 lanes per row, 512 units).
    if args.get(1).map(String::as_str) == Some("psolve") {
        use cholesky_kernels::potrf::{PanelSolveConfig, panel_solve_kernel};
        let cfg = PanelSolveConfig::new(&Hardware::hopper(), 64).expect("config");
        let v = View::contiguous(64, 64);
        compile(&panel_solve_kernel::create_dummy_kernel::<f32>(
            props,
            target,
            CubeCount::Static(1, 1, 1),
            CubeDim::new_1d(cfg.units as u32),
            arg(),
            arg(),
            v.launch_arg(),
            v.launch_arg(),
            64,
            1,
            cfg,
        ));
        return;
    }
    if args.get(1).map(String::as_str) == Some("panel") {
        use cholesky_kernels::potrf::panel_mma_kernel;
        let v = View::contiguous(64, 64);
        compile(&panel_mma_kernel::create_dummy_kernel::<f32>(
            props,
            target,
            CubeCount::Static(1, 1, 1),
            CubeDim::new_1d(256),
            arg(),
            arg(),
            v.launch_arg(),
            v.launch_arg(),
            64,
            1,
        ));
        return;
    }
    // `fused [M] [global|early] [mma [leaf]] [subst [plane|subinv]] [square]`: Cholesky's fused SYRK + diagonal block (`potrf/fused.rs`) at
    // the H200's defaults (leaf 64, 256 units; staged, C loaded after the product) for an
    // update of M rows (default 4032, potrf 4096's first step); `global`: the block through
    // global memory; `early`: staged with C loaded with the product's first loads; `mma`: the
    // update cubes on tensor cores (`CholeskyParams::fused_mma`); `leaf`: the block's cube too;
    // `subst`: the block factored without its inverse (a single matrix's default stage);
    // `plane`: with `subst`, by plane 0 alone (`CholeskyParams::leaf_plane`); `subinv`:
    // with `subst`, the sub-blocks inverted and their panels multiplied by the inverses
    // (`leaf_subst` off); `square`: the square grid (`fused_tri_grid` off).
    if args.get(1).map(String::as_str) == Some("fused") {
        let m: usize = args.get(2).map_or(4032, |v| v.parse().expect("M"));
        let global = args.iter().any(|a| a == "global");
        let early = args.iter().any(|a| a == "early");
        let mma = args.iter().any(|a| a == "mma");
        use cholesky_kernels::potrf::{SYRK_LEAF_STAGE, SYRK_OP, syrk_leaf_kernel};
        use cholesky_kernels::{CholeskyLaunch, CholeskyParams};
        let params = CholeskyParams {
            leaf_plane: Some(args.iter().any(|a| a == "plane")),
            leaf_subst: args.iter().any(|a| a == "subinv").then_some(false),
            ..CholeskyParams::default()
        };
        let launch = CholeskyLaunch::new(&Hardware::hopper(), &params).expect("launch");
        let (gcfg, lcfg) = launch.fused_leaf(m, 64, 1).expect("fused");
        let v = View::contiguous(4, 4);
        compile(&syrk_leaf_kernel::create_dummy_kernel::<f32>(
            props,
            target,
            CubeCount::Static(1, 1, 1),
            CubeDim::new_1d(gcfg.units() as u32),
            arg(),
            arg(),
            arg(),
            arg(),
            arg(),
            MatArgsLaunch::new(4, 4, 4, 1, 1, 4, 1, 0, 0),
            v.launch_arg(),
            v.launch_arg(),
            v.launch_arg(),
            v.launch_arg(),
            v.launch_arg(),
            4,
            0,
            gcfg,
            lcfg,
            SYRK_OP,
            Layout {
                a_col_major: false,
                b_col_major: true,
            },
            cholesky_kernels::LeafStage {
                invert: !args.iter().any(|a| a == "subst"),
                ..SYRK_LEAF_STAGE
            },
            !global && launch.fused_staged(),
            early || launch.fused_c_first,
            true,
            mma,
            mma && args.iter().any(|a| a == "leaf"),
            launch.fused_tri_grid && !args.iter().any(|a| a == "square"),
        ));
        return;
    }
    // `qpanel [P] [NB] [GY] [grid ROWS] [pairs|segs] [pollall]`: geqrf's register panel kernel
    // (`geqrf/panel_regs.rs`), factoring a P × NB panel (default 1024 × 32) with about GY row
    // groups (16), U = V·Tᵀ; with `grid`, as a grid panel of cubes of about ROWS rows; with
    // `pairs`, two columns per reduction (`RegPanelConfig::pairs`); with `segs`, lane segments
    // (`RegPanelConfig::segs`); with `pollall`, `RegPanelConfig::poll_all` (grid panels).
    if args.get(1).map(String::as_str) == Some("qpanel") {
        use qr_kernels::geqrf::{RegPanelConfig, panel_regs_kernel};
        let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
        let (p, nb, gy) = (num(2, 1024), num(3, 32), num(4, 16));
        let grid = (args.get(5).map(String::as_str) == Some("grid")).then(|| num(6, 256));
        let cfg = match grid {
            Some(rows) => {
                RegPanelConfig::grid(&Hardware::hopper(), nb, gy, p, rows, 1).map(|(c, _)| c)
            }
            None => RegPanelConfig::new(&Hardware::hopper(), nb, gy, p, true, true),
        };
        let cfg = cfg.unwrap_or_else(|| {
            eprintln!("no register panel kernel for {p} × {nb} with {gy} row groups");
            std::process::exit(2);
        });
        let cfg = RegPanelConfig {
            pairs: args.iter().any(|a| a == "pairs"),
            segs: args.iter().any(|a| a == "segs"),
            poll_all: args.iter().any(|a| a == "pollall"),
            ..cfg
        };
        let strides = StridesLaunch::new(0, nb, 1, p * nb);
        macro_rules! qpanel {
            ($x:ty) => {
                compile(&panel_regs_kernel::create_dummy_kernel::<f32, $x>(
                    props,
                    target,
                    CubeCount::Static(1, 1, 1),
                    CubeDim::new_1d(cfg.units() as u32),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    strides,
                    0,
                    nb,
                    p * nb,
                    p,
                    nb,
                    1,
                    0,
                    2,
                    cfg,
                ))
            };
        }
        if cfg.grid {
            qpanel!(u64);
        } else {
            qpanel!(u32);
        }
        return;
    }
    // `qahead [P] [NB] [GY] [grid ROWS] [strips] [pairs|segs] [pollall]`: geqrf's look-ahead kernel
    // (`geqrf/lookahead.rs`): the register panel kernel as `qpanel` builds it, after its rows
    // of C −= U·W, in one launch with the update's GEMM tiles (`strips`: its column strips).
    if args.get(1).map(String::as_str) == Some("qahead") {
        let strips = args.iter().any(|a| a == "strips");
        use qr_kernels::geqrf::{AheadLaunch, RegPanelConfig, ahead_tiles, lookahead_kernel};
        let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
        let (p, nb, gy) = (num(2, 1024), num(3, 32), num(4, 16));
        let grid = (args.get(5).map(String::as_str) == Some("grid")).then(|| num(6, 256));
        let cfg = match grid {
            Some(rows) => {
                RegPanelConfig::grid(&Hardware::hopper(), nb, gy, p, rows, 1).map(|(c, _)| c)
            }
            None => RegPanelConfig::new(&Hardware::hopper(), nb, gy, p, true, true),
        };
        let Some((cfg, gcfg)) = cfg.and_then(|c| Some((c, ahead_tiles(c.units())?))) else {
            eprintln!("no look-ahead kernel for {p} × {nb} with {gy} row groups");
            std::process::exit(2);
        };
        let cfg = RegPanelConfig {
            pairs: args.iter().any(|a| a == "pairs"),
            segs: args.iter().any(|a| a == "segs"),
            poll_all: args.iter().any(|a| a == "pollall"),
            ..cfg
        };
        let strides = || StridesLaunch::new(0, nb, 1, p * nb);
        macro_rules! qahead {
            ($x:ty) => {
                compile(&lookahead_kernel::create_dummy_kernel::<f32, $x>(
                    props,
                    target,
                    CubeCount::Static(2, 1, 1),
                    CubeDim::new_1d(cfg.units() as u32),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    strides(),
                    0,
                    nb,
                    p * nb,
                    p,
                    nb,
                    1,
                    0,
                    2,
                    AheadLaunch::new(nb, p * nb, p, nb * p, 1),
                    MatArgsLaunch::new(p, p, nb, 1, 1, nb, 1, 0, 0),
                    strides(),
                    strides(),
                    strides(),
                    cfg,
                    gcfg,
                    strips,
                ))
            };
        }
        if cfg.grid {
            qahead!(u64);
        } else {
            qahead!(u32);
        }
        return;
    }
    // `qproduct [PLANES STEPS FLUSH]`: geqrf's register product kernel (`geqrf/product.rs`).
    if args.get(1).map(String::as_str) == Some("qproduct") {
        use qr_kernels::geqrf::{PRODUCT_DEFAULT, ProductConfig, product_kernel};
        let num = |i: usize, d: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
        let cfg = ProductConfig {
            planes: num(2, PRODUCT_DEFAULT.planes),
            steps: num(3, PRODUCT_DEFAULT.steps),
            flush_steps: num(4, PRODUCT_DEFAULT.flush_steps),
        };
        let Some(cfg) = ProductConfig::new(&Hardware::hopper(), cfg) else {
            eprintln!("no product kernel for {cfg:?}");
            std::process::exit(2);
        };
        let strides = || StridesLaunch::new(0, 32, 1, 1024 * 32);
        compile(&product_kernel::create_dummy_kernel(
            props,
            target,
            CubeCount::Static(2, 1, 1),
            CubeDim::new_1d(cfg.units() as u32),
            arg(),
            arg(),
            arg(),
            arg(),
            arg(),
            strides(),
            strides(),
            strides(),
            1024,
            32,
            32,
            1,
            2,
            cfg,
        ));
        return;
    }
    // `recon [NB] [old]`: the top block of geqrf's Householder reconstruction
    // (`geqrf/recon.rs`) for panels of NB columns (32), a unit per row (`old`: per element).
    if args.get(1).map(String::as_str) == Some("recon") {
        use qr_kernels::geqrf::{ReconConfig, recon_top_kernel, recon_top_rows_kernel};
        let nb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(32);
        let cfg = ReconConfig {
            nb,
            units: 1024,
            rows: 32,
            unroll: true,
            top_rows: !args.iter().any(|a| a == "old"),
        };
        let strides = StridesLaunch::new(0, nb, 1, 4096 * nb);
        let units = if cfg.top_rows {
            cfg.top_units()
        } else {
            cfg.units
        };
        macro_rules! top {
            ($kernel:path) => {
                compile(&$kernel(
                    props,
                    target,
                    CubeCount::Static(1, 1, 1),
                    CubeDim::new_1d(units as u32),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    arg(),
                    strides,
                    0,
                    nb,
                    4096 * nb,
                    4096,
                    nb,
                    1,
                    cfg,
                ))
            };
        }
        if cfg.top_rows {
            top!(recon_top_rows_kernel::create_dummy_kernel::<f32>);
        } else {
            top!(recon_top_kernel::create_dummy_kernel::<f32>);
        }
        return;
    }
    // `vec [set]`: the SIMT GEMM with 4-vector tiles (`gemm_vec.rs`) at the GPU default
    // tiling (64 × 64, 4 × 4 per unit, K windows of 16), C −= A·B (`set`: C = A·B).
    if args.get(1).map(String::as_str) == Some("vec") {
        use linalg_common::gemm::VEC_TILES;
        use linalg_common::gemm_vec::gemm_vec_kernel;
        let cfg = VEC_TILES;
        let set = args.iter().any(|a| a == "set");
        let op = GemmOp {
            accumulate: !set,
            negate: !set,
            ..GemmOp::SET
        };
        let v = View::contiguous(4, 4);
        compile(&gemm_vec_kernel::create_dummy_kernel::<f32>(
            props,
            target,
            CubeCount::Static(1, 1, 1),
            CubeDim::new_1d(cfg.units() as u32),
            arg(),
            arg(),
            arg(),
            MatArgsLaunch::new(4, 4, 4, 1, 1, 4, 1, 0, 0),
            v.launch_arg(),
            v.launch_arg(),
            v.launch_arg(),
            cfg,
            op,
            Layout {
                a_col_major: false,
                b_col_major: false,
            },
        ));
        return;
    }
    let mut cfg = MmaTiles {
        sums_in_shared: args.iter().any(|a| a == "sh"),
        compensated: !args.iter().any(|a| a == "tf32"),
        split_on_read: !args.iter().any(|a| a == "stored"),
        ..MMA_DEFAULT
    };
    // `tiles=WMxWNxTMxTNxKxF`: warps_m, warps_n, tiles_m, tiles_n, tile_k, flush_k.
    if let Some(t) = args.iter().find_map(|a| a.strip_prefix("tiles=")) {
        let v: Vec<usize> = t.split('x').filter_map(|x| x.parse().ok()).collect();
        if let [wm, wn, tm, tn, k, f] = v[..] {
            cfg = MmaTiles {
                warps_m: wm,
                warps_n: wn,
                tiles_m: tm,
                tiles_n: tn,
                tile_k: k,
                flush_k: f,
                ..cfg
            };
        } else {
            eprintln!("tiles=WMxWNxTMxTNxKxF expects six numbers");
            std::process::exit(2);
        }
    }
    let v = View::contiguous(4, 4);
    let layout = Layout {
        a_col_major: args.iter().any(|a| a == "acm"),
        b_col_major: args.iter().any(|a| a == "bcm"),
    };
    let op = GemmOp {
        accumulate: true,
        negate: true,
        lower_only: false,
        a_lower: false,
    };
    compile(&gemm_mma_kernel::create_dummy_kernel(
        props,
        target,
        CubeCount::Static(1, 1, 1),
        CubeDim::new_1d(cfg.units() as u32),
        arg(),
        arg(),
        arg(),
        MatArgsLaunch::new(4, 4, 4, 1, 1, 4, 1, 0, 0),
        v.launch_arg(),
        v.launch_arg(),
        v.launch_arg(),
        cfg,
        op,
        layout,
    ));
}

/// Compile a kernel for sm_90 and print the LLVM IR, or with `PTX=1` the PTX (exit 1 on
/// failure).
fn compile<K: cubecl::CubeKernel>(kernel: &K) {
    let def = cubecl::CubeKernel::define(kernel);
    let mut compiler = cubecl::cuda::CudaCompiler::default();
    let opts = cubecl::cuda::CudaCompilationOptions {
        arch: Some(cubecl::ir::nvidia::SmArch::new(90, true)),
        ..Default::default()
    };
    match cubecl_server::compiler::Compiler::compile(&mut compiler, def, &opts) {
        Ok(cubecl::cuda::CudaRepresentation::Llvm(m)) if std::env::var_os("PTX").is_some() => {
            // The PTX the CUDA runtime hands the driver (as loaded on a device).
            let bytes: Vec<u8> = m.ptx.iter().map(|&c| c as u8).collect();
            print!("{}", String::from_utf8_lossy(&bytes).trim_end_matches('\0'));
        }
        Ok(repr) => println!("{repr}"),
        Err(e) => {
            eprintln!("compilation failed: {e:?}");
            std::process::exit(1);
        }
    }
}
