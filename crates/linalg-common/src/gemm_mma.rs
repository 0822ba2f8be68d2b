//! Error-compensated 3×TF32 GEMM on tensor cores through PTX `mma.sync.m16n8k8` with
//! registers the kernel manages itself: C ← β·C ± A·B at f32 accuracy, the contract of
//! [`crate::gemm`] (strided views, batch, split-K, comptime [`GemmOp`]). With
//! [`MmaTiles::compensated`] off it computes A_hi·B_hi only: TF32 accuracy (each product's
//! inputs rounded to 11 significant bits; H200, 4096³: 1.1e-5 of Σ|a||b|), 1.3–1.4× faster.
//!
//! Math: each f32 x of A and B is split x ≈ hi + lo, hi = tf32(x) (round to nearest) and
//! lo = tf32(x − hi); A·B ≈ A_lo·B_hi + A_hi·B_lo + A_hi·B_hi (small terms first), as in
//! [`crate::gemm_tc`], whose fragments are the WMMA API's and whose loads go element by
//! element.
//!
//! Storage: K windows go to shared memory in fragment order. Lane (g, t) = (lane / 4,
//! lane % 4) of an m16n8k8 step needs A(g, t), A(g + 8, t), A(g, t + 4), A(g + 8, t + 4) and
//! B(t, g), B(t + 4, g). With [`MmaTiles::split_on_read`] (the default) the window holds f32
//! values: for each 16-row tile of A and K step of 8, the lane's quad at vector `lane` (32
//! 4-vectors); for each 8-column tile of B and K step, its pair at `lane` (32 2-vectors); each
//! plane splits a fragment after reading it. Without it the split happens once, when the
//! window is stored: per A tile and step 64 4-vectors, the hi quad at `lane` and the lo quad at
//! `32 + lane`; per B tile and step 32, `[hi b0, hi b1, lo b0, lo b1]` at `lane`. Either way
//! each fragment is one read already in register order (no moves before `mma.sync`), and a
//! plane's 32 reads cover consecutive bytes (no bank conflicts; split on read, the stores of a
//! K-contiguous B are 2-way conflicted, once per window: ncu, session 38). Splitting on read
//! halves the shared bytes read and written per `mma.sync` for three integer or float
//! instructions per element read (H200, session 38: 56 / 58 / 54 TFLOP/s against 52 / 56 /
//! 50, BENCHMARKS.md).
//!
//! Tiling: `warps_m × warps_n` planes; each owns `tiles_m × tiles_n` m16n8 accumulators. Two
//! shared windows alternate (the next is fetched into registers while the current one
//! multiplies, then split and stored; one barrier per window).
//!
//! Accumulation: the tensor cores add with truncation (measured on the H200: 3e-6 relative
//! to Σ|a||b| over K = 4096, against 7e-8 for f32 FMAs). Every `flush_k` of K the accumulator
//! registers are added into f32 sums (round to nearest) and restart from zero.
//!
//! Measured on the H200 (BENCHMARKS.md): 4.4e-8 of Σ|a||b| at K = 4096 (the SIMT kernel:
//! 6.6e-8). Session 20's layout, whose fragments were gathered from two reads, reached
//! 25–32 TFLOP/s at 4096³ (ncu: 4.5 register moves per HMMA); this one, with unpredicated
//! window loads and the cheap split, 44–52 with K windows of 32, against the SIMT kernel's 40;
//! with K-contiguous operands loaded two rows per plane instruction (`frag_slot`), 50–56;
//! split on read, 54–58. It is the Cholesky default for large updates where the device runs
//! it.
use crate::gemm::{GemmOp, Layout, MatArgs, Strides, operand_base, store_c, tile_at};
use cubecl::cmma::MmaDefinition;
use cubecl::prelude::*;

/// Units in one plane: `mma.sync` is a 32-lane warp instruction.
pub const MMA_PLANE: usize = 32;

type V4<F> = Vector<F, Const<4>>;
type Frag<F> = Vector<F, Const<1>>;
type V2<F> = Vector<F, Const<2>>;
type Acc = Vector<f32, Const<2>>;

/// Tile shape of the manual-MMA kernel (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MmaTiles {
    pub warps_m: usize,
    pub warps_n: usize,
    /// m16n8 accumulators per plane along rows (16 each) and columns (8 each).
    pub tiles_m: usize,
    pub tiles_n: usize,
    /// K per shared window (a multiple of 8).
    pub tile_k: usize,
    /// K between flushes of the accumulators into f32 sums (a multiple of `tile_k`; 0: one
    /// flush at the end).
    pub flush_k: usize,
    /// Keep the f32 sums in shared memory (`tiles_m·tiles_n·4` words per unit) instead of
    /// registers: fewer registers, one shared read and write per sum and flush. On the H200
    /// it was no faster with session 21's loads, 1.6–3.3 % faster for potrf 8192–16384 with
    /// session 23's, and 0.6–0.9 % slower split on read (session 38; BENCHMARKS.md).
    pub sums_in_shared: bool,
    /// Three TF32 products per step (A_lo·B_hi + A_hi·B_lo + A_hi·B_hi: f32 accuracy). When
    /// false, one (A_hi·B_hi): TF32 accuracy (inputs rounded to 11 significant bits), for
    /// callers that accept it, as `torch.backends.cuda.matmul.allow_tf32` does.
    pub compensated: bool,
    /// Keep the shared windows in f32 (A's quads and B's pairs in fragment order, half the
    /// bytes) and split each fragment into hi and lo after reading it: half the shared reads
    /// and writes per `mma.sync`, for a split per plane that reads the fragment instead of one
    /// per element stored.
    pub split_on_read: bool,
}

impl MmaTiles {
    pub fn tile_m(&self) -> usize {
        self.warps_m * self.tiles_m * 16
    }
    pub fn tile_n(&self) -> usize {
        self.warps_n * self.tiles_n * 8
    }
    pub fn units(&self) -> usize {
        self.warps_m * self.warps_n * MMA_PLANE
    }
    /// Shared memory of one launch in bytes: two windows of A and B fragments, and the sums.
    pub fn shared_bytes(&self) -> usize {
        let sums = if self.sums_in_shared {
            self.tile_m() * self.tile_n() * 4
        } else {
            0
        };
        let window = if self.split_on_read {
            (self.tile_m() + self.tile_n()) * self.tile_k * 4
        } else {
            (self.tile_m() + self.tile_n()) * self.tile_k / 2 * 16
        };
        2 * window + sums
    }
    /// Whether the shape is one the kernel is written for.
    pub fn valid(&self) -> bool {
        self.warps_m >= 1
            && self.warps_n >= 1
            && self.tiles_m >= 1
            && self.tiles_n >= 1
            && self.tile_k >= 8
            && self.tile_k.is_multiple_of(8)
            && self.flush_k.is_multiple_of(self.tile_k)
    }
}

/// The default: 128 × 128 tiles, 2 × 4 planes of 4 × 4 accumulators (64 × 32 each), K windows
/// of 32 split on read, flushed every 128 of K into sums in registers (H200, session 38,
/// BENCHMARKS.md: 56.3 / 57.7 / 53.6 TFLOP/s for A·B / A·Bᵀ / Aᵀ·B at 4096³ and potrf 16384
/// in 37.3 ms, against 51.8 / 56.5 / 50.4 and 38.0 for session 23's default, hi and lo stored
/// with the sums in shared memory, and 55.4 / 56.6 / 53.5 and 37.7 split on read with the sums
/// in shared memory; the SIMT kernel 32–41).
pub const MMA_DEFAULT: MmaTiles = MmaTiles {
    warps_m: 2,
    warps_n: 4,
    tiles_m: 4,
    tiles_n: 4,
    tile_k: 32,
    flush_k: 128,
    sums_in_shared: false,
    compensated: true,
    split_on_read: true,
};

/// Session 23's default, kept to measure and test against: [`MMA_DEFAULT`]'s tiling with hi
/// and lo split when stored and the sums in shared memory (H200, session 38: 51.8 / 56.5 /
/// 50.4 TFLOP/s at 4096³, potrf 16384 in 38.0 ms; BENCHMARKS.md).
pub const MMA_STORED: MmaTiles = MmaTiles {
    split_on_read: false,
    sums_in_shared: true,
    ..MMA_DEFAULT
};

/// [`MMA_DEFAULT`]'s tiling with one TF32 product per step (TF32 accuracy, 1.1e-5 of Σ|a||b|
/// at K = 4096; H200, session 38, BENCHMARKS.md: 92.1 / 101.2 / 80.0 TFLOP/s for A·B / A·Bᵀ /
/// Aᵀ·B at 4096³ and potrf 16384 in 27.0 ms, against 76.9 / 88.9 / 72.6 and 29.0 with hi
/// stored). For callers that accept TF32 products, as `torch.backends.cuda.matmul.allow_tf32`.
pub const MMA_TF32: MmaTiles = MmaTiles {
    compensated: false,
    ..MMA_DEFAULT
};

/// Tiles of 32 × 128 (2 × 4 planes of 1 × 4 accumulators) for products of at most 32 rows
/// with a long K: QR's Vᵀ·C of 32-column panels, as [`crate::gemm::GemmLaunch::thin`]'s SIMT
/// tiles. At nb = 32 that product does 16 flops per byte of C, more than the H200's SIMT units
/// do per byte of bandwidth (~12.5), so tensor cores may stream C faster. Not measured yet.
pub const MMA_THIN: MmaTiles = MmaTiles {
    warps_m: 2,
    warps_n: 4,
    tiles_m: 1,
    tiles_n: 4,
    ..MMA_DEFAULT
};

/// The kernel; public with a dummy-kernel constructor so that `examples/ptx_probe.rs` can
/// compile it for CUDA on a host without a GPU. Launch it through `GemmLaunch`.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn gemm_mma_kernel(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    dims: MatArgs,
    sa: Strides,
    sb: Strides,
    sc: Strides,
    #[comptime] cfg: MmaTiles,
    #[comptime] op: GemmOp,
    // Which operands are K-contiguous: their fragment items are loaded in another order.
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k));
    let (tm, tn) = comptime!((cfg.tiles_m, cfg.tiles_n));
    // One window: A's fragment quads (tile_m·tile_k/2 vectors), then B's (tile_n·tile_k/2).
    let half = comptime!((cfg.tile_m() + cfg.tile_n()) * cfg.tile_k / 2);
    let b_at = comptime!(cfg.tile_m() * cfg.tile_k / 2);
    let steps = comptime!(cfg.tile_k / 8);
    let flush_windows = comptime!(cfg.flush_k / cfg.tile_k);
    // Fragment items per unit and window: A quads, B pairs.
    let ia = comptime!((cfg.tile_m() * cfg.tile_k / 4).div_ceil(cfg.units()));
    let ib = comptime!((cfg.tile_n() * cfg.tile_k / 2).div_ceil(cfg.units()));

    let at = tile_at(&dims, bm, bn, op);
    let (bidx, row0, col0, kdim) = (at.bidx, at.row0, at.col0, at.kdim);
    let unit = UNIT_POS as usize;
    let warp = unit / MMA_PLANE;
    let lane = unit % MMA_PLANE;
    let g = lane / 4;
    let t = lane % 4;
    let wr = (warp / comptime!(cfg.warps_n)) * comptime!(cfg.tiles_m * 16);
    let wc = (warp % comptime!(cfg.warps_n)) * comptime!(cfg.tiles_n * 8);
    let a_base = operand_base(&at, &sa, dims.a_split);
    let b_base = operand_base(&at, &sb, dims.b_split);
    let c_base = sc.offset + bidx * sc.bs;

    // Split on read: A's raw quads (`wa` vectors a window) and B's raw pairs (`wb`).
    let raw = comptime!(cfg.split_on_read);
    let wa = comptime!(cfg.tile_m() * cfg.tile_k / 4);
    let wb = comptime!(cfg.tile_n() * cfg.tile_k / 2);
    let mut sh = Shared::<[V4<tf32>]>::new_slice(comptime!(if raw { 1 } else { 2 * half }));
    let mut sha = Shared::<[V4<f32>]>::new_slice(comptime!(if raw { 2 * wa } else { 1 }));
    let mut shb = Shared::<[V2<f32>]>::new_slice(comptime!(if raw { 2 * wb } else { 1 }));
    let def = MmaDefinition::<tf32, tf32, f32>::new(16usize, 8usize, 8usize);

    let mut acc = Sequence::<Array<Acc>>::new();
    #[unroll]
    for _ in 0..comptime!(tm * tn) {
        let mut x = Array::<Acc>::new(2usize);
        x[0usize] = Acc::broadcast(0.0);
        x[1usize] = Acc::broadcast(0.0);
        acc.push(x);
    }
    // Sum e of this unit: `total[e]`, or `total_sh[e·units + unit]` with `sums_in_shared`.
    let in_sh = comptime!(cfg.sums_in_shared);
    let nsum = comptime!(tm * tn * 4);
    let mut total = Array::<f32>::new(comptime!(if in_sh { 1 } else { nsum }));
    let mut total_sh =
        Shared::<[f32]>::new_slice(comptime!(if in_sh { nsum * cfg.units() } else { 1 }));
    #[unroll]
    for e in 0..nsum {
        if comptime!(in_sh) {
            total_sh[e * comptime!(cfg.units()) + unit] = 0.0;
        } else {
            total[e] = 0.0;
        }
    }
    let mut fb_hi = Sequence::<Array<Frag<tf32>>>::new();
    let mut fb_lo = Sequence::<Array<Frag<tf32>>>::new();
    #[unroll]
    for _ in 0..tn {
        fb_hi.push(Array::<Frag<tf32>>::new(2usize));
        fb_lo.push(Array::<Frag<tf32>>::new(2usize));
    }
    let mut fa_hi = Array::<Frag<tf32>>::new(4usize);
    let mut fa_lo = Array::<Frag<tf32>>::new(4usize);

    let mut pa = Array::<f32>::new(comptime!(4 * ia));
    let mut pb = Array::<f32>::new(comptime!(2 * ib));
    fetch_windows(
        a, b, a_base, b_base, &sa, &sb, &dims, kdim, row0, col0, 0, &mut pa, &mut pb, unit, cfg,
        layout,
    );
    if comptime!(raw) {
        stash_raw(&pa, &pb, &mut sha, &mut shb, 0, 0, unit, cfg, layout);
    } else {
        stash_windows(&pa, &pb, &mut sh, 0, unit, cfg, layout);
    }
    sync_cube();

    let mut k0 = 0usize;
    let mut cur = 0usize;
    let mut windows = 0u32;
    while k0 < kdim {
        let next = k0 + bk;
        if next < kdim {
            fetch_windows(
                a, b, a_base, b_base, &sa, &sb, &dims, kdim, row0, col0, next, &mut pa, &mut pb,
                unit, cfg, layout,
            );
        }
        let w = cur * half;
        #[unroll]
        for s in 0..comptime!(cfg.tile_k / 8) {
            #[unroll]
            for j in 0..tn {
                // [hi b0, hi b1, lo b0, lo b1]
                let mut v = V4::<tf32>::empty();
                if comptime!(raw) {
                    let r = shb[cur * wb + ((wc / 8 + j) * steps + s) * 32 + lane];
                    let q = split_pair::<tf32>(r.extract(0usize), r.extract(1usize));
                    v.insert(0usize, q.extract(0usize));
                    v.insert(1usize, q.extract(2usize));
                    v.insert(2usize, q.extract(1usize));
                    v.insert(3usize, q.extract(3usize));
                } else {
                    v = sh[w + b_at + ((wc / 8 + j) * steps + s) * 32 + lane];
                }
                let hi = fb_hi.index_mut(j);
                hi[0usize] = Frag::<tf32>::new(v.extract(0usize));
                hi[1usize] = Frag::<tf32>::new(v.extract(1usize));
                let lo = fb_lo.index_mut(j);
                lo[0usize] = Frag::<tf32>::new(v.extract(2usize));
                lo[1usize] = Frag::<tf32>::new(v.extract(3usize));
            }
            #[unroll]
            for i in 0..tm {
                if comptime!(raw) {
                    let r = sha[cur * wa + ((wr / 16 + i) * steps + s) * 32 + lane];
                    let p = split_pair::<tf32>(r.extract(0usize), r.extract(1usize));
                    let q = split_pair::<tf32>(r.extract(2usize), r.extract(3usize));
                    fa_hi[0usize] = Frag::<tf32>::new(p.extract(0usize));
                    fa_hi[1usize] = Frag::<tf32>::new(p.extract(2usize));
                    fa_hi[2usize] = Frag::<tf32>::new(q.extract(0usize));
                    fa_hi[3usize] = Frag::<tf32>::new(q.extract(2usize));
                    fa_lo[0usize] = Frag::<tf32>::new(p.extract(1usize));
                    fa_lo[1usize] = Frag::<tf32>::new(p.extract(3usize));
                    fa_lo[2usize] = Frag::<tf32>::new(q.extract(1usize));
                    fa_lo[3usize] = Frag::<tf32>::new(q.extract(3usize));
                } else {
                    let q = w + (((wr / 16 + i) * steps + s) * 2) * 32 + lane;
                    let hq = sh[q];
                    #[unroll]
                    for e in 0..4usize {
                        fa_hi[e] = Frag::<tf32>::new(hq.extract(e));
                    }
                    if comptime!(cfg.compensated) {
                        let lq = sh[q + 32];
                        #[unroll]
                        for e in 0..4usize {
                            fa_lo[e] = Frag::<tf32>::new(lq.extract(e));
                        }
                    }
                }
                #[unroll]
                for j in 0..tn {
                    let d = acc.index_mut(i * tn + j);
                    if comptime!(cfg.compensated) {
                        def.execute_inplace(&fa_lo, fb_hi.index(j), d);
                        def.execute_inplace(&fa_hi, fb_lo.index(j), d);
                    }
                    def.execute_inplace(&fa_hi, fb_hi.index(j), d);
                }
            }
        }
        windows += 1;
        // Uniform per cube.
        let mut flush = next >= kdim;
        if comptime!(flush_windows > 0) {
            flush = flush || windows == comptime!(flush_windows as u32);
        }
        if flush {
            #[unroll]
            for f in 0..comptime!(tm * tn) {
                let d = acc.index_mut(f);
                #[unroll]
                for h in 0..2usize {
                    let v = d[h];
                    #[unroll]
                    for c in 0..2usize {
                        let e = f * 4 + h * 2 + c;
                        if comptime!(in_sh) {
                            total_sh[e * comptime!(cfg.units()) + unit] += v.extract(c);
                        } else {
                            total[e] += v.extract(c);
                        }
                    }
                    d[h] = Acc::broadcast(0.0);
                }
            }
            windows = 0;
        }
        // The other window was last read before the previous barrier.
        if next < kdim {
            if comptime!(raw) {
                let o = 1 - cur;
                stash_raw(
                    &pa,
                    &pb,
                    &mut sha,
                    &mut shb,
                    o * wa,
                    o * wb,
                    unit,
                    cfg,
                    layout,
                );
            } else {
                stash_windows(&pa, &pb, &mut sh, (1 - cur) * half, unit, cfg, layout);
            }
        }
        sync_cube();
        cur = 1 - cur;
        k0 = next;
    }

    // Accumulator element e of tile (i, j): row g + 8·(e / 2), column 2t + e % 2.
    #[unroll]
    for i in 0..tm {
        #[unroll]
        for j in 0..tn {
            #[unroll]
            for e in 0..4usize {
                let gi = row0 + wr + i * 16 + g + (e / 2) * 8;
                let gj = col0 + wc + j * 8 + 2 * t + e % 2;
                let s = (i * tn + j) * 4 + e;
                let v = if comptime!(in_sh) {
                    total_sh[s * comptime!(cfg.units()) + unit]
                } else {
                    total[s]
                };
                store_c(c, c_base, &sc, &dims, gi, gj, v, op);
            }
        }
    }
}

/// This unit's pairs of the A window (rows `row0..` of C, K `k0..`: A(x, k) at
/// `a_base + x·rs + k·cs`) and of the B window (its rows are C's columns `col0..`: (y, k) at
/// `b_base + y·cs + k·rs`) of K window `k0`, into registers.
#[cube]
#[allow(clippy::too_many_arguments)]
fn fetch_windows(
    a: &[f32],
    b: &[f32],
    a_base: usize,
    b_base: usize,
    sa: &Strides,
    sb: &Strides,
    dims: &MatArgs,
    kdim: usize,
    row0: usize,
    col0: usize,
    k0: usize,
    pa: &mut Array<f32>,
    pb: &mut Array<f32>,
    unit: usize,
    #[comptime] cfg: MmaTiles,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    let (ka, kb) = comptime!((!layout.a_col_major, layout.b_col_major));
    // Uniform per cube: whole windows load without predicates (see `load_frags`).
    if k0 + bk <= kdim {
        load_frags(
            a, a_base, sa.rs, sa.cs, row0, k0, dims.m, kdim, pa, unit, bm, bk, units, true, ka,
            false,
        );
        load_frags(
            b, b_base, sb.cs, sb.rs, col0, k0, dims.n, kdim, pb, unit, bn, bk, units, false, kb,
            false,
        );
    } else {
        load_frags(
            a, a_base, sa.rs, sa.cs, row0, k0, dims.m, kdim, pa, unit, bm, bk, units, true, ka,
            true,
        );
        load_frags(
            b, b_base, sb.cs, sb.rs, col0, k0, dims.n, kdim, pb, unit, bn, bk, units, false, kb,
            true,
        );
    }
}

/// The registers of [`fetch_windows`] split into the shared window at vector `off` (A's rows,
/// then B's from `tile_m·tile_k/2`).
#[cube]
fn stash_windows(
    pa: &Array<f32>,
    pb: &Array<f32>,
    sh: &mut Shared<[V4<tf32>]>,
    off: usize,
    unit: usize,
    #[comptime] cfg: MmaTiles,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    let b_at = comptime!(cfg.tile_m() * cfg.tile_k / 2);
    let lo = comptime!(cfg.compensated);
    let (ka, kb) = comptime!((!layout.a_col_major, layout.b_col_major));
    split_frags(pa, sh, off, unit, bm, bk, units, true, ka, lo);
    split_frags(pb, sh, off + b_at, unit, bn, bk, units, false, kb, lo);
}

/// The registers of [`fetch_windows`] stored unsplit: A's quads at `sha[off_a + rest·32 + lane]`
/// and B's pairs at `shb[off_b + rest·32 + lane]` (`rest·32 + lane` = [`frag_slot`]`(idx)`),
/// each one lane's fragment in register order.
#[cube]
#[allow(clippy::too_many_arguments)]
fn stash_raw(
    pa: &Array<f32>,
    pb: &Array<f32>,
    sha: &mut Shared<[V4<f32>]>,
    shb: &mut Shared<[V2<f32>]>,
    off_a: usize,
    off_b: usize,
    unit: usize,
    #[comptime] cfg: MmaTiles,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    let (ka, kb) = comptime!((!layout.a_col_major, layout.b_col_major));
    let steps = comptime!(bk / 8);
    let items_a = comptime!(bm / 16 * steps * 32);
    #[unroll]
    for p in 0..comptime!(items_a.div_ceil(units)) {
        let idx = unit + p * units;
        if idx < items_a {
            let mut q = V4::<f32>::empty();
            #[unroll]
            for e in 0..4usize {
                q.insert(e, pa[4 * p + e]);
            }
            sha[off_a + frag_slot(idx, steps, ka)] = q;
        }
    }
    let items_b = comptime!(bn / 8 * steps * 32);
    #[unroll]
    for p in 0..comptime!(items_b.div_ceil(units)) {
        let idx = unit + p * units;
        if idx < items_b {
            let mut q = V2::<f32>::empty();
            q.insert(0usize, pb[2 * p]);
            q.insert(1usize, pb[2 * p + 1]);
            shb[off_b + frag_slot(idx, steps, kb)] = q;
        }
    }
}

/// This unit's fragment items of an `x_len × k_len` window at (x0, k0) — element (x, k) at
/// `base + x·xs + k·ks`, zeros past `xmax`, `kmax` — into registers. Item `idx = unit + p·units`
/// is fragment slot `rest·32 + lane` = [`frag_slot`]`(idx)` (`idx` itself unless `kmajor`):
/// lane = (g, t) of tile `rest / (k_len / 8)` (16 rows with `quad`, else 8) at K step
/// `rest % (k_len / 8)`: with `quad` (A) the four elements (g, t), (g + 8, t),
/// (g, t + 4), (g + 8, t + 4) into `regs[4p..]`, else (B, x the column) (g, t), (g, t + 4) into
/// `regs[2p..]`.
///
/// Without `tail` (the window lies inside K) the loads carry no predicate: a row past `xmax`
/// reads row `xmax − 1` instead, whose products land only in rows or columns of C that are
/// never stored. Predicated loads into zeroed registers made the H200 stall at every window
/// (ncu, session 21: a third of the stall samples on one register move among the loads).
#[cube]
// The two unpredicated arms differ in their guard: one is comptime.
#[allow(clippy::too_many_arguments, clippy::if_same_then_else)]
fn load_frags(
    src: &[f32],
    base: usize,
    xs: usize,
    ks: usize,
    x0: usize,
    k0: usize,
    xmax: usize,
    kmax: usize,
    regs: &mut Array<f32>,
    unit: usize,
    #[comptime] x_len: usize,
    #[comptime] k_len: usize,
    #[comptime] units: usize,
    #[comptime] quad: bool,
    #[comptime] kmajor: bool,
    #[comptime] tail: bool,
) {
    let rows = comptime!(if quad { 16 } else { 8 });
    let per = comptime!(if quad { 4 } else { 2 });
    let items = comptime!(x_len / rows * k_len / 8 * 32);
    #[unroll]
    for p in 0..comptime!(items.div_ceil(units)) {
        let idx = unit + p * units;
        let slot = frag_slot(idx, comptime!(k_len / 8), kmajor);
        let lane = slot % 32;
        let rest = slot / 32;
        let x = x0 + (rest / comptime!(k_len / 8)) * rows + lane / 4;
        let k = k0 + (rest % comptime!(k_len / 8)) * 8 + lane % 4;
        #[unroll]
        for e in 0..per {
            // e = 2·(k half) + (row half) with `quad`, else the k half.
            let mut gx = x;
            let mut gk = k;
            if comptime!(quad) {
                gx += (e % 2) * 8;
                gk += (e / 2) * 4;
            } else {
                gk += e * 4;
            }
            if comptime!(tail) {
                let mut v = 0.0f32;
                if idx < items && gx < xmax && gk < kmax {
                    v = src[base + gx * xs + gk * ks];
                }
                regs[per * p + e] = v;
            } else if comptime!(items % units == 0) {
                regs[per * p + e] = src[base + cubecl::prelude::min(gx, xmax - 1) * xs + gk * ks];
            } else if idx < items {
                regs[per * p + e] = src[base + cubecl::prelude::min(gx, xmax - 1) * xs + gk * ks];
            }
        }
    }
}

/// Split the items of [`load_frags`] and store them at `off`: with `quad` the hi quad at vector
/// `(2·rest)·32 + lane` and the lo quad 32 vectors on (`rest·32 + lane` = [`frag_slot`]`(idx)`), else
/// `[hi b0, hi b1, lo b0, lo b1]` at `rest·32 + lane`; each is one lane's fragment, in register
/// order. Without `with_lo` (one TF32 product) A's lo quads are not stored.
#[cube]
#[allow(clippy::too_many_arguments)]
fn split_frags(
    regs: &Array<f32>,
    sh: &mut Shared<[V4<tf32>]>,
    off: usize,
    unit: usize,
    #[comptime] x_len: usize,
    #[comptime] k_len: usize,
    #[comptime] units: usize,
    #[comptime] quad: bool,
    #[comptime] kmajor: bool,
    #[comptime] with_lo: bool,
) {
    let rows = comptime!(if quad { 16 } else { 8 });
    let items = comptime!(x_len / rows * k_len / 8 * 32);
    #[unroll]
    for p in 0..comptime!(items.div_ceil(units)) {
        let idx = unit + p * units;
        let slot = frag_slot(idx, comptime!(k_len / 8), kmajor);
        let lane = slot % 32;
        let rest = slot / 32;
        if idx < items {
            if comptime!(quad) {
                let a = split_pair::<tf32>(regs[4 * p], regs[4 * p + 1]);
                let b = split_pair::<tf32>(regs[4 * p + 2], regs[4 * p + 3]);
                let mut hi = V4::<tf32>::empty();
                let mut lo = V4::<tf32>::empty();
                hi.insert(0usize, a.extract(0usize));
                hi.insert(1usize, a.extract(2usize));
                hi.insert(2usize, b.extract(0usize));
                hi.insert(3usize, b.extract(2usize));
                lo.insert(0usize, a.extract(1usize));
                lo.insert(1usize, a.extract(3usize));
                lo.insert(2usize, b.extract(1usize));
                lo.insert(3usize, b.extract(3usize));
                sh[off + rest * 64 + lane] = hi;
                if comptime!(with_lo) {
                    sh[off + rest * 64 + 32 + lane] = lo;
                }
            } else {
                let a = split_pair::<tf32>(regs[2 * p], regs[2 * p + 1]);
                let mut q = V4::<tf32>::empty();
                q.insert(0usize, a.extract(0usize));
                q.insert(1usize, a.extract(2usize));
                q.insert(2usize, a.extract(1usize));
                q.insert(3usize, a.extract(3usize));
                sh[off + rest * 32 + lane] = q;
            }
        }
    }
}

/// The fragment slot `rest·32 + lane` (rest = tile·(k_len/8) + K step, lane = 4g + t) that
/// unit item `idx` loads and stores. Row- or column-ordered sources (`kmajor` false): `idx`
/// itself, so a plane's 32 items are one (tile, step), whose 8 values of g are 8 consecutive
/// rows — coalesced where rows are contiguous. K-contiguous sources: within each tile's
/// 32·steps items, t fastest, then the low bit of g, then the K step, then g's upper bits:
/// a plane loads 2 rows × (4 t × steps) of K instead of 8 rows × 4 t, so each load
/// instruction touches 2 lines of the row-major source instead of 8 (ncu, session 23: half of
/// every 32-byte sector unused, L1 the busiest unit); each 8 consecutive items still store 8
/// consecutive fragment vectors (no bank conflict).
#[cube]
fn frag_slot(idx: usize, #[comptime] steps: usize, #[comptime] kmajor: bool) -> usize {
    let mut slot = idx;
    if comptime!(kmajor) {
        let per_tile = comptime!(32 * steps);
        let r = idx % per_tile;
        let t = r % 4;
        let g = (r / (8 * steps)) * 2 + (r / 4) % 2;
        let step = (r / 8) % steps;
        slot = ((idx / per_tile) * steps + step) * 32 + g * 4 + t;
    }
    slot
}

/// `[hi(v0), lo(v0), hi(v1), lo(v1)]`: hi = x rounded to TF32 (half an ulp added to the bits,
/// then the 13 low bits cleared: nearest, ties away from zero) and lo = x − hi, exact in f32.
/// lo keeps its low bits: `mma.sync` reads a TF32 operand's top 19 bits, so it is truncated
/// there (|lo| ≤ 2⁻¹¹|x|, so that costs at most 2⁻²¹|x|, with either sign). Three instructions
/// per element, where CubeCL's checked f32 → tf32 casts took nine (ncu, session 21).
/// A NaN may lose its payload in hi, but lo = x − hi is then NaN; finite values within 2⁻¹²
/// of the largest f32 round to an infinite hi and a NaN result.
#[cube]
pub fn split_pair<T: Float>(v0: f32, v1: f32) -> V4<T> {
    let h0 = (u32::reinterpret(v0) + 0x1000u32) & 0xffff_e000u32;
    let h1 = (u32::reinterpret(v1) + 0x1000u32) & 0xffff_e000u32;
    let mut q = V4::<T>::empty();
    q.insert(0usize, T::reinterpret(h0));
    q.insert(1usize, T::reinterpret(v0 - f32::reinterpret(h0)));
    q.insert(2usize, T::reinterpret(h1));
    q.insert(3usize, T::reinterpret(v1 - f32::reinterpret(h1)));
    q
}
