//! Stage 1 of TSQR, run at every level of the tree: one cube factors one block of `rows`
//! consecutive rows of a row-major `[rows_in, n]` matrix with Householder reflections, or
//! applies a block's stored reflectors to form its rows of Q.
//!
//! Math: the block B (rows×n, zero-padded past `rows_in`) is reduced to R = H_{n−1}…H_1·H_0·B
//! with H_c = I − u_c u_cᵀ, ‖u_c‖² = 2 (or u_c = 0, H_c = I, when the column below the
//! diagonal is exactly zero), u_c zero above row c. The diagonal of R is −sign(x₀)·‖x‖ (sign(0)
//! = +1), as in LAPACK. The factor stage writes R (n×n, zero below the diagonal) as the block's
//! slice of the R stack and, when Q is wanted, the reflectors u_c (as columns of a rows×n
//! block, the layout of the input). The ApplyQ stage reads them back and writes the block's rows
//! of H_0…H_{n−1}·[Y; 0], where Y (n×n) is the block's slice of the level above's result.
//!
//! Work split: a cube has `planes` lane groups of `lanes` units (a plane on CUDA; one unit
//! where plane operations are missing). Column j lives in registers of group j % planes, each
//! lane holding rows lane, lane + lanes, …; the reflector of step c is written to shared memory
//! (column-major, stride rows + 1 on GPUs) by its owner and read by every group after one
//! `sync_cube`. A group's dot products are reduced together, by a transposed xor butterfly of
//! plane shuffles for 2 or 4 of them (or not at all where a group is one unit). Blocks enter and leave through shared
//! memory so global reads and writes are coalesced.
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

/// Which stage a launch runs (part of the kernel cache key).
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub struct StageConfig {
    /// false: factor the level's blocks (write R); true: apply stored reflectors to Y.
    pub apply_q: bool,
    /// Factor: also write the reflectors (needed to form Q later).
    pub store_v: bool,
    /// Factor: flag non-finite input values (level 0 only).
    pub check_finite: bool,
    /// ApplyQ: Y is the identity (the top level).
    pub identity_y: bool,
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
/// Factor stage (`apply_q = false`): `input` is the level's matrix `[batch, rows_in, n]`;
/// writes the R stack `[batch, nblocks·n, n]` to `output`, the reflectors (same layout as
/// `input`, row u_c[r] at `[r, c]`) to `refl` when `store_v`, and sets `flags[batch]` to 1
/// where an input value is NaN or infinite (`check_finite`).
/// ApplyQ stage (`apply_q = true`): `input` holds the reflectors stored by the factor stage;
/// `y` is `[batch, nblocks·n, n]` (unread when `identity_y`); writes Q·Y rows
/// `[batch, rows_in, n]` to `output`.
#[cube(launch_unchecked)]
// A comptime `if` around a runtime one is two different things in CubeCL: keep them apart.
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn tsqr_block_kernel<F: Float>(
    input: &[F],
    y: &[F],
    output: &mut [F],
    refl: &mut [F],
    flags: &mut [u32],
    rows_in: usize,
    batch: usize,
    #[comptime] cfg: BlockConfig,
    #[comptime] stage: StageConfig,
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
    let nbase = bidx * CUBE_COUNT_X as usize * n * n + blk * n * n;

    let mut v = Shared::<[F]>::new_slice(comptime!(n * ld));

    // Load the block (rows row0.., contiguous in memory) transposed into shared memory;
    // rows past rows_in are zero (they stay zero through every reflection).
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
        if comptime!(stage.check_finite) {
            // False for NaN and ±∞.
            let finite = F::abs(val) <= F::new(f32::MAX);
            bad = bad || !finite;
        }
        v[c * ld + r] = val;
        idx += units;
    }
    if comptime!(stage.check_finite) {
        if bad {
            flags[bidx] = 1;
        }
    }
    sync_cube();

    // Registers: x[c·rpl + k] = row lane + k·lanes of column plane + c·planes.
    let mut x = Array::<F>::new(comptime!(cpp * rpl));
    let mut u = Array::<F>::new(rpl);
    let mut d = Array::<F>::new(cpp);

    if comptime!(!stage.apply_q) {
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
            // Apply H_col to the owned columns right of col (others get a zero dot).
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                u[k] = v[col * ld + lane + k * lanes];
            }
            apply_reflector::<F>(&mut x, &u, &mut d, lane, plane, col, cfg);
        }
        // R: rows 0..n of the reduced columns, exactly zero below the diagonal.
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
                    output[nbase + i * n + j] = val;
                }
            }
        }
        if comptime!(stage.store_v) {
            // The last reflector was published before the loop's last barrier.
            store_block::<F>(&v, refl, base + row0 * n, rows_in - row0, unit, cfg);
        }
    } else {
        // Z = [Y; 0], then Z ← H_0 … H_{n−1} Z, right to left.
        #[unroll(cfg.unroll)]
        for c in 0..cpp {
            let j = plane + c * planes;
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                let i = lane + k * lanes;
                let mut val = F::new(0.0);
                if j < n && i < n {
                    if comptime!(stage.identity_y) {
                        if i == j {
                            val = F::new(1.0);
                        }
                    } else {
                        val = y[nbase + i * n + j];
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
            apply_reflector::<F>(&mut x, &u, &mut d, lane, plane, n, cfg);
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
        store_block::<F>(&v, output, base + row0 * n, rows_in - row0, unit, cfg);
    }
}

/// Coalesced store of the shared block (column-major, stride ld) as `valid` row-major rows of
/// n starting at `out[start]`; rows past `valid` are not written.
#[cube]
fn store_block<F: Float>(
    v: &Shared<[F]>,
    out: &mut [F],
    start: usize,
    valid: usize,
    unit: usize,
    #[comptime] cfg: BlockConfig,
) {
    let n = comptime!(cfg.n);
    let ld = comptime!(cfg.ld());
    let count = comptime!(cfg.rows * cfg.n);
    let units = comptime!(cfg.units());
    let mut idx = unit;
    while idx < count {
        let r = idx / n;
        let c = idx % n;
        if r < valid {
            out[start + idx] = v[c * ld + r];
        }
        idx += units;
    }
}

/// x_j ← x_j − u (uᵀ x_j) for the group's columns j with j > `after` (all of them when
/// `after` = n, the ApplyQ stage; j > col when factoring). The group's dot products are
/// reduced together by `group_sum_n`.
#[cube]
fn apply_reflector<F: Float>(
    x: &mut Array<F>,
    u: &Array<F>,
    d: &mut Array<F>,
    lane: usize,
    plane: usize,
    after: usize,
    #[comptime] cfg: BlockConfig,
) {
    let n = comptime!(cfg.n);
    let planes = comptime!(cfg.planes);
    let rpl = comptime!(cfg.rows_per_lane());
    let cpp = comptime!(cfg.cols_per_plane());
    #[unroll(cfg.unroll)]
    for c in 0..cpp {
        let j = plane + c * planes;
        let mut dot = F::new(0.0);
        if j < n && (j > after || after == n) {
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                dot += u[k] * x[c * rpl + k];
            }
        }
        d[c] = dot;
    }
    group_sum_n::<F>(d, lane, cpp, comptime!(cfg.lanes));
    #[unroll(cfg.unroll)]
    for c in 0..cpp {
        let dot = d[c];
        #[unroll(cfg.unroll)]
        for k in 0..rpl {
            x[c * rpl + k] -= dot * u[k];
        }
    }
}

/// Sum entries 0..len of `d` over the lane group; every lane gets every sum.
///
/// For 2 or 4 entries a transposed butterfly: the top 1 or 2 rounds exchange half of the
/// vector each (reduce-scatter), the remaining rounds reduce one value, and the same top rounds
/// run backwards to gather (6 shuffles for 2 entries, 9 for 4, against 10 and 20 for a butterfly
/// per entry). Other lengths: one xor butterfly with every entry per round, so the shuffles
/// of different entries overlap.
#[cube]
fn group_sum_n<F: Float>(
    d: &mut Array<F>,
    lane: usize,
    #[comptime] len: usize,
    #[comptime] lanes: usize,
) {
    let rounds = comptime!(lanes.trailing_zeros() as usize);
    // Masks are runtime values: CubeCL's LLVM backend refused a mutable variable initialised
    // from a comptime value here (BENCHMARKS.md, runs 5 and 6).
    let hi_mask = comptime!((lanes / 2) as u32).runtime();
    let mid_mask = comptime!((lanes / 4) as u32).runtime();
    if comptime!(lanes > 1 && len == 2) {
        let bit = (lane / comptime!(lanes / 2)) % 2 == 1;
        // Lane keeps entry `bit` of the pair, reduces it, then swaps with its partner.
        let t = butterfly_low::<F>(
            exchange_half::<F>(d[0], d[1], bit, hi_mask),
            comptime!(rounds - 1),
        );
        let o = plane_shuffle_xor(t, hi_mask);
        d[0] = pick::<F>(bit, t, o);
        d[1] = pick::<F>(bit, o, t);
    } else if comptime!(lanes > 2 && len == 4) {
        let b1 = (lane / comptime!(lanes / 2)) % 2 == 1;
        let b2 = (lane / comptime!(lanes / 4)) % 2 == 1;
        // Entries 2·b1 + {0, 1}, then entry 2·b1 + b2, reduced; gathered back in reverse.
        let p0 = exchange_half::<F>(d[0], d[2], b1, hi_mask);
        let p1 = exchange_half::<F>(d[1], d[3], b1, hi_mask);
        let t = butterfly_low::<F>(
            exchange_half::<F>(p0, p1, b2, mid_mask),
            comptime!(rounds - 2),
        );
        let o = plane_shuffle_xor(t, mid_mask);
        let q0 = pick::<F>(b2, t, o);
        let q1 = pick::<F>(b2, o, t);
        let o0 = plane_shuffle_xor(q0, hi_mask);
        let o1 = plane_shuffle_xor(q1, hi_mask);
        d[0] = pick::<F>(b1, q0, o0);
        d[1] = pick::<F>(b1, q1, o1);
        d[2] = pick::<F>(b1, o0, q0);
        d[3] = pick::<F>(b1, o1, q1);
    } else if comptime!(lanes > 1) {
        let mut mask = 1u32;
        #[unroll]
        for _r in 0..rounds {
            #[unroll]
            for c in 0..len {
                let t = plane_shuffle_xor(d[c], mask);
                d[c] += t;
            }
            mask *= 2;
        }
    }
}

/// `a` where `!bit`, `b` where `bit`.
#[cube]
fn pick<F: Float>(bit: bool, a: F, b: F) -> F {
    let mut out = a;
    if bit {
        out = b;
    }
    out
}

/// One reduce-scatter round: a lane keeps `a` (or `b` where `bit`) and adds what its partner
/// across `mask` sends, the other one of its pair.
#[cube]
fn exchange_half<F: Float>(a: F, b: F, bit: bool, mask: u32) -> F {
    pick::<F>(bit, a, b) + plane_shuffle_xor(pick::<F>(bit, b, a), mask)
}

/// Xor butterfly over the lowest `count` lane bits (masks 1, 2, …, 2^(count−1)).
#[cube]
pub(crate) fn butterfly_low<F: Float>(v: F, #[comptime] count: usize) -> F {
    let mut t = v;
    let mut mask = 1u32;
    #[unroll]
    for _r in 0..count {
        t += plane_shuffle_xor(t, mask);
        mask *= 2;
    }
    t
}

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

    // Gather this column's slice (rows ≥ col); indices stay comptime.
    let mut sums = Array::<F>::new(2usize);
    sums[0] = F::new(0.0);
    sums[1] = F::new(0.0);
    #[unroll(cfg.unroll)]
    for c in 0..cpp {
        if c == slot {
            #[unroll(cfg.unroll)]
            for k in 0..rpl {
                let r = lane + k * lanes;
                let val = x[c * rpl + k];
                if r >= col {
                    sums[0] += val * val;
                }
                if r == col {
                    sums[1] = val;
                }
            }
        }
    }
    group_sum_n::<F>(&mut sums, lane, 2usize, lanes);
    let mut ss = sums[0];
    let x0 = sums[1];
    // Rescale when the plain sum of squares under- or overflows (LAPACK's snrm2 concern).
    let mut scale = F::new(1.0);
    if !(ss >= F::new(1e-30) && ss <= F::new(1e30)) {
        let mut amax = F::new(0.0);
        #[unroll(cfg.unroll)]
        for c in 0..cpp {
            if c == slot {
                #[unroll(cfg.unroll)]
                for k in 0..rpl {
                    let r = lane + k * lanes;
                    if r >= col {
                        amax = F::max(amax, F::abs(x[c * rpl + k]));
                    }
                }
            }
        }
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
            sums[0] = s2;
            group_sum_n::<F>(&mut sums, lane, 1usize, lanes);
            ss = sums[0];
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
