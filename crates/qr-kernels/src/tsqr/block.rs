//! Stage 1 of TSQR, run at every level of the tree: one cube factors one block of `rows`
//! consecutive rows of a row-major `[rows_in, n]` matrix with Householder reflections.
//!
//! Math: the block B (rows×n, zero-padded past `rows_in`) is reduced to R = H_{n−1}…H_1·H_0·B
//! with H_c = I − u_c u_cᵀ, ‖u_c‖² = 2 (or u_c = 0, H_c = I, when the column below the
//! diagonal is exactly zero), u_c zero above row c. The diagonal of R is −sign(x₀)·‖x‖ (sign(0)
//! = +1), as in LAPACK. `form_q = false` writes R (n×n, zero below the diagonal) as the block's
//! slice of the output stack; `form_q = true` recomputes the same reflectors and writes the
//! block's rows of Q·Y = H_0…H_{n−1}·[Y; 0], where Y (n×n) is the block's slice of `y`.
//!
//! Work split: a cube has `planes` lane groups of `lanes` units (a plane on CUDA; one unit
//! where plane operations are missing). Column j lives in registers of group j % planes, each
//! lane holding rows lane, lane + lanes, …; the reflector of step c is written to shared memory
//! (column-major, stride rows + 1 on GPUs) by its owner and read by every group after one
//! `sync_cube`. Dot products reduce inside a group with `plane_sum` (or sequentially).
//! The block enters and leaves through shared memory so global reads and writes are coalesced.
use cubecl::prelude::*;

/// Comptime shape of the block kernel (part of the kernel cache key).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub struct BlockConfig {
    /// Columns n.
    pub n: usize,
    /// Rows factored by one cube (b ≥ 2n, a multiple of `lanes`).
    pub rows: usize,
    /// Units per lane group: the plane width when plane operations are used, else 1.
    pub lanes: usize,
    /// Lane groups per cube.
    pub planes: usize,
    /// Fully unroll the per-lane loops and pad the shared block against bank conflicts (GPU);
    /// the CPU runtime compiles loops and needs no padding.
    pub unroll: bool,
}

impl BlockConfig {
    pub fn rows_per_lane(&self) -> usize {
        self.rows / self.lanes
    }
    pub fn cols_per_plane(&self) -> usize {
        self.n.div_ceil(self.planes)
    }
    /// Column stride of the shared-memory block: on GPUs padded to an odd number, so the
    /// transposed accesses do not collide in banks.
    pub fn ld(&self) -> usize {
        self.rows + usize::from(self.unroll)
    }
    pub fn units(&self) -> usize {
        self.lanes * self.planes
    }
    pub fn shared_bytes(&self) -> usize {
        self.n * self.ld() * 4
    }
}

/// Sum over the lane group.
#[cube]
fn group_sum<F: Float>(v: F, #[comptime] lanes: usize) -> F {
    let mut out = v;
    if comptime!(lanes > 1) {
        out = plane_sum(v);
    }
    out
}

/// Maximum over the lane group.
#[cube]
fn group_max<F: Float>(v: F, #[comptime] lanes: usize) -> F {
    let mut out = v;
    if comptime!(lanes > 1) {
        out = plane_max(v);
    }
    out
}

/// The block kernel; see the module docs.
///
/// `input`: `[batch, rows_in, n]`; `y` (form_q, unless `identity_y`): `[batch, nblocks·n, n]`; `output`:
/// `[batch, nblocks·n, n]` (R stack) or `[batch, rows_in, n]` (Q rows); `flags` (`check_finite`
/// only): `[batch]`, set to 1 where an input value is NaN or infinite.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn tsqr_block_kernel<F: Float>(
    input: &[F],
    y: &[F],
    output: &mut [F],
    flags: &mut [u32],
    rows_in: usize,
    batch: usize,
    #[comptime] cfg: BlockConfig,
    #[comptime] form_q: bool,
    #[comptime] identity_y: bool,
    #[comptime] check_finite: bool,
) {
    let n = comptime!(cfg.n);
    let rows = comptime!(cfg.rows);
    let lanes = comptime!(cfg.lanes);
    let planes = comptime!(cfg.planes);
    let rpl = comptime!(cfg.rows_per_lane());
    let cpp = comptime!(cfg.cols_per_plane());
    let ld = comptime!(cfg.ld());
    let units = comptime!(cfg.units());

    let blk = CUBE_POS_X as usize;
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: a whole cube leaves before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let lane = unit % lanes;
    let plane = unit / lanes;
    let row0 = blk * rows;
    let base = bidx * rows_in * n;

    let mut v = Shared::<[F]>::new_slice(comptime!(n * ld));

    // Load the block (rows row0.., contiguous in memory) transposed into shared memory.
    let count = comptime!(rows * n);
    let mut idx = unit;
    let mut bad = false;
    while idx < count {
        let r = idx / n;
        let c = idx % n;
        let mut val = F::new(0.0);
        if row0 + r < rows_in {
            val = input[base + row0 * n + idx];
        }
        if comptime!(check_finite) {
            // False for NaN and ±∞.
            let finite = F::abs(val) <= F::new(f32::MAX);
            bad = bad || !finite;
        }
        v[c * ld + r] = val;
        idx += units;
    }
    if comptime!(check_finite) {
        if bad {
            flags[bidx] = 1;
        }
    }
    sync_cube();

    // Each group takes its columns into registers: x[c·rpl + k] = B[lane + k·lanes, plane + c·planes].
    let mut x = Array::<F>::new(comptime!(cpp * rpl));
    let mut u = Array::<F>::new(rpl);
    #[unroll(cfg.unroll)]
    for c in 0..cpp {
        let j = plane + c * planes;
        #[unroll(cfg.unroll)]
        for k in 0..rpl {
            let mut val = F::new(0.0);
            if j < n {
                val = v[j * ld + lane + k * lanes];
            }
            x[c * rpl + k] = val;
        }
    }
    // Column j of `v` is read above only by its owner, who is also the only writer of
    // reflector j below: no barrier needed before the factorization.

    for col in 0..n {
        let owner = col % planes;
        let slot = col / planes;
        if plane == owner {
            make_reflector::<F>(&mut x, &mut v, col, slot, lane, cfg);
        }
        sync_cube();
        // Apply H_col to the owned columns right of col.
        #[unroll(cfg.unroll)]
        for k in 0..rpl {
            u[k] = v[col * ld + lane + k * lanes];
        }
        #[unroll(cfg.unroll)]
        for c in 0..cpp {
            let j = plane + c * planes;
            if j > col && j < n {
                let mut dot = F::new(0.0);
                #[unroll(cfg.unroll)]
                for k in 0..rpl {
                    dot += u[k] * x[c * rpl + k];
                }
                let dot = group_sum::<F>(dot, lanes);
                #[unroll(cfg.unroll)]
                for k in 0..rpl {
                    x[c * rpl + k] -= dot * u[k];
                }
            }
        }
    }

    if comptime!(!form_q) {
        // R: rows 0..n of the reduced columns, exactly zero below the diagonal.
        let rbase = bidx * CUBE_COUNT_X as usize * n * n + blk * n * n;
        #[unroll(cfg.unroll)]
        for c in 0..cpp {
            let j = plane + c * planes;
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                let i = lane + k * lanes;
                if j < n && i < n {
                    let mut val = F::new(0.0);
                    if i <= j {
                        val = x[c * rpl + k];
                    }
                    output[rbase + i * n + j] = val;
                }
            }
        }
    } else {
        // Z = [Y; 0], then Z ← H_0 … H_{n−1} Z, right to left.
        let ybase = bidx * CUBE_COUNT_X as usize * n * n + blk * n * n;
        #[unroll(cfg.unroll)]
        for c in 0..cpp {
            let j = plane + c * planes;
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                let i = lane + k * lanes;
                let mut val = F::new(0.0);
                if j < n && i < n {
                    if comptime!(identity_y) {
                        if i == j {
                            val = F::new(1.0);
                        }
                    } else {
                        val = y[ybase + i * n + j];
                    }
                }
                x[c * rpl + k] = val;
            }
        }
        for t in 0..n {
            let col = n - 1 - t;
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                u[k] = v[col * ld + lane + k * lanes];
            }
            #[unroll(cfg.unroll)]
            for c in 0..cpp {
                let j = plane + c * planes;
                if j < n {
                    let mut dot = F::new(0.0);
                    #[unroll(cfg.unroll)]
                    for k in 0..rpl {
                        dot += u[k] * x[c * rpl + k];
                    }
                    let dot = group_sum::<F>(dot, lanes);
                    #[unroll(cfg.unroll)]
                    for k in 0..rpl {
                        x[c * rpl + k] -= dot * u[k];
                    }
                }
            }
        }
        // Through shared memory again for a coalesced store.
        sync_cube();
        #[unroll(cfg.unroll)]
        for c in 0..cpp {
            let j = plane + c * planes;
            if j < n {
                #[unroll(cfg.unroll)]
                for k in 0..rpl {
                    v[j * ld + lane + k * lanes] = x[c * rpl + k];
                }
            }
        }
        sync_cube();
        let mut idx = unit;
        while idx < count {
            let r = idx / n;
            let c = idx % n;
            if row0 + r < rows_in {
                output[base + row0 * n + idx] = v[c * ld + r];
            }
            idx += units;
        }
    }
}

/// The owner group of column `col` turns its slot `slot` into the reflector u_col (written to
/// column `col` of `v`, zero above row col) and leaves R's column entries in registers:
/// row col ← −sign(x₀)‖x‖, rows below ← 0.
#[cube]
fn make_reflector<F: Float>(
    x: &mut Array<F>,
    v: &mut Shared<[F]>,
    col: usize,
    slot: usize,
    lane: usize,
    #[comptime] cfg: BlockConfig,
) {
    let lanes = comptime!(cfg.lanes);
    let rpl = comptime!(cfg.rows_per_lane());
    let cpp = comptime!(cfg.cols_per_plane());
    let ld = comptime!(cfg.ld());

    // Gather this column's slice (rows ≥ col) into u-candidates; indices stay comptime.
    let mut ss = F::new(0.0);
    let mut x0 = F::new(0.0);
    let mut amax = F::new(0.0);
    #[unroll(cfg.unroll)]
    for c in 0..cpp {
        if c == slot {
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                let r = lane + k * lanes;
                let val = x[c * rpl + k];
                if r >= col {
                    ss += val * val;
                    amax = F::max(amax, F::abs(val));
                }
                if r == col {
                    x0 = val;
                }
            }
        }
    }
    let mut ss = group_sum::<F>(ss, lanes);
    let x0 = group_sum::<F>(x0, lanes);
    // Rescale when the plain sum of squares under- or overflows (LAPACK's snrm2 concern).
    let mut scale = F::new(1.0);
    if !(ss >= F::new(1e-30) && ss <= F::new(1e30)) {
        let amax = group_max::<F>(amax, lanes);
        if amax > F::new(0.0) {
            scale = amax;
            let inv = F::new(1.0) / amax;
            let mut s2 = F::new(0.0);
            #[unroll(cfg.unroll)]
            for c in 0..cpp {
                if c == slot {
                    #[unroll(cfg.unroll)]
                    for k in 0..rpl {
                        let r = lane + k * lanes;
                        if r >= col {
                            let t = x[c * rpl + k] * inv;
                            s2 += t * t;
                        }
                    }
                }
            }
            ss = group_sum::<F>(s2, lanes);
        }
    }
    let norm = scale * F::sqrt(ss);
    // Below ~1e-35 the scaling 1/√(‖x‖(‖x‖+|x₀|)) would overflow: treat as a zero column.
    let live = norm > F::new(1e-35);
    let mut sign = F::new(1.0);
    if x0 < F::new(0.0) {
        sign = F::new(-1.0);
    }
    let mut s = F::new(0.0);
    if live {
        s = F::new(1.0) / (F::sqrt(norm) * F::sqrt(norm + F::abs(x0)));
    }
    let alpha = -sign * norm;
    #[unroll(cfg.unroll)]
    for c in 0..cpp {
        if c == slot {
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                let r = lane + k * lanes;
                let val = x[c * rpl + k];
                let mut uval = F::new(0.0);
                if r == col {
                    uval = (val + sign * norm) * s;
                    if live {
                        x[c * rpl + k] = alpha;
                    }
                } else if r > col {
                    uval = val * s;
                    if live {
                        x[c * rpl + k] = F::new(0.0);
                    }
                }
                v[col * ld + r] = uval;
            }
        }
    }
}
