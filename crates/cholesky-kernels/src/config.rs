//! Knobs of the Cholesky and triangular-solve ops, and the one hardware check.
use linalg_common::gemm::{GemmConfig, GemmLaunch, batch_grid};
use linalg_common::launch::Hardware;

/// Tuning knobs. `None` takes the recommended value for the device ([`CholeskyLaunch::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CholeskyParams {
    /// Largest diagonal block factored (and triangular block solved) by the fused shared-memory
    /// kernels; the recursion splits anything larger. Default 64 (fits 32 KiB of shared memory;
    /// a batch of matrices up to 64×64 is one launch).
    pub leaf: Option<usize>,
    /// Largest diagonal block of a SYRK update done as one GEMM restricted to the lower
    /// triangle (the recursion splits larger ones into two SYRKs and a GEMM). Default 256.
    pub syrk_leaf: Option<usize>,
    /// GEMM tiling; default [`GemmLaunch::new`]'s.
    pub gemm: Option<GemmConfig>,
}

/// Comptime shape of the potrf leaf kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeafConfig {
    pub nb: usize,
    pub units: usize,
}

/// Comptime shape of the triangular-solve leaf kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrsmLeafConfig {
    pub nb: usize,
    pub units: usize,
    pub lower: bool,
    pub unit_diag: bool,
}

/// Everything a launch needs, checked against the device once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CholeskyLaunch {
    pub leaf: LeafConfig,
    /// Units of the triangular-solve leaf (one right-hand-side column each).
    pub trsm_units: usize,
    pub syrk_leaf: usize,
    pub gemm: GemmLaunch,
    pub(crate) max_units: usize,
    pub(crate) max_count: (u32, u32, u32),
}

impl CholeskyLaunch {
    /// The launch for this device, or `None` when the device cannot run these parameters
    /// (shared memory, cube size, a leaf of 0).
    pub fn new(hw: &Hardware, params: &CholeskyParams) -> Option<Self> {
        let nb = params.leaf.unwrap_or(64);
        let units = hw.max_units_per_cube.clamp(1, 256);
        let gemm = match params.gemm {
            Some(cfg) => GemmLaunch::with_config(hw, cfg)?,
            None => GemmLaunch::new(hw)?,
        };
        let syrk_leaf = params.syrk_leaf.unwrap_or(256);
        let shared = 4 * nb * (nb + 1);
        let ok = (1..=128).contains(&nb) && syrk_leaf >= 1 && shared <= hw.max_shared_bytes;
        ok.then_some(Self {
            leaf: LeafConfig { nb, units },
            trsm_units: hw.max_units_per_cube.clamp(1, 64),
            syrk_leaf,
            gemm,
            max_units: hw.max_units_per_cube,
            max_count: hw.max_cube_count,
        })
    }

    pub(crate) fn trsm_cfg(&self, lower: bool, unit_diag: bool) -> TrsmLeafConfig {
        TrsmLeafConfig {
            nb: self.leaf.nb,
            units: self.trsm_units,
            lower,
            unit_diag,
        }
    }

    /// Whether every launch of an op on `batch` matrices of up to `rows × cols` elements
    /// (and `cols` right-hand sides) fits the grid limits.
    pub(crate) fn fits(&self, rows: usize, cols: usize, batch: usize) -> bool {
        let (_, by, bz) = batch_grid(batch, self.max_count);
        let x = self.max_count.0 as usize;
        bz <= self.max_count.2 as usize
            && self.gemm.fits(rows, cols, batch)
            && cols.div_ceil(self.trsm_units) <= x
            && (rows * cols).div_ceil(256.min(self.max_units)) <= x
            && by >= 1
    }
}
