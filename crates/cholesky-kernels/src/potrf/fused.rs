//! A right-looking step's SYRK fused with the next diagonal block: A22 −= A21·A21ᵀ (lower
//! triangle, the vector-tile SIMT GEMM, [`linalg_common::gemm_vec`]) in one launch whose first
//! cube — the one whose tile is A22's leading nb×nb block — then factors and inverts that
//! block ([`super::blocked`]) while the other cubes finish the update. The next step's leaf
//! launch disappears from the chain, and the leaf runs in the shadow of the update.
//!
//! Same operands and results as `syrk_rec` followed by the leaf of `potrf_rec`, in one of two
//! ways ([`crate::CholeskyParams::fused_staged`]):
//! - staged (the default): the tile's cube hands its updated block to the leaf through
//!   shared memory (the leaf stores the factor over it), every cube loading its tile's C
//!   after the product (with [`crate::CholeskyParams::fused_c_first`], with the product's
//!   first loads), so no global store, fence and reload sit between the product and
//!   the factorization; it reads `info` before the product, and where the matrix has already
//!   failed it stores its tile like the others and leaves;
//! - not staged: the tile's cube stores its part of the update, a storage barrier makes the
//!   stores visible to the whole cube (a cube barrier on the CPU runtime, which has no storage
//!   fence and needs none), and the leaf reads the block back from the same buffer.
//!
//! With [`crate::CholeskyParams::fused_mma`] (CUDA; by default in right-looking regions of
//! order ≥ [`crate::FUSED_MMA_FROM`]) every cube but the first forms its tile by 3×TF32
//! `mma.sync` from registers (`mma_syrk_tile`) and leaves; with
//! [`crate::CholeskyParams::fused_mma_leaf`] the first cube too, staging its tile for the
//! block (`mma_stage_block`). `potrf/panel_mma.rs` shares the products ([`mma_acc`]).
//!
//! The grid has a cube per update tile on or below the diagonal, T(T + 1)/2 for T tile rows,
//! row by row with the block's tile first ([`linalg_common::gemm::tile_at_tri()`];
//! [`crate::CholeskyParams::fused_tri_grid`], else the T × T square whose cubes above the
//! diagonal leave at once).
use super::blocked::{BlockFrom, blocked_leaf_block};
use crate::Ctx;
use crate::config::{BlockedLeafConfig, LeafStage};
use cubecl::cmma::MmaDefinition;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::gemm::{
    GemmConfig, GemmOp, Layout, MatArgs, MatArgsLaunch, Operand, Strides, TileAt, batch_grid,
    col_major, load_tile_c, put_tile, result_index, tile_at, tile_at_tri, tri_tiles,
};
use linalg_common::gemm_mma::{MMA_PLANE, split_pair};
use linalg_common::gemm_vec::{gemm_vec_acc, gemm_vec_tile};

type Frag = Vector<tf32, Const<1>>;
pub(crate) type Acc = Vector<f32, Const<2>>;

/// A21 (view `sa`; `sb` = its transpose) is read through `a`, A22 (`sc`) updated through `w`
/// (in potrf both are views of one buffer, at disjoint elements); `sl`: A22's leading block
/// of order `nt`, whose factor goes to `w` and its inverse to `si`. Tile 0 of the grid is
/// that block.
#[cube(launch_unchecked, create_dummy_kernel)]
// A comptime `if` around a runtime one is two different things in CubeCL: keep them apart.
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub fn syrk_leaf_kernel<F: Float>(
    a: &[F],
    w: &mut [F],
    inv: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    dims: MatArgs,
    sa: Strides,
    sb: Strides,
    sc: Strides,
    sl: Strides,
    si: Strides,
    nt: usize,
    d0: usize,
    #[comptime] gcfg: GemmConfig,
    #[comptime] lcfg: BlockedLeafConfig,
    #[comptime] op: GemmOp,
    #[comptime] layout: Layout,
    #[comptime] stage: LeafStage,
    #[comptime] staged: bool,
    #[comptime] c_first: bool,
    #[comptime] storage_sync: bool,
    #[comptime] mma: bool,
    #[comptime] mma_leaf: bool,
    #[comptime] tri: bool,
) {
    // `tri`: the grid lists only the tiles on and below the diagonal (tile_m = tile_n).
    let at = if comptime!(tri) {
        tile_at_tri(&dims, gcfg.tile_m())
    } else {
        tile_at(&dims, gcfg.tile_m(), gcfg.tile_n(), op)
    };
    if comptime!(mma) {
        // Uniform per cube: the update cubes take the tensor-core tile and leave.
        if CUBE_POS_X != 0 {
            mma_syrk_tile(a, w, &dims, &sa, &sc, &at);
            terminate!();
        }
    }
    let mut blk = Shared::<[F]>::new_slice(comptime!(lcfg.nb * (lcfg.nb + 1)));
    if comptime!(staged) {
        // Uniform per cube: the leaf's cube whose matrix has not failed yet.
        let mut leaf = CUBE_POS_X == 0;
        if comptime!(stage.factor) {
            if leaf {
                leaf = info[at.bidx] == 0;
            }
        }
        if comptime!(mma_leaf) {
            // Uniform per cube: the leaf's tile on tensor cores, staged, then the block.
            if leaf {
                mma_stage_block(a, w, &mut blk, &dims, &sa, &sc, &at, nt, lcfg, stage);
                blocked_leaf_block(
                    a,
                    w,
                    inv,
                    info,
                    flags,
                    &mut blk,
                    &sl,
                    &sl,
                    &si,
                    nt,
                    d0,
                    0usize,
                    at.bidx,
                    lcfg,
                    stage,
                    BlockFrom::Staged,
                );
                terminate!();
            }
        }
        let mut acc = Array::<F>::new(comptime!(gcfg.tm * gcfg.tn));
        let mut old = Array::<F>::new(comptime!(gcfg.tm * gcfg.tn));
        // With `c_first` the C loads start with the first K window's (their registers cost
        // occupancy only where the block's code leaves room for a second cube), else they
        // follow the product, as in the plain GEMM.
        gemm_vec_acc(
            a, a, w, &dims, &sa, &sb, &sc, &at, &mut acc, &mut old, gcfg, op, layout, c_first,
        );
        let unit = UNIT_POS as usize;
        let (uy, ux) = (unit / gcfg.units_x, unit % gcfg.units_x);
        let c_base = sc.offset + at.bidx * sc.bs;
        if comptime!(!c_first && op.accumulate) {
            load_tile_c(
                w, c_base, &sc, &dims, &mut old, at.row0, at.col0, uy, ux, gcfg, op,
            );
        }
        if leaf {
            stage_block::<F>(&acc, &old, &mut blk, nt, uy, ux, gcfg, lcfg, op, stage);
            sync_cube();
            blocked_leaf_block(
                a,
                w,
                inv,
                info,
                flags,
                &mut blk,
                &sl,
                &sl,
                &si,
                nt,
                d0,
                0usize,
                at.bidx,
                lcfg,
                stage,
                BlockFrom::Staged,
            );
        } else {
            put_tile(
                w, c_base, &sc, &dims, &acc, &old, at.row0, at.col0, uy, ux, gcfg, op,
            );
        }
    } else {
        gemm_vec_tile(a, a, w, &dims, &sa, &sb, &sc, &at, gcfg, op, layout, false);
        // Uniform per cube. (One call of the block's code after both branches changed the
        // staged branch's SASS: its load phase 84 → 185 instructions; BENCHMARKS.md,
        // session 42.)
        if CUBE_POS_X == 0 {
            if comptime!(storage_sync) {
                sync_storage();
            } else {
                sync_cube();
            }
            blocked_leaf_block(
                a,
                w,
                inv,
                info,
                flags,
                &mut blk,
                &sl,
                &sl,
                &si,
                nt,
                d0,
                0usize,
                at.bidx,
                lcfg,
                stage,
                BlockFrom::Dst,
            );
        }
    }
}

/// C −= A_i·A_jᵀ on and below C's diagonal for this cube's 64 × 64 tile at (row0, col0)
/// (A_i: A's rows row0…, A_j: A's rows col0…, K = `at.kdim`, a multiple of 32), by 3×TF32
/// `mma.sync` m16n8k8 fed straight from registers, with no shared memory and no barrier.
/// Plane q (of 8) owns rows row0 + 16·(q / 2) + [0, 16) and columns col0 + 32·(q % 2) + [0, 32):
/// one A tile and four B tiles. K is permuted inside each block of 32 (any order of K gives
/// the product): lane (g, t) = (lane / 4, lane % 4) loads the 4-vectors X = A(r, 32b + 4t …)
/// and Y = A(r, 32b + 16 + 4t …) of each row r it needs, and at step e < 4 of the block uses
/// X[e] as K slot t and Y[e] as slot t + 4 — for A's fragments (rows g, g + 8 of its tile)
/// and B's (Bᵀ's rows g of its four tiles) alike, so every K index meets itself once. Rows
/// past C's read as zeros; A's rows must be contiguous on 16 bytes (checked by the launcher).
#[cube]
fn mma_syrk_tile<F: Float>(
    a: &[F],
    w: &mut [F],
    dims: &MatArgs,
    sa: &Strides,
    sc: &Strides,
    at: &TileAt,
) {
    let m = dims.m;
    let (r0, c0, g, t) = mma_place(at);
    let mut acc = Sequence::<Array<Acc>>::new();
    mma_syrk_acc(a, m, sa, at, r0, c0, g, t, &mut acc);
    // All 16 old values are loaded before the first store: a load after a store to the same
    // buffer at runtime strides waits for it, so `w[·] -= x` element by element made 16 round
    // trips to memory (local SASS). (C's loads issued before the products took the kernel
    // from 128 registers to 178.)
    let c_base = sc.offset + at.bidx * sc.bs;
    let mut old = Array::<F>::new(16usize);
    #[unroll]
    for e in 0..16usize {
        let (i, j) = mma_elem(r0, c0, g, t, e);
        let mut v = F::new(0.0);
        if i < m && j <= i {
            v = w[c_base + i * sc.rs + j * sc.cs];
        }
        old[e] = v;
    }
    #[unroll]
    for e in 0..16usize {
        let (i, j) = mma_elem(r0, c0, g, t, e);
        if i < m && j <= i {
            w[c_base + i * sc.rs + j * sc.cs] = old[e] - F::cast_from(mma_value(&acc, e));
        }
    }
}

/// Where element e < 16 of a lane's accumulators (`mma_acc`'s layout: tile n = e / 4, vector
/// h = e / 2 mod 2, entry c = e mod 2) lies: C(r0 + g + 8h, c0 + 8n + 2t + c).
#[cube]
pub(crate) fn mma_elem(
    r0: usize,
    c0: usize,
    g: usize,
    t: usize,
    #[comptime] e: usize,
) -> (usize, usize) {
    let (n, h, c) = comptime!((e / 4, (e / 2) % 2, e % 2));
    (r0 + g + comptime!(8 * h), c0 + comptime!(8 * n + c) + 2 * t)
}

/// Element e < 16 of a lane's accumulators (at [`mma_elem`]'s place).
#[cube]
pub(crate) fn mma_value(acc: &Sequence<Array<Acc>>, #[comptime] e: usize) -> f32 {
    let (n, h, c) = comptime!((e / 4, (e / 2) % 2, e % 2));
    acc.index(n)[h].extract(c)
}

/// [`mma_syrk_tile`] for the first cube, whose tile is the leading nb × nb block (nb = 64):
/// the updated block goes into `blk` as [`stage_block`] lays it out (lower triangle of the
/// leading `nt` rows at stride nb + 1, zeros above it, ones on the diagonal past `nt`), behind
/// a cube barrier, instead of back to C.
#[cube]
#[allow(clippy::too_many_arguments)]
fn mma_stage_block<F: Float>(
    a: &[F],
    w: &mut [F],
    blk: &mut Shared<[F]>,
    dims: &MatArgs,
    sa: &Strides,
    sc: &Strides,
    at: &TileAt,
    nt: usize,
    #[comptime] lcfg: BlockedLeafConfig,
    #[comptime] stage: LeafStage,
) {
    let (r0, c0, g, t) = mma_place(at);
    let mut acc = Sequence::<Array<Acc>>::new();
    mma_syrk_acc(a, dims.m, sa, at, r0, c0, g, t, &mut acc);
    let ld = comptime!(lcfg.nb + 1);
    let c_base = sc.offset + at.bidx * sc.bs;
    #[unroll]
    for e in 0..16usize {
        let (i, j) = mma_elem(r0, c0, g, t, e);
        let mut v = F::new(0.0);
        if i < nt {
            if j < i || (j == i && !comptime!(stage.unit_diag)) {
                v = w[c_base + i * sc.rs + j * sc.cs] - F::cast_from(mma_value(&acc, e));
            } else if j == i {
                v = F::new(1.0);
            }
        } else if j == i {
            v = F::new(1.0);
        }
        blk[i * ld + j] = v;
    }
    sync_cube();
}

/// This unit's place in [`mma_syrk_tile`]'s layout: its plane's first row r0 and column c0
/// of C, and its lane's (g, t) = (lane / 4, lane % 4).
#[cube]
fn mma_place(at: &TileAt) -> (usize, usize, usize, usize) {
    let unit = UNIT_POS as usize;
    let (plane, lane) = (unit / MMA_PLANE, unit % MMA_PLANE);
    (
        at.row0 + 16 * (plane / 2),
        at.col0 + 32 * (plane % 2),
        lane / 4,
        lane % 4,
    )
}

/// The products of [`mma_syrk_tile`]: `acc` (filled with four tiles of two accumulator
/// vectors) = A(r0 + [0, 16), :)·A(c0 + [0, 32), :)ᵀ for this lane's fragments.
#[cube]
#[allow(clippy::too_many_arguments)]
fn mma_syrk_acc<F: Float>(
    a: &[F],
    m: usize,
    sa: &Strides,
    at: &TileAt,
    r0: usize,
    c0: usize,
    g: usize,
    t: usize,
    acc: &mut Sequence<Array<Acc>>,
) {
    let base = (sa.offset + at.mat * sa.bs) / 4 + t;
    let rs = sa.rs / 4;
    mma_acc(a, a, base, rs, m, base, rs, m, at.kdim, r0, c0, g, acc);
}

/// `acc` (filled with four tiles of two accumulator vectors) = A(r0 + [0, 16), :)·
/// B(c0 + [0, 32), :)ᵀ over K = `kdim` (a multiple of 32) for this lane's fragments, in
/// [`mma_syrk_tile`]'s layout (lane = 4g + t). Row r of A is the 4-vectors of `a` from
/// `a0 + r·ars` (in vectors, the lane's t already added); rows from `ma` on read as zeros.
/// B's likewise in `b`.
#[cube]
#[allow(clippy::too_many_arguments)]
pub(crate) fn mma_acc<F: Float>(
    a: &[F],
    b: &[F],
    a0: usize,
    ars: usize,
    ma: usize,
    b0: usize,
    brs: usize,
    mb: usize,
    kdim: usize,
    r0: usize,
    c0: usize,
    g: usize,
    acc: &mut Sequence<Array<Acc>>,
) {
    let av = a.as_vectorized().with_vector_size::<Const<4>>();
    let bv = b.as_vectorized().with_vector_size::<Const<4>>();
    let def = MmaDefinition::<tf32, tf32, f32>::new(16usize, 8usize, 8usize);
    #[unroll]
    for _ in 0..4usize {
        let mut x = Array::<Acc>::new(2usize);
        x[0usize] = Acc::broadcast(0.0);
        x[1usize] = Acc::broadcast(0.0);
        acc.push(x);
    }
    for kb in 0..kdim / 32 {
        // [X, Y] of A's rows r0 + g, r0 + g + 8, then of Bᵀ's rows c0 + 8n + g, n < 4.
        let mut v = Array::<Vector<F, Const<4>>>::new(12usize);
        #[unroll]
        for q in 0..6usize {
            let mut x = Vector::<F, Const<4>>::broadcast(F::new(0.0));
            let mut y = Vector::<F, Const<4>>::broadcast(F::new(0.0));
            if comptime!(q < 2) {
                let r = r0 + g + comptime!(8 * q);
                if r < ma {
                    x = av[a0 + r * ars + 8 * kb];
                    y = av[a0 + r * ars + 8 * kb + 4];
                }
            } else {
                let r = c0 + g + comptime!(8 * (q - 2));
                if r < mb {
                    x = bv[b0 + r * brs + 8 * kb];
                    y = bv[b0 + r * brs + 8 * kb + 4];
                }
            }
            v[comptime!(2 * q)] = x;
            v[comptime!(2 * q + 1)] = y;
        }
        #[unroll]
        for e in 0..4usize {
            // a0 = A(g, t), a1 = A(g + 8, t), a2 = A(g, t + 4), a3 = A(g + 8, t + 4).
            let xa = split_pair::<tf32>(
                f32::cast_from(v[0usize].extract(e)),
                f32::cast_from(v[2usize].extract(e)),
            );
            let ya = split_pair::<tf32>(
                f32::cast_from(v[1usize].extract(e)),
                f32::cast_from(v[3usize].extract(e)),
            );
            let mut fa_hi = Array::<Frag>::new(4usize);
            let mut fa_lo = Array::<Frag>::new(4usize);
            fa_hi[0usize] = Frag::new(xa.extract(0usize));
            fa_lo[0usize] = Frag::new(xa.extract(1usize));
            fa_hi[1usize] = Frag::new(xa.extract(2usize));
            fa_lo[1usize] = Frag::new(xa.extract(3usize));
            fa_hi[2usize] = Frag::new(ya.extract(0usize));
            fa_lo[2usize] = Frag::new(ya.extract(1usize));
            fa_hi[3usize] = Frag::new(ya.extract(2usize));
            fa_lo[3usize] = Frag::new(ya.extract(3usize));
            #[unroll]
            for n in 0..4usize {
                // b0 = B(t, g), b1 = B(t + 4, g): K slots t and t + 4 of Bᵀ's row g.
                let z = split_pair::<tf32>(
                    f32::cast_from(v[comptime!(4 + 2 * n)].extract(e)),
                    f32::cast_from(v[comptime!(5 + 2 * n)].extract(e)),
                );
                let mut bh = Array::<Frag>::new(2usize);
                let mut bl = Array::<Frag>::new(2usize);
                bh[0usize] = Frag::new(z.extract(0usize));
                bl[0usize] = Frag::new(z.extract(1usize));
                bh[1usize] = Frag::new(z.extract(2usize));
                bl[1usize] = Frag::new(z.extract(3usize));
                let d = acc.index_mut(n);
                def.execute_inplace(&fa_lo, &bh, d);
                def.execute_inplace(&fa_hi, &bl, d);
                def.execute_inplace(&fa_hi, &bh, d);
            }
        }
    }
}

/// The leaf's block from the tile's results (`op` applied to `acc` and the old values `old`)
/// into `blk` as [`blocked_leaf_block`]'s loader lays it out: the lower triangle (not the
/// diagonal for a unit-diagonal stage: ones there) at stride nb + 1, zeros above it, the
/// identity past `nt`. The tile is the nb × nb block at the origin.
#[cube]
#[allow(clippy::too_many_arguments)]
fn stage_block<F: Float>(
    acc: &Array<F>,
    old: &Array<F>,
    blk: &mut Shared<[F]>,
    nt: usize,
    uy: usize,
    ux: usize,
    #[comptime] gcfg: GemmConfig,
    #[comptime] lcfg: BlockedLeafConfig,
    #[comptime] op: GemmOp,
    #[comptime] stage: LeafStage,
) {
    let (tm, tn, uy_n, ux_n) = comptime!((gcfg.tm, gcfg.tn, gcfg.units_y, gcfg.units_x));
    let ld = comptime!(lcfg.nb + 1);
    #[unroll(gcfg.unroll)]
    for r in 0..tm {
        let i = result_index(0usize, uy, r, uy_n, true);
        #[unroll(gcfg.unroll)]
        for s in 0..tn {
            let k = result_index(0usize, ux, s, ux_n, true);
            let mut x = acc[r * tn + s];
            if comptime!(op.negate) {
                x = -x;
            }
            if comptime!(op.accumulate) {
                x += old[r * tn + s];
            }
            let mut v = F::new(0.0);
            if i < nt {
                if k < i || (k == i && !comptime!(stage.unit_diag)) {
                    v = x;
                } else if k == i {
                    v = F::new(1.0);
                }
            } else if k == i {
                v = F::new(1.0);
            }
            blk[i * ld + k] = v;
        }
    }
}

/// The update of `syrk_leaf_kernel`: C −= A·Aᵀ on and below C's diagonal.
pub const SYRK_OP: GemmOp = GemmOp {
    accumulate: true,
    negate: true,
    lower_only: true,
    a_lower: false,
};

/// What `syrk_leaf_kernel`'s first cube does with the updated block: factor and invert it.
pub const SYRK_LEAF_STAGE: LeafStage = LeafStage {
    factor: true,
    invert: true,
    unit_diag: false,
    check: false,
};

/// C −= A·Aᵀ on C's lower triangle, then factor and invert C's leading block of order
/// min(nb, C's order) into `inv` (its slot, `d0` the block's first row in the matrix) — where
/// [`crate::CholeskyLaunch::fused_leaf`] allows it. Returns false (and launches nothing)
/// otherwise. With `mma` ([`crate::CholeskyLaunch::fused_mma_for`]) the update cubes take the
/// tensor-core tiles where the tile, K and A's rows suit them.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_syrk_leaf(
    ctx: &Ctx,
    c: Operand,
    a: Operand,
    inv: Operand,
    info: &Handle,
    flags: &Handle,
    d0: usize,
    mma: bool,
) -> bool {
    let (m, k) = (c.view.rows, a.view.cols);
    let nb = ctx.launch.leaf.nb;
    let Some((gcfg, lcfg)) = ctx.launch.fused_leaf(m, k, ctx.batch) else {
        return false;
    };
    let nt = m.min(nb);
    let tiles_n = m.div_ceil(nb);
    let tri = ctx.launch.fused_tri_grid;
    let grid_x = if tri {
        tri_tiles(m, nb)
    } else {
        tiles_n * tiles_n
    };
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count());
    let at = a.view.t();
    let layout = Layout {
        a_col_major: col_major(&a.view),
        b_col_major: col_major(&at),
    };
    // The block's inverse only where the steps' panels apply it.
    let op = SYRK_OP;
    let stage = LeafStage {
        invert: !ctx.launch.substitutes(ctx.batch),
        ..SYRK_LEAF_STAGE
    };
    // The update cubes on tensor cores where asked and the tile, K and A's rows suit them.
    let mma = mma
        && gcfg.tile_m() == 64
        && gcfg.tile_n() == 64
        && gcfg.units() == 8 * linalg_common::gemm_mma::MMA_PLANE
        && k.is_multiple_of(32)
        && a.view
            .rows_of_4(a.handle.offset_start.unwrap_or(0), ctx.batch);
    // SAFETY: the GEMM part is `GemmLaunch::launch` of the vector kernel with this grid (tiles
    // fit, checked above; with `tri`, T(T + 1)/2 cubes, each one tile on or below the
    // diagonal, tile_m = tile_n as `fused_leaf` requires): loads guarded by the view sizes,
    // stores by i < m, j ≤ i < m, C (A22) disjoint from A (A21), which may share its buffer.
    // Cube 0's tile is C's leading nb×nb block (tile_m = tile_n = nb); that cube alone
    // (CUBE_POS_X and info[b] are uniform per cube, so all its units reach each barrier) takes
    // the block — staged in shared memory behind a cube barrier, or read back through `w`
    // behind a storage barrier — and runs the diagonal-block kernel's body on it, exactly as
    // the standalone leaf launch does (its units equal to the GEMM's), writing only that
    // block, its inverse slot
    // (inside `inv`) and info[b]. With `mma`, the other cubes (8 planes of 32 lanes, checked
    // above with the tile of 64) read A's rows as 4-vectors (contiguous, on 16 bytes, K a
    // multiple of 32: checked above) up to row m − 1 and column k − 1, and store C(i, j) for
    // j ≤ i < m of their own tile only.
    unsafe {
        syrk_leaf_kernel::launch_unchecked::<f32>(
            ctx.client,
            CubeCount::Static(grid_x as u32, by as u32, bz as u32),
            CubeDim::new_1d(gcfg.units() as u32),
            BufferArg::from_raw_parts(a.handle.clone(), a.len),
            BufferArg::from_raw_parts(c.handle.clone(), c.len),
            BufferArg::from_raw_parts(inv.handle.clone(), inv.len),
            BufferArg::from_raw_parts(info.clone(), ctx.batch.max(1)),
            BufferArg::from_raw_parts(flags.clone(), ctx.batch.max(1)),
            MatArgsLaunch::new(m, m, k, tiles_n, ctx.batch, k, 1, 0, 0),
            a.view.launch_arg(),
            at.launch_arg(),
            c.view.launch_arg(),
            c.view.block(0, 0, nt, nt).launch_arg(),
            inv.view.launch_arg(),
            nt,
            d0,
            gcfg,
            lcfg,
            op,
            layout,
            stage,
            ctx.launch.fused_staged(),
            ctx.launch.fused_c_first,
            ctx.launch.hw().storage_sync,
            mma,
            mma && ctx.launch.fused_mma_leaf && ctx.launch.fused_staged(),
            tri,
        )
    };
    true
}
