//! TSQR knobs and the hardware check.
use super::block::BlockConfig;
use linalg_common::launch::Hardware;

/// Tuning knobs of [`tsqr`](super::tsqr). `None` takes the recommended value for the shape and
/// the device ([`TsqrLaunch::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TsqrParams {
    /// Rows factored by one cube at every tree level (b). Must be ≥ 2n (so each level shrinks)
    /// and a multiple of the plane width. Default on GPUs: 512 for n ≤ 64, else 256 (halved
    /// until it fits shared memory); on the CPU runtime max(2n, 64).
    pub rows_per_block: Option<usize>,
    /// Lane groups (planes) per cube. Default on GPUs: ⌈n/2⌉ up to 16 for n ≤ 32, else 32
    /// (capped by the cube size); all units on the CPU runtime. Chosen from the H200 sweep in
    /// BENCHMARKS.md: more planes shorten each step's critical path, until barriers dominate.
    pub planes_per_cube: Option<usize>,
    /// Rows the tree's last cube may factor: once a level has at most this many rows, one cube
    /// (of that many rows rounded up to a multiple of `rows_per_block`) factors it, instead of
    /// more levels of `rows_per_block`. Default `rows_per_block` (every cube alike); at least
    /// `rows_per_block`.
    pub top_rows: Option<usize>,
}

/// Largest n the kernel accepts: the block lives in shared memory (n·(2n+1)·4 bytes at the
/// smallest block) and each unit keeps its columns in registers.
pub const MAX_COLUMNS: usize = 128;

/// Everything a TSQR launch needs to know, checked against the device once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TsqrLaunch {
    pub(crate) block: BlockConfig,
    /// See [`TsqrParams::top_rows`].
    pub(crate) top_rows: usize,
    /// Largest cube count along y (batch is folded into y and z).
    pub(crate) max_cube_y: u32,
    pub(crate) max_cube_z: u32,
    pub(crate) max_cube_x: u32,
}

impl TsqrLaunch {
    /// The launch for `n` columns on this hardware, or `None` when the device cannot run it
    /// (shared memory or cube size too small, or parameters that break the kernel's rules).
    pub fn new(hw: &Hardware, n: usize, params: &TsqrParams) -> Option<Self> {
        if n == 0 || n > MAX_COLUMNS {
            return None;
        }
        let lanes = hw.lanes;
        let max_planes = (hw.max_units_per_cube / lanes).max(1);
        let planes = match params.planes_per_cube {
            Some(p) => p,
            None if lanes > 1 && n <= 32 => n.div_ceil(2).clamp(1, 16.min(max_planes)),
            None if lanes > 1 => 32.min(max_planes),
            None => n.clamp(1, max_planes),
        };
        let rows = match params.rows_per_block {
            Some(b) => b,
            None => {
                let min = (2 * n).div_ceil(lanes) * lanes;
                if lanes > 1 {
                    let mut b = min.max(if n <= 64 { 512 } else { 256 });
                    while b > min && n * (b + 1) * 4 > hw.max_shared_bytes {
                        b = (b / 2).max(min);
                    }
                    b
                } else {
                    min.max(64)
                }
            }
        };
        let block = BlockConfig {
            n,
            rows,
            lanes,
            planes,
            unroll: lanes > 1,
        };
        let top_rows = params.top_rows.unwrap_or(rows);
        let top = BlockConfig {
            rows: top_rows.div_ceil(rows.max(1)) * rows,
            ..block
        };
        let ok = planes >= 1
            && planes <= max_planes
            && rows >= 2 * n
            && rows % lanes == 0
            && rows <= 8192
            && top_rows >= rows
            && top.rows <= 8192
            && block.shared_bytes() <= hw.max_shared_bytes
            && top.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(Self {
            block,
            top_rows,
            max_cube_x: hw.max_cube_count.0,
            max_cube_y: hw.max_cube_count.1,
            max_cube_z: hw.max_cube_count.2,
        })
    }

    /// Rows factored by one cube (below the top level).
    pub fn rows_per_block(&self) -> usize {
        self.block.rows
    }
    /// The tree's levels for an m × n input (`super::tree::levels_with_top`).
    pub fn levels(&self, m: usize, n: usize) -> Vec<super::tree::Level> {
        super::tree::levels_with_top(m, n, self.block.rows, self.top_rows)
    }
    /// Lane groups per cube.
    pub fn planes_per_cube(&self) -> usize {
        self.block.planes
    }
    /// Units per lane group (the plane width, or 1).
    pub fn lanes(&self) -> usize {
        self.block.lanes
    }
}
