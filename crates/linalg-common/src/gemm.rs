//! True-f32 GEMM on strided views, batched: C ← β·C ± A·B.
//!
//! Every operand is a [`View`]: element (b, i, j) of a view lives at
//! `offset + b·batch_stride + i·row_stride + j·col_stride` of its buffer, so a transpose is a
//! stride swap and a sub-block is an offset — the recursive factorizations pass blocks of one
//! working buffer without copies. β ∈ {0, 1} and the sign are comptime; with `lower_only` only
//! the elements on and below C's diagonal (j ≤ i in C's coordinates) are written (SYRK).
//!
//! Why not cubek-matmul: its f32 path runs on TF32 tensor cores (2.6e-4 relative error,
//! DESIGN.md § Dependencies), it writes C = A·B (no accumulate into a strided block of a larger
//! matrix), and it needs contiguous-in-one-dimension operands. Here every multiply-add is f32.
//!
//! Tiling: a cube computes a `tile_m × tile_n` block of C; its units form a `units_y × units_x`
//! grid and each owns the (strided) `tm × tn` elements at rows `uy + r·units_y`, columns
//! `ux + s·units_x`, so shared-memory reads are broadcasts (A) or consecutive (B), and stores of
//! neighbouring units are neighbouring columns. K advances `tile_k` at a time through shared
//! memory. Ragged edges load zeros and store nothing. With `GemmConfig::vector` the same
//! product runs [`crate::gemm_vec`]'s kernel: units own runs of 4 rows and columns and read
//! their operands from shared memory as 4-vectors (the default on GPUs).
use crate::gemm_mma::{MMA_PLANE, MmaTiles, gemm_mma_kernel};
use crate::gemm_tc::{PLANE, TcConfig, gemm_tc_kernel};
use crate::gemm_vec::gemm_vec_kernel;
use crate::launch::Hardware;
use cubecl::prelude::*;
use cubecl::server::Handle;

/// A strided matrix view into a buffer (units: f32 elements).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    pub offset: usize,
    pub rows: usize,
    pub cols: usize,
    pub row_stride: usize,
    pub col_stride: usize,
    pub batch_stride: usize,
}

impl View {
    /// Whether its rows read and write as 4-vectors: contiguous, `cols` a multiple of 4, and
    /// every row start (offset, row and batch strides, and the buffer's `byte_offset`) on
    /// 16 bytes.
    pub fn rows_of_4(&self, byte_offset: u64, batch: usize) -> bool {
        self.col_stride == 1
            && self.cols.is_multiple_of(4)
            && self.row_stride.is_multiple_of(4)
            && self.offset.is_multiple_of(4)
            && (batch <= 1 || self.batch_stride.is_multiple_of(4))
            && byte_offset.is_multiple_of(16)
    }

    /// The contiguous row-major `[batch, rows, cols]` layout.
    pub fn contiguous(rows: usize, cols: usize) -> Self {
        Self {
            offset: 0,
            rows,
            cols,
            row_stride: cols,
            col_stride: 1,
            batch_stride: rows * cols,
        }
    }

    /// The transpose (no data moves).
    pub fn t(self) -> Self {
        Self {
            rows: self.cols,
            cols: self.rows,
            row_stride: self.col_stride,
            col_stride: self.row_stride,
            ..self
        }
    }

    /// The `rows × cols` block starting at (r0, c0).
    pub fn block(self, r0: usize, c0: usize, rows: usize, cols: usize) -> Self {
        debug_assert!(r0 + rows <= self.rows && c0 + cols <= self.cols);
        Self {
            offset: self.offset + r0 * self.row_stride + c0 * self.col_stride,
            rows,
            cols,
            ..self
        }
    }

    /// The view as a kernel argument.
    pub fn launch_arg(&self) -> StridesLaunch {
        StridesLaunch::new(
            self.offset,
            self.row_stride,
            self.col_stride,
            self.batch_stride,
        )
    }

    /// One past the largest element index the view touches over `batch` matrices.
    pub fn extent(&self, batch: usize) -> usize {
        if self.rows == 0 || self.cols == 0 || batch == 0 {
            return self.offset;
        }
        self.offset
            + (batch - 1) * self.batch_stride
            + (self.rows - 1) * self.row_stride
            + (self.cols - 1) * self.col_stride
            + 1
    }
}

/// A view together with its buffer and the buffer's length in f32 elements.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    pub handle: &'a Handle,
    pub len: usize,
    pub view: View,
}

impl<'a> Operand<'a> {
    pub fn new(handle: &'a Handle, len: usize, view: View) -> Self {
        Self { handle, len, view }
    }

    pub fn with_view(self, view: View) -> Self {
        Self { view, ..self }
    }
}

/// Tile shape of the kernel (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmConfig {
    pub units_x: usize,
    pub units_y: usize,
    /// Elements of C per unit along rows (tm) and columns (tn).
    pub tm: usize,
    pub tn: usize,
    pub tile_k: usize,
    pub unroll: bool,
    /// 4-vector shared tiles, each unit owning runs of 4 rows and columns
    /// ([`crate::gemm_vec`]; tm and tn multiples of 4).
    pub vector: bool,
}

impl GemmConfig {
    pub fn tile_m(&self) -> usize {
        self.units_y * self.tm
    }
    pub fn tile_n(&self) -> usize {
        self.units_x * self.tn
    }
    pub fn units(&self) -> usize {
        self.units_x * self.units_y
    }
    pub fn shared_bytes(&self) -> usize {
        if self.vector {
            // Two windows, k-rows padded by one vector.
            2 * 16 * self.tile_k * (self.tile_m() / 4 + self.tile_n() / 4 + 2)
        } else {
            4 * self.tile_k * (self.tile_m() + self.tile_n())
        }
    }
}

/// The tiling of [`GemmLaunch::new`] on GPUs: 64×64 vector tiles, 16×16 units of 4×4, k 16.
pub const VEC_TILES: GemmConfig = GemmConfig {
    units_x: 16,
    units_y: 16,
    tm: 4,
    tn: 4,
    tile_k: 16,
    unroll: true,
    vector: true,
};

/// The tiling of [`GemmLaunch::big`]: 128×128 vector tiles, 16×16 units of 8×8, k 8.
pub const BIG_TILES: GemmConfig = GemmConfig {
    units_x: 16,
    units_y: 16,
    tm: 8,
    tn: 8,
    tile_k: 8,
    unroll: true,
    vector: true,
};

/// The tiling of [`GemmLaunch::thin`]: 32×128 vector tiles, 8×32 units of 4×4, k 16.
pub const THIN_TILES: GemmConfig = GemmConfig {
    units_x: 32,
    units_y: 8,
    tm: 4,
    tn: 4,
    tile_k: 16,
    unroll: true,
    vector: true,
};

/// What one GEMM launch does besides C ± A·B (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GemmOp {
    /// C ← C ± A·B (true) or C ← ±A·B (false: C is not read).
    pub accumulate: bool,
    /// Subtract A·B instead of adding it.
    pub negate: bool,
    /// Write only elements with column ≤ row (the lower triangle of a diagonal block).
    pub lower_only: bool,
    /// A is lower triangular: a tile's K loop stops after the window holding its last row's
    /// diagonal. A's elements above its diagonal must be zero (those inside the last window
    /// are still read); K windows wholly above it are skipped.
    pub a_lower: bool,
}

impl GemmOp {
    /// C ← A·B: nothing else.
    pub const SET: Self = Self {
        accumulate: false,
        negate: false,
        lower_only: false,
        a_lower: false,
    };
}

/// Which kernel a [`GemmLaunch`] runs, with its tiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmKernel {
    /// True-f32 FMAs on the SIMT units (this module).
    Simt(GemmConfig),
    /// Error-compensated 3×TF32 on tensor cores ([`crate::gemm_tc`]).
    Tf32x3(TcConfig),
    /// Tensor cores through `mma.sync` ([`crate::gemm_mma`]): error-compensated 3×TF32 (f32
    /// accuracy), or one TF32 product where [`MmaTiles::compensated`] is false.
    Mma(MmaTiles),
}

/// GEMM launches checked against the device once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GemmLaunch {
    pub kernel: GemmKernel,
    max_cube_count: (u32, u32, u32),
}

impl GemmLaunch {
    /// The recommended tiling for this device, or `None` if it cannot run any: on GPUs 64×64
    /// vector tiles (16×16 units of 4×4, k 16; H200: 21 TFLOP/s on a rank-64 update of 4096²
    /// against 12 with scalar tiles), elsewhere a few units with scalar tiles.
    pub fn new(hw: &Hardware) -> Option<Self> {
        let cfg = if hw.max_units_per_cube >= 256 {
            VEC_TILES
        } else {
            // CPU runtime (a few units per cube): small tiles, loops not unrolled.
            let ux = hw.max_units_per_cube.clamp(1, 2);
            GemmConfig {
                units_x: ux,
                units_y: 1,
                tm: 8,
                tn: 8 / ux,
                tile_k: 8,
                unroll: false,
                vector: false,
            }
        };
        Self::with_config(hw, cfg)
    }

    /// 128×128 vector tiles (16×16 units, 8×8 elements each, k 8) for large updates on GPUs
    /// (H200, 4096³: 40 TFLOP/s against 30–32 for [`GemmLaunch::new`]'s 64×64 and 28–31 for
    /// scalar 128×128 tiles; at K = 64 the 64×64 tiles are faster, BENCHMARKS.md); `None` where
    /// cubes are small (the CPU runtime) or the device refuses.
    pub fn big(hw: &Hardware) -> Option<Self> {
        if hw.max_units_per_cube < 256 {
            return None;
        }
        Self::with_config(hw, BIG_TILES)
    }

    /// 32×128 vector tiles for products of at most 32 rows (QR's Vᵀ·C with 32-column panels,
    /// where a 64-row tile would multiply zeros for half its rows); `None` where cubes are
    /// small (the CPU runtime) or the device refuses.
    pub fn thin(hw: &Hardware) -> Option<Self> {
        if hw.max_units_per_cube < 256 {
            return None;
        }
        Self::with_config(hw, THIN_TILES)
    }

    /// A given tiling, if the device can run it.
    pub fn with_config(hw: &Hardware, cfg: GemmConfig) -> Option<Self> {
        let ok = cfg.units() >= 1
            && cfg.units() <= hw.max_units_per_cube
            && cfg.tm >= 1
            && cfg.tn >= 1
            && cfg.tile_k >= 1
            && (!cfg.vector || (cfg.tm.is_multiple_of(4) && cfg.tn.is_multiple_of(4)))
            && cfg.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(Self {
            kernel: GemmKernel::Simt(cfg),
            max_cube_count: hw.max_cube_count,
        })
    }

    /// The 3×TF32 tensor-core kernel with tiling `cfg` ([`crate::gemm_tc::TC_DEFAULT`] is the measured
    /// default), or `None` where the device lacks TF32 16×16×8 fragments or 32-lane planes
    /// (the CPU runtime, wgpu) or cannot fit the tiling for every operand layout.
    pub fn tf32x3(hw: &Hardware, cfg: TcConfig) -> Option<Self> {
        let layouts = [false, true].into_iter().flat_map(|a| {
            [false, true].map(|b| Layout {
                a_col_major: a,
                b_col_major: b,
            })
        });
        let ok = hw.tf32_mma
            && hw.lanes == PLANE
            && cfg.valid()
            && cfg.units() <= hw.max_units_per_cube
            && layouts
                .into_iter()
                .all(|l| cfg.shared_bytes(l) <= hw.max_shared_bytes);
        ok.then_some(Self {
            kernel: GemmKernel::Tf32x3(cfg),
            max_cube_count: hw.max_cube_count,
        })
    }

    /// The `mma.sync` kernel with tiling `cfg` ([`crate::gemm_mma::MMA_DEFAULT`]), or
    /// `None` where the device lacks TF32 m16n8k8 `mma.sync` or 32-lane planes (the CPU runtime,
    /// wgpu) or cannot fit the tiling.
    pub fn mma(hw: &Hardware, cfg: MmaTiles) -> Option<Self> {
        let ok = hw.tf32_manual_mma
            && hw.lanes == MMA_PLANE
            && cfg.valid()
            && cfg.units() <= hw.max_units_per_cube
            && cfg.shared_bytes() <= hw.max_shared_bytes;
        ok.then_some(Self {
            kernel: GemmKernel::Mma(cfg),
            max_cube_count: hw.max_cube_count,
        })
    }

    /// The launch of `kernel` with its tiling, if the device can run it.
    pub fn of_kernel(hw: &Hardware, kernel: GemmKernel) -> Option<Self> {
        match kernel {
            GemmKernel::Simt(cfg) => Self::with_config(hw, cfg),
            GemmKernel::Tf32x3(cfg) => Self::tf32x3(hw, cfg),
            GemmKernel::Mma(cfg) => Self::mma(hw, cfg),
        }
    }

    /// Rows of C one cube computes.
    pub fn tile_m(&self) -> usize {
        match self.kernel {
            GemmKernel::Simt(c) => c.tile_m(),
            GemmKernel::Tf32x3(c) => c.tile_m(),
            GemmKernel::Mma(c) => c.tile_m(),
        }
    }

    /// Columns of C one cube computes.
    pub fn tile_n(&self) -> usize {
        match self.kernel {
            GemmKernel::Simt(c) => c.tile_n(),
            GemmKernel::Tf32x3(c) => c.tile_n(),
            GemmKernel::Mma(c) => c.tile_n(),
        }
    }

    /// K per shared-memory window.
    pub fn tile_k(&self) -> usize {
        match self.kernel {
            GemmKernel::Simt(c) => c.tile_k,
            GemmKernel::Tf32x3(c) => c.tile_k,
            GemmKernel::Mma(c) => c.tile_k,
        }
    }

    /// Units in one cube.
    pub fn units(&self) -> usize {
        match self.kernel {
            GemmKernel::Simt(c) => c.units(),
            GemmKernel::Tf32x3(c) => c.units(),
            GemmKernel::Mma(c) => c.units(),
        }
    }

    /// Whether a launch over an m×n result of `batch` matrices fits the grid limits.
    pub fn fits(&self, m: usize, n: usize, batch: usize) -> bool {
        let tiles = m.div_ceil(self.tile_m()) * n.div_ceil(self.tile_n());
        let (_, by, bz) = batch_grid(batch, self.max_cube_count);
        tiles <= self.max_cube_count.0 as usize
            && by * bz >= batch
            && bz <= self.max_cube_count.2 as usize
    }

    /// C ← β·C ± A·B over `batch` matrices (shapes: A m×k, B k×n, C m×n).
    ///
    /// The caller guarantees the views lie inside their buffers (checked in debug builds),
    /// that C does not overlap A or B, and that the grid fits ([`GemmLaunch::fits`]).
    pub fn launch(
        &self,
        client: &cubecl::client::Client,
        batch: usize,
        a: Operand,
        b: Operand,
        c: Operand,
        op: GemmOp,
    ) {
        let (m, k, n) = (a.view.rows, a.view.cols, b.view.cols);
        debug_assert_eq!(b.view.rows, k);
        debug_assert_eq!((c.view.rows, c.view.cols), (m, n));
        if m == 0 || n == 0 || batch == 0 {
            return;
        }
        if k == 0 && op.accumulate {
            return;
        }
        for o in [&a, &b, &c] {
            debug_assert!(o.view.extent(batch) <= o.len, "{:?} past {}", o.view, o.len);
        }
        self.launch_raw(client, batch, a, b, c, op, k, Split::NONE);
    }

    /// Split-K chunks per matrix for `batch` m × n × k products: enough cubes to fill about
    /// two waves of `sms` multiprocessors, chunks of at least `min_k`; 1 when the tiles alone
    /// fill the device (or the runtime does not say how many multiprocessors it has).
    pub fn split_k(
        &self,
        batch: usize,
        m: usize,
        n: usize,
        k: usize,
        sms: Option<u32>,
        min_k: usize,
    ) -> usize {
        let tiles = batch * m.div_ceil(self.tile_m()) * n.div_ceil(self.tile_n());
        let Some(sms) = sms else { return 1 };
        let want = (2 * sms as usize).div_ceil(tiles.max(1));
        want.min(k / min_k.max(1)).max(1)
    }

    /// C ← β·C ± A·B over `batch` matrices with K cut into `splits` chunks each: the chunks'
    /// products go to `work` (at least `batch·splits·m·n` f32, chunk t of matrix b at
    /// (b·splits + t)·m·n; the last chunk shorter), all in one launch, and one more launch
    /// sums them into C. For products with few output tiles and a long K, where one cube per
    /// tile would leave the device idle.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_split_k(
        &self,
        client: &cubecl::client::Client,
        batch: usize,
        a: Operand,
        b: Operand,
        c: Operand,
        op: GemmOp,
        splits: usize,
        work: (&Handle, usize),
    ) {
        let (m, k, n) = (a.view.rows, a.view.cols, b.view.cols);
        let kc = k.div_ceil(splits.max(1)).next_multiple_of(self.tile_k());
        let s = k.div_ceil(kc.max(1));
        if s <= 1 || op.lower_only || op.a_lower || m == 0 || n == 0 || batch == 0 {
            self.launch(client, batch, a, b, c, op);
            return;
        }
        for o in [&a, &b, &c] {
            debug_assert!(o.view.extent(batch) <= o.len, "{:?} past {}", o.view, o.len);
        }
        debug_assert!(batch * s * m * n <= work.1);
        let k_last = k - (s - 1) * kc;
        // Chunk t reads A columns and B rows [t·kc, t·kc + kc) (k_last for the last): inside
        // the views checked above.
        let split = Split {
            splits: s,
            a: kc * a.view.col_stride,
            b: kc * b.view.row_stride,
        };
        let wv = View {
            offset: 0,
            rows: m,
            cols: n,
            row_stride: n,
            col_stride: 1,
            batch_stride: m * n,
        };
        let set = GemmOp::SET;
        self.launch_raw(
            client,
            batch * s,
            a.with_view(View { cols: kc, ..a.view }),
            b.with_view(View { rows: kc, ..b.view }),
            Operand::new(work.0, work.1, wv),
            set,
            k_last,
            split,
        );
        let units = 256usize.min(self.units().max(1));
        let cv = c.view;
        let (_, by, bz) = batch_grid(batch, self.max_cube_count);
        // SAFETY: unit idx < m·n of matrix b < batch reads work[(b·s + t)·m·n + idx] (t < s,
        // inside `work`, checked above) and writes C's element (idx / n, idx % n) of matrix
        // b, inside C's view; one unit per element; cubes past the batch write nothing.
        unsafe {
            sum_partials_kernel::launch_unchecked::<f32>(
                client,
                CubeCount::Static((m * n).div_ceil(units) as u32, by as u32, bz as u32),
                CubeDim::new_1d(units as u32),
                BufferArg::from_raw_parts(work.0.clone(), work.1),
                BufferArg::from_raw_parts(c.handle.clone(), c.len),
                StridesLaunch::new(cv.offset, cv.row_stride, cv.col_stride, cv.batch_stride),
                n,
                m * n,
                s,
                batch,
                op,
            )
        }
    }

    /// The launch itself over `batch` batch indices (`k_last`: K of each matrix's last
    /// chunk; `split`: how batch indices map to matrices and K chunks).
    #[allow(clippy::too_many_arguments)]
    fn launch_raw(
        &self,
        client: &cubecl::client::Client,
        batch: usize,
        a: Operand,
        b: Operand,
        c: Operand,
        op: GemmOp,
        k_last: usize,
        split: Split,
    ) {
        let (m, k, n) = (a.view.rows, a.view.cols, b.view.cols);
        let tiles_n = n.div_ceil(self.tile_n());
        let tiles = m.div_ceil(self.tile_m()) * tiles_n;
        let (_, by, bz) = batch_grid(batch, self.max_cube_count);
        let (va, vb, vc) = (a.view, b.view, c.view);
        let count = CubeCount::Static(tiles as u32, by as u32, bz as u32);
        let dim = CubeDim::new_1d(self.units() as u32);
        let layout = Layout {
            a_col_major: col_major(&va),
            b_col_major: col_major(&vb),
        };
        let args = MatArgsLaunch::new(
            m,
            n,
            k,
            tiles_n,
            batch,
            k_last,
            split.splits,
            split.a,
            split.b,
        );
        let (sa, sb, sc) = (va.launch_arg(), vb.launch_arg(), vc.launch_arg());
        // The three kernels take the same operands; only the kernel and its comptime tiling
        // differ.
        macro_rules! launch {
            ($kernel:path, $cfg:expr) => {
                $kernel(
                    client,
                    count,
                    dim,
                    BufferArg::from_raw_parts(a.handle.clone(), a.len),
                    BufferArg::from_raw_parts(b.handle.clone(), b.len),
                    BufferArg::from_raw_parts(c.handle.clone(), c.len),
                    args,
                    sa,
                    sb,
                    sc,
                    $cfg,
                    op,
                    layout,
                )
            };
        }
        match self.kernel {
            // SAFETY: as for the SIMT kernel below: loads are guarded by i < m, j < n, kk < k
            // and stores by i < m, j < n (plus the lower-triangle mask), so accesses stay
            // inside the views, which the caller keeps inside the buffers; cubes with a batch
            // index ≥ batch leave before any access. Fragment loads and stores touch shared
            // memory only, inside the windows (offsets < len by construction). Each element of
            // C is written by one unit, C overlaps neither A nor B, and every barrier is
            // reached by all units (the only early exits are uniform per cube).
            GemmKernel::Tf32x3(cfg) => unsafe { launch!(gemm_tc_kernel::launch_unchecked, cfg) },
            // SAFETY: as for the WMMA kernel above: global loads are guarded by x < m (or n) and
            // k < K, stores by i < m, j < n (plus the lower-triangle mask); shared indices stay
            // below the two windows' 2·(tile_m + tile_n)·ldv vectors by construction. Each
            // element of C is written by one unit, C overlaps neither A nor B, every barrier is
            // reached by all units (the early exits are uniform per cube), and every `mma.sync`
            // by all 32 lanes of its plane (no branch around them).
            GemmKernel::Mma(cfg) => unsafe { launch!(gemm_mma_kernel::launch_unchecked, cfg) },
            // SAFETY: as for the scalar kernel below: global loads are guarded by x < m (or n)
            // and k < K, stores by i < m, j < n (plus the lower-triangle mask); shared indices
            // stay inside the two windows by construction. Each element of C is written by one
            // unit, C overlaps neither A nor B, and every barrier is reached by all units (the
            // only early exits are uniform per cube).
            GemmKernel::Simt(cfg) if cfg.vector => unsafe {
                launch!(gemm_vec_kernel::launch_unchecked::<f32>, cfg)
            },
            // SAFETY: every load is guarded by i < m, j < n, kk < k and every store by i < m,
            // j < n, so accesses stay inside the views, which the caller keeps inside the
            // buffers (debug-checked above); cubes with a batch index ≥ batch leave before any
            // access. Each element of C is read and written by one unit only, and C overlaps
            // neither A nor B (caller's contract), so there is no race. `sync_cube` is reached
            // by all units (the only early exit is uniform per cube).
            GemmKernel::Simt(cfg) => unsafe { launch!(gemm_kernel::launch_unchecked::<f32>, cfg) },
        }
    }
}

/// C_b ← β·C_b ± Σ_t work[b·s + t] over `s` partial products (row-major m × n each) of
/// each matrix b (grid x: elements, y and z: matrices).
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
fn sum_partials_kernel<F: Float>(
    work: &[F],
    c: &mut [F],
    sc: Strides,
    n: usize,
    count: usize,
    s: usize,
    batch: usize,
    #[comptime] op: GemmOp,
) {
    let idx = CUBE_POS_X as usize * CUBE_DIM_X as usize + UNIT_POS as usize;
    let b = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    if idx < count && b < batch {
        let mut v = F::new(0.0);
        let w0 = b * s * count;
        for t in 0..s {
            v += work[w0 + t * count + idx];
        }
        if comptime!(op.negate) {
            v = -v;
        }
        let ci = sc.offset + b * sc.bs + (idx / n) * sc.rs + (idx % n) * sc.cs;
        if comptime!(op.accumulate) {
            c[ci] += v;
        } else {
            c[ci] = v;
        }
    }
}

/// How a launch's batch indices map to matrices and K chunks ([`MatArgs::splits`]).
#[derive(Clone, Copy, Debug)]
struct Split {
    splits: usize,
    a: usize,
    b: usize,
}

impl Split {
    /// One chunk per matrix.
    const NONE: Self = Self {
        splits: 1,
        a: 0,
        b: 0,
    };
}

/// Which operands are stored column by column (comptime): the tile loads follow the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    pub a_col_major: bool,
    pub b_col_major: bool,
}

/// Whether the kernels read `v` column by column.
pub fn col_major(v: &View) -> bool {
    v.row_stride == 1 && v.col_stride != 1
}

/// Batch spread over grid y and z.
pub fn batch_grid(batch: usize, max: (u32, u32, u32)) -> (usize, usize, usize) {
    let by = batch.clamp(1, max.1 as usize);
    (0, by, batch.div_ceil(by))
}

/// Sizes of one launch.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct MatArgs {
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pub tiles_n: usize,
    /// Batch indices: matrices × `splits`.
    pub batch: usize,
    /// K of each matrix's last chunk (split-K: shorter); else k.
    pub k_last: usize,
    /// K chunks per matrix (1: no split). Batch index z is chunk z % splits of matrix
    /// z / splits; C's batch stride steps over z, A's and B's over the matrix.
    pub splits: usize,
    /// Offset of chunk t's A (t·a_split) and B (t·b_split) from the matrix's.
    pub a_split: usize,
    pub b_split: usize,
}

/// Offset and strides of one operand.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct Strides {
    pub offset: usize,
    pub rs: usize,
    pub cs: usize,
    pub bs: usize,
}

#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
fn gemm_kernel<F: Float>(
    a: &[F],
    b: &[F],
    c: &mut [F],
    dims: MatArgs,
    sa: Strides,
    sb: Strides,
    sc: Strides,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
    #[comptime] layout: Layout,
) {
    let tm = comptime!(cfg.tm);
    let tn = comptime!(cfg.tn);
    let ux_n = comptime!(cfg.units_x);
    let uy_n = comptime!(cfg.units_y);
    let bk = comptime!(cfg.tile_k);
    let big_m = comptime!(cfg.tile_m());
    let big_n = comptime!(cfg.tile_n());
    let units = comptime!(cfg.units());

    let at = tile_at(&dims, big_m, big_n, op);
    let (bidx, row0, col0, kdim) = (at.bidx, at.row0, at.col0, at.kdim);
    let unit = UNIT_POS as usize;
    let ux = unit % ux_n;
    let uy = unit / ux_n;
    let a_base = operand_base(&at, &sa, dims.a_split);
    let b_base = operand_base(&at, &sb, dims.b_split);
    let c_base = sc.offset + bidx * sc.bs;

    let mut sh_a = Shared::<[F]>::new_slice(comptime!(bk * big_m));
    let mut sh_b = Shared::<[F]>::new_slice(comptime!(bk * big_n));
    let mut acc = Array::<F>::new(comptime!(tm * tn));
    let mut ra = Array::<F>::new(tm);
    let mut rb = Array::<F>::new(tn);
    #[unroll(cfg.unroll)]
    for e in 0..comptime!(tm * tn) {
        acc[e] = F::new(0.0);
    }

    // Software pipeline: the next K tile is loaded into registers while the current one is
    // multiplied from shared memory, so global latency hides behind the FMAs.
    let na = comptime!((bk * big_m).div_ceil(units));
    let nbb = comptime!((bk * big_n).div_ceil(units));
    let mut pa = Array::<F>::new(na);
    let mut pb = Array::<F>::new(nbb);
    // A window: big_m rows × bk columns at (row0, k0); B window: bk rows × big_n at (k0, col0).
    fetch_tiles(
        a, b, a_base, b_base, &sa, &sb, &dims, kdim, row0, col0, 0, &mut pa, &mut pb, unit, cfg,
        layout,
    );
    stash_tiles(&pa, &pb, &mut sh_a, &mut sh_b, unit, cfg, layout);
    sync_cube();

    let mut k0 = 0usize;
    while k0 < kdim {
        let next = k0 + bk;
        // Uniform per cube.
        if next < kdim {
            fetch_tiles(
                a, b, a_base, b_base, &sa, &sb, &dims, kdim, row0, col0, next, &mut pa, &mut pb,
                unit, cfg, layout,
            );
        }
        #[unroll(cfg.unroll)]
        for kk in 0..bk {
            #[unroll(cfg.unroll)]
            for r in 0..tm {
                ra[r] = sh_a[kk * big_m + uy + r * uy_n];
            }
            #[unroll(cfg.unroll)]
            for s in 0..tn {
                rb[s] = sh_b[kk * big_n + ux + s * ux_n];
            }
            #[unroll(cfg.unroll)]
            for r in 0..tm {
                #[unroll(cfg.unroll)]
                for s in 0..tn {
                    acc[r * tn + s] = fma(ra[r], rb[s], acc[r * tn + s]);
                }
            }
        }
        sync_cube();
        if next < kdim {
            stash_tiles(&pa, &pb, &mut sh_a, &mut sh_b, unit, cfg, layout);
        }
        sync_cube();
        k0 = next;
    }

    store_tile(c, c_base, &sc, &dims, &acc, row0, col0, uy, ux, cfg, op);
}

/// Where a cube's tile of C lies: batch index (C's), its matrix and K chunk (A's and B's),
/// first row and column, and K of that chunk (split-K: the last is shorter).
#[derive(CubeType, Clone, Copy)]
pub struct TileAt {
    pub bidx: usize,
    pub mat: usize,
    pub chunk: usize,
    pub row0: usize,
    pub col0: usize,
    pub kdim: usize,
}

/// This cube's `bm × bn` tile (grid x: tiles, y and z: batch). Cubes past the batch, and with
/// `lower_only` cubes whose whole tile lies above C's diagonal, leave here (uniform per cube).
/// With `a_lower`, K stops at the tile's last row + 1.
#[cube]
#[allow(clippy::collapsible_if)]
pub fn tile_at(
    dims: &MatArgs,
    #[comptime] bm: usize,
    #[comptime] bn: usize,
    #[comptime] op: GemmOp,
) -> TileAt {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    let tile = CUBE_POS_X as usize;
    let row0 = (tile / dims.tiles_n) * bm;
    let col0 = (tile % dims.tiles_n) * bn;
    if bidx >= dims.batch {
        terminate!();
    }
    let mat = bidx / dims.splits;
    let chunk = bidx % dims.splits;
    let mut kdim = dims.k;
    if chunk + 1 == dims.splits {
        kdim = dims.k_last;
    }
    if comptime!(op.lower_only) {
        if col0 > row0 + bm - 1 {
            terminate!();
        }
    }
    if comptime!(op.a_lower) {
        kdim = min(kdim, row0 + bm);
    }
    TileAt {
        bidx,
        mat,
        chunk,
        row0,
        col0,
        kdim,
    }
}

/// [`tile_at()`] on a grid that lists only the tiles on and below a square C's diagonal (square
/// `b × b` tiles, no split-K): cube t takes tile row r, the largest with r(r + 1)/2 ≤ t, and
/// tile column t − r(r + 1)/2, so the tiles come row by row and tile 0 is C's leading block.
/// A grid of T tile rows has T(T + 1)/2 cubes along x ([`tri_tiles`]), not T².
#[cube]
pub fn tile_at_tri(dims: &MatArgs, #[comptime] b: usize) -> TileAt {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    if bidx >= dims.batch {
        terminate!();
    }
    let (r, c) = tri_tile(CUBE_POS_X);
    TileAt {
        bidx,
        mat: bidx,
        chunk: 0,
        row0: r * b,
        col0: c * b,
        kdim: dims.k,
    }
}

/// Tile (r, c), c ≤ r, of the lower triangle listed row by row: t = r(r + 1)/2 + c.
#[cube]
pub fn tri_tile(t: u32) -> (usize, usize) {
    // r from the f32 root (exact to ±1 for t < 2²⁴), then corrected.
    let mut r = u32::cast_from((f32::sqrt(f32::cast_from(8 * t + 1)) - 1.0) * 0.5);
    if (r + 1) * (r + 2) / 2 <= t {
        r += 1;
    }
    if r * (r + 1) / 2 > t {
        r -= 1;
    }
    (r as usize, (t - r * (r + 1) / 2) as usize)
}

/// The cubes along x of [`tile_at_tri()`]'s grid for a square C of order `m` in `b × b` tiles.
pub fn tri_tiles(m: usize, b: usize) -> usize {
    let t = m.div_ceil(b);
    t * (t + 1) / 2
}

/// Where A's or B's part of the tile `at` starts: the matrix's offset plus the chunk's.
#[cube]
pub fn operand_base(at: &TileAt, s: &Strides, split: usize) -> usize {
    s.offset + at.mat * s.bs + at.chunk * split
}

/// Whether the tile writes C(gi, gj): inside C, and on or below its diagonal with
/// `lower_only`.
#[cube]
fn c_writes(dims: &MatArgs, gi: usize, gj: usize, #[comptime] op: GemmOp) -> bool {
    let mut write = gi < dims.m && gj < dims.n;
    if comptime!(op.lower_only) {
        write = write && gj <= gi;
    }
    write
}

/// C(gi, gj)'s old value where the tile writes it and `op` accumulates; else 0.
#[cube]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)] // comptime test, then runtime
fn load_c<F: Float>(
    c: &mut [F],
    c_base: usize,
    sc: &Strides,
    dims: &MatArgs,
    gi: usize,
    gj: usize,
    #[comptime] op: GemmOp,
) -> F {
    let mut x = F::new(0.0);
    if comptime!(op.accumulate) {
        if c_writes(dims, gi, gj, op) {
            x = c[c_base + gi * sc.rs + gj * sc.cs];
        }
    }
    x
}

/// C(gi, gj) ← old ± v (`old` from [`load_c`]; ignored unless `op` accumulates) where the
/// tile writes C(gi, gj); elsewhere nothing.
#[cube]
#[allow(clippy::too_many_arguments)]
fn put_c<F: Float>(
    c: &mut [F],
    c_base: usize,
    sc: &Strides,
    dims: &MatArgs,
    gi: usize,
    gj: usize,
    v: F,
    old: F,
    #[comptime] op: GemmOp,
) {
    if c_writes(dims, gi, gj, op) {
        let mut x = v;
        if comptime!(op.negate) {
            x = -x;
        }
        if comptime!(op.accumulate) {
            x += old;
        }
        c[c_base + gi * sc.rs + gj * sc.cs] = x;
    }
}

/// C(gi, gj) ← C(gi, gj) ± v where the tile writes it ([`load_c`] then [`put_c`]).
#[cube]
#[allow(clippy::too_many_arguments)]
pub(crate) fn store_c<F: Float>(
    c: &mut [F],
    c_base: usize,
    sc: &Strides,
    dims: &MatArgs,
    gi: usize,
    gj: usize,
    v: F,
    #[comptime] op: GemmOp,
) {
    let old = load_c(c, c_base, sc, dims, gi, gj, op);
    put_c(c, c_base, sc, dims, gi, gj, v, old, op);
}

/// Row (column) of C holding a unit's r-th row (column) of results: with vector tiles
/// (`gemm_vec`) runs of 4 every 4·units, else every units-th from the unit's own.
#[cube]
pub fn result_index(
    origin: usize,
    u: usize,
    r: usize,
    #[comptime] units: usize,
    #[comptime] vector: bool,
) -> usize {
    if comptime!(vector) {
        origin + (r / 4) * (4 * units) + 4 * u + r % 4
    } else {
        origin + u + r * units
    }
}

/// A unit's tm×tn results `acc` into C (unit (uy, ux) of the tile at (row0, col0)).
///
/// Small per-unit tiles (the 4×4 of the K = 32–64 updates, whose epilogue is a large part of
/// their time) read all their old C values before storing any ([`load_tile_c`], then
/// [`put_tile`]): C's loads cannot pass its stores (same buffer), so one load–store chain per
/// element waits on memory tm·tn times. Larger tiles keep the chain (batching there cost potrf
/// 16384² 7 % on the H200).
#[cube]
#[allow(clippy::too_many_arguments)]
pub(crate) fn store_tile<F: Float>(
    c: &mut [F],
    c_base: usize,
    sc: &Strides,
    dims: &MatArgs,
    acc: &Array<F>,
    row0: usize,
    col0: usize,
    uy: usize,
    ux: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
) {
    let (tm, tn, uy_n, ux_n) = comptime!((cfg.tm, cfg.tn, cfg.units_y, cfg.units_x));
    let vector = comptime!(cfg.vector);
    if comptime!(cfg.tm * cfg.tn <= C_BATCH_MAX) {
        let mut old = Array::<F>::new(comptime!(cfg.tm * cfg.tn));
        load_tile_c(c, c_base, sc, dims, &mut old, row0, col0, uy, ux, cfg, op);
        put_tile(c, c_base, sc, dims, acc, &old, row0, col0, uy, ux, cfg, op);
    } else {
        #[unroll(cfg.unroll)]
        for r in 0..tm {
            let gi = result_index(row0, uy, r, uy_n, vector);
            #[unroll(cfg.unroll)]
            for s in 0..tn {
                let gj = result_index(col0, ux, s, ux_n, vector);
                store_c(c, c_base, sc, dims, gi, gj, acc[r * tn + s], op);
            }
        }
    }
}

/// The old values of a unit's tm×tn elements of C (`load_c`; zeros unless `op`
/// accumulates), for [`put_tile()`].
#[cube]
#[allow(clippy::too_many_arguments)]
pub fn load_tile_c<F: Float>(
    c: &mut [F],
    c_base: usize,
    sc: &Strides,
    dims: &MatArgs,
    old: &mut Array<F>,
    row0: usize,
    col0: usize,
    uy: usize,
    ux: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
) {
    let (tm, tn, uy_n, ux_n) = comptime!((cfg.tm, cfg.tn, cfg.units_y, cfg.units_x));
    let vector = comptime!(cfg.vector);
    #[unroll(cfg.unroll)]
    for r in 0..tm {
        let gi = result_index(row0, uy, r, uy_n, vector);
        #[unroll(cfg.unroll)]
        for s in 0..tn {
            let gj = result_index(col0, ux, s, ux_n, vector);
            old[r * tn + s] = load_c(c, c_base, sc, dims, gi, gj, op);
        }
    }
}

/// A unit's tm×tn results `acc` into C given their old values `old` ([`load_tile_c()`]).
#[cube]
#[allow(clippy::too_many_arguments)]
pub fn put_tile<F: Float>(
    c: &mut [F],
    c_base: usize,
    sc: &Strides,
    dims: &MatArgs,
    acc: &Array<F>,
    old: &Array<F>,
    row0: usize,
    col0: usize,
    uy: usize,
    ux: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
) {
    let (tm, tn, uy_n, ux_n) = comptime!((cfg.tm, cfg.tn, cfg.units_y, cfg.units_x));
    let vector = comptime!(cfg.vector);
    #[unroll(cfg.unroll)]
    for r in 0..tm {
        let gi = result_index(row0, uy, r, uy_n, vector);
        #[unroll(cfg.unroll)]
        for s in 0..tn {
            let gj = result_index(col0, ux, s, ux_n, vector);
            let (v, o) = (acc[r * tn + s], old[r * tn + s]);
            put_c(c, c_base, sc, dims, gi, gj, v, o, op);
        }
    }
}

/// Largest per-unit tile (tm·tn) whose old C values are all read before any is stored.
const C_BATCH_MAX: usize = 16;

/// Load this unit's share of the A window (tile_m rows × tile_k columns at (row0, k0)) and the
/// B window (tile_k × tile_n at (k0, col0)) into registers.
#[cube]
#[allow(clippy::too_many_arguments)]
fn fetch_tiles<F: Float>(
    a: &[F],
    b: &[F],
    a_base: usize,
    b_base: usize,
    sa: &Strides,
    sb: &Strides,
    dims: &MatArgs,
    k: usize,
    row0: usize,
    col0: usize,
    k0: usize,
    pa: &mut Array<F>,
    pb: &mut Array<F>,
    unit: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    load_window(
        a,
        a_base,
        sa.rs,
        sa.cs,
        row0,
        k0,
        dims.m,
        k,
        pa,
        unit,
        bm,
        bk,
        units,
        !layout.a_col_major,
        cfg.unroll,
    );
    load_window(
        b,
        b_base,
        sb.rs,
        sb.cs,
        k0,
        col0,
        k,
        dims.n,
        pb,
        unit,
        bk,
        bn,
        units,
        !layout.b_col_major,
        cfg.unroll,
    );
}

/// Store the registers of [`fetch_tiles`] to the shared tiles: A as `[k][row]`, B as `[k][col]`.
#[cube]
fn stash_tiles<F: Float>(
    pa: &Array<F>,
    pb: &Array<F>,
    sh_a: &mut Shared<[F]>,
    sh_b: &mut Shared<[F]>,
    unit: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    store_window(
        pa,
        sh_a,
        unit,
        bm,
        bk,
        units,
        !layout.a_col_major,
        true,
        cfg.unroll,
    );
    store_window(
        pb,
        sh_b,
        unit,
        bk,
        bn,
        units,
        !layout.b_col_major,
        false,
        cfg.unroll,
    );
}

/// Load this unit's share of a `rows × cols` window at (r0, c0) of a strided matrix (zeros past
/// `rmax`, `cmax`) into registers. Neighbouring units take neighbouring columns
/// (`col_fastest`) or rows, to match the memory layout.
#[cube]
#[allow(clippy::too_many_arguments)]
pub(crate) fn load_window<F: Float>(
    src: &[F],
    base: usize,
    rs: usize,
    cs: usize,
    r0: usize,
    c0: usize,
    rmax: usize,
    cmax: usize,
    regs: &mut Array<F>,
    unit: usize,
    #[comptime] rows: usize,
    #[comptime] cols: usize,
    #[comptime] units: usize,
    #[comptime] col_fastest: bool,
    #[comptime] unroll: bool,
) {
    #[unroll(unroll)]
    for t in 0..comptime!((rows * cols).div_ceil(units)) {
        let idx = unit + t * units;
        let mut r = idx % rows;
        let mut c = idx / rows;
        if comptime!(col_fastest) {
            r = idx / cols;
            c = idx % cols;
        }
        let gr = r0 + r;
        let gc = c0 + c;
        let mut v = F::new(0.0);
        if idx < comptime!(rows * cols) && gr < rmax && gc < cmax {
            v = src[base + gr * rs + gc * cs];
        }
        regs[t] = v;
    }
}

/// Store the registers of [`load_window`] to shared memory, column-major (`col_major_store`:
/// the A tile, `[k][row]`) or row-major (the B tile, `[k][col]`).
#[cube]
#[allow(clippy::too_many_arguments)]
fn store_window<F: Float>(
    regs: &Array<F>,
    sh: &mut Shared<[F]>,
    unit: usize,
    #[comptime] rows: usize,
    #[comptime] cols: usize,
    #[comptime] units: usize,
    #[comptime] col_fastest: bool,
    #[comptime] col_major_store: bool,
    #[comptime] unroll: bool,
) {
    #[unroll(unroll)]
    for t in 0..comptime!((rows * cols).div_ceil(units)) {
        let idx = unit + t * units;
        let mut r = idx % rows;
        let mut c = idx / rows;
        if comptime!(col_fastest) {
            r = idx / cols;
            c = idx % cols;
        }
        if idx < comptime!(rows * cols) {
            if comptime!(col_major_store) {
                sh[c * rows + r] = regs[t];
            } else {
                sh[r * cols + c] = regs[t];
            }
        }
    }
}
