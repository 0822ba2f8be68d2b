//! The rest of a right-looking region as tile tasks on a fixed set of cubes
//! (`CholeskyParams::dataflow_tasks`): the tasks of [`super::dataflow`] (same tiles, flags,
//! products, factor and solve), ordered right-looking, so that a tile's updates run as soon as
//! their operands are final rather than when its cube starts.
//!
//! Each matrix's region gets P cubes (at most one per multiprocessor, so all run at once, or
//! one on devices without that promise); cube c owns the tiles numbered x ≡ c (mod P), row by
//! row (x = i(i + 1)/2 + j), and keeps C in the region (global memory) between its tasks.
//! The tasks are U(i, j, k): C_ij −= L_ik·L_jkᵀ (k < j, after L_ik and L_jk are final), and
//! F(i, j): factor the diagonal tile or solve the tile below it (after its last update, and
//! L_jj), then raise its flag. Every cube runs its own tasks in one global order, for column
//! j = 0, 1, …:
//! 1. U(i, j, j − 1) for its tiles of column j (the look-ahead: column j's last update);
//! 2. F(j, j);
//! 3. F(i, j), i > j;
//! 4. U(i, l, j − 1) for its tiles of columns l > j.
//!
//! Every task waits only on tasks earlier in that order (U(·, ·, k) on F(·, k), done in
//! column k's phases 2–3, before column k + 1's phase 1 at the latest; F(i, j) on U(i, j, ·) of
//! its own cube and on F(j, j)). So the earliest unfinished task can always run, as long as
//! all cubes run at once: every wait ends. The updates of a tile are applied by its owner in
//! order of k. A wait that gives up (after [`super::dataflow::WAIT_POLLS`] polls) marks the
//! matrix as in [`super::dataflow`].
use super::dataflow::{
    DataflowConfig, TileAt, finish_tile, load_c, publish, store_c, update_c, wait_operands,
};
use crate::Ctx;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::gemm::{Operand, Strides, tri_tile};

/// The tile tasks of cube `CUBE_POS_X` of `CUBE_COUNT_X` (see the module doc). Arguments as
/// `dataflow_kernel`'s.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn tasks_kernel<F: Float>(
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
    let tiles = tt * (tt + 1) / 2;
    let cube = CUBE_POS_X as usize;
    let cubes = CUBE_COUNT_X as usize;

    let mut sh_a = Shared::<[F]>::new_slice(comptime!(cfg.lcfg.nb * (cfg.lcfg.nb + 1)));
    let mut sh_b = Shared::<[F]>::new_slice(comptime!(cfg.lcfg.nb * (cfg.lcfg.nb + 1)));
    let mut dinv = Shared::<[F]>::new_slice(comptime!(cfg.lcfg.nb));

    // The loops below are uniform per cube: their bounds and tests depend on the cube's
    // position and the launch arguments only.
    for j in 0..tt {
        // `phase` 0 and 3 (the module doc's 1 and 4): updates from column j − 1, of column
        // j's tiles first, then the rest; 1 and 2: column j's tiles, the diagonal one first.
        for phase in 0..4u32 {
            let mut x = cube;
            while x < tiles {
                let (ti, tj) = tri_tile(u32::cast_from(x));
                let update = phase == 0 || phase == 3;
                let live = (phase == 0 && j > 0 && tj == j)
                    || (phase == 1 && tj == j && ti == j)
                    || (phase == 2 && tj == j && ti > j)
                    || (phase == 3 && j > 0 && tj > j);
                if live {
                    let t = TileAt::new(&sw, s, bidx, tt, ti, tj, cfg);
                    if update {
                        let k = j - 1;
                        wait_operands(ready, flags, &t, k, bidx, cfg.storage_sync);
                        let mut c = load_c(&*w, &sw, &t, cfg);
                        update_c(&mut c, &*w, &sw, &t, k, &mut sh_a, &mut sh_b, cfg);
                        store_c(&c, w, &sw, &t, cfg);
                    } else {
                        // A block factored before this launch is only published.
                        if x != 0 || first_done == 0 {
                            let c = load_c(&*w, &sw, &t, cfg);
                            finish_tile(
                                &c, a, w, inv, info, flags, ready, &sw, &t, d0, bidx, &mut sh_a,
                                &mut sh_b, &mut dinv, cfg,
                            );
                        }
                        publish(ready, t.fb + x, cfg.storage_sync);
                    }
                }
                x += cubes;
            }
        }
    }
}

/// Factor the region `w` as [`super::dataflow::launch_dataflow`] does (which passes its
/// zeroed flags `ready`, `tiles` per matrix), by [`tasks_kernel`] on the cubes of `count`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_tasks(
    ctx: &Ctx,
    w: Operand,
    info: &Handle,
    flags: &Handle,
    ready: Handle,
    tiles: usize,
    count: CubeCount,
    d0: usize,
    first_done: bool,
    cfg: DataflowConfig,
) {
    let s = w.view.rows;
    // SAFETY: as `launch_dataflow`'s, with the tile (i, j) of each task worked by its one
    // owner (x ≡ cube mod cubes), so no two cubes write the same element, and a cube reads
    // another's tile only after its flag. Waits: each task waits only on tasks earlier in the
    // one order every cube follows (module doc); where a matrix has more than one cube all cubes of the launch
    // run at once (`CholeskyLaunch::tasks_cubes`: at most one per multiprocessor, with
    // `Hardware::co_resident`), else a cube waits only on its own earlier tasks. Every wait
    // gives up after WAIT_POLLS. Barriers: the loops' trip counts and tests are uniform per
    // cube (its position and the arguments), and `info[b]` too, as in `dataflow_kernel`.
    unsafe {
        tasks_kernel::launch_unchecked::<f32>(
            ctx.client,
            count,
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
}
