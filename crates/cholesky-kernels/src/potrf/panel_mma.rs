//! A right-looking step's panel solve on tensor cores: L21 = A21·L11⁻ᵀ, in place, from the
//! diagonal block's inverse X = L11⁻¹ that the leaf stored (row-major nb × nb, zeros above the
//! diagonal), as L21(i, j) = Σ_k A21(i, k)·X(j, k), by 3×TF32 `mma.sync` m16n8k8 fed straight
//! from registers ([`super::fused::mma_acc`], the fused steps' tensor-core layout with X's
//! rows as B's). Same result as the TRSM GEMM (`solve_gemm`: A21ᵀ ← X·A21ᵀ) to f32 rounding.
//!
//! nb = 64. A cube of 8 planes takes 64 rows of A21 and all 64 columns: plane q the rows
//! 16·(q / 2) + [0, 16) and the columns 32·(q % 2) + [0, 32), K = 64 in two blocks of 32, no
//! shared memory. The two planes of a row strip both read its rows of A21, so the cube's
//! stores wait behind one cube barrier. A21 is one writable binding: through a second,
//! read-only one the compiler may move the loads past the barrier (read-only memory counts as
//! constant for the whole kernel; the local SASS had the barrier before every load). A21's
//! rows past its last read as zeros and are not stored.
use super::fused::{Acc, mma_acc, mma_elem, mma_value};
use crate::Ctx;
use cubecl::prelude::*;
use linalg_common::gemm::{Operand, Strides, batch_grid};
use linalg_common::gemm_mma::MMA_PLANE;

/// Rows and columns of a cube's tile, and K: the leaf's order.
const NB: usize = 64;

/// `w`: A21, solved in place (view `sa`: `rows` × 64, rows contiguous 4-vectors); `x`: the
/// inverse (view `sx`: 64 × 64, rows contiguous 4-vectors). Grid x: blocks of 64 rows; y, z:
/// the batch.
#[cube(launch_unchecked, create_dummy_kernel)]
pub fn panel_mma_kernel<F: Float>(
    w: &mut [F],
    x: &[F],
    sa: Strides,
    sx: Strides,
    rows: usize,
    batch: usize,
) {
    let mat = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before the barrier.
    if mat >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let (plane, lane) = (unit / MMA_PLANE, unit % MMA_PLANE);
    let r0 = CUBE_POS_X as usize * NB + 16 * (plane / 2);
    let c0 = 32 * (plane % 2);
    let (g, t) = (lane / 4, lane % 4);
    let base = sa.offset + mat * sa.bs;
    let mut acc = Sequence::<Array<Acc>>::new();
    // A read-only view of the same (writable) binding.
    let a = w.slice(0usize, w.len());
    mma_acc(
        a,
        x,
        base / 4 + t,
        sa.rs / 4,
        rows,
        (sx.offset + mat * sx.bs) / 4 + t,
        sx.rs / 4,
        NB,
        NB,
        r0,
        c0,
        g,
        &mut acc,
    );
    // Every plane has read its rows of A21 before any overwrites them.
    sync_cube();
    #[unroll]
    for e in 0..16usize {
        let (i, j) = mma_elem(r0, c0, g, t, e);
        if i < rows {
            w[base + i * sa.rs + j * sa.cs] = F::cast_from(mma_value(&acc, e));
        }
    }
}

/// L21 = A21·L11⁻ᵀ in place (`a21`: rows × 64; `x`: L11⁻¹, 64 × 64, zeros above its
/// diagonal) with [`panel_mma_kernel`], where [`crate::CholeskyParams::panel_mma`] is on and
/// both operands' rows are contiguous 16-byte 4-vectors. Returns false (and launches nothing)
/// otherwise.
pub(crate) fn launch_panel_mma(ctx: &Ctx, a21: Operand, x: Operand) -> bool {
    let (av, xv) = (a21.view, x.view);
    let fits = ctx.launch.panel_mma
        && av.cols == NB
        && av.rows > 0
        && (xv.rows, xv.cols) == (NB, NB)
        && av.rows_of_4(a21.handle.offset_start.unwrap_or(0), ctx.batch)
        && xv.rows_of_4(x.handle.offset_start.unwrap_or(0), ctx.batch);
    if !fits {
        return false;
    }
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count());
    // SAFETY: the grid fits (potrf checked its order's grids before any launch); 8 planes of
    // 32 lanes (`panel_mma` is refused where planes are not 32 wide or `mma.sync` is
    // missing); every load is a 4-vector of a row below `rows` of A21 or of X's 64 rows,
    // K < 64 (checked above: both views' rows are contiguous on 16 bytes, 64 columns); stores
    // go to A21's elements (i < rows, j < 64) of the cube's own 64 rows, after the barrier
    // that follows the cube's last load of them; cubes past the batch leave before it.
    unsafe {
        panel_mma_kernel::launch_unchecked::<f32>(
            ctx.client,
            CubeCount::Static(av.rows.div_ceil(NB) as u32, by as u32, bz as u32),
            CubeDim::new_1d((8 * MMA_PLANE) as u32),
            BufferArg::from_raw_parts(a21.handle.clone(), a21.len),
            BufferArg::from_raw_parts(x.handle.clone(), x.len),
            av.launch_arg(),
            xv.launch_arg(),
            av.rows,
            ctx.batch,
        )
    };
    true
}
