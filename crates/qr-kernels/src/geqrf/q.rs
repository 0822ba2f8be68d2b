//! Ops on the (H, τ) form: [`householder_product`] (`torch.linalg.householder_product`,
//! LAPACK `sorgqr`) and [`apply_q`] (`torch.ormqr`, LAPACK `sormqr`), both blocked: each block
//! reflector (T rebuilt from H and τ by the panel kernel, or for tall matrices of few matrices
//! in wide blocks from GEMM Gram matrices, [`super::gram`]) is applied with two GEMMs.
use super::gram::GramBlocks;
use super::update::{Reflectors, TauRef, UpdateWork};
use super::{Ctx, QrParams, check_flags, read_prefix};
use crate::error::QrError;
use cubecl::client::Client;
use cubecl::server::Handle;
use linalg_common::copy::CopyConfig;
use linalg_common::gemm::{Operand, View};
use linalg_common::matrix::MatrixRef;

/// Which side of C the orthogonal factor multiplies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// op(Q)·C
    Left,
    /// C·op(Q)
    Right,
}

/// A device result `[batch, rows, cols]` (contiguous) and per-matrix non-finite flags of the
/// inputs. Nothing synchronised yet.
#[derive(Debug, Clone)]
pub struct MatrixOutput {
    pub out: Handle,
    pub nonfinite: Handle,
    pub batch: usize,
    pub rows: usize,
    pub cols: usize,
}

/// Host copy of a [`MatrixOutput`].
#[derive(Debug, Clone, PartialEq)]
pub struct HostMatrix {
    pub data: Vec<f32>,
    pub batch: usize,
    pub rows: usize,
    pub cols: usize,
}

impl MatrixOutput {
    /// Synchronise and read; non-finite input becomes [`QrError::NonFinite`].
    pub fn read(self, client: &Client) -> Result<HostMatrix, QrError> {
        check_flags(client, self.nonfinite)?;
        Ok(HostMatrix {
            data: read_prefix(client, self.out, self.batch * self.rows * self.cols)?,
            batch: self.batch,
            rows: self.rows,
            cols: self.cols,
        })
    }
}

/// τ of `batch` matrices as a kernel argument: `[batch, 1, k]` with unit column stride.
pub(crate) fn tau_arg<'a>(tau: &MatrixRef<'a>, batch: usize) -> Result<TauRef<'a>, QrError> {
    if tau.batch != batch || tau.view.rows != 1 || (tau.view.cols > 1 && tau.view.col_stride != 1) {
        return Err(QrError::ShapeMismatch {
            what: format!(
                "tau must be [batch = {batch}, 1, k] with unit column stride (got batch {}, {:?})",
                tau.batch, tau.view
            ),
        });
    }
    // The shape first: a τ of the wrong batch is a shape error, not a short buffer.
    tau.validate("tau")?;
    Ok(TauRef {
        handle: tau.handle,
        len: tau.len(),
        offset: tau.view.offset,
        batch_stride: tau.view.batch_stride,
    })
}

/// Q = H_1⋯H_k·I (m × n, the shape of `h`; k = τ's length ≤ n ≤ m): the first n columns of the
/// orthogonal factor whose reflectors are stored below the diagonal of `h`.
pub fn householder_product(
    client: &Client,
    h: MatrixRef,
    tau: MatrixRef,
    params: &QrParams,
) -> Result<MatrixOutput, QrError> {
    h.validate("h")?;
    let (batch, m, n) = (h.batch, h.view.rows, h.view.cols);
    let t = tau_arg(&tau, batch)?;
    let k = tau.view.cols;
    if n > m || k > n {
        return Err(QrError::ShapeMismatch {
            what: format!("householder_product needs k <= n <= m (got m = {m}, n = {n}, k = {k})"),
        });
    }
    let ctx = Ctx::new(client, params, batch, m, n)?;
    let nonfinite = ctx.flags();
    let q = form_q(&ctx, h.operand(), t, k, n, Some(&nonfinite));
    Ok(MatrixOutput {
        out: q.0,
        nonfinite,
        batch,
        rows: m,
        cols: n,
    })
}

/// Q = H_1⋯H_k·I as a new contiguous m × ncols buffer (ncols ≤ m), the k reflectors being the
/// first k columns of `h`; with `check`, non-finite reflectors (the first k columns of `h`
/// below the diagonal) set the flags.
pub(crate) fn form_q(
    ctx: &Ctx,
    h: Operand,
    tau: TauRef,
    k: usize,
    ncols: usize,
    check: Option<&Handle>,
) -> (Handle, usize) {
    let m = h.view.rows;
    let q = ctx.buffer(ctx.batch * m * ncols);
    let qv = Operand::new(&q.0, q.1, View::contiguous(m, ncols));
    if ctx.batch == 0 || m == 0 || ncols == 0 {
        return q;
    }
    let identity = CopyConfig {
        identity: true,
        ..CopyConfig::PLAIN
    };
    ctx.copy(qv, qv, &ctx.flags(), identity);
    if let Some(flags) = check {
        let hk = h.with_view(h.view.block(0, 0, m, k));
        let only_check = CopyConfig {
            write: false,
            check: true,
            ..CopyConfig::PLAIN
        };
        ctx.copy(hk, hk, flags, only_check);
    }
    apply_blocks(ctx, h, tau, k, qv, false, true);
    q
}

/// X ← op(Q)·X in place (X: m × nc view), Q = H_1⋯H_k from the first k columns of `h`;
/// `transpose` applies Qᵀ (blocks first to last, U = V·Tᵀ), else Q (last to first, U = V·T).
/// `from_identity` (Q, X = I on entry, k ≤ nc): each block updates only the columns from its
/// first one on, since the columns before it are still e_i, zero in the rows it acts on.
/// Tall matrices of few matrices (the TSQR-panel threshold) take [`super::gram`]'s wide blocks;
/// the others the panel kernel's blocks of nb columns, unless that kernel (with its Gram
/// matrix, nb = 64) does not fit the device's shared memory: then the wide blocks too.
pub(crate) fn apply_blocks(
    ctx: &Ctx,
    h: Operand,
    tau: TauRef,
    k: usize,
    x: Operand,
    transpose: bool,
    from_identity: bool,
) {
    let m = h.view.rows;
    // Q·X only changes rows ≥ c0; forming Q from I, columns < c0 stay e_j.
    let rows_from = |c0: usize| {
        if from_identity && !transpose {
            x.view.block(c0, c0, m - c0, x.view.cols - c0)
        } else {
            x.view.block(c0, 0, m - c0, x.view.cols)
        }
    };
    let panel_fits =
        ctx.launch.panel(0, false, transpose).shared_bytes() <= ctx.launch.hw.max_shared_bytes;
    if (ctx.launch.recon.is_some() && m >= ctx.launch.tsqr_rows) || !panel_fits {
        let mut blocks = GramBlocks::new(ctx, m, k);
        let update = UpdateWork::new(ctx, m, x.view.cols, blocks.width);
        let width = blocks.width;
        let nblocks = k.div_ceil(width);
        let mut groups: Vec<(usize, usize)> = (0..nblocks)
            .step_by(blocks.group)
            .map(|q0| (q0, blocks.group.min(nblocks - q0)))
            .collect();
        if !transpose {
            groups.reverse();
        }
        for (q0, count) in groups {
            blocks.form(ctx, h, tau, k, (q0, count), transpose);
            let mut js: Vec<usize> = (0..count).collect();
            if !transpose {
                js.reverse();
            }
            for j in js {
                let c0 = (q0 + j) * width;
                let (v, u) = blocks.block(j, c0, m - c0, width.min(k - c0));
                update.apply(ctx, v, u, x.with_view(rows_from(c0)));
            }
        }
        return;
    }
    let nb = ctx.launch.nb;
    let refl = Reflectors::new(ctx, m, x.view.cols);
    let starts: Vec<usize> = (0..k).step_by(nb.max(1)).collect();
    let order: Vec<usize> = if transpose {
        starts
    } else {
        starts.into_iter().rev().collect()
    };
    for c0 in order {
        let w = nb.min(k - c0);
        let t = TauRef {
            offset: tau.offset + c0,
            ..tau
        };
        let panel = h.with_view(h.view.block(c0, c0, m - c0, w));
        refl.panel(ctx, panel, t, false, transpose);
        refl.apply(ctx, w, x.with_view(rows_from(c0)));
    }
}

/// op(Q)·C (`Side::Left`) or C·op(Q) (`Side::Right`) with op(Q) = Qᵀ when `transpose`, Q from
/// the reflectors of `h` (m rows, k = τ's length ≤ min(m, columns of h)), without forming Q.
/// C is m × nc (left) or nr × m (right); the result is a new contiguous buffer of C's shape.
/// An (H, τ) of batch 1 applies to every matrix of a batch of C (as torch.ormqr broadcasts).
pub fn apply_q(
    client: &Client,
    h: MatrixRef,
    tau: MatrixRef,
    c: MatrixRef,
    side: Side,
    transpose: bool,
    params: &QrParams,
) -> Result<MatrixOutput, QrError> {
    h.validate("h")?;
    c.validate("c")?;
    let m = h.view.rows;
    let t = tau_arg(&tau, h.batch)?;
    let k = tau.view.cols;
    let (rows, cols) = (c.view.rows, c.view.cols);
    let c_m = if side == Side::Left { rows } else { cols };
    // One (H, τ) broadcasts over a batch of C, as torch.ormqr: the same matrix for every b.
    let batch = c.batch;
    let (h, t) = if h.batch == 1 && batch != 1 {
        let view = View {
            batch_stride: 0,
            ..h.view
        };
        let t = TauRef {
            batch_stride: 0,
            ..t
        };
        (MatrixRef { batch, view, ..h }, t)
    } else {
        (h, t)
    };
    if h.batch != batch || c_m != m || k > m.min(h.view.cols) {
        return Err(QrError::ShapeMismatch {
            what: format!(
                "apply_q: h is {}×{m}×{}, k = {k}, c is {batch}×{rows}×{cols} ({side:?})",
                h.batch, h.view.cols
            ),
        });
    }
    let ctx = Ctx::new(client, params, batch, m.max(rows), m.max(cols))?;
    let nonfinite = ctx.flags();
    let out = ctx.buffer(batch * rows * cols);
    let ov = Operand::new(&out.0, out.1, View::contiguous(rows, cols));
    if !c.is_empty() {
        let check = CopyConfig {
            check: true,
            ..CopyConfig::PLAIN
        };
        ctx.copy(c.operand(), ov, &nonfinite, check);
        // C·Q = (Qᵀ·Cᵀ)ᵀ and C·Qᵀ = (Q·Cᵀ)ᵀ: the right side is the left side on Cᵀ.
        let (x, tr) = match side {
            Side::Left => (ov, transpose),
            Side::Right => (ov.with_view(ov.view.t()), !transpose),
        };
        if k > 0 {
            apply_blocks(&ctx, h.operand(), t, k, x, tr, false);
        }
    }
    Ok(MatrixOutput {
        out: out.0,
        nonfinite,
        batch,
        rows,
        cols,
    })
}
