//! Elementwise stage shared by the ops of both kernel crates: copy a (triangle of a) strided
//! view into another view, flag non-finite values per matrix, or write identity matrices.
use crate::gemm::{Strides, StridesLaunch, View, batch_grid, col_major};
use crate::launch::Hardware;
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;

/// What the copy kernel does (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CopyConfig {
    /// Read only j ≤ i; write zeros above the diagonal (when `write`).
    pub lower: bool,
    /// With `lower`: skip the diagonal too (a unit-diagonal triangle is never read there).
    pub skip_diag: bool,
    /// Write dst (else only check).
    pub write: bool,
    /// Set `flags[b] = 1` when a read value is NaN or infinite.
    pub check: bool,
    /// Ignore src: write the identity.
    pub identity: bool,
    /// Move 4-vectors along rows where both views allow it ([`View::rows_of_4`]) and the
    /// device can view buffers so ([`Hardware::vector_views`]); [`launch_copy`] checks, and
    /// goes element by element otherwise.
    pub vec: bool,
}

const UNITS: usize = 256;

impl CopyConfig {
    /// Every element, no check.
    pub const PLAIN: Self = Self {
        lower: false,
        skip_diag: false,
        write: true,
        check: false,
        identity: false,
        vec: false,
    };
}

/// Run the copy over `batch` matrices of `dst`'s shape (`src` has the same shape).
pub fn launch_copy(
    client: &Client,
    hw: &Hardware,
    batch: usize,
    src: (&Handle, usize, View),
    dst: (&Handle, usize, View),
    flags: &Handle,
    cfg: CopyConfig,
) {
    let (max_units, max_count) = (hw.max_units_per_cube, hw.max_cube_count);
    // Units take consecutive columns of dst: a plain copy into a column-major dst runs on
    // both transposes, so that its stores are consecutive.
    let (src, dst) = if !cfg.lower && !cfg.identity && col_major(&dst.2) {
        ((src.0, src.1, src.2.t()), (dst.0, dst.1, dst.2.t()))
    } else {
        (src, dst)
    };
    let (rows, cols) = (dst.2.rows, dst.2.cols);
    if rows * cols == 0 || batch == 0 {
        return;
    }
    let vec = cfg.vec
        && hw.vector_views
        && (cfg.identity || src.2.rows_of_4(src.0.offset_start.unwrap_or(0), batch))
        && dst.2.rows_of_4(dst.0.offset_start.unwrap_or(0), batch);
    let cfg = CopyConfig { vec, ..cfg };
    // Elements, or 4-vectors along rows.
    let count = if vec { rows * cols / 4 } else { rows * cols };
    debug_assert!(src.2.extent(batch) <= src.1 && dst.2.extent(batch) <= dst.1);
    let units = UNITS.min(max_units).max(1);
    let (_, by, bz) = batch_grid(batch, max_count);
    let s = |v: View| StridesLaunch::new(v.offset, v.row_stride, v.col_stride, v.batch_stride);
    // SAFETY: unit (cube x, unit) handles element idx < rows·cols of matrix bidx < batch (with
    // `vec`, vector idx < rows·cols/4: elements (i, 4v … 4v + 3), inside row i since cols is a
    // multiple of 4, at a row start on 16 bytes, both checked above); its (i, j) lies inside
    // both views (transposed together, or not at all), which the caller keeps inside their
    // buffers (debug-checked above). src and dst do not overlap (or are the same view in
    // check-only mode, where dst is not written, or in identity mode, where src is not read).
    // Concurrent writes to `flags` all store 1.
    unsafe {
        copy_kernel::launch_unchecked::<f32>(
            client,
            CubeCount::Static(count.div_ceil(units) as u32, by as u32, bz as u32),
            CubeDim::new_1d(units as u32),
            BufferArg::from_raw_parts(src.0.clone(), src.1),
            BufferArg::from_raw_parts(dst.0.clone(), dst.1),
            BufferArg::from_raw_parts(flags.clone(), batch.max(1)),
            s(src.2),
            s(dst.2),
            cols,
            count,
            batch,
            cfg,
        )
    }
}

#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
fn copy_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    cols: usize,
    count: usize,
    batch: usize,
    #[comptime] cfg: CopyConfig,
) {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    let idx = CUBE_POS_X as usize * CUBE_DIM_X as usize + UNIT_POS as usize;
    if bidx < batch && idx < count {
        if comptime!(cfg.vec) {
            copy_vec::<F>(src, dst, flags, ss, sd, cols, idx, bidx, cfg);
        } else {
            let i = idx / cols;
            let j = idx % cols;
            let mut v = F::new(0.0);
            if comptime!(cfg.identity) {
                if i == j {
                    v = F::new(1.0);
                }
            } else {
                let mut read = true;
                if comptime!(cfg.lower) {
                    read = j <= i;
                }
                if comptime!(cfg.skip_diag) {
                    read = read && j != i;
                }
                if read {
                    v = src[ss.offset + bidx * ss.bs + i * ss.rs + j * ss.cs];
                    if comptime!(cfg.check) {
                        let finite = F::abs(v) <= F::new(f32::MAX);
                        if !finite {
                            flags[bidx] = 1;
                        }
                    }
                }
            }
            if comptime!(cfg.write) {
                dst[sd.offset + bidx * sd.bs + i * sd.rs + j * sd.cs] = v;
            }
        }
    }
}

/// [`copy_kernel`]'s body on vector idx of matrix bidx: elements (i, 4v … 4v + 3) of rows of
/// `cols` elements, read as one 4-vector where any of them is read.
#[cube]
// A comptime `if` around a runtime one is two different things in CubeCL: keep them apart.
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
fn copy_vec<F: Float>(
    src: &[F],
    dst: &mut [F],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    cols: usize,
    idx: usize,
    bidx: usize,
    #[comptime] cfg: CopyConfig,
) {
    let cv = cols / 4;
    let i = idx / cv;
    let v = idx % cv;
    let mut w = Vector::<F, Const<4>>::broadcast(F::new(0.0));
    if comptime!(cfg.identity) {
        #[unroll]
        for c in 0..4usize {
            if i == 4 * v + c {
                w.insert(c, F::new(1.0));
            }
        }
    } else {
        let mut any = true;
        if comptime!(cfg.lower) {
            any = 4 * v <= i;
        }
        if any {
            let srcv = src.as_vectorized().with_vector_size::<Const<4>>();
            w = srcv[(ss.offset + bidx * ss.bs + i * ss.rs) / 4 + v];
            let mut bad = false;
            #[unroll]
            for c in 0..4usize {
                let k = 4 * v + c;
                let mut read = true;
                if comptime!(cfg.lower) {
                    read = k <= i;
                }
                if comptime!(cfg.skip_diag) {
                    read = read && k != i;
                }
                if read {
                    if comptime!(cfg.check) {
                        let finite = F::abs(w.extract(c)) <= F::new(f32::MAX);
                        bad = bad || !finite;
                    }
                } else {
                    w.insert(c, F::new(0.0));
                }
            }
            if comptime!(cfg.check) {
                if bad {
                    flags[bidx] = 1;
                }
            }
        }
    }
    if comptime!(cfg.write) {
        let dstv = dst.as_vectorized_mut().with_vector_size_mut::<Const<4>>();
        dstv[(sd.offset + bidx * sd.bs + i * sd.rs) / 4 + v] = w;
    }
}

/// Write zeros to the first `len` u32 of `buf` on the device: flags and `info` that must start
/// at zero where a host upload is not allowed (inside a graph capture).
pub fn launch_zero_u32(client: &Client, hw: &Hardware, buf: &Handle, len: usize) {
    if len == 0 {
        return;
    }
    let units = UNITS.min(hw.max_units_per_cube).max(1);
    // SAFETY: unit p writes buf[p] only for p < len, and the caller's buffer holds len u32.
    unsafe {
        zero_kernel::launch_unchecked(
            client,
            CubeCount::Static(len.div_ceil(units) as u32, 1, 1),
            CubeDim::new_1d(units as u32),
            BufferArg::from_raw_parts(buf.clone(), len),
            len,
        )
    }
}

#[cube(launch_unchecked)]
fn zero_kernel(buf: &mut [u32], len: usize) {
    let p = ABSOLUTE_POS;
    if p < len {
        buf[p] = 0;
    }
}
