//! Knobs of the blocked QR ops and the one hardware check.
use super::lookahead::{STRIP, ahead_tiles, strip_bytes};
use super::recon::ReconConfig;
use crate::tsqr::TsqrParams;
use linalg_common::gemm::{GemmConfig, GemmKernel, GemmLaunch, batch_grid};
use linalg_common::gemm_mma::MMA_THIN;
use linalg_common::launch::Hardware;

/// Tuning knobs. `None` takes the recommended value ([`QrLaunch::new`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QrParams {
    /// Panel width nb: columns factored by one panel launch, and the inner dimension of the
    /// trailing-update GEMMs. 1 ≤ nb ≤ 64. Default per shape ([`QrLaunch::new`]).
    pub panel: Option<usize>,
    /// Row groups of the panel kernel on GPUs (units = row groups × min(nb, 32)). Default per
    /// shape ([`QrLaunch::new`]).
    pub panel_rows: Option<usize>,
    /// GEMM tiling; default [`GemmLaunch::new`]'s.
    pub gemm: Option<GemmConfig>,
    /// GEMM kernel for updates whose result has at least `big_from` rows and columns: SIMT
    /// (true f32) or 3×TF32 on tensor cores (refused where the device has none). Default:
    /// `gemm` (every update here has K = nb, where 64×64 tiles beat [`GemmLaunch::big`]'s
    /// 128×128 and the tensor cores: H200, geqrf 1×4096² 27.1 ms against 27.5 and 28.5,
    /// BENCHMARKS.md).
    pub gemm_big: Option<GemmKernel>,
    /// See `gemm_big`. Default 1024.
    pub big_from: Option<usize>,
    /// Products of at most 32 rows (Vᵀ·C of 32-column panels) on 32×128 tiles where the
    /// device runs them: the mma kernel's ([`MMA_THIN`], 3×TF32, f32 accuracy) where it has
    /// `mma.sync`, else the SIMT kernel's ([`GemmLaunch::thin`]) (default true; ignored when
    /// `gemm` or `gemm_thin` is set). H100, geqrf with grid panels of 128 rows: 1×4096² 13.21
    /// ms against 14.60 on SIMT thin tiles, 8×2048² 8.85 against 10.01, 1×8192² 55.4 against
    /// 57.4 (BENCHMARKS.md, session 40).
    pub thin_tiles: Option<bool>,
    /// The GEMM of the products with at most its `tile_m` rows (Vᵀ·C), e.g. the SIMT kernel on
    /// [`linalg_common::gemm::THIN_TILES`] (refused where the device cannot run it). Default:
    /// as `thin_tiles` says.
    pub gemm_thin: Option<GemmKernel>,
    /// Stage panels in shared memory when they fit (default true; false: always work in
    /// global memory, the path of panels too tall to stage).
    pub stage: Option<bool>,
    /// [`crate::qr()`] takes the TSQR path for n ≤ `tsqr_max_cols` (0: never) …
    pub tsqr_max_cols: Option<usize>,
    /// … and m ≥ `tsqr_min_ratio`·n.
    pub tsqr_min_ratio: Option<usize>,
    /// geqrf factors panels of at least this many rows by TSQR and Householder reconstruction
    /// (many cubes per panel, `super::recon`) instead of the one-cube panel kernel, and
    /// householder_product / apply_q apply the reflectors of matrices with at least this many
    /// rows in blocks of `apply_block` columns whose T come from GEMM Gram matrices
    /// (`super::gram`) (`usize::MAX`: never). Default per shape ([`QrLaunch::new`]).
    pub tsqr_panel_rows: Option<usize>,
    /// TSQR knobs of those panels (default on GPUs: 256 rows per block, 32 planes, a last cube
    /// of up to 512 rows; elsewhere TSQR's own defaults).
    pub tsqr_panel_params: Option<TsqrParams>,
    /// Width of the block reflectors that householder_product and apply_q apply to tall
    /// matrices of few matrices (the `tsqr_panel_rows` path), independent of the panel width:
    /// 1 ≤ width ≤ `MAX_APPLY_BLOCK`, and a width whose T does not fit one cube
    /// (`MAX_T_PART` columns, or the device's shared memory) must halve into parts that do.
    /// Default on GPUs `MAX_APPLY_BLOCK` for batches of 2 to 15 matrices of at least
    /// `WIDE_APPLY_FROM_ROWS` rows (where parts of `MAX_T_PART` fit), else
    /// `DEFAULT_APPLY_BLOCK` for batches of fewer than 16 matrices, else 64
    /// (H200: householder_product 1×4096² 5.2 ms against 5.9 with 64, 60×1024² 5.2 against 5.9
    /// with 128); elsewhere the panel width. A default too wide for one cube's T is halved
    /// until it fits.
    pub apply_block: Option<usize>,
    /// Blocks of that path whose V, T and U are formed together (one launch per stage for all
    /// of them). Default: as many as fit `APPLY_WORKSPACE_BYTES`.
    pub apply_group: Option<usize>,
    /// Panels that fit [`RegPanelConfig`] (at most 128 rows per unit, the register file and
    /// shared memory) are held in registers (`super::panel_regs`): geqrf factors them there
    /// ahead of TSQR and the shared-memory panel kernel, and householder_product and apply_q
    /// form their T and U there (where they rebuild T per panel). Default: on where cubes have
    /// at least 256 units; `Some(true)` elsewhere is refused.
    pub panel_regs: Option<bool>,
    /// Outer blocks of geqrf: with a width ob (a multiple of the panel width nb, nb < ob ≤
    /// `MAX_APPLY_BLOCK`), each panel updates only the rest of its block of ob columns, and
    /// the columns past the block are updated once per block with the block's reflectors (T
    /// from their Gram matrix, `super::gram`): trailing-update GEMMs with K = ob instead of
    /// nb. 0 (or nb): every panel updates all the columns to its right. Default per shape
    /// ([`QrLaunch::new`]: 128 for single matrices of 8192 rows or more on GPUs, else none).
    pub outer_block: Option<usize>,
    /// Split-K for the products with few output tiles and a long K (Vᵀ·C of the updates, the
    /// Gram matrices VᵀV): at most this many matrices (1: single matrices only; 0: never),
    /// with at most `MAX_SPLITS` chunks over the whole batch. Default
    /// `DEFAULT_SPLIT_MATRICES`.
    pub split_matrices: Option<usize>,
    /// Fewest rows per K chunk of geqrf's split update products Vᵀ·C (householder_product's
    /// and apply_q's Gram products keep the rule before session 43). Default [`MIN_CHUNK`].
    pub split_chunk: Option<usize>,
    /// Chunks of geqrf's split update products: as many as keep the launch within this many
    /// cubes per multiprocessor (rounded down, at least one chunk); 0: at least two cubes per
    /// multiprocessor, rounded up ([`GemmLaunch::split_k`], the rule before session 43).
    /// Default [`SPLIT_PER_SM`]. H100, geqrf with the default and `split_per_sm: Some(0),
    /// split_chunk: Some(256)` (the earlier rule): 1×4096² 11.56 ms against 12.03, 8×2048²
    /// 8.65 against 8.86, 2×4096² 19.88 against 19.91 (BENCHMARKS.md, session 43).
    pub split_per_sm: Option<usize>,
    /// The reconstruction's top block with a unit per row (`true`,
    /// [`ReconConfig::top_rows`]; panels of at most [`MAX_TOP_ROWS_NB`] columns, wider ones
    /// take the other kernel) or per element. Default false.
    pub recon_top_rows: Option<bool>,
    /// geqrf's grid panels: a panel that takes at least two cubes of about this many rows is
    /// factored by the register panel kernel spread over those cubes ([`RegPanelConfig::grid`]),
    /// which exchange each column's sums through global memory, ahead of every other panel
    /// path. The cubes of one panel wait for each other: where the device does not run them
    /// at the same time, a wait gives up after [`GRID_WAIT_POLLS`] polls and the op fails
    /// with [`crate::QrError::Device`] (never a hang). Needs the register panel kernel and
    /// [`Hardware::co_resident`] (`Some(0)`: off). Default [`DEFAULT_GRID_ROWS`] for panels
    /// of at least [`GRID_FROM_ROWS`] rows where both hold (CUDA), else off.
    pub panel_grid: Option<usize>,
    /// geqrf's look-ahead: each step's trailing update and the next panel in one launch
    /// (`super::lookahead`), the panel's cubes first, then the update's tiles, so the next
    /// panel is factored beside the update. Applies to the steps whose next panel takes the
    /// register panel kernel (one cube, or a grid) and lies in the same outer block, with
    /// cubes of at most 512 units whose panels leave half the multiprocessors to the update
    /// ([`QrLaunch::lookahead_panel`]). Needs the register panel kernel (`Some(true)` is
    /// refused without it). Default ([`LookAhead::Auto`]): only for a single matrix's grid
    /// panels that take at most a quarter of the multiprocessors, without outer blocks,
    /// where it was measured to win (H200: geqrf 1 × 4096² 12.2 ms against 13.0; H100: 12.0
    /// against 13.3). It lost at 1 × 8192² (outer blocks): with its 63-cube panels, H200 56.8
    /// against 54.8; with panels of at most 33 cubes, H100 56.0 against 55.2; and at
    /// 32 × 512², H200 1.71 against 1.14 (BENCHMARKS.md, session 42).
    pub lookahead: Option<bool>,
    /// Look-ahead steps update the rest in column strips (`super::lookahead::STRIP`
    /// columns over all rows), each cube forming its own part of W = Vᵀ·C, so the product
    /// launch before the step covers only the next panel's columns
    /// (`super::lookahead::strip_update`). Default off: not yet measured.
    pub lookahead_strips: Option<bool>,
    /// How a grid panel's cubes combine an exchange (`super::panel_regs`): every unit sums
    /// its fetched words and stages the sum, and after one cube barrier each unit adds the gy
    /// staged rows of the columns it needs (`true`); or row group 0 stages the words and adds
    /// them in cube order, one more cube barrier, and units read the totals (`false`, the
    /// kernel before session 44). Default: true in look-ahead steps, false in grid panel
    /// launches (H100, geqrf true against false: 1×4096² 10.99 / 11.03 ms against 11.29 /
    /// 11.31, 2×4096² 20.37 / 20.40 against 19.46 / 19.48, 8×2048² 8.64 / 8.68 against
    /// 8.58 / 8.60; BENCHMARKS.md, session 44).
    pub grid_staged_sums: Option<bool>,
    /// geqrf's update products Vᵀ·C of panels of at most 32 columns by the register product
    /// kernel (`super::product`: 3×TF32 `mma.sync` from registers, K split over one cube's
    /// planes; CUDA, where the views' rows read as 4-vectors) instead of the thin mma GEMM
    /// with split-K partials and a second launch that sums them. `Some(true)` is refused
    /// where the device cannot run it. Default: on where it runs for batches of at most
    /// [`PRODUCT_MAX_BATCH`] matrices of at least [`PRODUCT_FROM_ROWS`] rows (H100, geqrf
    /// 1×4096² 10.96 ms against 11.07, 8×2048² 8.47 against 8.61, 2×4096² 19.49 against
    /// 19.55, 1×8192² 57.10 against 57.62, session 46; slower on the small batched shapes:
    /// 20×32² 0.051 against 0.042, 40×352² 0.62 against 0.58, session 47), else off.
    pub product_regs: Option<bool>,
    /// The register product kernel's shape (default [`PRODUCT_DEFAULT`]).
    pub product_config: Option<ProductConfig>,
    /// The register panel kernel (geqrf) takes two columns per reduction where it can
    /// ([`RegPanelConfig::pairs`]): one exchange (grid panels) and two cube barriers for both.
    /// Default off until its test has passed on a GPU with the exchange budget of four per
    /// column (H100, on against off: geqrf 1×4096² 10.73 / 10.76 ms against 10.87 / 10.86,
    /// 8×2048² 8.31 / 8.33 against 8.51 / 8.53, 1×8192² 55.0 / 55.2 against 56.2 / 56.3,
    /// session 56; with [`Self::grid_poll_all`], against neither: 1×4096² 10.63 against
    /// 10.94, 8×2048² 8.24 against 8.51, 1×8192² 54.67 against 56.23, session 60).
    pub panel_pairs: Option<bool>,
    /// The register panel kernel (geqrf) keeps a column's row groups in consecutive lanes of
    /// one plane ([`RegPanelConfig::segs`]): its sums by plane shuffles, one cube barrier per
    /// column. Only where planes have a fixed width that the row groups divide; it replaces
    /// [`Self::panel_pairs`] where both would apply. `Some(true)` where it cannot run is
    /// ignored. Default off.
    pub panel_segs: Option<bool>,
    /// Grid panels' exchanges poll all of a unit's late words in each round
    /// ([`RegPanelConfig::poll_all`]) instead of one word after another. Default off: alone
    /// it gains little (H100, session 60, on against off: 1×4096² 10.96 against 10.94 ms,
    /// 8×2048² 8.56 against 8.51, 1×8192² 55.51 against 56.23); with pairs, see
    /// [`Self::panel_pairs`].
    pub grid_poll_all: Option<bool>,
    /// Grid panels of at least `.1` rows take about `.0` rows per cube (at least
    /// `panel_grid`'s) instead of `panel_grid`'s; `.0 = 0`: none. Default, where grid panels
    /// are on by default: [`DEFAULT_GRID_TALL`] (H100, 1×8192² 56.61 / 56.62 ms against
    /// 57.62 / 57.69, qr reduced 8192² 93.71 / 94.27 against 95.25 / 95.33; session 47),
    /// else none.
    pub panel_grid_tall: Option<(usize, usize)>,
    /// Most K slices per 32-column tile of the register product kernel, where its tiles are
    /// fewer than the device's resident cubes (1: none). Default
    /// [`super::product::MAX_PRODUCT_SLICES`].
    pub product_slices: Option<usize>,
}

/// The default of [`QrParams::panel_grid`] where grid panels run (H100, against TSQR panels:
/// geqrf 1×4096² 14.5 ms against 20.9, 1×8192² 57.2 against 72.7, 2×4096² 19.6 against 29.8,
/// 8×2048² 9.94 against 12.6; 128 rows per cube beat 256: BENCHMARKS.md, session 40).
pub const DEFAULT_GRID_ROWS: usize = 128;

/// The default of [`QrParams::panel_grid_tall`]: grid panels of more than 4096 rows take
/// about 256 rows per cube (1×4096²'s panels keep 128: 12.81 ms against 11.25 with 256 for
/// every panel, H100, session 44).
pub const DEFAULT_GRID_TALL: (usize, usize) = (256, 4097);

/// [`QrParams::product_regs`]'s default: matrices of at least this many rows ...
pub const PRODUCT_FROM_ROWS: usize = 2048;
/// ... in batches of at most this many.
pub const PRODUCT_MAX_BATCH: usize = 8;

/// Fewest panel rows that take grid panels by default ([`QrParams::panel_grid`]): a grid's
/// exchange costs about two L2 round trips per column, so a one-cube register panel of a few
/// hundred rows may be faster. H100: geqrf 32 × 512² took 1.27 ms with grids on all its
/// panels of 129–512 rows against 1.30 with one-cube register panels; 40 × 176² and 40 × 352²
/// were not compared, so by default grids start at 512 rows (BENCHMARKS.md, session 40).
pub const GRID_FROM_ROWS: usize = 512;

/// Polls of a grid panel's wait before it gives up ([`QrParams::panel_grid`]).
pub const GRID_WAIT_POLLS: u32 = 1 << 22;

/// Most exchange words one unit of a grid panel fetches (cubes + 1 ≤ this × row groups), all
/// loaded before the first wait.
pub const GRID_WORDS_PER_UNIT: usize = 4;

/// The default of [`QrParams::split_matrices`]: every batch that [`MAX_SPLITS`] lets split
/// in two or more (H200, against single matrices only: geqrf 2×4096² 29.6 ms against 32.0,
/// 8×2048² 12.4 against 13.5, qr(reduced) 2×4096² 39.5 against 42.1; single matrices
/// unchanged: BENCHMARKS.md, session 30).
pub const DEFAULT_SPLIT_MATRICES: usize = 8;

/// Widest panel of [`QrParams::recon_top_rows`]: its kernel is unrolled over the block's
/// columns (nb² steps; sm_90 SASS of 32 columns: 5896 instructions, 96 registers).
pub const MAX_TOP_ROWS_NB: usize = 32;

/// Most K chunks of the split products of one launch, over all its matrices (bounds the
/// partials' workspace).
pub const MAX_SPLITS: usize = 16;

/// Fewest rows per K chunk of a split product, the default of [`QrParams::split_chunk`]
/// (H100, geqrf 1×4096² with [`SPLIT_PER_SM`]: 11.56 ms with 64, 11.73 with 128, 11.86 with
/// 256; BENCHMARKS.md, session 43).
pub const MIN_CHUNK: usize = 64;

/// Fewest rows per K chunk of the Gram products VᵀV of householder_product and apply_q, which
/// keep the rule before session 43 (at least two cubes per multiprocessor, rounded up): they
/// were measured on it (H100, householder_product 1×4096² 5.05 ms against 5.11 with the
/// update products' rule, 8×2048² 5.10 against 5.13; BENCHMARKS.md, session 43).
pub(crate) const GRAM_CHUNK: usize = 256;

/// The default of [`QrParams::split_per_sm`]: two cubes per multiprocessor, rounded down
/// (1×4096² 11.56 ms; 3: 12.03, 4: 12.03, both with chunks of 128 rows; H100, session 43).
pub const SPLIT_PER_SM: usize = 2;

/// Workspace bound for the V and U of the blocks that householder_product and apply_q form
/// together (at least one block is always formed).
pub const APPLY_WORKSPACE_BYTES: usize = 256 << 20;

/// Widest block reflector householder_product and apply_q apply.
pub const MAX_APPLY_BLOCK: usize = 256;

/// The default of [`QrParams::apply_block`] on GPUs for batches of fewer than 16 matrices.
pub const DEFAULT_APPLY_BLOCK: usize = 128;

/// Rows from which batches of 2 to 15 matrices take blocks of [`MAX_APPLY_BLOCK`] columns by
/// default on GPUs (H200: householder_product 2×4096² 9.58 ms against 10.26 with 128; a single
/// 4096² or 8192² takes the same time with either, 8×2048² is slower with 256: BENCHMARKS.md,
/// session 29).
pub const WIDE_APPLY_FROM_ROWS: usize = 4096;

/// Widest outer block of geqrf ([`QrParams::outer_block`]) and its default width.
pub const MAX_OUTER_BLOCK: usize = 128;

/// geqrf's TSQR-panel knobs on GPUs with plane operations ([`QrParams::tsqr_panel_params`]'s
/// default there): blocks of 256 rows, 32 planes, a last cube of up to 512 rows.
pub const GPU_TSQR_PANEL_PARAMS: TsqrParams = TsqrParams {
    rows_per_block: Some(256),
    planes_per_cube: Some(32),
    top_rows: Some(512),
};

/// Rows from which single matrices get geqrf's outer blocks by default (measured faster only at
/// 1×8192² among the sweep's shapes: BENCHMARKS.md, session 19).
pub const OUTER_FROM_ROWS: usize = 8192;

/// Shared memory of the T-from-Gram kernel for blocks of `w` columns ([`super::gram`]).
fn gram_shared_bytes(w: usize) -> usize {
    4 * (2 * w * (w + 1) + w)
}

/// Widest part of a block's T that one cube of the T-from-Gram kernel forms; wider blocks are
/// formed in parts of this many columns, merged by GEMMs ([`super::gram`]).
pub const MAX_T_PART: usize = 128;

/// The part width of T for blocks of `w` columns on `hw`: w halved until it is at most
/// [`MAX_T_PART`] and its kernel fits the shared memory, so w = part·2^j; `None` where no
/// such part exists (an odd width too wide, or w = 0).
pub(crate) fn t_part(hw: &Hardware, w: usize) -> Option<usize> {
    let mut part = w;
    while part > MAX_T_PART || gram_shared_bytes(part) > hw.max_shared_bytes {
        if !part.is_multiple_of(2) {
            return None;
        }
        part /= 2;
    }
    (part >= 1).then_some(part)
}

/// Comptime shape of the panel kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PanelConfig {
    /// Panel width (the launch's w ≤ nb columns are used).
    pub nb: usize,
    /// Units along the columns (nb is a multiple) and row groups; a unit owns columns
    /// tx + c·gx and rows ty + t·gy.
    pub gx: usize,
    pub gy: usize,
    /// Rows of the panel staged in shared memory (≥ the launch's p); 0: work in global memory.
    pub rows_cap: usize,
    /// Factor the panel (else the reflectors and tau are given and only V and U are formed).
    pub factor: bool,
    /// U = V·Tᵀ (applies Qᵀ) instead of V·T (applies Q).
    pub trans: bool,
    /// Rows per iteration of the row loops (loads in flight per unit).
    pub ilp: usize,
    pub unroll: bool,
}

impl PanelConfig {
    pub fn units(&self) -> usize {
        self.gx * self.gy
    }

    /// Shared memory the kernel allocates, in bytes.
    pub fn shared_bytes(&self) -> usize {
        let nb = self.nb;
        let gram = if self.factor { 1 } else { nb * (nb + 1) };
        4 * (self.rows_cap.max(1) * nb + self.gy * nb + 4 * nb + nb * (nb + 1) + gram)
    }
}

/// Comptime shape of the register product kernel (`super::product`): `planes` planes of
/// 32 lanes, loads `steps` K steps (of 8 rows) ahead, f32 sums every `flush_steps` steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProductConfig {
    pub planes: usize,
    pub steps: usize,
    pub flush_steps: usize,
}

/// The default of [`ProductConfig`]: 16 planes (one cube of 512 units per multiprocessor),
/// loads one step ahead, sums every 16 steps (K = 128, as
/// [`linalg_common::gemm_mma::MMA_DEFAULT`] flushes). ptxas 13 (`scripts/local-sass.sh
/// qproduct`): 117 registers, no spill; two steps ahead take 128 with 248 bytes spilled (167
/// without spill at 8 planes).
pub const PRODUCT_DEFAULT: ProductConfig = ProductConfig {
    planes: 16,
    steps: 1,
    flush_steps: 16,
};

impl ProductConfig {
    /// `cfg` where the device runs it: `mma.sync` on 32-lane planes, 4-vector views, and the
    /// cube and its sums fit.
    pub fn new(hw: &Hardware, cfg: ProductConfig) -> Option<Self> {
        let ok = hw.tf32_manual_mma
            && hw.lanes == linalg_common::gemm_mma::MMA_PLANE
            && hw.vector_views
            && cfg.planes >= 1
            && cfg.steps >= 1
            && cfg.flush_steps >= cfg.steps
            && cfg.flush_steps.is_multiple_of(cfg.steps)
            && cfg.units() <= hw.max_units_per_cube
            && cfg.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(cfg)
    }

    pub fn units(&self) -> usize {
        self.planes * linalg_common::gemm_mma::MMA_PLANE
    }

    /// The planes' sums: 32 × 33 words each.
    pub fn shared_bytes(&self) -> usize {
        4 * self.planes * 32 * 33
    }
}

/// Comptime shape of the register panel kernel (`geqrf/panel_regs.rs`): nb × gy units, unit
/// (ty, tx) holding column tx and rows ty + t·gy of a panel of up to `rows_cap` rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegPanelConfig {
    pub nb: usize,
    pub gy: usize,
    /// Rows of the panel held (a multiple of 4·gy, ≥ the launch's p).
    pub rows_cap: usize,
    /// Factor the panel (else the reflectors and τ are given, and only V, T and U are formed).
    pub factor: bool,
    /// U = V·Tᵀ instead of V·T.
    pub trans: bool,
    /// A row group is one plane (nb = the plane width): the Gram rounds (without `factor`)
    /// exchange columns under a plane barrier instead of a cube barrier.
    pub plane_rows: bool,
    /// A grid panel (`factor` only): the panel spans the launch's cubes along x, cube x
    /// holding rows x·rows_cap + ty + t·gy, and each column's sums are exchanged between them
    /// through global memory ([`QrParams::panel_grid`]).
    pub grid: bool,
    /// A grid panel's exchanges end with staged sums ([`QrParams::grid_staged_sums`]).
    pub staged_sums: bool,
    /// Factor columns j and j + 1 from one reduction where the second one's downdated norm
    /// is safe ([`QrParams::panel_pairs`], `factor` only; `super::panel_regs`).
    pub pairs: bool,
    /// Lane segments (`factor` only): unit u holds column u / gy and row group u % gy, so a
    /// column's gy row groups are consecutive lanes of one plane; every sum over the panel's
    /// rows is a butterfly of plane shuffles within the segment (the same bits in every
    /// lane), the plane that holds the next column forms its pivot and squared norm, and a
    /// column takes one cube barrier ([`QrParams::panel_segs`]; `super::panel_regs`).
    /// Excludes `pairs`.
    pub segs: bool,
    /// A grid panel's exchange waits re-load, each round, every word of the unit that does
    /// not yet hold the exchange, all in flight together: the wait ends about one round trip
    /// after the last cube's word lands. Else (the rule before session 59) it waits for one
    /// word after another, and each word that was late when first loaded costs a round trip
    /// of its own after the one before ([`QrParams::grid_poll_all`]). (The segments' rescue,
    /// rare, still waits for its maxima one after another.)
    pub poll_all: bool,
}

/// 32-bit registers of one multiprocessor that a cube of the register panel kernel may fill
/// (the H200's register file).
const REGISTER_FILE: usize = 65536;

impl RegPanelConfig {
    /// Most panel rows per unit.
    pub const MAX_ROWS_PER_UNIT: usize = 128;

    /// The kernel for panels of p rows and nb columns with about `gy` row groups (halved while
    /// they would leave units without 4 rows), or `None` where it does not fit: nb a multiple
    /// of 4 up to 64, at most [`Self::MAX_ROWS_PER_UNIT`] rows per unit, the panel and 48 more
    /// registers per unit in the register file, shared memory.
    pub fn new(
        hw: &Hardware,
        nb: usize,
        gy: usize,
        p: usize,
        factor: bool,
        trans: bool,
    ) -> Option<Self> {
        if nb == 0 || !nb.is_multiple_of(4) || nb > 64 || p == 0 || gy == 0 {
            return None;
        }
        let mut gy = gy;
        while gy > 1 && gy.is_multiple_of(2) && 4 * gy > p {
            gy /= 2;
        }
        // A quarter octave of rows (few variants compile), then whole 4-row slots per unit.
        let step = (p.next_power_of_two() / 4).max(8);
        let cap = p.div_ceil(step) * step;
        let cfg = Self {
            nb,
            gy,
            rows_cap: cap.div_ceil(4 * gy) * 4 * gy,
            factor,
            trans,
            plane_rows: hw.plane_ops && hw.lanes == nb,
            grid: false,
            staged_sums: false,
            pairs: false,
            segs: false,
            poll_all: false,
        };
        let ok = cfg.units() <= hw.max_units_per_cube
            && cfg.rows_per_unit() <= Self::MAX_ROWS_PER_UNIT
            && cfg.units() * (cfg.rows_per_unit() + 48) <= REGISTER_FILE
            && cfg.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(cfg)
    }

    /// The grid panel for p rows in cubes of about `rows` rows (factored, U = V·Tᵀ) and its
    /// cube count, where it takes at least two cubes, each cube fits as [`Self::new`] says,
    /// holds the nb pivot rows and fetches and stages one exchange ((cubes + 1)·nb words: at
    /// most `GRID_WORDS_PER_UNIT` per unit; the words, or with `staged_sums` the units'
    /// sums, gy·nb, in the V staging area), and `batch` launches
    /// of it fit `hw`'s multiprocessors: the cubes of a panel wait for each other, so they
    /// must all run at once ([`Hardware::co_resident`]).
    pub fn grid(
        hw: &Hardware,
        nb: usize,
        gy: usize,
        p: usize,
        rows: usize,
        batch: usize,
    ) -> Option<(Self, usize)> {
        if rows == 0 || !hw.co_resident {
            return None;
        }
        let per = p.div_ceil(p.div_ceil(rows));
        let cfg = Self {
            grid: true,
            staged_sums: true,
            ..Self::new(hw, nb, gy, per, true, true)?
        };
        let cubes = p.div_ceil(cfg.rows_cap);
        let sms = hw.num_sms.unwrap_or(0) as usize;
        let ok = cubes >= 2
            && cfg.rows_cap >= nb
            && (cubes + 1).max(cfg.gy) * nb <= cfg.stage_len()
            && cubes < GRID_WORDS_PER_UNIT * cfg.gy
            && cubes * batch.max(1) <= sms;
        ok.then_some((cfg, cubes))
    }

    pub fn units(&self) -> usize {
        self.nb * self.gy
    }

    pub fn rows_per_unit(&self) -> usize {
        self.rows_cap / self.gy
    }

    /// Whether lane segments can run on `hw`: a factored panel, planes of a fixed width that
    /// the row group count (a power of two) divides, and whole planes (the kernel converges
    /// a plane with `sync_plane` before its shuffles).
    pub fn segs_fit(&self, hw: &Hardware) -> bool {
        self.factor
            && hw.plane_ops
            && self.gy.is_power_of_two()
            && self.gy > 1
            && hw.lanes.is_multiple_of(self.gy)
            && self.units().is_multiple_of(hw.lanes)
    }

    /// Columns per reduction at most: 2 with [`Self::pairs`], else 1.
    pub fn parts(&self) -> usize {
        if self.pairs { 2 } else { 1 }
    }

    /// Vectors (4 rows) from a row group's vector q to its vector q + 1 in a slot of the
    /// pivot-column buffer. 1 (a row group's vectors together) where a plane's lanes are one
    /// row group of many columns and so all read one address. gy with [`Self::segs`]
    /// (vector-major), whose gy lanes of a column are gy row groups: consecutive lanes read
    /// consecutive vectors. (Row-group-major, their vectors lie rq·16 bytes apart, on the
    /// same banks from rq = 8 on: on the H100 segments ran geqrf 32 × 512² at 1.98 ms
    /// against 1.09–1.11 without, BENCHMARKS.md, session 59.)
    pub fn xcol_step(&self) -> usize {
        if self.segs { self.gy } else { 1 }
    }

    /// Register slots whose rows can be a pivot row (below nb).
    pub fn pivot_slots(&self) -> usize {
        self.nb.div_ceil(self.gy).min(self.rows_per_unit())
    }

    /// Words of the V staging area: V (rows_cap × (nb + 1)), or without `factor` at least the
    /// Gram matrix's partial sums per row group (gy × nb × nb) that it holds first.
    pub fn stage_len(&self) -> usize {
        let v = self.rows_cap * (self.nb + 1);
        if self.factor {
            v
        } else {
            v.max(self.gy * self.nb * self.nb)
        }
    }

    /// The reduction rows and pivot rows (per part), the scales, τ, the Gram matrix and T,
    /// two pivot-column slots per part and the staging area, in bytes.
    pub fn shared_bytes(&self) -> usize {
        let (nb, parts) = (self.nb, self.parts());
        4 * (parts * (self.gy * nb + nb + 2 * self.rows_cap)
            + 2 * nb
            + 2 * nb * (nb + 1)
            + self.stage_len())
    }
}

/// Where geqrf's look-ahead applies ([`QrParams::lookahead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LookAhead {
    Off,
    /// Wherever [`QrLaunch::lookahead_panel`] allows it.
    On,
    /// Also only for one matrix's grid panels on at most a quarter of the multiprocessors,
    /// without outer blocks.
    Auto,
}

/// Everything a launch needs, checked against the device once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QrLaunch {
    pub nb: usize,
    /// The panel kernel's unit grid (gx, gy).
    pub grid: (usize, usize),
    pub gemm: GemmLaunch,
    pub gemm_big: GemmLaunch,
    pub big_from: usize,
    /// The GEMM of products with at most `gemm_thin.tile_m()` rows.
    pub gemm_thin: GemmLaunch,
    pub stage: bool,
    /// Panels of at least this many rows take the TSQR path (when `recon` is set).
    pub tsqr_rows: usize,
    /// The reconstruction kernels' shape; `None` where they do not fit the device.
    pub recon: Option<ReconConfig>,
    pub tsqr_params: TsqrParams,
    /// Block width and blocks per group of the given-reflector path ([`QrParams::apply_block`],
    /// [`QrParams::apply_group`]).
    pub apply_block: usize,
    pub apply_group: usize,
    /// Whether geqrf takes the register panel kernel where it fits ([`QrParams::panel_regs`]).
    pub regs: bool,
    /// geqrf's outer block width ([`QrParams::outer_block`]); 0: none.
    pub outer: usize,
    /// Rows per cube of geqrf's grid panels ([`QrParams::panel_grid`]); 0: none.
    pub grid_rows: usize,
    /// Fewest rows of a grid panel ([`GRID_FROM_ROWS`] by default, any where `panel_grid` is
    /// given).
    pub grid_from: usize,
    /// [`QrParams::split_matrices`].
    pub split_matrices: usize,
    /// [`QrParams::split_chunk`] (at least 1).
    pub split_chunk: usize,
    /// [`QrParams::split_per_sm`]; 0: at least two cubes per multiprocessor, rounded up.
    pub split_per_sm: usize,
    /// [`QrParams::lookahead`].
    pub lookahead: LookAhead,
    /// [`QrParams::lookahead_strips`].
    pub strips: bool,
    /// [`QrParams::grid_staged_sums`]; `None`: the default per path.
    pub grid_staged_sums: Option<bool>,
    /// [`QrParams::product_regs`]: the register product kernel's shape where it is on.
    pub product: Option<ProductConfig>,
    /// [`QrParams::product_slices`] (at least 1).
    pub product_slices: usize,
    /// [`QrParams::panel_grid_tall`].
    pub grid_tall: Option<(usize, usize)>,
    /// [`QrParams::panel_pairs`].
    pub pairs: bool,
    /// [`QrParams::panel_segs`].
    pub segs: bool,
    /// [`QrParams::grid_poll_all`].
    pub poll_all: bool,
    pub hw: Hardware,
}

impl QrLaunch {
    /// K chunks per matrix of geqrf's update products Vᵀ·C (`mats` m × n × k products with
    /// few output tiles on `g`): [`QrParams::split_per_sm`] and [`QrParams::split_chunk`]'s
    /// rule.
    pub(crate) fn splits(
        &self,
        g: &GemmLaunch,
        mats: usize,
        m: usize,
        n: usize,
        k: usize,
    ) -> usize {
        self.split_count(g, (mats, m, n, k), self.split_per_sm, self.split_chunk)
    }

    /// 1 beyond [`QrParams::split_matrices`] matrices, else as many chunks as keep the launch
    /// within `per_sm` cubes per multiprocessor (0: [`GemmLaunch::split_k`]'s count), each of
    /// at least `chunk` rows, within [`MAX_SPLITS`] chunks in all.
    pub(crate) fn split_count(
        &self,
        g: &GemmLaunch,
        (mats, m, n, k): (usize, usize, usize, usize),
        per_sm: usize,
        chunk: usize,
    ) -> usize {
        if mats == 0 || mats > self.split_matrices {
            return 1;
        }
        let chunk = chunk.max(1);
        let s = match (per_sm, self.hw.num_sms) {
            (per, Some(sms)) if per > 0 => {
                let tiles = mats * m.div_ceil(g.tile_m()) * n.div_ceil(g.tile_n());
                (per * sms as usize / tiles.max(1)).min(k / chunk).max(1)
            }
            _ => g.split_k(mats, m, n, k, self.hw.num_sms, chunk),
        };
        s.min(MAX_SPLITS / mats)
    }

    /// The launch for `batch` matrices of m rows on this device, or `None` when it cannot run
    /// these parameters. Defaults (measured on the H200, BENCHMARKS.md § QR tuning):
    /// - panels of 64 columns from 4096 rows for batches of 2 or more, else 32 (with Vᵀ·C of
    ///   32-row panels on [`GemmLaunch::thin`]'s tiles: 1×8192² 78.7 ms against 84.4 with 64,
    ///   60×1024² 9.3 against 9.9; 2×4096² 39.1 against 33.1);
    /// - panels of 256 rows or more through TSQR (blocks of 256 rows, 32 planes) while the batch
    ///   is smaller than the multiprocessor count (GPUs only), and the reflectors of such
    ///   matrices applied in blocks of 128 (64 for batches of 16 or more) on GEMMs by
    ///   householder_product and apply_q;
    /// - row groups about m/64 (4 to 16: 1×4096² 20.4 ms against 21.0 with 32, 8×2048² 13.5
    ///   against 14.0), at most 8 beyond four cubes per multiprocessor;
    /// - outer blocks of 128 columns for single matrices of 8192 rows or more (1×8192² 72.1 ms
    ///   against 76.8; slower on every other sweep shape: 1×4096² 22.2 against 21.0, 2×4096²,
    ///   8×2048², 60×1024², 32×512²; not compared again on grid panels);
    /// - on CUDA, grid panels of [`DEFAULT_GRID_ROWS`] rows per cube for panels of at least
    ///   [`GRID_FROM_ROWS`] rows, and Vᵀ·C of 32-column panels on the mma kernel's thin tiles
    ///   (H100: 1×4096² 13.3 ms against 20.9 before, 1×8192² 55.2 against 72.7, 2×4096² 19.5
    ///   against 29.8, 8×2048² 8.9 against 12.7; BENCHMARKS.md, session 40).
    pub fn new(hw: &Hardware, params: &QrParams, batch: usize, m: usize) -> Option<Self> {
        let sms = hw.num_sms.unwrap_or(1) as usize;
        let nb = params
            .panel
            .unwrap_or(if m >= 4096 && batch >= 2 { 64 } else { 32 });
        if nb == 0 || nb > 64 {
            return None;
        }
        let mut rows = m.div_ceil(64).next_power_of_two().clamp(4, 16);
        if batch >= 4 * sms {
            rows = rows.min(8);
        }
        let grid = if hw.max_units_per_cube >= 256 {
            let gx = nb.min(32);
            let gy = params.panel_rows.unwrap_or(rows).max(1);
            (gx, gy.min(hw.max_units_per_cube / gx))
        } else {
            // CPU runtime: a few units per cube.
            let gx = if nb.is_multiple_of(2) {
                hw.max_units_per_cube.clamp(1, 2)
            } else {
                1
            };
            (gx, 1)
        };
        if !nb.is_multiple_of(grid.0) || grid.0 * grid.1 > hw.max_units_per_cube {
            return None;
        }
        let gemm = match params.gemm {
            Some(cfg) => GemmLaunch::with_config(hw, cfg)?,
            None => GemmLaunch::new(hw)?,
        };
        let gemm_thin = match (
            params.gemm_thin,
            params.gemm,
            params.thin_tiles.unwrap_or(true),
        ) {
            (Some(kernel), _, _) => GemmLaunch::of_kernel(hw, kernel)?,
            (None, None, true) => GemmLaunch::mma(hw, MMA_THIN)
                .or_else(|| GemmLaunch::thin(hw))
                .unwrap_or(gemm),
            _ => gemm,
        };
        let gemm_big = match params.gemm_big {
            Some(kernel) => GemmLaunch::of_kernel(hw, kernel)?,
            None => gemm,
        };
        let recon = ReconConfig {
            nb,
            units: hw.max_units_per_cube.min(1024),
            rows: 32,
            unroll: hw.max_units_per_cube >= 256,
            top_rows: params.recon_top_rows.unwrap_or(false) && nb <= MAX_TOP_ROWS_NB,
        };
        let tsqr_rows = params
            .tsqr_panel_rows
            .unwrap_or(if hw.plane_ops && batch < sms {
                256
            } else {
                usize::MAX
            });
        let t_fits = |w: usize| gram_shared_bytes(w) <= hw.max_shared_bytes;
        // A default width that T's kernel cannot hold is halved until it fits; a given one is
        // refused.
        let fitting = |mut w: usize| {
            while w > 1 && !t_fits(w) {
                w /= 2;
            }
            w
        };
        let wide = if batch < 16 { DEFAULT_APPLY_BLOCK } else { 64 };
        let apply_block = match params.apply_block {
            Some(w) => w,
            None if (2..16).contains(&batch)
                && m >= WIDE_APPLY_FROM_ROWS
                && hw.max_units_per_cube >= 256
                && t_fits(MAX_T_PART) =>
            {
                MAX_APPLY_BLOCK
            }
            None if hw.max_units_per_cube >= wide => fitting(wide),
            None => fitting(nb),
        };
        if apply_block == 0 || apply_block > MAX_APPLY_BLOCK || t_part(hw, apply_block).is_none() {
            return None;
        }
        let regs = match params.panel_regs {
            Some(true) if hw.max_units_per_cube < 256 => return None,
            Some(on) => on,
            None => hw.max_units_per_cube >= 256,
        };
        let outer = match params.outer_block {
            Some(ob) if ob == 0 || ob == nb => 0,
            Some(ob)
                if ob < nb || !ob.is_multiple_of(nb) || ob > MAX_OUTER_BLOCK || !t_fits(ob) =>
            {
                return None;
            }
            Some(ob) => ob,
            None if hw.plane_ops
                && batch == 1
                && m >= OUTER_FROM_ROWS
                && t_fits(MAX_OUTER_BLOCK)
                && MAX_OUTER_BLOCK.is_multiple_of(nb) =>
            {
                MAX_OUTER_BLOCK
            }
            None => 0,
        };
        let grid_rows = params.panel_grid.unwrap_or(if regs && hw.co_resident {
            DEFAULT_GRID_ROWS
        } else {
            0
        });
        if grid_rows > 0 && (!regs || !hw.co_resident) {
            return None;
        }
        let lookahead = match params.lookahead {
            Some(true) if !regs => return None,
            Some(true) => LookAhead::On,
            Some(false) => LookAhead::Off,
            None if regs => LookAhead::Auto,
            None => LookAhead::Off,
        };
        let product_cfg = params.product_config.unwrap_or(PRODUCT_DEFAULT);
        let product = match params.product_regs {
            Some(true) => Some(ProductConfig::new(hw, product_cfg)?),
            Some(false) => None,
            None if m >= PRODUCT_FROM_ROWS && batch <= PRODUCT_MAX_BATCH => {
                ProductConfig::new(hw, product_cfg)
            }
            None => None,
        };
        let grid_tall = match params.panel_grid_tall {
            Some((0, _)) => None,
            Some((rows, _)) if grid_rows == 0 || rows < grid_rows => return None,
            Some(tall) => Some(tall),
            None if params.panel_grid.is_none() && grid_rows > 0 => Some(DEFAULT_GRID_TALL),
            None => None,
        };
        let launch = Self {
            grid_tall,
            pairs: params.panel_pairs.unwrap_or(false),
            segs: params.panel_segs.unwrap_or(false),
            poll_all: params.grid_poll_all.unwrap_or(false),
            product,
            product_slices: params
                .product_slices
                .unwrap_or(super::product::MAX_PRODUCT_SLICES)
                .max(1),
            regs,
            lookahead,
            strips: params.lookahead_strips.unwrap_or(false),
            grid_staged_sums: params.grid_staged_sums,
            outer,
            grid_rows,
            grid_from: if params.panel_grid.is_some() {
                0
            } else {
                GRID_FROM_ROWS
            },
            split_matrices: params
                .split_matrices
                .unwrap_or(DEFAULT_SPLIT_MATRICES)
                .min(MAX_SPLITS),
            split_chunk: params.split_chunk.unwrap_or(MIN_CHUNK).max(1),
            split_per_sm: params.split_per_sm.unwrap_or(SPLIT_PER_SM),
            nb,
            grid,
            gemm,
            gemm_big,
            big_from: params.big_from.unwrap_or(1024),
            gemm_thin,
            stage: params.stage.unwrap_or(true),
            tsqr_rows,
            recon: (recon.shared_bytes() <= hw.max_shared_bytes).then_some(recon),
            tsqr_params: params.tsqr_panel_params.unwrap_or(if hw.plane_ops {
                GPU_TSQR_PANEL_PARAMS
            } else {
                TsqrParams::default()
            }),
            apply_block,
            apply_group: params
                .apply_group
                .unwrap_or(APPLY_WORKSPACE_BYTES / (8 * batch.max(1) * m.max(1) * apply_block))
                .max(1),
            hw: *hw,
        };
        (launch.panel(0, true, true).shared_bytes() <= hw.max_shared_bytes).then_some(launch)
    }

    /// The panel kernel for panels of p rows: staged in shared memory when they fit (row
    /// capacity rounded up to a quarter octave, so few variants compile), else in global memory.
    pub fn panel(&self, p: usize, factor: bool, trans: bool) -> PanelConfig {
        let (gx, gy) = self.grid;
        let mut cfg = PanelConfig {
            nb: self.nb,
            gx,
            gy,
            rows_cap: 0,
            factor,
            trans,
            ilp: if self.hw.max_units_per_cube >= 256 {
                8
            } else {
                1
            },
            unroll: self.hw.max_units_per_cube >= 256,
        };
        if p > 0 && self.stage {
            let step = (p.next_power_of_two() / 4).max(8);
            let staged = PanelConfig {
                rows_cap: p.div_ceil(step) * step,
                ..cfg
            };
            if staged.shared_bytes() <= self.hw.max_shared_bytes {
                cfg = staged;
            }
        }
        cfg
    }

    /// The register panel kernel for a p-row panel (factored, or given reflectors), where it
    /// is on and fits.
    pub fn panel_regs(&self, p: usize, factor: bool, trans: bool) -> Option<RegPanelConfig> {
        if !self.regs || !self.stage {
            return None;
        }
        let cfg = RegPanelConfig::new(&self.hw, self.nb, self.grid.1, p, factor, trans)?;
        Some(self.with_variant(cfg, 1))
    }

    /// `cfg` with lane segments ([`RegPanelConfig::segs`]) where they are on and run, else
    /// with [`RegPanelConfig::pairs`] where they are on ([`QrParams::panel_pairs`]), it
    /// factors, and both parts fit: their shared memory, and for a grid panel of `cubes`
    /// cubes both parts' exchange words in the staging area. Else `cfg` as it is. Either way
    /// with [`RegPanelConfig::poll_all`] where it is on and `cfg` is a grid panel.
    fn with_variant(&self, cfg: RegPanelConfig, cubes: usize) -> RegPanelConfig {
        let cfg = RegPanelConfig {
            poll_all: self.poll_all && cfg.grid,
            ..cfg
        };
        if self.segs && cfg.segs_fit(&self.hw) {
            return RegPanelConfig { segs: true, ..cfg };
        }
        let paired = RegPanelConfig {
            pairs: self.pairs && cfg.factor,
            ..cfg
        };
        let words = (cubes + 1).max(cfg.gy) * cfg.nb * paired.parts();
        let fits = paired.shared_bytes() <= self.hw.max_shared_bytes
            && (!cfg.grid || words <= cfg.stage_len());
        if fits { paired } else { cfg }
    }

    /// geqrf's grid panel for a p-row panel and its cube count, where it is on and applies
    /// (in a grid panel launch; [`Self::lookahead_panel`] in a look-ahead step).
    pub fn panel_grid(&self, p: usize, batch: usize) -> Option<(RegPanelConfig, usize)> {
        self.panel_grid_with(p, batch, self.grid_staged_sums.unwrap_or(false))
    }

    /// [`Self::panel_grid`] with its exchanges' sums staged or not.
    fn panel_grid_with(
        &self,
        p: usize,
        batch: usize,
        staged_sums: bool,
    ) -> Option<(RegPanelConfig, usize)> {
        if self.grid_rows == 0 || p < self.grid_from || !self.regs || !self.stage {
            return None;
        }
        let rows = match self.grid_tall {
            Some((rows, from)) if p >= from => rows,
            _ => self.grid_rows,
        };
        let (cfg, cubes) = RegPanelConfig::grid(&self.hw, self.nb, self.grid.1, p, rows, batch)?;
        Some((
            self.with_variant(RegPanelConfig { staged_sums, ..cfg }, cubes),
            cubes,
        ))
    }

    /// The look-ahead step for a next panel of p rows of `batch` matrices, where geqrf takes
    /// one ([`QrParams::lookahead`]): the panel's register panel kernel — a grid panel where
    /// grids apply, else one cube — with its cube count, and the update's tiles for its unit
    /// count (at most `super::lookahead::MAX_AHEAD_UNITS`; both parts in shared memory at
    /// once, the panels' cubes on at most half the multiprocessors, the launch within the
    /// grid's x limit for an update of `cols` columns).
    pub fn lookahead_panel(
        &self,
        p: usize,
        cols: usize,
        batch: usize,
    ) -> Option<(RegPanelConfig, usize, GemmConfig)> {
        if self.lookahead == LookAhead::Off {
            return None;
        }
        let staged_sums = self.grid_staged_sums.unwrap_or(true);
        let (cfg, cubes) = match self.panel_grid_with(p, batch, staged_sums) {
            Some(grid) => grid,
            None => (self.panel_regs(p, true, true)?, 1),
        };
        // The panels' cubes leave at least half the multiprocessors to the update: where they
        // take (nearly) all, nothing runs beside them (H100: geqrf 8 × 2048², 128 grid cubes
        // of 132, 9.62 ms with look-ahead against 8.83 without; BENCHMARKS.md, session 41).
        // By default a quarter, only one matrix's grid panels, and no outer blocks
        // ([`LookAhead::Auto`]).
        let share = match self.lookahead {
            LookAhead::Auto if cubes < 2 || batch > 1 || self.outer > 0 => return None,
            LookAhead::Auto => 4,
            _ => 2,
        };
        if let Some(sms) = self.hw.num_sms
            && share * cubes * batch.max(1) > sms as usize
        {
            return None;
        }
        let gcfg = ahead_tiles(cfg.units())?;
        // One 1-D launch: the panels' cubes and every matrix's tiles (or strips) of an update
        // of up to p + nb rows (this panel's rows and the ones above it) by `cols` columns.
        let (update_bytes, tiles) = if self.strips {
            (strip_bytes(&cfg), cols.div_ceil(STRIP).max(1))
        } else {
            let tiles = (p + self.nb).div_ceil(gcfg.tile_m()) * cols.div_ceil(gcfg.tile_n());
            (gcfg.shared_bytes(), tiles.max(1))
        };
        let fits = GemmLaunch::with_config(&self.hw, gcfg).is_some()
            && cfg.shared_bytes() + update_bytes <= self.hw.max_shared_bytes
            && (cubes + tiles) * batch.max(1) <= self.hw.max_cube_count.0 as usize;
        fits.then_some((cfg, cubes, gcfg))
    }

    /// The GEMM for an update whose result is rows × cols.
    pub(crate) fn gemm_for(&self, rows: usize, cols: usize) -> &GemmLaunch {
        if rows >= self.big_from && cols >= self.big_from {
            &self.gemm_big
        } else {
            &self.gemm
        }
    }

    /// The GEMM for a product of `rows` ≤ nb rows (Vᵀ·C, K long).
    pub(crate) fn gemm_rows(&self, rows: usize, cols: usize) -> &GemmLaunch {
        if rows <= self.gemm_thin.tile_m() {
            &self.gemm_thin
        } else {
            self.gemm_for(rows, cols)
        }
    }

    /// Whether every launch on `batch` matrices of up to rows × cols fits the grid limits.
    pub(crate) fn fits(&self, rows: usize, cols: usize, batch: usize) -> bool {
        let max = self.hw.max_cube_count;
        let (_, _, bz) = batch_grid(batch, max);
        let elems = rows.max(1) * cols.max(1);
        bz <= max.2 as usize
            && elems.div_ceil(256) <= max.0 as usize
            && self.gemm.fits(rows, cols, batch)
            && self.gemm_big.fits(rows, cols, batch)
            && self.gemm_thin.fits(rows, cols, batch)
    }
}
