//! Symmetric rank-k update of a lower triangle, C −= A·Aᵀ (only j ≤ i of C is written),
//! recursive: C11 −= A1·A1ᵀ, C21 −= A2·A1ᵀ (a GEMM), C22 −= A2·A2ᵀ. Blocks up to `syrk_leaf`
//! are one GEMM that stores only its lower triangle (tiles above the diagonal exit at once).
use crate::Ctx;
use linalg_common::gemm::{GemmOp, Operand};

pub(crate) fn syrk_rec(ctx: &Ctx, c: Operand, a: Operand) {
    let m = c.view.rows;
    let k = a.view.cols;
    if m == 0 || k == 0 {
        return;
    }
    let gemm = ctx.launch.gemm_for(m, m, k);
    if m <= ctx.launch.syrk_leaf {
        let op = GemmOp {
            accumulate: true,
            negate: true,
            lower_only: true,
            a_lower: false,
        };
        gemm.launch(ctx.client, ctx.batch, a, a.with_view(a.view.t()), c, op);
        return;
    }
    // Split at a multiple of the GEMM tile so the off-diagonal GEMM has full tiles.
    let tile = ctx.launch.gemm.tile_m().max(1);
    let h = ((m / 2).div_ceil(tile) * tile).min(m - 1).max(1);
    let (cv, av) = (c.view, a.view);
    let a1 = a.with_view(av.block(0, 0, h, k));
    let a2 = a.with_view(av.block(h, 0, m - h, k));
    syrk_rec(ctx, c.with_view(cv.block(0, 0, h, h)), a1);
    let op = GemmOp {
        accumulate: true,
        negate: true,
        lower_only: false,
        a_lower: false,
    };
    ctx.launch.gemm_for(m - h, h, k).launch(
        ctx.client,
        ctx.batch,
        a2,
        a1.with_view(a1.view.t()),
        c.with_view(cv.block(h, 0, m - h, h)),
        op,
    );
    syrk_rec(ctx, c.with_view(cv.block(h, h, m - h, m - h)), a2);
}
