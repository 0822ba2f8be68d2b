//! Cholesky factorization, torch.linalg.cholesky_ex semantics: A = L·Lᵀ (lower) or A = Uᵀ·U
//! (`upper`), for `batch` SPD n×n matrices, of which only the selected triangle is used.
//!
//! n ≤ leaf: one launch reads the input and writes the factor — by default the right-looking
//! kernel with each matrix's rows in registers (`rows.rs`), where they fit; else (or by
//! parameter) the left-looking kernel with a small cube per matrix (`small.rs`) or the
//! register-tiled one (`leaf.rs`).
//! Larger n: the lower triangle (Aᵀ's for `upper`) is copied to a working buffer (the output
//! itself for lower) with a non-finite check, then factored in place recursively:
//! POTRF(A11) → TRSM: L11·X = A21ᵀ (so A21 ← A21·L11⁻ᵀ, recursive on GEMM) → SYRK:
//! A22 −= A21·A21ᵀ (recursive on GEMM) → POTRF(A22), splitting at multiples of the leaf size:
//! in halves above `blocked_below`, one `step` (default: one leaf) at a time below it
//! (right-looking: each step is a leaf, one TRSM GEMM and one SYRK GEMM that fill the device,
//! instead of chains of small ones). The leaves run `blocked.rs` (default) or `leaf.rs`; for a
//! single matrix a step's SYRK and the next leaf are one launch (`fused.rs`); a step's panel
//! solve runs, with leaves factored without their inverses, by substitution from L11
//! (`panel_solve.rs`, `CholeskyParams::step_substitution`, the default for single matrices; the
//! inverses a TRSM of the recursion needs are then formed in one launch after its A11), or
//! else as a TRSM GEMM with L11⁻¹, or on tensor cores (`panel_mma.rs`, opt-in).
//! For `upper`, U = Lᵀ is written by one transposing copy.
mod blocked;
mod fused;
mod graph;
mod leaf;
mod panel_mma;
mod panel_solve;
mod rows;
mod small;

/// The fused step and its comptime operation and stage, public only for
/// `examples/ptx_probe.rs` (compiled, never launched).
#[doc(hidden)]
pub use fused::{SYRK_LEAF_STAGE, SYRK_OP, syrk_leaf_kernel};
pub use graph::PotrfGraph;
/// The steps' panel solve on tensor cores, public only for `examples/ptx_probe.rs`.
#[doc(hidden)]
pub use panel_mma::panel_mma_kernel;
/// The steps' panel solve by substitution, public only for `examples/ptx_probe.rs`.
#[doc(hidden)]
pub use panel_solve::{PanelSolveConfig, panel_solve_kernel};
/// The batched rows kernel, public only for `examples/ptx_probe.rs` (compiled, never launched).
#[doc(hidden)]
pub use rows::rows_kernel;

use crate::config::{BatchedLeaf, LeafConfig, LeafStage, RowsConfig, SmallConfig};
use crate::syrk::syrk_rec;
use crate::trsm::{BlockInverses, trsm};
use crate::{CholeskyError, CholeskyParams, Ctx, MatrixRef, check_flags, read_prefix, split};
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::copy::{CopyConfig, launch_copy};
use linalg_common::gemm::{Operand, View, batch_grid};

/// Device result of [`potrf`]: the factor `[batch, n, n]` contiguous, `info` (u32 per matrix:
/// 0 = success, else the 1-based order of the first leading minor that is not positive
/// definite) and a per-matrix non-finite flag. Nothing synchronised yet.
#[derive(Debug, Clone)]
pub struct CholeskyOutput {
    pub l: Handle,
    pub info: Handle,
    pub nonfinite: Handle,
    pub batch: usize,
    pub n: usize,
}

/// Host copy of a factorization.
#[derive(Debug, Clone, PartialEq)]
pub struct HostCholesky {
    pub l: Vec<f32>,
    pub info: Vec<u32>,
    pub batch: usize,
    pub n: usize,
}

impl CholeskyOutput {
    /// Synchronise and read the factor and `info`; non-finite input becomes
    /// [`CholeskyError::NonFinite`] (a failed factorization does not: that is `info`).
    pub fn read(self, client: &Client) -> Result<HostCholesky, CholeskyError> {
        check_flags(client, self.nonfinite)?;
        let l = read_prefix(client, self.l, self.batch * self.n * self.n)?;
        let info = read_prefix(client, self.info, self.batch)?;
        Ok(HostCholesky {
            l,
            info,
            batch: self.batch,
            n: self.n,
        })
    }
}

/// Factor `a` (validated up front; launches only, no synchronisation).
pub fn potrf(
    client: &Client,
    a: MatrixRef,
    upper: bool,
    params: &CholeskyParams,
) -> Result<CholeskyOutput, CholeskyError> {
    let n = crate::square(&a, "a")?;
    let ctx = Ctx::new(client, params, a.batch)?;
    ctx.check_grid(n, n)?;
    Ok(potrf_in(&ctx, a, n, upper))
}

/// [`potrf`] on a validated input, in `ctx` (which records every buffer allocated).
pub(crate) fn potrf_in(ctx: &Ctx, a: MatrixRef, n: usize, upper: bool) -> CholeskyOutput {
    let batch = a.batch;
    let out = ctx.buffer(batch * n * n);
    // Vector I/O for the rows kernel: the input's rows (the new factor is contiguous, so its
    // rows fit wherever n does; with upper the kernel reads both transposed, down columns).
    let vec_fits = RowsConfig::vec_fits(&a.view, a.handle.offset_start.unwrap_or(0), n, batch);
    let small = if n <= ctx.launch.leaf.nb && !a.is_empty() {
        match ctx.launch.batched_leaf {
            BatchedLeaf::Rows => ctx
                .launch
                .rows_for(n, vec_fits, upper, batch)
                .map(Small::Rows)
                .or_else(|| ctx.launch.small_for(n).map(Small::Crout)),
            BatchedLeaf::Crout => ctx.launch.small_for(n).map(Small::Crout),
            BatchedLeaf::Tiled => None,
        }
    } else {
        None
    };
    // The small kernel writes `info` and the flags of every matrix: no zeroed upload.
    let (info, nonfinite) = if small.is_some() {
        (ctx.buffer(batch).0, ctx.buffer(batch).0)
    } else {
        (ctx.flags(), ctx.flags())
    };
    let result = CholeskyOutput {
        l: out.0.clone(),
        info: info.clone(),
        nonfinite: nonfinite.clone(),
        batch,
        n,
    };
    if a.is_empty() {
        return result;
    }
    // Work on lower triangles: Aᵀ's lower triangle is A's upper one.
    let src = a
        .operand()
        .with_view(if upper { a.view.t() } else { a.view });
    let dense = View::contiguous(n, n);
    let dst = Operand::new(&out.0, out.1, if upper { dense.t() } else { dense });
    if n <= ctx.launch.leaf.nb {
        if let Some(kernel) = small {
            launch_small(ctx, kernel, src, dst, &info, &nonfinite, n);
            return result;
        }
        let stage = LeafStage {
            factor: true,
            invert: false,
            unit_diag: false,
            check: true,
        };
        let cfg = ctx.launch.leaf_for(n);
        launch_leaf(ctx, cfg, stage, src, dst, dst, &info, &nonfinite, n, 0, 1);
        return result;
    }
    let work = if upper {
        ctx.buffer(batch * n * n)
    } else {
        out.clone()
    };
    let lower_copy = CopyConfig {
        lower: true,
        write: true,
        check: false,
        identity: false,
        skip_diag: false,
        vec: false,
    };
    // The input copy (with its non-finite check) in 4-vectors where the rows allow it.
    launch_copy(
        ctx.client,
        ctx.launch.hw(),
        ctx.batch,
        (src.handle, src.len, src.view),
        (&work.0, work.1, dense),
        &nonfinite,
        CopyConfig {
            check: true,
            vec: true,
            ..lower_copy
        },
    );
    let w = Operand::new(&work.0, work.1, dense);
    let inv = BlockInverses::new(ctx, n);
    potrf_rec(ctx, w, 0, &inv, &info, &nonfinite, false, 0);
    if upper {
        launch_copy(
            ctx.client,
            ctx.launch.hw(),
            ctx.batch,
            (&work.0, work.1, dense),
            (&out.0, out.1, dst.view),
            &nonfinite,
            lower_copy,
        );
    }
    result
}

/// Host convenience: upload a contiguous `[batch, n, n]` / `[n, n]` array, factor, read back.
pub fn potrf_host(
    client: &Client,
    a: &[f32],
    shape: &[usize],
    upper: bool,
    params: &CholeskyParams,
) -> Result<HostCholesky, CholeskyError> {
    let needed: usize = shape.iter().product();
    if a.len() != needed {
        return Err(CholeskyError::DataLength {
            needed,
            got: a.len(),
        });
    }
    let handle = client.create_from_slice(f32::as_bytes(a));
    let m = MatrixRef::contiguous(&handle, shape, "a")?;
    potrf(client, m, upper, params)?.read(client)
}

/// Factor the diagonal block `w` (in place) whose first row is row `d0` of the matrix; the
/// leaves also store the inverses of their L blocks for the TRSMs.
///
/// `leaf_done`: the block's leading leaf is already factored and inverted (a fused SYRK did it).
/// `region`: the order of the right-looking region `w` continues (0 where it starts none).
#[allow(clippy::too_many_arguments)]
fn potrf_rec(
    ctx: &Ctx,
    w: Operand,
    d0: usize,
    inv: &BlockInverses,
    info: &Handle,
    flags: &Handle,
    leaf_done: bool,
    region: usize,
) {
    let s = w.view.rows;
    let nb = ctx.launch.leaf.nb;
    let subst = ctx.launch.substitutes(ctx.batch);
    if s <= nb {
        if leaf_done {
            return;
        }
        // Without its inverse where the steps solve by substitution (a TRSM that needs it
        // forms it: below).
        let stage = LeafStage {
            factor: true,
            invert: !subst,
            unit_diag: false,
            check: false,
        };
        let slot = inv.block(d0 / nb, nb);
        launch_leaf(
            ctx,
            ctx.launch.leaf,
            stage,
            w,
            w,
            slot,
            info,
            flags,
            s,
            d0,
            1,
        );
        return;
    }
    let step = ctx.launch.step;
    let stepping = s <= ctx.launch.blocked_below && s > step;
    let n1 = if stepping { step } else { split(s, nb) };
    // The order at which this right-looking region started stepping (0: not stepping).
    let region = if !stepping {
        0
    } else if region == 0 {
        s
    } else {
        region
    };
    let n2 = s - n1;
    let v = w.view;
    let a11 = w.with_view(v.block(0, 0, n1, n1));
    let a21 = w.with_view(v.block(n1, 0, n2, n1));
    let a22 = w.with_view(v.block(n1, n1, n2, n2));
    potrf_rec(ctx, a11, d0, inv, info, flags, leaf_done, 0);
    // A step of one leaf solves its panel by substitution from L11
    // (`CholeskyParams::step_substitution`: its leaf has no inverse) or on tensor cores
    // (`CholeskyParams::panel_mma`).
    let solved = n1 == nb
        && if subst {
            panel_solve::launch_panel_solve(ctx, a21, a11)
        } else {
            panel_mma::launch_panel_mma(ctx, a21, inv.block(d0 / nb, nb))
        };
    if !solved {
        if subst {
            // The TRSM applies the inverses of A11's blocks, factored without them.
            inv.invert(ctx, a11, true, false, d0 / nb, flags);
        }
        trsm(ctx, a11, true, inv, d0 / nb, a21.with_view(a21.view.t()));
    }
    let d2 = d0 + n1;
    let slot = inv.block(d2 / nb, nb);
    let mma = ctx.launch.fused_mma_for(region, n2);
    let fused = fused::launch_syrk_leaf(ctx, a22, a21, slot, info, flags, d2, mma);
    if !fused {
        syrk_rec(ctx, a22, a21);
    }
    potrf_rec(ctx, a22, d2, inv, info, flags, fused, region);
}

/// One launch of the diagonal-block kernel over `blocks` consecutive nb×nb diagonal blocks of
/// the region of order `nt_total` that starts at `src`'s (and `dst`'s) offset; inverses go to
/// `inv`'s view, block x at `x·nb²` after its offset. Unused outputs may alias any buffer
/// (the stage decides what is written).
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_leaf(
    ctx: &Ctx,
    cfg: LeafConfig,
    stage: LeafStage,
    src: Operand,
    dst: Operand,
    inv: Operand,
    info: &Handle,
    flags: &Handle,
    nt_total: usize,
    d0: usize,
    blocks: usize,
) {
    debug_assert!(nt_total <= blocks * cfg.nb && nt_total > (blocks - 1) * cfg.nb);
    debug_assert!(src.view.extent(ctx.batch) <= src.len);
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count());
    // Both diagonal-block kernels take the same operands; only the kernel, its cube size and
    // its comptime shape differ.
    macro_rules! launch {
        ($kernel:path, $units:expr, $cfg:expr) => {
            $kernel(
                ctx.client,
                CubeCount::Static(blocks as u32, by as u32, bz as u32),
                CubeDim::new_1d($units as u32),
                BufferArg::from_raw_parts(src.handle.clone(), src.len),
                BufferArg::from_raw_parts(dst.handle.clone(), dst.len),
                BufferArg::from_raw_parts(inv.handle.clone(), inv.len),
                BufferArg::from_raw_parts(info.clone(), ctx.batch.max(1)),
                BufferArg::from_raw_parts(flags.clone(), ctx.batch.max(1)),
                src.view.launch_arg(),
                dst.view.launch_arg(),
                inv.view.launch_arg(),
                nt_total,
                d0,
                ctx.batch,
                $cfg,
                stage,
            )
        };
    }
    let shared = ctx.launch.leaf_shared(blocks * ctx.batch);
    if let Some(bcfg) = ctx.launch.blocked_for(&cfg, shared) {
        // SAFETY: as for the step kernel below (the same operands, blocks and writes). Shared
        // indices: a and x below nb·(nb + 1) (i, k < nb), the panel below nb·(sub + 1), W below
        // sub·(nb + 1). The plane-0 phase is entered by whole planes only (units < plane, a
        // multiple of the plane width), so its shuffles run on converged planes; `failed` and
        // the loop bounds are uniform per cube, so every barrier is reached by all units.
        unsafe {
            launch!(
                blocked::blocked_leaf_kernel::launch_unchecked::<f32>,
                bcfg.units(),
                bcfg
            )
        }
        return;
    }
    // SAFETY: block x covers rows and columns [x·nb, x·nb + nt) with nt ≤ nb of the region,
    // which lies inside `src`/`dst` (views checked by the public ops, debug-checked here);
    // inverses go to x·nb² + (i, k) < nb² of their slot, inside `inv`. One cube per (block,
    // matrix): no two cubes touch the same elements, and `src` and `dst` (possibly the same
    // block) are touched only by that cube, which reads everything it needs into registers
    // or shared memory before writing. Barriers: the early exits, the pivot test and `fail`
    // are uniform per cube.
    unsafe { launch!(leaf::leaf_kernel::launch_unchecked::<f32>, cfg.units(), cfg) }
}

/// The whole-op kernel for a batch of matrices of order ≤ leaf.
#[derive(Clone, Copy, Debug)]
enum Small {
    Crout(SmallConfig),
    Rows(RowsConfig),
}

/// One launch of a whole-op kernel for a batch of matrices of order ≤ leaf: matrix b of
/// `src` factored into `dst`.
fn launch_small(
    ctx: &Ctx,
    kernel: Small,
    src: Operand,
    dst: Operand,
    info: &Handle,
    flags: &Handle,
    n: usize,
) {
    let (nb, mats, units) = match kernel {
        Small::Crout(cfg) => (cfg.nb, 1, cfg.units),
        Small::Rows(cfg) => (cfg.nb, cfg.mats, cfg.units * cfg.mats),
    };
    debug_assert!(n <= nb);
    debug_assert!(src.view.extent(ctx.batch) <= src.len && dst.view.extent(ctx.batch) <= dst.len);
    let (_, by, bz) = batch_grid(ctx.batch.div_ceil(mats), ctx.launch.max_count());
    macro_rules! launch {
        ($kernel:path, $cfg:expr) => {
            $kernel(
                ctx.client,
                CubeCount::Static(1, by as u32, bz as u32),
                CubeDim::new_1d(units as u32),
                BufferArg::from_raw_parts(src.handle.clone(), src.len),
                BufferArg::from_raw_parts(dst.handle.clone(), dst.len),
                BufferArg::from_raw_parts(info.clone(), ctx.batch.max(1)),
                BufferArg::from_raw_parts(flags.clone(), ctx.batch.max(1)),
                src.view.launch_arg(),
                dst.view.launch_arg(),
                n,
                ctx.batch,
                $cfg,
            )
        };
    }
    if let Small::Rows(cfg) = kernel {
        let unit = |v: &View| if cfg.cols { v.row_stride } else { v.col_stride } == 1;
        debug_assert!(!cfg.vec || (unit(&src.view) && unit(&dst.view)));
    }
    match kernel {
        // SAFETY: cube b reads only (i, k) with k ≤ i < n of matrix b of `src` and writes only
        // (i, k) < (n, n) of matrix b of `dst` (views checked by the public op, debug-checked
        // here), and `info[b]`, `flags[b]` (b < batch); no two cubes touch the same elements.
        // Shared indices stay below nb·(nb/4 + 1) vectors (i < nb, k/4 < nb/4). Barriers: the
        // early exit and the pivot test are uniform per cube (every unit computes the pivot
        // identically).
        Small::Crout(cfg) => unsafe { launch!(small::small_kernel::launch_unchecked::<f32>, cfg) },
        // SAFETY: matrix b = cube·mats + UNIT_POS/units; only b < batch reads (i, k) < (n, n)
        // of matrix b of `src` (scalar I/O: k ≤ i; vector I/O: whole 4-vectors of a line, a
        // row or with `cols` a column, that hold an element with k ≤ i) and writes
        // (i, k) < (n, n) of matrix b of `dst` (views checked by the public op, debug-checked
        // here), and `info[b]`, `flags[b]`; no two units of different matrices touch the same
        // elements. Shared indices stay below mats·nb·(nb + 1) (`t`), 2·mats·nb (`col`) and
        // mats (`bad`); register indices below nb²/units, `tv` below mats·`vec_block()` (the
        // largest `tv_at`, row nb − 1 and vector nb/4 − 1, is below one block).
        // Vector I/O only where `vec_fits` held for the input in the matrix's orientation
        // (`potrf_in`; the factor is contiguous; the kernel's lines are those rows): every
        // vector index is (line start)/4 + v with the line start a multiple of 4 elements
        // from a 16-byte-aligned binding and 4v < n with n a multiple of 4, so each vector
        // lies inside a line of the matrix. Barriers: the early exit is uniform per cube
        // (every matrix past the batch), and every unit runs every column step.
        Small::Rows(cfg) => unsafe { launch!(rows::rows_kernel::launch_unchecked::<f32>, cfg) },
    }
}
