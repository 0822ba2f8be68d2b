//! Stage 2 of TSQR: the reduction tree over R factors.
//!
//! Level 0 factors the input A (`[m, n]` per batch element) in blocks of b rows; each block
//! leaves an n×n R. The R factors, stacked, form level 1's input (`⌈m/b⌉·n` rows), factored
//! again by the same block kernel, and so on until one block remains: its R is the R of A.
//! Since b ≥ 2n, every level at least halves the rows, so there are O(log(m/b)) levels. Blocks
//! need not align with the stacked R factors: any row partition gives a valid TSQR.
use super::block::{BlockConfig, StageConfig, tsqr_block_kernel};
use super::config::TsqrLaunch;
use cubecl::prelude::*;
use cubecl::server::Handle;

/// One level of the tree: its input has `rows_in` rows, cut into `nblocks` blocks of `rows`
/// rows (the last possibly ragged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub rows_in: usize,
    pub nblocks: usize,
    pub rows: usize,
}

/// The levels for an m×n input with blocks of `rows` rows (rows ≥ 2n).
pub fn levels(m: usize, n: usize, rows: usize) -> Vec<Level> {
    levels_with_top(m, n, rows, rows)
}

/// The levels for an m×n input with blocks of `rows` rows (rows ≥ 2n), except that a level
/// of at most `top` rows (≥ rows) is the last: one block of its rows rounded up to a multiple
/// of `rows`.
pub fn levels_with_top(m: usize, n: usize, rows: usize, top: usize) -> Vec<Level> {
    debug_assert!(rows >= 2 * n && m >= 1 && top >= rows);
    let mut out = Vec::new();
    let mut r = m;
    loop {
        if r <= top {
            out.push(Level {
                rows_in: r,
                nblocks: 1,
                rows: r.div_ceil(rows) * rows,
            });
            return out;
        }
        let nb = r.div_ceil(rows);
        out.push(Level {
            rows_in: r,
            nblocks: nb,
            rows,
        });
        r = nb * n;
    }
}

/// Cube count covering `nblocks` blocks of each of `batch` matrices (batch folded into y, z).
pub(crate) fn cube_count(launch: &TsqrLaunch, nblocks: usize, batch: usize) -> CubeCount {
    let by = batch.min(launch.max_cube_y as usize).max(1);
    let bz = batch.div_ceil(by);
    CubeCount::Static(nblocks as u32, by as u32, bz as u32)
}

/// Whether the grid fits the device's cube-count limits.
pub(crate) fn fits(launch: &TsqrLaunch, nblocks: usize, batch: usize) -> bool {
    let by = batch.min(launch.max_cube_y as usize).max(1);
    let bz = batch.div_ceil(by);
    nblocks <= launch.max_cube_x as usize && bz <= launch.max_cube_z as usize
}

/// Which stage a block launch runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlockStage {
    /// Write each block's R (and its reflectors when `store_v`); flag non-finite input (level 0).
    Factor { check_finite: bool, store_v: bool },
    /// Write each block's rows of Q·Y from its stored reflectors; `identity_y`: Y = I (top).
    ApplyQ { identity_y: bool },
}

/// Launch the block kernel once over a level.
///
/// Sizes (f32 unless said): `input` `batch·rows_in·n` (the level's matrix, or its reflectors
/// for ApplyQ); `y` `batch·nblocks·n·n` (ApplyQ below the top, else unread); `output`
/// `batch·nblocks·n·n` (Factor) or `batch·rows_in·n` (ApplyQ); `refl` `batch·rows_in·n`
/// (Factor with `store_v`, else unread); `flags` `batch` u32.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_block(
    client: &cubecl::client::Client,
    launch: &TsqrLaunch,
    level: Level,
    batch: usize,
    stage: BlockStage,
    input: &Handle,
    y: &Handle,
    output: &Handle,
    refl: &Handle,
    flags: &Handle,
) {
    let cfg = BlockConfig {
        rows: level.rows,
        ..launch.block
    };
    let n = cfg.n;
    let stage = match stage {
        BlockStage::Factor {
            check_finite,
            store_v,
        } => StageConfig {
            apply_q: false,
            store_v,
            check_finite,
            identity_y: false,
        },
        BlockStage::ApplyQ { identity_y } => StageConfig {
            apply_q: true,
            store_v: false,
            check_finite: false,
            identity_y,
        },
    };
    let in_len = batch * level.rows_in * n;
    let nn_len = batch * level.nblocks * n * n;
    let y_len = if stage.apply_q && !stage.identity_y {
        nn_len
    } else {
        1
    };
    let out_len = if stage.apply_q { in_len } else { nn_len };
    let refl_len = if stage.store_v { in_len } else { 1 };
    // SAFETY: the caller sized the buffers as documented above; every kernel access is inside
    // them: rows of `input`, `output` (ApplyQ) and `refl` are guarded by `row0 + r < rows_in`,
    // R and Y slices are indexed by (batch, block) < (batch, nblocks), `y` and `refl` are only
    // touched in the stages that need them, and cubes with a batch index past `batch` leave
    // before touching memory. `sync_cube` is reached by every unit of a cube (the branches
    // around it depend on comptime values, the loop counter, or are uniform per cube). Writes
    // are disjoint: each cube writes its own block's rows or its own n×n slice; concurrent
    // writes to `flags` all store the same value 1.
    unsafe {
        tsqr_block_kernel::launch_unchecked::<f32>(
            client,
            cube_count(launch, level.nblocks, batch),
            CubeDim::new_1d(cfg.units() as u32),
            BufferArg::from_raw_parts(input.clone(), in_len),
            BufferArg::from_raw_parts(y.clone(), y_len),
            BufferArg::from_raw_parts(output.clone(), out_len),
            BufferArg::from_raw_parts(refl.clone(), refl_len),
            BufferArg::from_raw_parts(flags.clone(), batch),
            level.rows_in,
            batch,
            cfg,
            stage,
        )
    }
}
