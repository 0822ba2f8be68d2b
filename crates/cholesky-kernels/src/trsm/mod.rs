//! Triangular solve, torch.linalg.solve_triangular semantics, recursive on GEMM.
//!
//! Core: T·X = B in place for triangular T (n×n) and B (n×k), both strided views. For n ≤ nb
//! the substitution leaf ([`leaf`]) runs; otherwise, with T split at n1 (a multiple of nb),
//! lower T: X1 = T11⁻¹B1, B2 −= T21·X1, X2 = T22⁻¹B2; upper T: X2 first, B1 −= T12·X2, then X1.
//! A right-side solve X·A = B is Aᵀ·Xᵀ = Bᵀ: the same core on transposed views (free: strides).
//! Only T's triangle is read (the leaves read the diagonal blocks' triangles, the GEMMs the
//! off-diagonal blocks on T's side).
mod leaf;

use crate::copy::{CopyConfig, launch_copy};
use crate::{CholeskyError, CholeskyParams, Ctx, MatrixRef, device_error, flagged, split};
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::gemm::{GemmOp, Operand, View, batch_grid};

/// Device result of a solve: X `[batch, rows, cols]` contiguous, and a per-matrix non-finite
/// flag (u32). Nothing synchronised yet.
#[derive(Debug, Clone)]
pub struct SolveOutput {
    pub x: Handle,
    pub nonfinite: Handle,
    pub batch: usize,
    pub rows: usize,
    pub cols: usize,
}

/// Host copy of a solve's result.
#[derive(Debug, Clone, PartialEq)]
pub struct HostSolve {
    pub x: Vec<f32>,
    pub batch: usize,
    pub rows: usize,
    pub cols: usize,
}

impl SolveOutput {
    /// Synchronise and read X; non-finite input becomes [`CholeskyError::NonFinite`].
    pub fn read(self, client: &Client) -> Result<HostSolve, CholeskyError> {
        let bad = flagged(client, self.nonfinite)?;
        if !bad.is_empty() {
            return Err(CholeskyError::NonFinite { batches: bad });
        }
        let len = self.batch * self.rows * self.cols;
        let bytes = client.read_one(self.x).map_err(device_error)?;
        Ok(HostSolve {
            x: f32::from_bytes(&bytes)[..len].to_vec(),
            batch: self.batch,
            rows: self.rows,
            cols: self.cols,
        })
    }
}

/// Solve A·X = B (`left`) or X·A = B for triangular A, batched.
///
/// A: `batch` (or 1, broadcast) square n×n matrices, of which only the upper (`upper`) or lower
/// triangle is read, and not the diagonal when `unit_diagonal`. B: n×k (left) or k×n (right).
/// A singular A (a zero on the diagonal) gives infinities, as torch does.
pub fn solve_triangular(
    client: &Client,
    a: MatrixRef,
    b: MatrixRef,
    upper: bool,
    left: bool,
    unit_diagonal: bool,
    params: &CholeskyParams,
) -> Result<SolveOutput, CholeskyError> {
    let n = a.square("a")?;
    b.validate("b")?;
    let (batch, a) = broadcast(a, b.batch)?;
    let solved_dim = if left { b.view.rows } else { b.view.cols };
    if solved_dim != n {
        return Err(CholeskyError::ShapeMismatch {
            what: format!(
                "A is {n}×{n} but B is {}×{} ({} solve)",
                b.view.rows,
                b.view.cols,
                if left { "left" } else { "right" }
            ),
        });
    }
    let ctx = Ctx::new(client, params, batch)?;
    let (rows, cols) = (b.view.rows, b.view.cols);
    ctx.check_grid(n.max(rows).max(cols), n.max(rows).max(cols))?;
    let (x, flags) = copy_rhs(&ctx, &b, false);
    check_triangle(&ctx, &a, upper, unit_diagonal, &flags);
    let xv = View::contiguous(rows, cols);
    let xo = Operand::new(&x.0, x.1, xv);
    if left {
        trsm_rec(&ctx, a.operand(), !upper, unit_diagonal, xo);
    } else {
        let at = a.operand().with_view(a.view.t());
        trsm_rec(&ctx, at, upper, unit_diagonal, xo.with_view(xv.t()));
    }
    Ok(SolveOutput {
        x: x.0,
        nonfinite: flags,
        batch,
        rows,
        cols,
    })
}

/// A of batch 1 against `batch` right-hand sides reads the same matrix for each (stride 0).
pub(crate) fn broadcast<'a>(
    a: MatrixRef<'a>,
    batch: usize,
) -> Result<(usize, MatrixRef<'a>), CholeskyError> {
    if a.batch == batch {
        Ok((batch, a))
    } else if a.batch == 1 {
        let mut a = a;
        a.view.batch_stride = 0;
        a.batch = batch;
        Ok((batch, a))
    } else {
        Err(CholeskyError::ShapeMismatch {
            what: format!(
                "batch sizes {} and {batch} (only equal batches or a batch of 1 broadcast)",
                a.batch
            ),
        })
    }
}

/// X = a contiguous copy of B (or the identity), with B's non-finite values flagged.
pub(crate) fn copy_rhs(ctx: &Ctx, b: &MatrixRef, identity: bool) -> ((Handle, usize), Handle) {
    let (rows, cols) = (b.view.rows, b.view.cols);
    let x = ctx.buffer(ctx.batch * rows * cols);
    let flags = ctx.flags();
    launch_copy(
        ctx.client,
        ctx.launch.max_units,
        ctx.launch.max_count,
        ctx.batch,
        (b.handle, b.len(), b.view),
        (&x.0, x.1, View::contiguous(rows, cols)),
        &flags,
        CopyConfig {
            lower: false,
            write: true,
            check: !identity,
            identity,
            skip_diag: false,
        },
    );
    (x, flags)
}

/// Flag non-finite values in A's selected triangle, without its diagonal when `skip_diag`
/// (nothing else is read).
pub(crate) fn check_triangle(
    ctx: &Ctx,
    a: &MatrixRef,
    upper: bool,
    skip_diag: bool,
    flags: &Handle,
) {
    let v = if upper { a.view.t() } else { a.view };
    launch_copy(
        ctx.client,
        ctx.launch.max_units,
        ctx.launch.max_count,
        ctx.batch,
        (a.handle, a.len(), v),
        (a.handle, a.len(), v),
        flags,
        CopyConfig {
            lower: true,
            write: false,
            check: true,
            identity: false,
            skip_diag,
        },
    );
}

/// T·X = B in place (B becomes X); T is lower or upper, its diagonal unit or not.
pub(crate) fn trsm_rec(ctx: &Ctx, t: Operand, lower: bool, unit: bool, b: Operand) {
    let n = t.view.rows;
    let k = b.view.cols;
    if n == 0 || k == 0 {
        return;
    }
    let nb = ctx.launch.leaf.nb;
    if n <= nb {
        launch_leaf(ctx, t, lower, unit, b);
        return;
    }
    let n1 = split(n, nb);
    let n2 = n - n1;
    let (tv, bv) = (t.view, b.view);
    let t11 = t.with_view(tv.block(0, 0, n1, n1));
    let t22 = t.with_view(tv.block(n1, n1, n2, n2));
    let b1 = b.with_view(bv.block(0, 0, n1, k));
    let b2 = b.with_view(bv.block(n1, 0, n2, k));
    let sub = GemmOp {
        accumulate: true,
        negate: true,
        lower_only: false,
    };
    if lower {
        trsm_rec(ctx, t11, lower, unit, b1);
        let t21 = t.with_view(tv.block(n1, 0, n2, n1));
        ctx.launch
            .gemm
            .launch(ctx.client, ctx.batch, t21, b1, b2, sub);
        trsm_rec(ctx, t22, lower, unit, b2);
    } else {
        trsm_rec(ctx, t22, lower, unit, b2);
        let t12 = t.with_view(tv.block(0, n1, n1, n2));
        ctx.launch
            .gemm
            .launch(ctx.client, ctx.batch, t12, b2, b1, sub);
        trsm_rec(ctx, t11, lower, unit, b1);
    }
}

fn launch_leaf(ctx: &Ctx, t: Operand, lower: bool, unit: bool, b: Operand) {
    let cfg = ctx.launch.trsm_cfg(lower, unit);
    let (nt, ncols) = (t.view.rows, b.view.cols);
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count);
    let s = |v: View| {
        linalg_common::gemm::StridesLaunch::new(
            v.offset,
            v.row_stride,
            v.col_stride,
            v.batch_stride,
        )
    };
    debug_assert!(t.view.extent(ctx.batch) <= t.len && b.view.extent(ctx.batch) <= b.len);
    // SAFETY: nt ≤ nb (the shared array's order); T's loads are (i, j) < (nt, nt) and B's
    // accesses (i, col) < (nt, ncols) of matrix bidx < batch: inside the views, which lie in
    // their buffers (checked by the public op, debug-checked here). Each unit reads and
    // writes only its own column of B, and B's block does not overlap T's triangle. Cubes past
    // the batch leave before the barrier; every other unit reaches it.
    unsafe {
        leaf::trsm_leaf_kernel::launch_unchecked::<f32>(
            ctx.client,
            CubeCount::Static(ncols.div_ceil(cfg.units) as u32, by as u32, bz as u32),
            CubeDim::new_1d(cfg.units as u32),
            BufferArg::from_raw_parts(t.handle.clone(), t.len),
            BufferArg::from_raw_parts(b.handle.clone(), b.len),
            s(t.view),
            s(b.view),
            nt,
            ncols,
            ctx.batch,
            cfg,
        )
    }
}
