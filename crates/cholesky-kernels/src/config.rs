//! Knobs of the Cholesky and triangular-solve ops, and the one hardware check.
use crate::trsm::trsv::TrsvConfig;
use linalg_common::gemm::{GemmConfig, GemmKernel, GemmLaunch, View, batch_grid};
use linalg_common::gemm_mma::{MMA_DEFAULT, MMA_TF32};
use linalg_common::launch::Hardware;

/// Largest batch·n of the default whole inverted blocks for a batch of several matrices
/// ([`CholeskyParams::inv_rhs`]): 16 × 1024² and 8 × 2048² gain, 64 × 1024² loses (H200).
pub const DEFAULT_WHOLE_WORK: usize = 16384;

/// Tuning knobs. `None` takes the recommended value for the device ([`CholeskyLaunch::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CholeskyParams {
    /// Largest diagonal block factored (or inverted, for the solves) by the fused kernel; the
    /// recursion splits anything larger. A multiple of 8, at most 128. Default 64 (fits 32 KiB
    /// of shared memory; a batch of matrices up to 64×64 is one launch).
    pub leaf: Option<usize>,
    /// Largest diagonal block of a SYRK update done as one GEMM restricted to the lower
    /// triangle (larger ones split into two SYRKs and a GEMM). Default: no split — one launch,
    /// whose tiles above the diagonal exit at once (measured faster on the H200 than the
    /// recursion, which only adds launches; see BENCHMARKS.md).
    pub syrk_leaf: Option<usize>,
    /// GEMM tiling; default [`GemmLaunch::new`]'s, with K windows of 32 instead of 16 where
    /// its tiles are vector tiles (GPUs; H200: potrf 4096 2.69 ms against 2.74, 16384 52.8
    /// against 53.5, 64 × 1024² 2.06 against 2.15; BENCHMARKS.md).
    pub gemm: Option<GemmConfig>,
    /// Tiling of the GEMM that applies a diagonal block's inverse in place (a TRSM leaf,
    /// B ← D·B, also each right-looking step's panel); its tiles must span the block's `leaf`
    /// rows (tile_m ≥ leaf, else the launch is refused). Default: [`SOLVE_TILES`] where the
    /// device runs them and they span the leaf (H200, against `gemm`'s 64 × 64 in two runs:
    /// potrf 4096 2.567 / 2.553 ms against 2.653 / 2.675, 16384 38.53 against 38.85,
    /// 64 × 1024² 1.986 / 1.997 against 2.043 / 2.049; solve_triangular 4096² × 128 split,
    /// 1.136 against 1.212 then 1.318 against 1.292; BENCHMARKS.md), else `gemm`'s tiling
    /// where its tiles are that tall, else scalar tiles of `leaf` rows.
    pub solve_gemm: Option<GemmConfig>,
    /// GEMM kernel and tiling for updates whose result has at least `big_from` rows and
    /// columns and a K of at least `big_min_k`: true-f32 SIMT ([`GemmKernel::Simt`]) or
    /// error-compensated 3×TF32 on tensor cores ([`GemmKernel::Tf32x3`], WMMA fragments, or
    /// [`GemmKernel::Mma`], `mma.sync`; where the device has no such fragments, the
    /// launch is refused). Default: the `mma.sync` kernel ([`MMA_DEFAULT`]) where the device
    /// runs it (H200: 54–58 TFLOP/s at 4096³ with 4.4e-8 of Σ|a||b|, against 32–41 and
    /// 6.6e-8 for SIMT; potrf 16384 in 37.3 ms against 48.0; BENCHMARKS.md, session 38), else
    /// [`GemmLaunch::big`] (SIMT, 128×128 tiles of 4-vectors), else `gemm`. Plain TF32
    /// products, for callers that accept TF32 accuracy in the updates:
    /// `Some(GemmKernel::Mma(MMA_TF32))` ([`CholeskyParams::tf32_updates`]; potrf 16384 in
    /// 27.0 ms, session 38; residual 1.8e-4 on G·Gᵀ + 1e-5·I against the gate's 3.9e-2).
    pub gemm_big: Option<GemmKernel>,
    /// See `gemm_big`. Default 1024.
    pub big_from: Option<usize>,
    /// Updates with a K below this use `gemm` even when large (the right-looking steps'
    /// SYRKs have K = leaf). Default 128: the K = 64 SYRKs run the 64×64 tiles, which are
    /// faster there (H200, 4096² × 64: 20.7 TFLOP/s against 16.5; potrf 4096 in 3.56 ms
    /// against 4.01, BENCHMARKS.md).
    pub big_min_k: Option<usize>,
    /// Kernel for a whole op on matrices of order ≤ `leaf`. Default [`BatchedLeaf::Rows`]
    /// (H200: 1024 × 64² in 18.3 µs against 40.6 with Crout, 4096 × 32² 17.6 against 24.4;
    /// BENCHMARKS.md, session 33).
    pub batched_leaf: Option<BatchedLeaf>,
    /// Diagonal blocks of at most this order are factored right-looking — split off one leaf
    /// at a time (leaf, one TRSM GEMM, one SYRK GEMM per step) — instead of halved
    /// recursively; 0 recurses all the way. Default 4096 (H200: 1.3–1.5× faster than the
    /// recursion at n = 1024…8192, 1.15× at 16384, where the halves above 4096 keep their
    /// large-K GEMMs; BENCHMARKS.md).
    pub blocked_below: Option<usize>,
    /// Units per matrix of the batched small-matrix kernels (a divisor of their nb). Default
    /// on GPUs: nb (one row per unit), except nb/2 (two rows each) for the rows kernel at
    /// nb > 32 with vector I/O ([`RowsConfig::new`]); 2 elsewhere.
    pub small_units: Option<usize>,
    /// Matrices per cube of [`BatchedLeaf::Rows`]. Default on GPUs: as many as fill 32 units;
    /// elsewhere 1.
    pub small_mats: Option<usize>,
    /// [`BatchedLeaf::Rows`] loads and stores through 4-vectors, where the device can view
    /// buffers so ([`Hardware::vector_views`]: not wgpu) and the input's and the factor's rows
    /// allow it ([`RowsConfig::vec_fits`]: rows contiguous and 16-byte aligned, n a multiple
    /// of 4; lower or upper); `Some(false)` keeps the scalar path. Default: as
    /// [`RowsConfig::new`] measured (on GPUs with two rows per unit, which it then takes, or
    /// rows of at most 16 words; elsewhere on).
    pub small_vec: Option<bool>,
    /// With the vector load in [`BatchedLeaf::Rows`] ([`RowsConfig::vec`]): every load issued
    /// at once (`Some(true)`) or in two trips (`Some(false)`). Default for upper (4 × 4 blocks,
    /// [`RowsConfig::cols`]): at once on GPUs where the batch is at most
    /// [`CholeskyLaunch::UPPER_WHOLE_PER_SM`] cubes per multiprocessor, which then all run
    /// together (H200, upper 64²: 19.5–19.7 µs against 19.9–20.2 at a batch of 1024; at 4096
    /// the extra registers cost cubes per multiprocessor, 87.1–87.3 against 73.7–74.0), else
    /// two trips. Default for lower: at once up to [`CholeskyLaunch::LOWER_WHOLE_PER_SM`] cubes
    /// per multiprocessor, else two trips (H200, lower 64²: 18.4 µs against 18.8–19.2 at 1024,
    /// 40.6 against 42.3 at 2048; 56.1–56.4 against 46.9–47.1 at 2560, 77.6–77.7 against
    /// 68.8–69.2 at 4096; 48²: 67.2–67.5 against 59.0 at 4096); where the multiprocessor
    /// count is unknown, at once.
    pub small_load_whole: Option<bool>,
    /// Triangular solves with at most this many right-hand sides (and more than `leaf` rows)
    /// run by block substitution, one launch per diagonal block (`trsm/trsv.rs`), instead of
    /// the GEMM recursion; 0 disables. Default 16 (H200, n = 4096: 3.1× faster at k = 1,
    /// 1.7× at 16; BENCHMARKS.md); where its tiles do not fit, the default stands down and
    /// an explicit value is refused.
    pub trsv_max_k: Option<usize>,
    /// Block substitution (`trsv_max_k`) in one launch instead of one per diagonal block: a
    /// cube per block row, each waiting on an atomic flag per earlier block for its solution,
    /// then subtracting its product and solving its own block (`trsm/trsv.rs`). Default: on
    /// wherever the device can hand data between the cubes of one launch
    /// ([`Hardware::cube_handoff`]), refused elsewhere (H200: cholesky_solve 4096² with 1
    /// rhs 0.615 ms against 1.327, with 16 rhs 1.64 against 2.04; CPU runtime: 50.6 ms
    /// against 133.9; BENCHMARKS.md).
    pub trsv_chain: Option<bool>,
    /// The block substitution in one launch (`trsv_chain`) stages each cube's own inverse
    /// block in shared memory before it waits on the earlier blocks, instead of after: one
    /// global read less on the chain's critical path per block, for a second nb × nb block of
    /// shared memory. Default: on where that fits (else an explicit `true` is refused).
    pub trsv_prefetch: Option<bool>,
    /// Sub-block order of the blocked diagonal-block kernel: 8, 16 or 32, a divisor of `leaf`
    /// (else the launch is refused). Default 16 (8 when `leaf` is not a multiple of 16). Leaves
    /// of a batch of smaller matrices that it does not divide use the step kernel.
    pub leaf_sub: Option<usize>,
    /// K steps per unrolled trip of the blocked diagonal-block kernel's cube-wide phases (a
    /// divisor of its sub-block order, else the launch is refused); fewer steps per trip hold
    /// fewer shared-memory loads in registers, so more cubes fit a multiprocessor, but each
    /// block takes longer. Default on GPUs: half a sub-block for launches that share the
    /// device (more cubes than multiprocessors; fused steps with updates of more than
    /// [`FUSED_SHARED_FROM`] rows), else the whole sub-block. H200 against whole sub-blocks
    /// everywhere (BENCHMARKS.md): potrf 4096² 2.92 → 2.72 ms, 8192² 10.77 → 10.40,
    /// 256 × 256² 0.396 → 0.326; 1024² and 2048² unchanged.
    pub leaf_unroll: Option<usize>,
    /// The blocked diagonal-block kernel factors sub-block J + 1 on its first plane while the
    /// other units update the rest of the block with sub-block J (a look-ahead of one
    /// sub-block: the factor's sequential steps leave the critical path for the update's
    /// length). Where the cube has no units besides that plane it stands down. Default: on
    /// where the device has fixed-width plane operations (H200, same run: potrf 1024² 0.541
    /// against 0.547 ms, 4096² 2.664 against 2.675, 16384² 52.65 against 52.71,
    /// 64 × 1024² 2.035 against 2.048; BENCHMARKS.md); off elsewhere, where "plane 0" is one
    /// unit's serial loop (unmeasured there) and lavapipe's shader compiles take longer
    /// (its Cholesky suite 294 → 506 s).
    pub leaf_lookahead: Option<bool>,
    /// The blocked diagonal-block kernel's blocks that are factored without their inverses
    /// (the leaves of [`Self::step_substitution`]) run on its first plane alone, as two halves
    /// of nb/2 (leaves of 16, 32 or 64): POTRF of the leading half, the rows below it solved
    /// by substitution, their SYRK into the trailing half and its POTRF, every value in
    /// registers and passed between lanes by shuffles — no cube barrier between columns.
    /// `Some(true)` is refused for other leaves; other stages keep the sub-block phases.
    /// Default: off — slower (H200, session 51, same run, ms: potrf 4096 2.456 / 2.476
    /// against 2.156 / 2.159 off, 1024 0.499 / 0.503 against 0.415 / 0.416, 16384 37.08 /
    /// 37.13 against 35.86 / 35.91; the fused steps' floor rose from ~21 to ~26 µs: the one
    /// plane's ~7700 instructions, 2576 of them shuffles, outlast the eight planes' phases).
    pub leaf_plane: Option<bool>,
    /// In the blocked diagonal-block kernel's blocks that are factored without their inverses,
    /// each diagonal sub-block is factored without being inverted (its steps lose the
    /// inverse's shuffles: 544 → 272 in the fused step's local SASS), and the panel below it is
    /// solved by substitution, a unit per row, instead of multiplied by the sub-block's
    /// inverse. Other stages keep the inverses. Default on (H100, session 52, same run, two
    /// rounds, ms: potrf 4096 1.992 / 2.018 against 2.163 / 2.158 off, 1024 0.379 / 0.385
    /// against 0.422 / 0.421, 8192 7.083 / 7.119 against 7.418 / 7.398).
    pub leaf_subst: Option<bool>,
    /// Order of the diagonal block split off per right-looking step (below `blocked_below`);
    /// a multiple of `leaf`, factored by the recursion. Default: `leaf` (H200: steps of 128…512
    /// are 2–40 % slower at n = 1024…16384, BENCHMARKS.md).
    pub step: Option<usize>,
    /// Kernel for the diagonal blocks (the recursion's leaves, the solves' block inverses, and
    /// a batch of small matrices with [`BatchedLeaf::Tiled`]). Default [`LeafKernel::Blocked`]
    /// (H200: a 64×64 factor + inverse in 33 µs against 71 at 1.5 GHz; potrf 4096 4.4 ms
    /// against 6.3), which stands down to the step kernel where its shared memory does not
    /// fit (the CPU runtime at leaves above 48).
    pub leaf_kernel: Option<LeafKernel>,
    /// Fuse each right-looking step's SYRK with the next diagonal block: one launch whose
    /// first cube, after its tile of the update, factors and inverts that block
    /// (`potrf/fused.rs`), where the update's GEMM has vector tiles of order `leaf` with as
    /// many units as the blocked diagonal-block kernel (on GPUs by default). Default: for a
    /// single matrix only (H200: potrf 2048 1.37 → 1.17 ms, 4096 3.60 → 3.36; but 64 × 1024²
    /// 2.14 → 3.32, where the fused kernel's shared memory thins out the many update cubes;
    /// BENCHMARKS.md).
    pub fuse_leaf: Option<bool>,
    /// In a fused step, the leaf's cube hands its updated block to the diagonal-block code
    /// through shared memory (`potrf/fused.rs`); otherwise the block goes through a global
    /// store, a storage barrier and a reload. Default: staged, with C loaded after the product
    /// (`fused_c_first`). H100, same binary, never staged / staged up to
    /// [`FUSED_SHARED_FROM`] rows with early C (session 42's default) / always, early C:
    /// potrf 1024 0.518 / 0.451 / 0.447 ms, 2048 1.046 / 0.896 / 0.896, 4096 2.563 / 2.400 /
    /// 2.754, 8192 8.155 / 7.849 / 8.490 (session 42); staged always with late C (this
    /// default) against session 42's, three pairs on two machines: 4096 2.377 / 2.403 /
    /// 2.410 against 2.392 / 2.424 / 2.415, 8192 7.765 / 7.795 / 7.809 against 7.800 /
    /// 7.845 / 7.837, 2048 0.890 / 0.902 / 0.901 against 0.898 / 0.912 / 0.909
    /// (BENCHMARKS.md, session 43).
    pub fused_staged: Option<bool>,
    /// In staged fused steps, every cube issues its tile's C loads with the product's first
    /// loads (else after the product, as the plain GEMM). Default off: the early loads cost
    /// registers (local SASS at 4032 rows: 178 against 128, one cube per multiprocessor
    /// instead of two) and measured slower (`fused_staged`'s numbers).
    pub fused_c_first: Option<bool>,
    /// A fused step's grid lists only the update's tiles on and below the diagonal,
    /// T(T + 1)/2 cubes for T tile rows ([`linalg_common::gemm::tile_at_tri()`]), instead of
    /// the T × T square whose cubes above the diagonal leave at once. Default on (H100,
    /// session 52, same run, two rounds, ms: potrf 4096 2.129 / 2.138 against 2.163 / 2.158
    /// with the square, 8192 7.389 / 7.387 against 7.418 / 7.398, 1024 0.419 / 0.420 against
    /// 0.422 / 0.421).
    pub fused_tri_grid: Option<bool>,
    /// In fused steps, every cube but the diagonal block's forms its 64 × 64 tile of the
    /// update by 3×TF32 `mma.sync` straight from registers (`potrf/fused.rs`,
    /// `mma_syrk_tile`) instead of the SIMT vector tiles: CUDA, leaves of 64, and (per launch)
    /// A's rows contiguous on 16 bytes and K a multiple of 32, else the SIMT tiles. `Some(true)`
    /// is refused where the device has no `mma.sync` or the leaf is not 64; `Some(true)` takes
    /// it in every fused step. Default: where it runs, in the steps of right-looking regions
    /// of order at least [`FUSED_MMA_FROM`] ([`CholeskyLaunch::fused_mma_for`]).
    pub fused_mma: Option<bool>,
    /// With [`Self::fused_mma`], the diagonal block's cube forms its own tile of the update
    /// on tensor cores too and stages it for the block (staged steps only). `Some(true)` is
    /// refused without `fused_mma`. Default off: slower (H200, session 48: potrf 4096 2.438 /
    /// 2.414 ms against 2.344 / 2.366 without it, before the update's C loads were grouped).
    pub fused_mma_leaf: Option<bool>,
    /// With [`Self::fused_mma`], only fused steps whose update has at least this many rows
    /// take the tensor-core tiles. Default 0 (every step of the regions `fused_mma` picks).
    /// Not yet measured: session 48's ncu of potrf 4096 put the late steps' floor at 24 µs
    /// with the tensor-core tiles against 22.6 with the SIMT ones.
    pub fused_mma_rows: Option<usize>,
    /// The right-looking steps of one leaf solve their panel, L21 = A21·L11⁻ᵀ, by 3×TF32
    /// `mma.sync` from registers in one launch (`potrf/panel_mma.rs`) instead of the TRSM
    /// GEMM: CUDA, leaves of 64, and (per launch) A21's rows contiguous on 16 bytes, else the
    /// GEMM. `Some(true)` is refused where the device has no `mma.sync` or the leaf is not 64.
    /// Default off: no faster (H100, session 49, two rounds, ms: potrf 4096 2.258 / 2.286
    /// against 2.288 / 2.272, 8192 7.615 / 7.705 against 7.684 / 7.604, 16384 36.20 / 36.33
    /// against 36.05 / 36.12).
    pub panel_mma: Option<bool>,
    /// The diagonal blocks are factored without their inverses, the right-looking steps solve
    /// their panels by substitution from L11 (`potrf/panel_solve.rs`) instead of the TRSM GEMM
    /// with L11⁻¹, and where a TRSM of the recursion needs the inverses of a factored A11's
    /// blocks, one launch forms them all first. Steps of one leaf only. `Some(true)` (single
    /// matrices and batches) is refused where `step` is not the leaf or the device cannot run
    /// the panel kernel; `panel_mma` (which applies L11⁻¹) is then off. Default: on for single
    /// matrices where it can run, unless `panel_mma` is asked for (H100, session 50, ms:
    /// potrf 4096 2.158 / 2.174 against 2.301 / 2.282 off, 1024 0.421 / 0.421 against
    /// 0.454 / 0.445, 16384 35.71 / 35.92 against 36.53 / 36.24); off for batches, which were
    /// slower with it ([`CholeskyLaunch::substitutes`]).
    pub step_substitution: Option<bool>,
    /// Order of the diagonal blocks that a triangular solve with at least this many
    /// right-hand sides inverts whole (doubling from the leaves' inverses:
    /// [[A, 0], [C, D]]⁻¹ = [[A⁻¹, 0], [−D⁻¹·C·A⁻¹, D⁻¹]], two batched GEMMs per level) and
    /// applies as one GEMM each, instead of recursing down to the leaves; 0 disables. `leaf`
    /// times a power of two, at least twice `leaf` (else the launch is refused). Default 1024
    /// (for other leaves, the leaf times the largest power of two up to 1024).
    pub inv_block: Option<usize>,
    /// For solves with fewer than `inv_block` right-hand sides k, whole inverted diagonal
    /// blocks of the largest order s = leaf·2^i with s ≤ `inv_rhs`·k, s ≤ n and
    /// 2·leaf ≤ s < `inv_block` (inverting costs about n·s²·2/3 flops against the solve's
    /// n²·k, but takes the recursion's chain of small launches down to n/s blocks);
    /// 0 disables (recursion down to the leaves). Default on GPUs, from `bench
    /// --inv-rhs-sweep` (H200, BENCHMARKS.md, session 28): for a single matrix s ≤ 32·k and
    /// s ≤ n/2 (cholesky_solve 4096² with 32 rhs 1.05 ms against 1.44 at 8·k and 2.29
    /// without; 1024² with 128 rhs 0.256 against 0.498 without); for a batch of matrices with
    /// batch·n ≤ [`DEFAULT_WHOLE_WORK`], s ≤ 16·k and s ≤ n/4 (8 × 2048² with 128 rhs 0.867
    /// against 1.199; 16 × 1024² with 64 rhs 0.431 against 0.514); none for larger batches
    /// (64 × 1024² with 128 rhs: 0.87–3.0 ms against 0.75 without) nor on the CPU runtime
    /// (solve_triangular 1024² with 128 rhs 226–709 ms against 51–57).
    pub inv_rhs: Option<usize>,
}

impl CholeskyParams {
    /// The defaults, with large updates (`gemm_big`) as plain TF32 products on tensor cores
    /// ([`MMA_TF32`]) where the device runs them; elsewhere the defaults unchanged. For
    /// callers that accept TF32 rounding in the updates, as
    /// `torch.set_float32_matmul_precision("high")` does for matmuls (H200, session 38:
    /// potrf 16384 in 27.0 ms against 37.3, residual 4.2e-5 against 6.9e-7, the gate 20·n·ε
    /// being 3.9e-2; BENCHMARKS.md).
    pub fn tf32_updates(hw: &Hardware) -> Self {
        let gemm_big = GemmLaunch::mma(hw, MMA_TF32).map(|g| g.kernel);
        Self {
            gemm_big,
            ..Self::default()
        }
    }
}

/// The default of [`CholeskyParams::gemm`]: [`GemmLaunch::new`], its vector tiles with K
/// windows of 32 (where they fit; else as they are).
fn default_gemm(hw: &Hardware) -> Option<GemmLaunch> {
    let base = GemmLaunch::new(hw)?;
    match base.kernel {
        GemmKernel::Simt(cfg) if cfg.vector => {
            GemmLaunch::with_config(hw, GemmConfig { tile_k: 32, ..cfg }).or(Some(base))
        }
        _ => Some(base),
    }
}

/// The default of [`CholeskyParams::solve_gemm`]: 64 × 32 vector tiles, 8 × 16 units of
/// 4 × 4, K windows of 32 — half the columns of `gemm`'s tiles on half the units, so a
/// step's panel spreads over twice the cubes.
pub const SOLVE_TILES: GemmConfig = GemmConfig {
    units_x: 8,
    units_y: 16,
    tm: 4,
    tn: 4,
    tile_k: 32,
    unroll: true,
    vector: true,
};

/// Fused SYRK + diagonal block launches whose update has more rows than this run the block
/// with [`CholeskyLaunch::blocked_for`]'s `shared` trips: there the update's occupancy
/// bounds the step; below, the block's latency does (H200, short trips on every fused step
/// against only above this: potrf 2048 1.167 against 1.121 ms, 4096 2.765 against 2.722;
/// BENCHMARKS.md).
pub const FUSED_SHARED_FROM: usize = 2048;

/// Order of the right-looking regions (the matrix, or a half of the recursion, of order at
/// most `blocked_below`) from which the fused steps' update cubes take the tensor-core tiles
/// by default ([`CholeskyParams::fused_mma`]). H100, session 48, same binary, tensor cores in
/// every step against none, two rounds, ms: 4096 2.270 / 2.269 against 2.407 / 2.396, 8192
/// 7.723 / 7.714 against 7.837 / 7.797, 16384 (regions of 4096) 36.56 / 36.46 against 36.70 /
/// 36.83; but 2048 0.925 / 0.919 against 0.901 / 0.900 and 1024 0.461 / 0.460 against 0.452 /
/// 0.449 (BENCHMARKS.md). Orders between 2048 and 4096 were not measured.
pub const FUSED_MMA_FROM: usize = 4096;

/// Which kernel factors and inverts a diagonal block (one cube per block either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafKernel {
    /// Register-tiled over the whole cube, one barrier per column (factor) and per row
    /// (invert): 2·nb steps on the critical path.
    Steps,
    /// Sub-blocks of 16 (8 when nb is not a multiple of 16): one plane factors and inverts
    /// each diagonal sub-block with shuffles, then the cube updates the rest; three barriers
    /// per sub-block.
    Blocked,
}

/// How a batch of matrices of order ≤ `leaf` is factored (one launch either way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchedLeaf {
    /// Right-looking with each matrix's rows in its units' registers (`units` units per
    /// matrix, several matrices per cube for small orders), one barrier per column
    /// (`potrf/rows.rs`). Stands down to [`BatchedLeaf::Crout`] where its registers or shared
    /// memory do not fit.
    Rows,
    /// Left-looking, one small cube per matrix (a unit per row on GPUs), one barrier per
    /// column (1024 × 64² on the H200: BENCHMARKS.md).
    Crout,
    /// The recursion's register-tiled diagonal-block kernel (a 16×16 cube per matrix on GPUs,
    /// right-looking).
    Tiled,
}

/// Comptime shape of the batched small-matrix kernel: matrices of order ≤ nb, `units` units
/// per cube, nb/units rows per unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallConfig {
    pub nb: usize,
    pub units: usize,
    pub unroll: bool,
}

impl SmallConfig {
    /// On GPUs (cubes of ≥ 256 units) a unit per row, nb units (measured on the H200 against
    /// 32 and 16 units, BENCHMARKS.md); elsewhere the few units the runtime has (the CPU
    /// runtime: 2).
    pub fn new(hw: &Hardware, nb: usize, units: Option<usize>) -> Option<Self> {
        let gpu = hw.max_units_per_cube >= 256;
        let units = if let Some(u) = units {
            u
        } else if gpu {
            nb
        } else {
            hw.max_units_per_cube.clamp(1, 2)
        };
        let cfg = Self {
            nb,
            units,
            unroll: gpu,
        };
        let ok = nb >= 4
            && nb.is_multiple_of(4)
            && units >= 1
            && nb.is_multiple_of(units)
            && units <= hw.max_units_per_cube
            // nb rows of nb/4 + 1 vectors of 4, the diagonal, one flag.
            && 4 * (nb * (nb + 4) + nb + 1) <= hw.max_shared_bytes;
        ok.then_some(cfg)
    }
}

/// Comptime shape of the register-row batched kernel (`potrf/rows.rs`): matrices of order
/// ≤ nb, `units` units per matrix (nb/units rows each), `mats` matrices per cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RowsConfig {
    pub nb: usize,
    pub units: usize,
    pub mats: usize,
    pub unroll: bool,
    /// Load and store through 4-vectors (`potrf/rows.rs`), only where the op's views allow it
    /// ([`Self::vec_fits`]).
    pub vec: bool,
    /// With `vec`: the kernel's views have contiguous columns instead of rows (upper's
    /// transposed views), so its vectors run down columns, four to a 4 × 4 block that each
    /// unit transposes in registers.
    pub cols: bool,
    /// With `vec`: the load's loads all issued before their shared-memory stores (more
    /// registers), instead of in two trips ([`CholeskyParams::small_load_whole`]).
    pub load_whole: bool,
}

impl RowsConfig {
    /// Whether a matrix view of order n takes the vector load or store: its rows contiguous,
    /// every row start (offset, row and batch strides, and the buffer's byte offset) on 16
    /// bytes, n a multiple of 4.
    pub fn vec_fits(view: &View, byte_offset: u64, n: usize, batch: usize) -> bool {
        n.is_multiple_of(4) && View { cols: n, ..*view }.rows_of_4(byte_offset, batch)
    }

    /// Cap on the words of one unit's rows where they are unrolled into registers (slot s
    /// holds (s + 1)·units words): 160 admits 16 units of four rows at nb = 64 for sweeps;
    /// the default (a unit per row) needs nb.
    pub const MAX_ROW_WORDS: usize = 160;

    /// `vec_fits`: the op's views allow vector I/O ([`Self::vec_fits`]; it also needs
    /// [`Hardware::vector_views`]); `cols`: the kernel reads them transposed (upper);
    /// `vec`: the caller's choice ([`CholeskyParams::small_vec`]).
    ///
    /// On GPUs (cubes of ≥ 256 units, unrolled so that the rows stay in registers), with
    /// vector I/O and nb > 32, nb/2 units of two rows each (H200, 1024 × 64²:
    /// 18.4 µs against 22.8 for a unit per row with scalar I/O, 32.1 for a unit per row with
    /// vectors, 39.1 for two rows per unit with scalar I/O, whose 168 registers spill); else a
    /// unit per row. Vector I/O by default where a unit holds two rows or rows of at most 16
    /// words (H200: a unit per row of 32 words takes 77 registers against 64 with it, and
    /// 4096 × 32² a second wave: 19.8 µs against 17.5; 16384 × 16² 15.9 against 17.4).
    /// 32/units matrices per cube. Elsewhere the few units the runtime has (the CPU runtime:
    /// 2), one matrix per cube, not unrolled, vector I/O wherever it fits.
    pub fn new(
        hw: &Hardware,
        nb: usize,
        units: Option<usize>,
        mats: Option<usize>,
        vec_fits: bool,
        cols: bool,
        vec: Option<bool>,
    ) -> Option<Self> {
        let gpu = hw.max_units_per_cube >= 256;
        let vec_fits = vec_fits && hw.vector_views && nb.is_multiple_of(4);
        let two_rows = Self {
            nb,
            units: nb / 2,
            mats: 1,
            unroll: gpu,
            vec: true,
            cols,
            load_whole: false,
        };
        let two = gpu
            && vec_fits
            && vec != Some(false)
            && nb > 32
            && nb.is_multiple_of(2)
            && two_rows.row_words() <= Self::MAX_ROW_WORDS;
        let units = units.unwrap_or(if !gpu {
            hw.max_units_per_cube.clamp(1, 2)
        } else if two {
            nb / 2
        } else {
            nb
        });
        let vec = vec_fits && vec.unwrap_or(!gpu || units < nb || nb <= 16);
        let mats = mats.unwrap_or(if gpu { (32 / units.max(1)).max(1) } else { 1 });
        let cfg = Self {
            nb,
            units,
            mats,
            unroll: gpu,
            vec,
            cols: vec && cols,
            load_whole: false,
        };
        let ok = nb >= 1
            && units >= 1
            && mats >= 1
            && nb.is_multiple_of(units)
            && units * mats <= hw.max_units_per_cube
            && (!gpu || cfg.row_words() <= Self::MAX_ROW_WORDS)
            && cfg.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(cfg)
    }

    /// Words of one unit's rows in registers: Σ_s (s + 1)·units.
    pub fn row_words(&self) -> usize {
        let slots = self.nb / self.units;
        self.units * slots * (slots + 1) / 2
    }

    /// Per matrix: the staging block ([`Self::vec_block`] 4-vectors with `vec`, else nb rows
    /// of nb + 1 words), two column buffers, a flag.
    pub fn shared_bytes(&self) -> usize {
        let staging = if self.vec {
            4 * self.vec_block()
        } else {
            self.nb * (self.nb + 1)
        };
        4 * self.mats * (staging + 2 * self.nb + 1)
    }

    /// With `vec`: 4-vectors per staging row. Lower: nb/4 + 1, so eight consecutive rows (a
    /// unit each) fall on distinct 16-byte bank groups. Upper (`cols`) also reads and writes
    /// rows 4·b + r for eight consecutive b (its 4 × 4 blocks), which no row stride spreads:
    /// there the rows are skewed (vector v of row i at i·vec_row + i/4 + v, see
    /// [`Self::vec_skew`]) and vec_row is the least ≥ nb/4 that is 2 mod 4, which spreads both
    /// (H200, upper 1024 × 64²: 20.0 µs against 21.1 with nb/4 + 1 unskewed).
    pub fn vec_row(&self) -> usize {
        let vw = self.nb / 4;
        if self.vec_skew() {
            vw + (6 - vw % 4) % 4
        } else {
            vw + 1
        }
    }

    /// With `vec`: whether staging rows are skewed by one vector per four rows (upper).
    pub fn vec_skew(&self) -> bool {
        self.cols
    }

    /// With `vec`: 4-vectors of one matrix's staging block.
    pub fn vec_block(&self) -> usize {
        self.nb * self.vec_row() + if self.vec_skew() { self.nb / 4 } else { 0 }
    }

    /// With `cols`: trips of the units over the nb/4 × nb/4 blocks of 4 × 4.
    pub fn block_trips(&self) -> usize {
        (self.nb / 4 * (self.nb / 4)).div_ceil(self.units)
    }

    /// With `vec`: loads of the vector load per unit (4-vectors of rows, or with `cols` 4 × 4
    /// blocks).
    pub fn vec_loads(&self) -> usize {
        if self.cols {
            self.block_trips()
        } else {
            self.nb * self.nb / 4 / self.units
        }
    }

    /// With `vec`: the vector load's loads per trip of its run-time loop, all of them with
    /// `load_whole`, else half where they split evenly.
    pub fn vec_loads_per_trip(&self) -> usize {
        let loads = self.vec_loads();
        if self.load_whole || !loads.is_multiple_of(2) {
            loads
        } else {
            loads / 2
        }
    }

    /// Loads in flight per unit before their shared-memory stores: the largest power of two
    /// up to 16 dividing nb²/units.
    pub fn chunk(&self) -> usize {
        let per = self.nb * self.nb / self.units;
        let mut c = 16;
        while !per.is_multiple_of(c) {
            c /= 2;
        }
        c
    }
}

/// Comptime shape of the diagonal-block kernel: nb×nb blocks on a gy×gx grid of units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeafConfig {
    pub nb: usize,
    pub gy: usize,
    pub gx: usize,
    pub unroll: bool,
}

impl LeafConfig {
    /// The grid for nb on this device: up to 16×16 units with 4×4 elements each (8×8 at
    /// nb = 128) where cubes are large (GPUs), else the few units the runtime has (the CPU
    /// runtime: 1×2).
    pub fn new(hw: &Hardware, nb: usize) -> Option<Self> {
        let cfg = if hw.max_units_per_cube >= 256 {
            let g = (nb / 4).clamp(1, 16);
            Self {
                nb,
                gy: g,
                gx: g,
                unroll: true,
            }
        } else {
            Self {
                nb,
                gy: 1,
                gx: hw.max_units_per_cube.clamp(1, 2),
                unroll: false,
            }
        };
        let ok = nb >= 1
            && nb.is_multiple_of(cfg.gy)
            && nb.is_multiple_of(cfg.gx)
            && cfg.units() <= hw.max_units_per_cube
            // L (nb × (nb + 1)), the double-buffered column, the diagonal inverses.
            && 4 * (nb * (nb + 1) + 3 * nb) <= hw.max_shared_bytes;
        ok.then_some(cfg)
    }

    pub fn units(&self) -> usize {
        self.gy * self.gx
    }
}

/// Comptime shape of the blocked diagonal-block kernel (`potrf/blocked.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BlockedLeafConfig {
    pub nb: usize,
    /// Order of the sub-blocks factored by one plane.
    pub sub: usize,
    /// Lanes that hold the rows of a sub-block (`sub / lanes` rows each; 1: one unit, no
    /// plane operations).
    pub lanes: usize,
    /// Units of the plane that runs the sub-block steps (lanes past `lanes` mirror them).
    pub plane: usize,
    /// The units as a gy × gx grid for the cube-wide phases (gx divides sub).
    pub gy: usize,
    pub gx: usize,
    /// K steps per unrolled trip of the cube-wide phases (a divisor of `sub`).
    pub ku: usize,
    pub unroll: bool,
    /// Factor sub-block J + 1 (plane 0) during sub-block J's trailing update (the other units,
    /// as an [`Self::s_gy`] × [`Self::s_gx`] grid).
    pub lookahead: bool,
    /// Factor-only blocks by plane 0 alone, in two halves ([`CholeskyParams::leaf_plane`]).
    pub plane_factor: bool,
    /// Factor-only blocks: the sub-blocks factored without inverses, the panels below them
    /// solved by substitution ([`CholeskyParams::leaf_subst`]).
    pub subst_panel: bool,
}

impl BlockedLeafConfig {
    /// On GPUs up to 256 units (gx = sub, gy a divisor of nb), the sub-block rows spread over
    /// min(sub, plane width) lanes; on runtimes without fixed-width plane operations (the CPU
    /// runtime) one unit runs the sub-block steps and the few units the runtime has share the
    /// rest. `ku`: K steps per unrolled trip of the cube-wide phases (default: all of `sub`).
    pub fn new(
        hw: &Hardware,
        nb: usize,
        sub: Option<usize>,
        ku: Option<usize>,
        lookahead: bool,
    ) -> Option<Self> {
        let sub = sub.unwrap_or(Self::default_sub(nb));
        let ku = ku.unwrap_or(sub);
        let gpu = hw.max_units_per_cube >= 256;
        let plane = if hw.plane_ops && hw.lanes.is_power_of_two() {
            hw.lanes
        } else {
            1
        };
        let (gy, gx) = if gpu {
            let mut gy = (256 / sub).min(nb);
            while !nb.is_multiple_of(gy) {
                gy -= 1;
            }
            (gy, sub)
        } else {
            (1, hw.max_units_per_cube.clamp(1, 2))
        };
        let cfg = Self {
            nb,
            sub,
            lanes: plane.min(sub),
            plane,
            gy,
            gx,
            ku,
            unroll: gpu,
            lookahead: false,
            plane_factor: false,
            subst_panel: false,
        };
        // The look-ahead needs units besides plane 0 for the update; else it stands down.
        let cfg = Self {
            lookahead: lookahead && cfg.units() > plane,
            ..cfg
        };
        let ok = nb >= 8
            && matches!(sub, 8 | 16 | 32)
            && ku >= 1
            && sub.is_multiple_of(ku)
            && nb.is_multiple_of(sub)
            && sub.is_multiple_of(gx)
            && cfg.units() >= plane
            && cfg.units() <= hw.max_units_per_cube
            && cfg.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(cfg)
    }

    /// Whether plane 0 alone can factor blocks of order nb: two halves of 8, 16 or 32.
    pub fn plane_fits(nb: usize) -> bool {
        matches!(nb, 16 | 32 | 64)
    }

    /// With [`Self::plane_factor`] where `on` and the block order allows it.
    pub fn with_plane_factor(self, on: bool) -> Self {
        Self {
            plane_factor: on && Self::plane_fits(self.nb),
            ..self
        }
    }

    /// Whether `stage` runs on [`Self::plane_factor`]'s path: factor-only blocks.
    pub fn plane_path(&self, stage: LeafStage) -> bool {
        self.plane_factor && stage.factor && !stage.invert
    }

    /// Whether `stage` solves the sub-blocks' panels by substitution ([`Self::subst_panel`]):
    /// factor-only blocks off the plane path.
    pub fn substitutes(&self, stage: LeafStage) -> bool {
        self.subst_panel && stage.factor && !stage.invert && !self.plane_path(stage)
    }

    /// With [`Self::subst_panel`] where `on`.
    pub fn with_subst_panel(self, on: bool) -> Self {
        Self {
            subst_panel: on,
            ..self
        }
    }

    /// Lanes of plane 0 that hold rows of a half block in the plane path (nb/2 / lanes rows
    /// each; lanes past it mirror them).
    pub fn plane_lanes(&self) -> usize {
        self.plane.min(self.nb / 2)
    }

    /// Sub-block order when none is given: 16, or 8 when nb is not a multiple of 16.
    pub fn default_sub(nb: usize) -> usize {
        if nb.is_multiple_of(16) { 16 } else { 8 }
    }

    pub fn units(&self) -> usize {
        self.gy * self.gx
    }

    /// Rows of the panel buffer: nb, and the overhang the unit grids read past it.
    pub fn pan_rows(&self) -> usize {
        let below = self.nb - self.sub;
        let over = [
            below.div_ceil(self.gy) * self.gy,
            below.div_ceil(self.gx) * self.gx,
            below.div_ceil(self.s_gy()) * self.s_gy(),
            below.div_ceil(self.s_gx()) * self.s_gx(),
        ];
        self.nb + over.into_iter().max().unwrap_or(0)
    }

    /// Units of the trailing-update phase: all, or with `lookahead` all but plane 0's.
    pub fn s_units(&self) -> usize {
        if self.lookahead {
            self.units() - self.plane
        } else {
            self.units()
        }
    }

    /// Columns of the trailing-update phase's unit grid: gx where it divides [`Self::s_units`]
    /// (always without `lookahead`), else 1.
    pub fn s_gx(&self) -> usize {
        let su = self.s_units().max(1);
        if su >= self.gx && su.is_multiple_of(self.gx) {
            self.gx
        } else {
            1
        }
    }

    /// Rows of the trailing-update phase's unit grid.
    pub fn s_gy(&self) -> usize {
        (self.s_units() / self.s_gx()).max(1)
    }

    /// a and x (nb × (nb + 1)), the panel, W (sub × (nb + 1)) and a flag, in bytes.
    pub fn shared_bytes(&self) -> usize {
        let (nb, sub) = (self.nb, self.sub);
        4 * (2 * nb * (nb + 1) + self.pan_rows() * (sub + 1) + sub * (nb + 1) + 1)
    }
}

/// What the diagonal-block kernel does (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LeafStage {
    /// Factor the block (else it is a triangle to invert).
    pub factor: bool,
    /// Write the inverse of the (factored or loaded) lower triangle.
    pub invert: bool,
    /// Invert with an implicit unit diagonal (invert-only).
    pub unit_diag: bool,
    /// Flag non-finite values read.
    pub check: bool,
}

/// Everything a launch needs, checked against the device once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CholeskyLaunch {
    pub leaf: LeafConfig,
    pub syrk_leaf: usize,
    pub gemm: GemmLaunch,
    /// The GEMM that applies a diagonal block's inverse in place: one tile spans nb rows.
    pub solve_gemm: GemmLaunch,
    pub gemm_big: GemmLaunch,
    pub big_from: usize,
    pub big_min_k: usize,
    pub batched_leaf: BatchedLeaf,
    pub blocked_below: usize,
    pub leaf_kernel: LeafKernel,
    pub leaf_sub: Option<usize>,
    pub leaf_unroll: Option<usize>,
    pub leaf_lookahead: bool,
    /// [`CholeskyParams::leaf_plane`].
    pub leaf_plane: bool,
    /// [`CholeskyParams::leaf_subst`].
    pub leaf_subst: bool,
    pub step: usize,
    pub trsv: Option<TrsvConfig>,
    pub trsv_chain: bool,
    /// `None`: fuse for a single matrix.
    pub fuse_leaf: Option<bool>,
    /// `None`: staged ([`CholeskyLaunch::fused_staged`]).
    pub fused_staged: Option<bool>,
    /// [`CholeskyParams::fused_c_first`].
    pub fused_c_first: bool,
    /// [`CholeskyParams::fused_tri_grid`].
    pub fused_tri_grid: bool,
    /// [`CholeskyParams::fused_mma`]: allowed (the device runs it, not turned off).
    pub fused_mma: bool,
    /// Order of the right-looking regions from which `fused_mma` applies (0 when asked for
    /// explicitly, else [`FUSED_MMA_FROM`]).
    pub fused_mma_from: usize,
    /// [`CholeskyParams::fused_mma_leaf`].
    pub fused_mma_leaf: bool,
    /// [`CholeskyParams::fused_mma_rows`].
    pub fused_mma_rows: usize,
    /// [`CholeskyParams::panel_mma`].
    pub panel_mma: bool,
    /// [`CholeskyParams::step_substitution`]: on for single matrices (see
    /// [`Self::substitutes`]).
    pub step_substitution: bool,
    /// `step_substitution` for batches too (asked for as `Some(true)`).
    pub step_substitution_batched: bool,
    /// 0: off.
    pub inv_block: usize,
    /// `None`: the measured default of [`CholeskyLaunch::whole_order`].
    pub inv_rhs: Option<usize>,
    small_units: Option<usize>,
    small_mats: Option<usize>,
    small_vec: Option<bool>,
    small_load_whole: Option<bool>,
    hw: Hardware,
}

impl CholeskyLaunch {
    /// Upper's batched small kernel loads at once up to this many cubes per multiprocessor
    /// ([`CholeskyParams::small_load_whole`]).
    pub const UPPER_WHOLE_PER_SM: usize = 8;
    /// Lower's: see [`CholeskyParams::small_load_whole`].
    pub const LOWER_WHOLE_PER_SM: usize = 16;

    /// The launch for this device, or `None` when the device cannot run these parameters
    /// (shared memory, cube size, a leaf that is not a multiple of 8 up to 128).
    pub fn new(hw: &Hardware, params: &CholeskyParams) -> Option<Self> {
        let nb = params.leaf.unwrap_or(64);
        if nb == 0 || !nb.is_multiple_of(8) || nb > 128 {
            return None;
        }
        let leaf = LeafConfig::new(hw, nb)?;
        let gemm = match params.gemm {
            Some(cfg) => GemmLaunch::with_config(hw, cfg)?,
            None => default_gemm(hw)?,
        };
        let solve_default = GemmLaunch::with_config(hw, SOLVE_TILES).filter(|g| g.tile_m() >= nb);
        let solve_gemm = if let Some(cfg) = params.solve_gemm {
            let g = GemmLaunch::with_config(hw, cfg)?;
            if g.tile_m() < nb {
                return None;
            }
            g
        } else if let Some(g) = solve_default {
            g
        } else if gemm.tile_m() >= nb {
            gemm
        } else if hw.max_units_per_cube >= 256 {
            let uy = nb.min(16);
            GemmLaunch::with_config(
                hw,
                GemmConfig {
                    units_x: 16,
                    units_y: uy,
                    tm: nb / uy,
                    tn: 4,
                    tile_k: 16,
                    unroll: true,
                    vector: false,
                },
            )?
        } else {
            GemmLaunch::with_config(
                hw,
                GemmConfig {
                    units_x: 1,
                    units_y: 1,
                    tm: nb,
                    tn: 4,
                    tile_k: 8,
                    unroll: false,
                    vector: false,
                },
            )?
        };
        let gemm_big = match params.gemm_big {
            Some(kernel) => GemmLaunch::of_kernel(hw, kernel)?,
            None => GemmLaunch::mma(hw, MMA_DEFAULT)
                .or_else(|| GemmLaunch::big(hw))
                .unwrap_or(gemm),
        };
        let syrk_leaf = params.syrk_leaf.unwrap_or(usize::MAX);
        if let Some(sub) = params.leaf_sub
            && (!matches!(sub, 8 | 16 | 32) || !nb.is_multiple_of(sub))
        {
            return None;
        }
        let sub = params
            .leaf_sub
            .unwrap_or(BlockedLeafConfig::default_sub(nb));
        if let Some(ku) = params.leaf_unroll
            && (ku == 0 || !sub.is_multiple_of(ku))
        {
            return None;
        }
        let step = params.step.unwrap_or(nb);
        // The default stands down where the tiles do not fit; an explicit value is refused.
        let trsv = match params.trsv_max_k {
            Some(0) => None,
            Some(k) => Some(TrsvConfig::new(hw, nb, k, params.trsv_prefetch)?),
            None => TrsvConfig::new(hw, nb, 16, params.trsv_prefetch),
        };
        if params.trsv_prefetch == Some(true) && params.trsv_max_k != Some(0) && trsv.is_none() {
            return None;
        }
        // The default: the leaf times the largest power of two up to 1024 (1024 for leaves of
        // 8, 16, 32, 64 and 128).
        let inv_block = params.inv_block.unwrap_or(nb << (1024 / nb).max(2).ilog2());
        let inv_ok = inv_block == 0
            || (inv_block >= 2 * nb
                && inv_block.is_multiple_of(nb)
                && (inv_block / nb).is_power_of_two());
        let trsv_chain = params.trsv_chain.unwrap_or(hw.cube_handoff);
        if trsv_chain && !hw.cube_handoff {
            return None;
        }
        let mma_sync = hw.tf32_manual_mma
            && hw.lanes == linalg_common::gemm_mma::MMA_PLANE
            && hw.vector_views
            && hw.max_units_per_cube >= 256;
        let mma_fits = nb == 64 && mma_sync;
        let fused_mma = params.fused_mma.unwrap_or(mma_fits);
        if fused_mma && !mma_fits {
            return None;
        }
        let fused_mma_from = if params.fused_mma == Some(true) {
            0
        } else {
            FUSED_MMA_FROM
        };
        let fused_mma_leaf = params.fused_mma_leaf == Some(true);
        if fused_mma_leaf && !fused_mma {
            return None;
        }
        if params.leaf_plane == Some(true) && !BlockedLeafConfig::plane_fits(nb) {
            return None;
        }
        let subst_fits = step == nb && crate::potrf::PanelSolveConfig::new(hw, nb).is_some();
        let step_substitution = match params.step_substitution {
            Some(true) if !subst_fits => return None,
            Some(on) => on,
            // An explicit `panel_mma` (which applies L11⁻¹) keeps the inverses.
            None => subst_fits && params.panel_mma != Some(true),
        };
        let panel_mma = params.panel_mma == Some(true) && !step_substitution;
        if params.panel_mma == Some(true) && !mma_fits {
            return None;
        }
        (syrk_leaf >= 1 && step >= nb && step.is_multiple_of(nb) && inv_ok).then_some(Self {
            trsv_chain,
            inv_block,
            inv_rhs: params.inv_rhs,
            step,
            trsv,
            fuse_leaf: params.fuse_leaf,
            fused_staged: params.fused_staged,
            fused_c_first: params.fused_c_first.unwrap_or(false),
            fused_tri_grid: params.fused_tri_grid.unwrap_or(true),
            fused_mma,
            fused_mma_from,
            fused_mma_leaf,
            fused_mma_rows: params.fused_mma_rows.unwrap_or(0),
            panel_mma,
            step_substitution,
            step_substitution_batched: params.step_substitution == Some(true),
            gemm_big,
            big_from: params.big_from.unwrap_or(1024),
            big_min_k: params.big_min_k.unwrap_or(128),
            batched_leaf: params.batched_leaf.unwrap_or(BatchedLeaf::Rows),
            small_units: params.small_units,
            small_mats: params.small_mats,
            small_vec: params.small_vec,
            small_load_whole: params.small_load_whole,
            leaf_kernel: params.leaf_kernel.unwrap_or(LeafKernel::Blocked),
            leaf_sub: params.leaf_sub,
            leaf_unroll: params.leaf_unroll,
            leaf_lookahead: params.leaf_lookahead.unwrap_or(hw.plane_ops),
            leaf_plane: params.leaf_plane.unwrap_or(false),
            leaf_subst: params.leaf_subst.unwrap_or(true),
            blocked_below: params.blocked_below.unwrap_or(4096),
            leaf,
            syrk_leaf,
            gemm,
            solve_gemm,
            hw: *hw,
        })
    }

    /// Whether potrf over `batch` matrices factors its leaves without inverses and solves the
    /// steps' panels by substitution ([`CholeskyParams::step_substitution`]): by default for a
    /// single matrix only (batches were slower with it: H100, session 50, 64 × 1024² 2.094
    /// against 1.952 ms, 256 × 256² 0.311 against 0.300).
    pub fn substitutes(&self, batch: usize) -> bool {
        self.step_substitution && (batch == 1 || self.step_substitution_batched)
    }

    /// The leaf for a batch of matrices of order n ≤ nb: the smallest of 8, 16, 32, … ≥ n.
    pub fn leaf_for(&self, n: usize) -> LeafConfig {
        let mut nb = 8;
        while nb < n && nb < self.leaf.nb {
            nb *= 2;
        }
        LeafConfig::new(&self.hw, nb.min(self.leaf.nb)).unwrap_or(self.leaf)
    }

    /// The blocked diagonal-block kernel for leaves of `cfg.nb`, when selected and the device
    /// can run it (else the step kernel runs). `shared`: the launch shares the device with more
    /// cubes than it has multiprocessors (or, fused, with a large update), so occupancy counts
    /// more than one block's latency: by default its cube-wide phases then run in trips of
    /// half a sub-block, which cuts the kernel's registers (see `leaf_unroll`).
    pub fn blocked_for(&self, cfg: &LeafConfig, shared: bool) -> Option<BlockedLeafConfig> {
        match self.leaf_kernel {
            LeafKernel::Blocked => {
                let sub = self
                    .leaf_sub
                    .unwrap_or(BlockedLeafConfig::default_sub(cfg.nb));
                let ku = self
                    .leaf_unroll
                    .or((shared && self.hw.max_units_per_cube >= 256).then_some(sub / 2));
                BlockedLeafConfig::new(&self.hw, cfg.nb, self.leaf_sub, ku, self.leaf_lookahead)
                    .map(|b| {
                        b.with_plane_factor(self.leaf_plane)
                            .with_subst_panel(self.leaf_subst)
                    })
            }
            LeafKernel::Steps => None,
        }
    }

    /// Whether a launch of `cubes` diagonal-block cubes outnumbers the multiprocessors.
    pub(crate) fn leaf_shared(&self, cubes: usize) -> bool {
        self.hw.num_sms.is_some_and(|s| cubes > s as usize)
    }

    /// The batched small-matrix kernel for order n ≤ nb (the same nb as [`Self::leaf_for`]).
    pub fn small_for(&self, n: usize) -> Option<SmallConfig> {
        let nb = self.leaf_for(n).nb;
        SmallConfig::new(&self.hw, nb, self.small_units.map(|u| u.min(nb)))
    }

    /// The register-row batched kernel for order n ≤ nb (the same nb as [`Self::leaf_for`]);
    /// `vec_fits`: the op's views allow vector I/O ([`RowsConfig::vec_fits`]); `upper`: the
    /// kernel reads them transposed; `batch`: matrices in the launch.
    pub fn rows_for(
        &self,
        n: usize,
        vec_fits: bool,
        upper: bool,
        batch: usize,
    ) -> Option<RowsConfig> {
        let nb = self.leaf_for(n).nb;
        let mut cfg = RowsConfig::new(
            &self.hw,
            nb,
            self.small_units.map(|u| u.min(nb)),
            self.small_mats,
            vec_fits,
            upper,
            self.small_vec,
        )?;
        // At once up to the crossover in cubes per multiprocessor (H200, BENCHMARKS.md,
        // sessions 35 and 37): upper only where the count is known, lower also where not.
        let per_sm = if cfg.cols {
            Self::UPPER_WHOLE_PER_SM
        } else {
            Self::LOWER_WHOLE_PER_SM
        };
        let within = self
            .hw
            .num_sms
            .map(|s| batch.div_ceil(cfg.mats) <= per_sm * s as usize);
        let whole = if cfg.cols {
            cfg.unroll && within == Some(true)
        } else {
            within != Some(false)
        };
        cfg.load_whole = cfg.vec && self.small_load_whole.unwrap_or(whole);
        Some(cfg)
    }

    /// The fused SYRK + diagonal block (`potrf/fused.rs`) for the update of an m×m lower
    /// triangle with inner dimension k over `batch` matrices: the GEMM tiling and the
    /// diagonal-block kernel it runs, or `None` where it does not apply (`fuse_leaf` off or, by
    /// default, a batch of several matrices; a
    /// SYRK split by `syrk_leaf`, a GEMM other than vector tiles of order `leaf` with the
    /// blocked kernel's unit count, or too much shared memory for one cube).
    pub fn fused_leaf(
        &self,
        m: usize,
        k: usize,
        batch: usize,
    ) -> Option<(GemmConfig, BlockedLeafConfig)> {
        if !self.fuse_leaf.unwrap_or(batch == 1) || m == 0 || k == 0 || m > self.syrk_leaf {
            return None;
        }
        let g = self.gemm_for(m, m, k);
        let GemmKernel::Simt(gcfg) = g.kernel else {
            return None;
        };
        let lcfg = self.blocked_for(&self.leaf, m > FUSED_SHARED_FROM)?;
        let nb = self.leaf.nb;
        let ok = gcfg.vector
            && gcfg.tile_m() == nb
            && gcfg.tile_n() == nb
            && gcfg.units() == lcfg.units()
            && gcfg.shared_bytes() + lcfg.shared_bytes() <= self.hw.max_shared_bytes
            && g.fits(m, m, batch);
        ok.then_some((gcfg, lcfg))
    }

    /// Whether a fused step whose update has `rows` rows, in a right-looking region of order
    /// `region` (the order at which potrf's recursion started stepping), forms its update on
    /// tensor cores ([`CholeskyParams::fused_mma`], [`CholeskyParams::fused_mma_rows`]; each
    /// launch also checks its operands).
    pub fn fused_mma_for(&self, region: usize, rows: usize) -> bool {
        self.fused_mma && region >= self.fused_mma_from && rows >= self.fused_mma_rows
    }

    /// Whether fused steps stage their block in shared memory
    /// ([`CholeskyParams::fused_staged`]).
    pub fn fused_staged(&self) -> bool {
        self.fused_staged.unwrap_or(true)
    }

    /// The GEMM for an update whose result is rows × cols, with inner dimension k.
    pub(crate) fn gemm_for(&self, rows: usize, cols: usize, k: usize) -> &GemmLaunch {
        if rows >= self.big_from && cols >= self.big_from && k >= self.big_min_k {
            &self.gemm_big
        } else {
            &self.gemm
        }
    }

    pub(crate) fn hw(&self) -> &Hardware {
        &self.hw
    }

    /// Order of the whole inverted diagonal blocks of a TRSM of order `n` with `k` right-hand
    /// sides on `batch` matrices (`inv_block`, `inv_rhs`); 0: none.
    pub fn whole_order(&self, n: usize, k: usize, batch: usize) -> usize {
        let nb = self.leaf.nb;
        if self.inv_block != 0 && k >= self.inv_block {
            return self.inv_block;
        }
        let gpu = self.hw.max_units_per_cube >= 256;
        let mut cap = match self.inv_rhs {
            Some(ratio) => ratio.saturating_mul(k).min(n),
            // The measured default (H200, BENCHMARKS.md, session 28).
            None if gpu && batch == 1 => (32 * k).min(n / 2),
            None if gpu && batch * n <= DEFAULT_WHOLE_WORK => (16 * k).min(n / 4),
            None => 0,
        };
        if self.inv_block != 0 {
            cap = cap.min(self.inv_block);
        }
        if cap < 2 * nb {
            return 0;
        }
        nb << (cap / nb).ilog2()
    }

    pub(crate) fn max_count(&self) -> (u32, u32, u32) {
        self.hw.max_cube_count
    }

    /// Whether every launch of an op on `batch` matrices of up to `rows × cols` elements
    /// fits the grid limits.
    pub(crate) fn fits(&self, rows: usize, cols: usize, batch: usize) -> bool {
        let max = self.hw.max_cube_count;
        let (_, _, bz) = batch_grid(batch, max);
        let x = max.0 as usize;
        bz <= max.2 as usize
            && self.gemm.fits(rows, cols, batch)
            && self.solve_gemm.fits(rows, cols, batch)
            && self.gemm_big.fits(rows, cols, batch)
            && rows.div_ceil(self.leaf.nb) <= x
            && (rows * cols).div_ceil(256.min(self.hw.max_units_per_cube)) <= x
    }
}
