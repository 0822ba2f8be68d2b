//! The rest of a right-looking region as one launch of tile tasks that wait on each other
//! (`CholeskyParams::dataflow_below`), instead of two launches per step (the panel solve, then
//! the fused SYRK + next diagonal block), each of which waits for the whole previous one.
//!
//! The region (order s, lower triangle, in place) is cut into nb × nb tiles; cube x of the
//! launch owns tile (i, j), j ≤ i, with x = i(i + 1)/2 + j (row by row). It holds its tile
//! C in registers and, left-looking, for k = 0 … j − 1 in turn waits until L_ik and L_jk
//! are final (their tiles' flags), then C −= L_ik·L_jkᵀ. Then a diagonal tile factors
//! C = L_jj·L_jjᵀ ([`super::blocked`], without the inverse), and a tile below the diagonal
//! waits for L_jj and solves L_ij·L_jjᵀ = C by substitution (as `panel_solve.rs`). Each stores
//! its L and raises its flag behind a storage barrier. Every tile waits only on tiles of
//! smaller x, which the device starts first (`Hardware::cube_handoff`), so every wait ends.
//!
//! Where the region's first diagonal tile was already factored (a fused step did it:
//! `first_done`), tile (0, 0) raises its flag at once. A pivot that is not > 0 records
//! `info` as the leaves do and the later diagonal tiles skip their factorization; the tiles
//! still raise their flags (columns after the failed one are not meaningful). A wait gives up
//! after [`WAIT_POLLS`] polls and marks the matrix [`DATAFLOW_TIMEOUT`] in `flags`.
//!
//! Products: with `cfg.mma` (CUDA, tiles of 64 on 256 units) by 3×TF32 `mma.sync` straight
//! from global memory ([`super::fused::mma_acc`], C in its accumulator layout); otherwise
//! both operands staged in shared memory and each unit forms its elements of C.
use super::blocked::{BlockFrom, blocked_leaf_block};
#[cfg(doc)]
use super::fused::mma_elem;
use super::fused::{Acc, mma_acc, mma_value};
use super::panel_solve::substitute_row;
use crate::Ctx;
use crate::config::{BlockedLeafConfig, LeafStage};
use crate::trsm::trsv::chain_barrier;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::gemm::{Operand, Strides, batch_grid, tri_tile};
use linalg_common::gemm_mma::MMA_PLANE;

/// What a wait that gave up stores in its matrix's flag (the non-finite check stores 1).
pub const DATAFLOW_TIMEOUT: u32 = 2;
/// Polls of one wait before it gives up (each an L2 round trip: seconds in all).
pub const WAIT_POLLS: u32 = 1 << 22;

/// The diagonal tiles: factored, no inverse, input checked before the region.
const DIAG_STAGE: LeafStage = LeafStage {
    factor: true,
    invert: false,
    unit_diag: false,
    check: false,
};

/// Comptime shape of the tile tasks' kernel (`dataflow_kernel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DataflowConfig {
    /// The diagonal tiles' kernel (its nb is the tile order, its units the cube's).
    pub lcfg: BlockedLeafConfig,
    /// Products by 3×TF32 `mma.sync` from global memory (nb = 64, 8 planes of 32).
    pub mma: bool,
    /// Lanes that share a row of the tile solve (1: a unit per row, no plane operations).
    pub groups: usize,
    /// Plane width (the solve's shuffles).
    pub plane: usize,
    /// Whether `sync_storage` compiles (else a cube barrier orders storage: the CPU runtime).
    pub storage_sync: bool,
}

impl DataflowConfig {
    /// Units of the cube.
    pub fn units(&self) -> usize {
        self.lcfg.units()
    }

    /// Registers of C per unit.
    pub fn elems(&self) -> usize {
        self.lcfg.nb * self.lcfg.nb / self.units()
    }

    /// Shared memory: the leaf's, one more staged tile, the pivots' reciprocals.
    pub fn shared_bytes(&self) -> usize {
        let nb = self.lcfg.nb;
        self.lcfg.shared_bytes() + 4 * (nb * (nb + 1) + nb)
    }
}

/// Where element e of this unit's C lies in the tile: the mma accumulator layout
/// ([`mma_elem`]: plane q of 8 holds rows 16·(q / 2) + [0, 16) and columns 32·(q % 2) +
/// [0, 32)), else unit + e·units row-major. Loops over e unroll on GPUs (where e is then a
/// constant), not on the CPU runtime (nb²/units elements per unit there).
#[cube]
pub(super) fn elem_at(unit: usize, e: usize, #[comptime] cfg: DataflowConfig) -> (usize, usize) {
    let nb = comptime!(cfg.lcfg.nb);
    if comptime!(cfg.mma) {
        let (plane, lane) = (unit / MMA_PLANE, unit % MMA_PLANE);
        let (n, h, c) = (e / 4, (e / 2) % 2, e % 2);
        (
            16 * (plane / 2) + lane / 4 + 8 * h,
            32 * (plane % 2) + 8 * n + c + 2 * (lane % 4),
        )
    } else {
        let idx = unit + e * comptime!(cfg.units());
        (idx / nb, idx % nb)
    }
}

/// Unit 0 waits for flags `f1` and `f2` of `ready`, then the barrier acquires for every
/// unit what their tiles published. A wait that gives up marks `flags[bidx]`.
#[cube]
pub(super) fn wait_for(
    ready: &[Atomic<u32>],
    flags: &mut [u32],
    f1: usize,
    f2: usize,
    bidx: usize,
    #[comptime] storage_sync: bool,
) {
    // After one wait gave up, the matrix's later waits do not poll (its result is void).
    if UNIT_POS == 0 && flags[bidx] != DATAFLOW_TIMEOUT {
        let mut polls = 0u32;
        loop {
            if ready[f1].load() != 0 && ready[f2].load() != 0 {
                break;
            }
            polls += 1;
            if polls >= WAIT_POLLS {
                flags[bidx] = DATAFLOW_TIMEOUT;
                break;
            }
        }
    }
    chain_barrier(storage_sync);
}

/// The rows `row0` … (`rows` of them; zeros past) of the nb columns from `col0` of the
/// region into `sh`, row r at r·(nb + 1).
#[cube]
#[allow(clippy::too_many_arguments)]
fn stage_rows<F: Float>(
    w: &[F],
    base: usize,
    sw: &Strides,
    row0: usize,
    rows: usize,
    col0: usize,
    sh: &mut Shared<[F]>,
    #[comptime] cfg: DataflowConfig,
) {
    let nb = comptime!(cfg.lcfg.nb);
    let ld = comptime!(cfg.lcfg.nb + 1);
    let unit = UNIT_POS as usize;
    #[unroll(cfg.lcfg.unroll)]
    for q in 0..comptime!(cfg.elems()) {
        let idx = unit + q * comptime!(cfg.units());
        let (r, t) = (idx / nb, idx % nb);
        let mut v = F::new(0.0);
        if r < rows {
            v = w[base + (row0 + r) * sw.rs + (col0 + t) * sw.cs];
        }
        sh[r * ld + t] = v;
    }
}

/// The tile tasks (see the module doc). `w`: the region (order `s`, view `sw`), read and
/// written; `a`: the same buffer, only passed on as the leaf's unused source; `ready`: one
/// zeroed flag per tile and matrix.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn dataflow_kernel<F: Float>(
    a: &[F],
    w: &mut [F],
    inv: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ready: &[Atomic<u32>],
    sw: Strides,
    s: usize,
    d0: usize,
    first_done: u32,
    batch: usize,
    #[comptime] cfg: DataflowConfig,
) {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let nb = comptime!(cfg.lcfg.nb);
    let tt = s.div_ceil(nb);
    let x = CUBE_POS_X as usize;
    let (i, j) = tri_tile(CUBE_POS_X);
    let t = TileAt::new(&sw, s, bidx, tt, i, j, cfg);
    // Uniform per cube: a block factored before this launch is published at once.
    if x == 0 && first_done != 0 {
        if UNIT_POS == 0 {
            ready[t.fb].store(1u32);
        }
        terminate!();
    }

    let mut sh_a = Shared::<[F]>::new_slice(comptime!(cfg.lcfg.nb * (cfg.lcfg.nb + 1)));
    let mut sh_b = Shared::<[F]>::new_slice(comptime!(cfg.lcfg.nb * (cfg.lcfg.nb + 1)));
    let mut dinv = Shared::<[F]>::new_slice(comptime!(cfg.lcfg.nb));

    // C −= L_ik·L_jkᵀ for each earlier block column k, once both are final.
    let mut c = load_c(&*w, &sw, &t, cfg);
    for k in 0..j {
        wait_operands(ready, flags, &t, k, bidx, cfg.storage_sync);
        update_c(&mut c, &*w, &sw, &t, k, &mut sh_a, &mut sh_b, cfg);
    }
    finish_tile(
        &c, a, w, inv, info, flags, ready, &sw, &t, d0, bidx, &mut sh_a, &mut sh_b, &mut dinv, cfg,
    );
    publish(ready, t.fb + x, cfg.storage_sync);
}

/// Publishes a tile: every unit's stores (a storage barrier), then its flag `f`.
#[cube]
pub(super) fn publish(ready: &[Atomic<u32>], f: usize, #[comptime] storage_sync: bool) {
    chain_barrier(storage_sync);
    if UNIT_POS == 0 {
        ready[f].store(1u32);
    }
}

/// Waits until the operands of tile `t`'s update from block column k, L_ik and L_jk, are
/// final ([`wait_for`]).
#[cube]
pub(super) fn wait_operands(
    ready: &[Atomic<u32>],
    flags: &mut [u32],
    t: &TileAt,
    k: usize,
    bidx: usize,
    #[comptime] storage_sync: bool,
) {
    let (f1, f2) = (t.fb + tile_index(t.i, k), t.fb + tile_index(t.j, k));
    wait_for(ready, flags, f1, f2, bidx, storage_sync);
}

/// The flag index of tile (i, j), j ≤ i, within its matrix (row by row).
#[cube]
pub(super) fn tile_index(i: usize, j: usize) -> usize {
    i * (i + 1) / 2 + j
}

/// Where a tile task's tile lies: its matrix's first element, its first row ri and column
/// rj in the region, its rows and columns inside the region, and its matrix's first flag.
#[derive(CubeType, Clone, Copy)]
pub(super) struct TileAt {
    pub base: usize,
    pub ri: usize,
    pub rj: usize,
    pub nti: usize,
    pub ntj: usize,
    pub fb: usize,
    pub i: usize,
    pub j: usize,
}

#[cube]
impl TileAt {
    /// Tile (i, j) of matrix `bidx`'s region (order `s`, `tt` tile rows).
    pub fn new(
        sw: &Strides,
        s: usize,
        bidx: usize,
        tt: usize,
        i: usize,
        j: usize,
        #[comptime] cfg: DataflowConfig,
    ) -> TileAt {
        let nb = comptime!(cfg.lcfg.nb);
        let (ri, rj) = (i * nb, j * nb);
        TileAt {
            base: sw.offset + bidx * sw.bs,
            ri,
            rj,
            nti: min(nb, s - ri),
            ntj: min(nb, s - rj),
            fb: bidx * (tt * (tt + 1) / 2),
            i,
            j,
        }
    }
}

/// The tile's C: its lower part for a diagonal tile, the whole tile below it (zeros past the
/// region), in [`elem_at`]'s layout.
#[cube]
pub(super) fn load_c<F: Float>(
    w: &[F],
    sw: &Strides,
    t: &TileAt,
    #[comptime] cfg: DataflowConfig,
) -> Array<F> {
    let ne = comptime!(cfg.elems());
    let unit = UNIT_POS as usize;
    let diag = t.i == t.j;
    let mut c = Array::<F>::new(ne);
    #[unroll(cfg.lcfg.unroll)]
    for e in 0..ne {
        let (r, q) = elem_at(unit, e, cfg);
        let mut v = F::new(0.0);
        if r < t.nti && q < t.ntj && (!diag || q <= r) {
            v = w[t.base + (t.ri + r) * sw.rs + (t.rj + q) * sw.cs];
        }
        c[e] = v;
    }
    c
}

/// Stores what [`load_c`] loaded.
#[cube]
pub(super) fn store_c<F: Float>(
    c: &Array<F>,
    w: &mut [F],
    sw: &Strides,
    t: &TileAt,
    #[comptime] cfg: DataflowConfig,
) {
    let ne = comptime!(cfg.elems());
    let unit = UNIT_POS as usize;
    let diag = t.i == t.j;
    #[unroll(cfg.lcfg.unroll)]
    for e in 0..ne {
        let (r, q) = elem_at(unit, e, cfg);
        if r < t.nti && q < t.ntj && (!diag || q <= r) {
            w[t.base + (t.ri + r) * sw.rs + (t.rj + q) * sw.cs] = c[e];
        }
    }
}

/// C −= L_ik·L_jkᵀ (tiles (i, k) and (j, k), final): by `mma.sync` from global memory with
/// `cfg.mma`, else staged in `sh_a` and `sh_b` (ends on a cube barrier).
#[cube]
#[allow(clippy::too_many_arguments)]
pub(super) fn update_c<F: Float>(
    c: &mut Array<F>,
    w: &[F],
    sw: &Strides,
    t: &TileAt,
    k: usize,
    sh_a: &mut Shared<[F]>,
    sh_b: &mut Shared<[F]>,
    #[comptime] cfg: DataflowConfig,
) {
    let nb = comptime!(cfg.lcfg.nb);
    let ld = comptime!(cfg.lcfg.nb + 1);
    let ne = comptime!(cfg.elems());
    let unit = UNIT_POS as usize;
    let diag = t.i == t.j;
    let base = t.base;
    if comptime!(cfg.mma) {
        let (plane, lane) = (unit / MMA_PLANE, unit % MMA_PLANE);
        let mut acc = Sequence::<Array<Acc>>::new();
        let col = (base + k * nb * sw.cs) / 4 + lane % 4;
        let rs4 = sw.rs / 4;
        mma_acc(
            w,
            w,
            col + t.ri * rs4,
            rs4,
            t.nti,
            col + t.rj * rs4,
            rs4,
            t.ntj,
            nb,
            16 * (plane / 2),
            32 * (plane % 2),
            lane / 4,
            &mut acc,
        );
        #[unroll]
        for e in 0..ne {
            c[e] -= F::cast_from(mma_value(&acc, e));
        }
        // The next trip's wait comes before any further read: no barrier needed here.
    } else {
        stage_rows(w, base, sw, t.ri, t.nti, k * nb, sh_a, cfg);
        if !diag {
            stage_rows(w, base, sw, t.rj, t.ntj, k * nb, sh_b, cfg);
        }
        sync_cube();
        #[unroll(cfg.lcfg.unroll)]
        for e in 0..ne {
            let (r, q) = elem_at(unit, e, cfg);
            let mut acc = F::new(0.0);
            if diag {
                #[unroll(cfg.lcfg.unroll)]
                for u in 0..nb {
                    acc += sh_a[r * ld + u] * sh_a[q * ld + u];
                }
            } else {
                #[unroll(cfg.lcfg.unroll)]
                for u in 0..nb {
                    acc += sh_a[r * ld + u] * sh_b[q * ld + u];
                }
            }
            c[e] -= acc;
        }
        // The staged tiles are refilled by the next trip.
        sync_cube();
    }
}

/// The tile's L from its updated C: a diagonal tile factors it (unless an earlier pivot
/// failed), a tile below the diagonal waits for L_jj and solves by substitution; both store
/// L. The caller publishes it (a storage barrier, then the flag).
#[cube]
#[allow(clippy::too_many_arguments)]
pub(super) fn finish_tile<F: Float>(
    c: &Array<F>,
    a: &[F],
    w: &mut [F],
    inv: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ready: &[Atomic<u32>],
    sw: &Strides,
    t: &TileAt,
    d0: usize,
    bidx: usize,
    sh_a: &mut Shared<[F]>,
    sh_b: &mut Shared<[F]>,
    dinv: &mut Shared<[F]>,
    #[comptime] cfg: DataflowConfig,
) {
    let nb = comptime!(cfg.lcfg.nb);
    let ld = comptime!(cfg.lcfg.nb + 1);
    let ne = comptime!(cfg.elems());
    let unit = UNIT_POS as usize;
    let (base, ri, rj, nti, ntj) = (t.base, t.ri, t.rj, t.nti, t.ntj);
    if t.i == t.j {
        // The diagonal blocks of earlier columns are all final (this tile's updates waited on
        // them through its row's flags), and no later one runs before this flag: `info` is
        // settled and uniform here.
        if info[bidx] == 0 {
            let sl = Strides {
                offset: sw.offset + rj * (sw.rs + sw.cs),
                rs: sw.rs,
                cs: sw.cs,
                bs: sw.bs,
            };
            // The block as the leaf's loader lays it out: lower triangle, zeros above it,
            // the identity past ntj.
            #[unroll(cfg.lcfg.unroll)]
            for e in 0..ne {
                let (r, q) = elem_at(unit, e, cfg);
                let mut v = F::new(0.0);
                if r < ntj {
                    if q <= r {
                        v = c[e];
                    }
                } else if q == r {
                    v = F::new(1.0);
                }
                sh_a[r * ld + q] = v;
            }
            sync_cube();
            blocked_leaf_block(
                a,
                w,
                inv,
                info,
                flags,
                sh_a,
                &sl,
                &sl,
                &sl,
                ntj,
                d0 + rj,
                0usize,
                bidx,
                cfg.lcfg,
                DIAG_STAGE,
                BlockFrom::Staged,
            );
        }
    } else {
        // C staged by rows, then L_jj (final once its flag is up) transposed:
        // sh_b[k][r] = l_rk below the diagonal, zeros on and above it; dinv = 1 / l_kk.
        #[unroll(cfg.lcfg.unroll)]
        for e in 0..ne {
            let (r, q) = elem_at(unit, e, cfg);
            sh_a[r * ld + q] = c[e];
        }
        let dj = t.fb + tile_index(t.j, t.j);
        wait_for(ready, flags, dj, dj, bidx, cfg.storage_sync);
        let lb = base + rj * (sw.rs + sw.cs);
        #[unroll(cfg.lcfg.unroll)]
        for q in 0..ne {
            let idx = unit + q * comptime!(cfg.units());
            let (r, k) = (idx / nb, idx % nb);
            let mut v = F::new(0.0);
            if k < r {
                v = w[lb + r * sw.rs + k * sw.cs];
            }
            sh_b[k * ld + r] = v;
        }
        #[unroll(cfg.lcfg.unroll)]
        for q in 0..comptime!(cfg.lcfg.nb.div_ceil(cfg.units())) {
            let k = unit + q * comptime!(cfg.units());
            if k < nb {
                dinv[k] = F::new(1.0) / w[lb + k * (sw.rs + sw.cs)];
            }
        }
        sync_cube();
        // Each row x of the tile: x·L_jjᵀ = c forward over the columns (see `panel_solve.rs`):
        // the units of a row are `groups` consecutive lanes, lane q holding columns q, q + g, …
        let g = comptime!(cfg.groups);
        let cw = comptime!(cfg.lcfg.nb / cfg.groups);
        let row_units = comptime!(cfg.units() / cfg.groups);
        let lq = unit % g;
        let first = (unit % comptime!(cfg.plane)) - lq;
        for slot in 0..comptime!(cfg.lcfg.nb.div_ceil(cfg.units() / cfg.groups)) {
            let r = unit / g + slot * row_units;
            let mut v = Array::<F>::new(cw);
            #[unroll(cfg.lcfg.unroll)]
            for cc in 0..cw {
                let mut y = F::new(0.0);
                if r < nb {
                    y = sh_a[r * ld + cc * g + lq];
                }
                v[cc] = y;
            }
            substitute_row(&mut v, &*sh_b, &*dinv, lq, first, nb, g, cfg.lcfg.unroll);
            if r < nti {
                #[unroll(cfg.lcfg.unroll)]
                for cc in 0..cw {
                    w[base + (ri + r) * sw.rs + (rj + cc * g + lq) * sw.cs] = v[cc];
                }
            }
        }
    }
}

/// Factor the region `w` (order s > 0, lower, in place; `d0`: its first row in the matrix)
/// with [`dataflow_kernel`], where `ctx.launch` allows it for s; `first_done`: its first
/// diagonal block is already factored. Returns false (and launches nothing) otherwise.
pub(crate) fn launch_dataflow(
    ctx: &Ctx,
    w: Operand,
    info: &Handle,
    flags: &Handle,
    d0: usize,
    first_done: bool,
) -> bool {
    let s = w.view.rows;
    let aligned = w
        .view
        .rows_of_4(w.handle.offset_start.unwrap_or(0), ctx.batch);
    let Some(cfg) = ctx.launch.dataflow_for(s, ctx.batch, aligned) else {
        return false;
    };
    let nb = cfg.lcfg.nb;
    let tt = s.div_ceil(nb);
    let tiles = tt * (tt + 1) / 2;
    let ready = ctx.zeroed_u32(ctx.batch * tiles);
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count());
    if ctx.launch.dataflow_tasks {
        let cubes = ctx.launch.tasks_cubes(s, ctx.batch, cfg);
        let count = CubeCount::Static(cubes as u32, by as u32, bz as u32);
        super::tasks::launch_tasks(
            ctx, w, info, flags, ready, tiles, count, d0, first_done, cfg,
        );
        return true;
    }
    // SAFETY: cube x of matrix b < batch works on tile (i, j), j ≤ i < tt, of its own matrix
    // inside the region (view checked by the public op; rows and columns past s are neither
    // read nor written): it reads tiles (i, k), (j, k) for k ≤ j and writes only tile (i, j),
    // so no two cubes write the same element, and a cube reads another's tile only after
    // that tile's flag is up, which the owner raises after its stores and a storage barrier
    // (a cube barrier on the CPU runtime, which runs cubes one after another in grid order);
    // flags at b·tiles + x < batch·tiles. Every wait is on a smaller x, started earlier
    // (`Hardware::cube_handoff`, required by `dataflow_for`), and gives up after WAIT_POLLS.
    // Barriers: the early exits (batch, a block already factored) are uniform per cube, the
    // trip count j and `info[b]` (settled before this tile's flag, see the kernel) too. With
    // `cfg.mma` (CUDA, 8 planes of 32 lanes, nb = 64), the rows are read as 4-vectors:
    // contiguous rows on 16 bytes (`aligned`), K = 64 inside the region's columns. Shared
    // indices: below nb·(nb + 1) and nb. The solve's shuffles run on whole planes (units a
    // multiple of the plane width, `groups` consecutive lanes of one plane per row).
    unsafe {
        dataflow_kernel::launch_unchecked::<f32>(
            ctx.client,
            CubeCount::Static(tiles as u32, by as u32, bz as u32),
            CubeDim::new_1d(cfg.units() as u32),
            BufferArg::from_raw_parts(w.handle.clone(), w.len),
            BufferArg::from_raw_parts(w.handle.clone(), w.len),
            BufferArg::from_raw_parts(w.handle.clone(), w.len),
            BufferArg::from_raw_parts(info.clone(), ctx.batch.max(1)),
            BufferArg::from_raw_parts(flags.clone(), ctx.batch.max(1)),
            BufferArg::from_raw_parts(ready, ctx.batch * tiles),
            w.view.launch_arg(),
            s,
            d0,
            u32::from(first_done),
            ctx.batch,
            cfg,
        )
    };
    true
}
