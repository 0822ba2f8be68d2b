//! Triangular solve, torch.linalg.solve_triangular semantics, recursive on GEMM.
//!
//! Core: T·X = B in place for triangular T (n×n) and B (n×k), both strided views. The inverses
//! of T's nb×nb diagonal blocks are formed first (one launch of the diagonal-block kernel over
//! all blocks, or as a by-product of the Cholesky leaves); then, with T split at n1 (a
//! multiple of nb), lower T: X1 = T11⁻¹B1, B2 −= T21·X1, X2 = T22⁻¹B2; upper T: X2 first,
//! B1 −= T12·X2, then X1. A leaf is one GEMM, B_i ← inv(T_ii)·B_i, in place (safe: one GEMM
//! tile spans the block's nb rows, so a cube reads only the columns it writes). A right-side
//! solve X·A = B is Aᵀ·Xᵀ = Bᵀ: the same core on transposed views (free: strides). Only T's
//! triangle is read. With at least `inv_block` right-hand sides (or, with `inv_rhs`, fewer and
//! smaller blocks) the split is at multiples of the whole blocks' order s and T's full
//! diagonal blocks of order s are leaves too: inverted whole by doubling first (`doubling.rs`),
//! each applied as one GEMM into a scratch that is copied back into B.
mod doubling;
pub mod trsv;

use crate::config::LeafStage;
use crate::potrf::launch_leaf;
use crate::{CholeskyError, CholeskyParams, Ctx, MatrixRef, check_flags, read_prefix, split};
use cubecl::client::Client;
use cubecl::server::Handle;
pub(crate) use doubling::DoubledInverses;
use linalg_common::copy::{CopyConfig, launch_copy};
use linalg_common::gemm::{GemmOp, Operand, View};

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
        check_flags(client, self.nonfinite)?;
        Ok(HostSolve {
            x: read_prefix(client, self.x, self.batch * self.rows * self.cols)?,
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
/// A singular A (a zero on the diagonal) gives infinities or NaN, as torch does.
pub fn solve_triangular(
    client: &Client,
    a: MatrixRef,
    b: MatrixRef,
    upper: bool,
    left: bool,
    unit_diagonal: bool,
    params: &CholeskyParams,
) -> Result<SolveOutput, CholeskyError> {
    let n = crate::square(&a, "a")?;
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
    let big = n.max(rows).max(cols);
    ctx.check_grid(big, big)?;
    let (x, flags) = copy_rhs(&ctx, &b, false);
    check_triangle(&ctx, &a, upper, unit_diagonal, &flags);
    let xv = View::contiguous(rows, cols);
    let xo = Operand::new(&x.0, x.1, xv);
    // T·Y = C with T = A (left) or Aᵀ (right, on Xᵀ and Bᵀ).
    let (t, lower, y) = if left {
        (a.operand(), !upper, xo)
    } else {
        (
            a.operand().with_view(a.view.t()),
            upper,
            xo.with_view(xv.t()),
        )
    };
    let inv = BlockInverses::new(&ctx, n);
    inv.invert(&ctx, t, lower, unit_diagonal, 0, &flags);
    trsm(&ctx, t, lower, &inv, 0, y);
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
        ctx.launch.hw(),
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
            vec: false,
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
        ctx.launch.hw(),
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
            vec: false,
        },
    );
}

/// The inverses of a triangular matrix's nb×nb diagonal blocks: block g of matrix b at
/// `b·per_matrix + g·nb²`, row-major (or its transpose, for the transposed triangle).
pub(crate) struct BlockInverses {
    pub handle: Handle,
    pub len: usize,
    pub nb: usize,
    pub per_matrix: usize,
    pub transposed: bool,
}

impl BlockInverses {
    /// Room for the diagonal blocks of `batch` n×n matrices.
    pub(crate) fn new(ctx: &Ctx, n: usize) -> Self {
        let nb = ctx.launch.leaf.nb;
        let per_matrix = n.div_ceil(nb) * nb * nb;
        let (handle, len) = ctx.buffer(ctx.batch * per_matrix);
        Self {
            handle,
            len,
            nb,
            per_matrix,
            transposed: false,
        }
    }

    /// The inverse of diagonal block g (order nt).
    pub(crate) fn block(&self, g: usize, nt: usize) -> Operand<'_> {
        let (rs, cs) = if self.transposed {
            (1, self.nb)
        } else {
            (self.nb, 1)
        };
        Operand::new(
            &self.handle,
            self.len,
            View {
                offset: g * self.nb * self.nb,
                rows: nt,
                cols: nt,
                row_stride: rs,
                col_stride: cs,
                batch_stride: self.per_matrix,
            },
        )
    }

    /// The inverses of the transposed triangle's blocks (the same data, read transposed).
    pub(crate) fn t(&self) -> Self {
        Self {
            handle: self.handle.clone(),
            transposed: !self.transposed,
            ..*self
        }
    }

    /// Invert every diagonal block of T (n×n; lower or upper) in one launch, into the slots
    /// from block `g0` on.
    pub(crate) fn invert(
        &self,
        ctx: &Ctx,
        t: Operand,
        lower: bool,
        unit: bool,
        g0: usize,
        flags: &Handle,
    ) {
        let n = t.view.rows;
        if n == 0 {
            return;
        }
        // The kernel inverts lower triangles: an upper block is read transposed and its
        // inverse stored transposed.
        let flipped = self.t();
        let (src, store) = if lower {
            (t, self.block(g0, self.nb))
        } else {
            (t.with_view(t.view.t()), flipped.block(g0, self.nb))
        };
        let stage = LeafStage {
            factor: false,
            invert: true,
            unit_diag: unit,
            check: false,
        };
        launch_leaf(
            ctx,
            ctx.launch.leaf,
            stage,
            src,
            src,
            store,
            flags,
            flags,
            n,
            0,
            n.div_ceil(self.nb),
        );
    }
}

/// T·X = B in place (B becomes X); T is lower or upper; `inv` holds the inverses of its
/// diagonal blocks, T's first being block `g0`. Where [`whole_inverses`] gives them (enough
/// right-hand sides, no block substitution), T's full diagonal blocks of a larger order are
/// inverted whole first ([`doubling`]) and the recursion stops at them.
pub(crate) fn trsm(ctx: &Ctx, t: Operand, lower: bool, inv: &BlockInverses, g0: usize, b: Operand) {
    let whole = whole_inverses(ctx, t, lower, inv, g0, b.view.cols);
    trsm_whole(ctx, t, lower, inv, g0, b, whole.as_ref());
}

/// The whole inverted diagonal blocks for a [`trsm`] of T with `k` right-hand sides, of the
/// order [`CholeskyLaunch::whole_order`] picks; `None` where it picks none, T is shorter, or
/// block substitution takes the solve. Made from T's lower triangle, so one set serves T
/// and Tᵀ (an upper T's blocks are inverted transposed).
///
/// [`CholeskyLaunch::whole_order`]: crate::config::CholeskyLaunch::whole_order
pub(crate) fn whole_inverses(
    ctx: &Ctx,
    t: Operand,
    lower: bool,
    inv: &BlockInverses,
    g0: usize,
    k: usize,
) -> Option<DoubledInverses> {
    let n = t.view.rows;
    let s = ctx.launch.whole_order(n, k, ctx.batch);
    let substitution = ctx.launch.trsv.is_some_and(|cfg| k <= cfg.max_k);
    if s == 0 || n < s || substitution {
        return None;
    }
    let flipped;
    let (tl, il) = if lower {
        (t, inv)
    } else {
        flipped = inv.t();
        (t.with_view(t.view.t()), &flipped)
    };
    Some(DoubledInverses::new(ctx, tl, il, g0, s, k))
}

/// [`trsm`] with the whole inverted blocks given (from [`whole_inverses`] for the same T or
/// its transpose, the same `g0` and k).
pub(crate) fn trsm_whole(
    ctx: &Ctx,
    t: Operand,
    lower: bool,
    inv: &BlockInverses,
    g0: usize,
    b: Operand,
    whole: Option<&DoubledInverses>,
) {
    trsm_rec(ctx, t, lower, inv, g0, b, whole.map(|w| (w, 0)));
}

/// [`trsm`]'s recursion; `whole`: the inverted blocks of order s and the index of T's first
/// among them (T then starts on a multiple of s and is split at multiples of s).
fn trsm_rec(
    ctx: &Ctx,
    t: Operand,
    lower: bool,
    inv: &BlockInverses,
    g0: usize,
    b: Operand,
    whole: Option<(&DoubledInverses, usize)>,
) {
    let n = t.view.rows;
    let k = b.view.cols;
    if n == 0 || k == 0 {
        return;
    }
    let nb = ctx.launch.leaf.nb;
    if let Some(cfg) = ctx.launch.trsv
        && n > nb
        && k <= cfg.max_k
    {
        trsv::trsv(ctx, cfg, t, lower, inv, g0, b);
        return;
    }
    let whole = whole.filter(|(w, _)| n >= w.s);
    if let Some((w, j)) = whole
        && n == w.s
    {
        w.apply(ctx, j, lower, b);
        return;
    }
    if n <= nb {
        ctx.launch
            .solve_gemm
            .launch(ctx.client, ctx.batch, inv.block(g0, n), b, b, GemmOp::SET);
        return;
    }
    let n1 = match whole {
        Some((w, _)) => split(n, w.s),
        None => split(n, nb),
    };
    let n2 = n - n1;
    let g1 = g0 + n1 / nb;
    let whole2 = whole.map(|(w, j)| (w, j + n1 / w.s));
    let (tv, bv) = (t.view, b.view);
    let t11 = t.with_view(tv.block(0, 0, n1, n1));
    let t22 = t.with_view(tv.block(n1, n1, n2, n2));
    let b1 = b.with_view(bv.block(0, 0, n1, k));
    let b2 = b.with_view(bv.block(n1, 0, n2, k));
    let sub = GemmOp {
        accumulate: true,
        negate: true,
        lower_only: false,
        a_lower: false,
    };
    let inner = if lower { n1 } else { n2 };
    let gemm = ctx.launch.gemm_for(n2.max(n1), k, inner);
    if lower {
        trsm_rec(ctx, t11, lower, inv, g0, b1, whole);
        let t21 = t.with_view(tv.block(n1, 0, n2, n1));
        gemm.launch(ctx.client, ctx.batch, t21, b1, b2, sub);
        trsm_rec(ctx, t22, lower, inv, g1, b2, whole2);
    } else {
        trsm_rec(ctx, t22, lower, inv, g1, b2, whole2);
        let t12 = t.with_view(tv.block(0, n1, n1, n2));
        gemm.launch(ctx.client, ctx.batch, t12, b2, b1, sub);
        trsm_rec(ctx, t11, lower, inv, g0, b1, whole);
    }
}
