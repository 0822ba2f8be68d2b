//! torch.cholesky_solve and torch.cholesky_inverse on a Cholesky factor: two triangular solves
//! (L·Y = B, Lᵀ·X = Y; or Uᵀ·Y = B, U·X = Y), the second on the transposed view of the factor.
use crate::trsm::{
    BlockInverses, SolveOutput, broadcast, check_triangle, copy_rhs, trsm_whole, whole_inverses,
};
use crate::{CholeskyError, CholeskyParams, Ctx, MatrixRef};
use cubecl::client::Client;
use linalg_common::gemm::{Operand, View};

/// X = A⁻¹·B where A = L·Lᵀ (`upper = false`, L lower) or A = Uᵀ·U (`upper = true`); only the
/// factor's selected triangle is read. B is n×k; the factor may have batch 1 (broadcast).
pub fn cholesky_solve(
    client: &Client,
    b: MatrixRef,
    l: MatrixRef,
    upper: bool,
    params: &CholeskyParams,
) -> Result<SolveOutput, CholeskyError> {
    let n = crate::square(&l, "l")?;
    b.validate("b")?;
    if b.view.rows != n {
        return Err(CholeskyError::ShapeMismatch {
            what: format!(
                "the factor is {n}×{n} but B is {}×{}",
                b.view.rows, b.view.cols
            ),
        });
    }
    let (batch, l) = broadcast(l, b.batch)?;
    solve_with_factor(client, b, l, upper, params, batch, false)
}

/// A⁻¹ from its Cholesky factor (L with A = L·Lᵀ, or U with A = Uᵀ·U): the solve against the
/// identity. The result is symmetric up to rounding.
pub fn cholesky_inverse(
    client: &Client,
    l: MatrixRef,
    upper: bool,
    params: &CholeskyParams,
) -> Result<SolveOutput, CholeskyError> {
    crate::square(&l, "l")?;
    let batch = l.batch;
    solve_with_factor(client, l, l, upper, params, batch, true)
}

fn solve_with_factor(
    client: &Client,
    b: MatrixRef,
    l: MatrixRef,
    upper: bool,
    params: &CholeskyParams,
    batch: usize,
    identity: bool,
) -> Result<SolveOutput, CholeskyError> {
    let n = l.view.rows;
    let (rows, cols) = (n, b.view.cols);
    let ctx = Ctx::new(client, params, batch)?;
    ctx.check_grid(n.max(cols), n.max(cols))?;
    let b = MatrixRef { batch, ..b };
    let (x, flags) = copy_rhs(&ctx, &b, identity);
    check_triangle(&ctx, &l, upper, false, &flags);
    let xo = Operand::new(&x.0, x.1, View::contiguous(rows, cols));
    // The lower-triangular factor G with A = G·Gᵀ: L itself, or Uᵀ.
    let g = if upper {
        l.operand().with_view(l.view.t())
    } else {
        l.operand()
    };
    let inv = BlockInverses::new(&ctx, n);
    inv.invert(&ctx, g, true, false, 0, &flags);
    // One set of whole inverted blocks serves both solves.
    let whole = whole_inverses(&ctx, g, true, &inv, 0, cols);
    trsm_whole(&ctx, g, true, &inv, 0, xo, whole.as_ref());
    let gt = g.with_view(g.view.t());
    trsm_whole(&ctx, gt, false, &inv.t(), 0, xo, whole.as_ref());
    Ok(SolveOutput {
        x: x.0,
        nonfinite: flags,
        batch,
        rows,
        cols,
    })
}
