//! Error-compensated 3×TF32 GEMM on tensor cores: C ← β·C ± A·B at f32 accuracy.
//!
//! Each f32 element x of A and B is split as x ≈ hi + lo with hi = tf32(x) (round to nearest,
//! 10 mantissa bits) and lo = tf32(x − hi). Then A·B ≈ A_hi·B_hi + A_hi·B_lo + A_lo·B_hi, three
//! 16×16×8 TF32 tensor-core products accumulated in f32. The dropped A_lo·B_lo and the rounding
//! of lo leave a relative error of about 2⁻²¹ per product, the level of an f32 FMA, where plain
//! TF32 (cubek-matmul's f32 default) leaves 2⁻¹¹.
//!
//! Same operands and contract as [`crate::gemm`] (strided views, batch, split-K, comptime
//! [`GemmOp`]); only the arithmetic differs.
//!
//! Tiling: a cube computes a `tile_m × tile_n` block of C with `warps_m × warps_n` planes of 32
//! units; each plane owns `frags_m × frags_n` 16×16 accumulators. K advances `tile_k` at a time:
//! the units load the next A and B windows from global memory into registers while the current
//! ones multiply, then split them and store the hi and lo parts in shared memory, each in its
//! operand's layout (K-contiguous rows padded by 4 elements, K-major rows by 8, so fragment loads
//! do not collide on banks).
//!
//! Accumulation: tensor cores add with truncation, which over K = 4096 costs 3e-6 relative to
//! Σ|a||b| (measured on the H200, plain f32 FMA: 7e-8). So every `flush_k` of K the
//! accumulators pass through a 16×16 per-plane area of shared memory into f32 sums (adds
//! rounded to nearest; in registers, or in shared memory with `sums_in_shared`) and restart
//! from zero. At the end each lane writes its sums to C under [`GemmOp`]'s masks (ragged edges,
//! lower triangle, sign, β).
use crate::gemm::{GemmOp, Layout, MatArgs, Strides, load_window, operand_base, store_c, tile_at};
use cubecl::cmma::{self, MatrixIdent, MatrixLayout};
use cubecl::prelude::*;

/// Units in one plane: the kernel is written for 32-lane warps.
pub const PLANE: usize = 32;
/// Side of one accumulator fragment, and K of one tensor-core step.
const FRAG: usize = 16;
const FRAG_K: usize = 8;

/// Tile shape of the tensor-core kernel (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TcConfig {
    pub warps_m: usize,
    pub warps_n: usize,
    /// 16×16 accumulators per plane along rows and columns.
    pub frags_m: usize,
    pub frags_n: usize,
    /// K per shared-memory window (a multiple of 8).
    pub tile_k: usize,
    /// K between flushes of the tensor-core accumulators into f32 sums (a multiple of
    /// `tile_k`; 0: one flush at the end).
    pub flush_k: usize,
    /// Keep the f32 sums in shared memory (`tile_m·tile_n` more f32 per cube) instead of
    /// registers (`frags_m·frags_n·8` more per unit). Measured no faster on the H200 (potrf
    /// 16384: 79.1 ms against 76.9, BENCHMARKS.md), so off by default.
    pub sums_in_shared: bool,
}

impl TcConfig {
    pub fn tile_m(&self) -> usize {
        self.warps_m * self.frags_m * FRAG
    }
    pub fn tile_n(&self) -> usize {
        self.warps_n * self.frags_n * FRAG
    }
    pub fn warps(&self) -> usize {
        self.warps_m * self.warps_n
    }
    pub fn units(&self) -> usize {
        self.warps() * PLANE
    }
    /// Elements of one operand's shared window (`rows` of the non-K dimension) in `layout`.
    fn window_len(&self, rows: usize, k_major: bool) -> usize {
        if k_major {
            self.tile_k * (rows + 8)
        } else {
            rows * (self.tile_k + 4)
        }
    }
    /// Shared memory of one launch with operand layout `layout`, in bytes: hi and lo windows of
    /// A and B and a 16×16 staging area per plane.
    pub fn shared_bytes(&self, layout: Layout) -> usize {
        let a = self.window_len(self.tile_m(), layout.a_col_major);
        let b = self.window_len(self.tile_n(), !layout.b_col_major);
        let sums = if self.sums_in_shared {
            self.tile_m() * self.tile_n()
        } else {
            0
        };
        4 * (2 * a + 2 * b + self.warps() * FRAG * FRAG + sums)
    }
    /// Whether the shape is one the kernel is written for.
    pub fn valid(&self) -> bool {
        self.warps() >= 1
            && self.frags_m >= 1
            && self.frags_n >= 1
            && self.tile_k >= FRAG_K
            && self.tile_k.is_multiple_of(FRAG_K)
            && self.flush_k.is_multiple_of(self.tile_k)
    }
}

/// The default tiling: 128 × 128 × 32, 16 planes of 2 × 2 accumulators, flushed every 128 of
/// K (H200 sweep, BENCHMARKS.md: the fastest for potrf at 16384 and for 4096³ products;
/// larger plane tiles spill).
pub const TC_DEFAULT: TcConfig = TcConfig {
    warps_m: 4,
    warps_n: 4,
    frags_m: 2,
    frags_n: 2,
    tile_k: 32,
    flush_k: 128,
    sums_in_shared: false,
};

#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn gemm_tc_kernel(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    dims: MatArgs,
    sa: Strides,
    sb: Strides,
    sc: Strides,
    #[comptime] cfg: TcConfig,
    #[comptime] op: GemmOp,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    let (fm, fnn) = comptime!((cfg.frags_m, cfg.frags_n));
    // A is K-major when stored column by column; B when stored row by row.
    let a_kmaj = comptime!(layout.a_col_major);
    let b_kmaj = comptime!(!layout.b_col_major);
    let a_ld = comptime!(if a_kmaj { bm + 8 } else { bk + 4 });
    let b_ld = comptime!(if b_kmaj { bn + 8 } else { bk + 4 });
    let a_len = comptime!(cfg.window_len(bm, a_kmaj));
    let b_len = comptime!(cfg.window_len(bn, b_kmaj));
    let stage_len = comptime!(cfg.warps() * FRAG * FRAG);
    let per_lane = comptime!(FRAG * FRAG / PLANE);
    let flush_tiles = comptime!(cfg.flush_k / cfg.tile_k);
    let a_layout = comptime!(if a_kmaj {
        MatrixLayout::ColMajor
    } else {
        MatrixLayout::RowMajor
    });
    let b_layout = comptime!(if b_kmaj {
        MatrixLayout::RowMajor
    } else {
        MatrixLayout::ColMajor
    });

    let at = tile_at(&dims, bm, bn, op);
    let (bidx, row0, col0, kdim) = (at.bidx, at.row0, at.col0, at.kdim);
    let unit = UNIT_POS as usize;
    let warp = unit / PLANE;
    let lane = unit % PLANE;
    let wm = warp / comptime!(cfg.warps_n);
    let wn = warp % comptime!(cfg.warps_n);
    let a_base = operand_base(&at, &sa, dims.a_split);
    let b_base = operand_base(&at, &sb, dims.b_split);
    let c_base = sc.offset + bidx * sc.bs;

    let mut a_hi = Shared::<[f32]>::new_slice(a_len);
    let mut a_lo = Shared::<[f32]>::new_slice(a_len);
    let mut b_hi = Shared::<[f32]>::new_slice(b_len);
    let mut b_lo = Shared::<[f32]>::new_slice(b_len);
    let mut stage = Shared::<[f32]>::new_slice(stage_len);
    let st = warp * comptime!(FRAG * FRAG);
    // The f32 sums of this lane's elements of each accumulator (element lane + e·32 of its
    // row-major 16×16, the e-th of accumulator f at f·8 + e), in registers or in shared memory
    // (the plane's at sums_at, lane-interleaved).
    let nsum = comptime!(fm * fnn * per_lane);
    let in_sh = comptime!(cfg.sums_in_shared);
    let mut total = Array::<f32>::new(comptime!(if in_sh { 1 } else { nsum }));
    let mut total_sh = Shared::<[f32]>::new_slice(comptime!(if in_sh { bm * bn } else { 1 }));
    let sums_at = warp * comptime!(nsum * PLANE) + lane;
    #[unroll]
    for e in 0..nsum {
        if comptime!(in_sh) {
            total_sh[sums_at + e * PLANE] = 0.0;
        } else {
            total[e] = 0.0;
        }
    }
    let na = comptime!((bk * bm).div_ceil(units));
    let nb = comptime!((bk * bn).div_ceil(units));
    let mut pa = Array::<f32>::new(na);
    let mut pb = Array::<f32>::new(nb);
    load_window(
        a, a_base, sa.rs, sa.cs, row0, 0, dims.m, kdim, &mut pa, unit, bm, bk, units, !a_kmaj, true,
    );
    load_window(
        b, b_base, sb.rs, sb.cs, 0, col0, kdim, dims.n, &mut pb, unit, bk, bn, units, b_kmaj, true,
    );
    split_store(
        &pa, &mut a_hi, &mut a_lo, unit, bm, bk, units, !a_kmaj, a_kmaj, a_ld,
    );
    split_store(
        &pb, &mut b_hi, &mut b_lo, unit, bk, bn, units, b_kmaj, !b_kmaj, b_ld,
    );
    sync_cube();

    let mut acc = Sequence::<cmma::Matrix<f32>>::new();
    #[unroll]
    for _ in 0..comptime!(fm * fnn) {
        acc.push(cmma::Matrix::<f32>::from_value(
            MatrixIdent::Accumulator,
            FRAG,
            FRAG,
            FRAG_K,
            MatrixLayout::Undefined,
            0.0,
        ));
    }
    let mut fa_hi = Sequence::<cmma::Matrix<tf32>>::new();
    let mut fa_lo = Sequence::<cmma::Matrix<tf32>>::new();
    let mut fb_hi = Sequence::<cmma::Matrix<tf32>>::new();
    let mut fb_lo = Sequence::<cmma::Matrix<tf32>>::new();
    #[unroll]
    for _ in 0..fm {
        // SAFETY: loaded below before any use.
        fa_hi.push(unsafe {
            cmma::Matrix::<tf32>::uninitialized(MatrixIdent::A, FRAG, FRAG, FRAG_K, a_layout)
        });
        fa_lo.push(unsafe {
            cmma::Matrix::<tf32>::uninitialized(MatrixIdent::A, FRAG, FRAG, FRAG_K, a_layout)
        });
    }
    #[unroll]
    for _ in 0..fnn {
        // SAFETY: loaded below before any use.
        fb_hi.push(unsafe {
            cmma::Matrix::<tf32>::uninitialized(MatrixIdent::B, FRAG, FRAG, FRAG_K, b_layout)
        });
        fb_lo.push(unsafe {
            cmma::Matrix::<tf32>::uninitialized(MatrixIdent::B, FRAG, FRAG, FRAG_K, b_layout)
        });
    }

    let mut k0 = 0usize;
    let mut tiles = 0u32;
    while k0 < kdim {
        let next = k0 + bk;
        // Uniform per cube.
        if next < kdim {
            load_window(
                a, a_base, sa.rs, sa.cs, row0, next, dims.m, kdim, &mut pa, unit, bm, bk, units,
                !a_kmaj, true,
            );
            load_window(
                b, b_base, sb.rs, sb.cs, next, col0, kdim, dims.n, &mut pb, unit, bk, bn, units,
                b_kmaj, true,
            );
        }
        #[unroll]
        for ks in 0..comptime!(bk / FRAG_K) {
            #[unroll]
            for i in 0..fm {
                let r = (wm * fm + i) * FRAG;
                let mut off = r * a_ld + ks * FRAG_K;
                if comptime!(a_kmaj) {
                    off = ks * FRAG_K * a_ld + r;
                }
                cmma::load(fa_hi.index_mut(i), a_hi.slice(off, a_len), a_ld as u32);
                cmma::load(fa_lo.index_mut(i), a_lo.slice(off, a_len), a_ld as u32);
            }
            #[unroll]
            for j in 0..fnn {
                let col = (wn * fnn + j) * FRAG;
                let mut off = col * b_ld + ks * FRAG_K;
                if comptime!(b_kmaj) {
                    off = ks * FRAG_K * b_ld + col;
                }
                cmma::load(fb_hi.index_mut(j), b_hi.slice(off, b_len), b_ld as u32);
                cmma::load(fb_lo.index_mut(j), b_lo.slice(off, b_len), b_ld as u32);
            }
            #[unroll]
            for i in 0..fm {
                #[unroll]
                for j in 0..fnn {
                    let d = acc.index(i * fnn + j);
                    // Small terms first.
                    cmma::execute(fa_lo.index(i), fb_hi.index(j), d, d);
                    cmma::execute(fa_hi.index(i), fb_lo.index(j), d, d);
                    cmma::execute(fa_hi.index(i), fb_hi.index(j), d, d);
                }
            }
        }
        tiles += 1;
        // Uniform per cube.
        let mut flush = next >= kdim;
        if comptime!(flush_tiles > 0) {
            flush = flush || tiles == comptime!(flush_tiles as u32);
        }
        if flush {
            flush_acc(
                &mut acc,
                &mut total,
                &mut total_sh,
                sums_at,
                &mut stage,
                st,
                lane,
                fm * fnn,
                in_sh,
            );
            tiles = 0;
        }
        sync_cube();
        if next < kdim {
            split_store(
                &pa, &mut a_hi, &mut a_lo, unit, bm, bk, units, !a_kmaj, a_kmaj, a_ld,
            );
            split_store(
                &pb, &mut b_hi, &mut b_lo, unit, bk, bn, units, b_kmaj, !b_kmaj, b_ld,
            );
        }
        sync_cube();
        k0 = next;
    }

    #[unroll]
    for i in 0..fm {
        #[unroll]
        for j in 0..fnn {
            let r0 = row0 + (wm * fm + i) * FRAG;
            let c0 = col0 + (wn * fnn + j) * FRAG;
            #[unroll]
            for e in 0..per_lane {
                let idx = lane + e * PLANE;
                let gi = r0 + idx / FRAG;
                let gj = c0 + idx % FRAG;
                let f = (i * fnn + j) * per_lane + e;
                let v = if comptime!(in_sh) {
                    total_sh[sums_at + f * PLANE]
                } else {
                    total[f]
                };
                store_c(c, c_base, &sc, &dims, gi, gj, v, op);
            }
        }
    }
}

/// Add the `count` tensor-core accumulators into this lane's f32 sums (through the plane's
/// 16×16 staging area at `st`) and zero them: `total` in registers, or `total_sh` from
/// `sums_at` with stride 32 (`in_sh`). The tensor cores add with truncation; the f32 adds here
/// round to nearest, so the truncation error grows with `flush_k`, not with K.
#[cube]
#[allow(clippy::too_many_arguments)]
fn flush_acc(
    acc: &mut Sequence<cmma::Matrix<f32>>,
    total: &mut Array<f32>,
    total_sh: &mut Shared<[f32]>,
    sums_at: usize,
    stage: &mut Shared<[f32]>,
    st: usize,
    lane: usize,
    #[comptime] count: usize,
    #[comptime] in_sh: bool,
) {
    let per_lane = comptime!(FRAG * FRAG / PLANE);
    #[unroll]
    for f in 0..count {
        cmma::store(
            stage.slice_mut(st, st + FRAG * FRAG),
            acc.index(f),
            FRAG as u32,
            MatrixLayout::RowMajor,
        );
        sync_plane();
        #[unroll]
        for e in 0..per_lane {
            let x = stage[st + lane + e * PLANE];
            if comptime!(in_sh) {
                total_sh[sums_at + (f * per_lane + e) * PLANE] += x;
            } else {
                total[f * per_lane + e] += x;
            }
        }
        sync_plane();
        cmma::fill(acc.index_mut(f), 0.0);
    }
}

/// Store the registers of [`load_window`] (a `rows × cols` window, `col_fastest` as loaded) to
/// the hi and lo windows: element (r, c) at `c·ld + r` (`col_major_store`) or `r·ld + c`.
#[cube]
#[allow(clippy::too_many_arguments)]
fn split_store(
    regs: &Array<f32>,
    hi: &mut Shared<[f32]>,
    lo: &mut Shared<[f32]>,
    unit: usize,
    #[comptime] rows: usize,
    #[comptime] cols: usize,
    #[comptime] units: usize,
    #[comptime] col_fastest: bool,
    #[comptime] col_major_store: bool,
    #[comptime] ld: usize,
) {
    #[unroll]
    for t in 0..comptime!((rows * cols).div_ceil(units)) {
        let idx = unit + t * units;
        let mut r = idx % rows;
        let mut c = idx / rows;
        if comptime!(col_fastest) {
            r = idx / cols;
            c = idx % cols;
        }
        if idx < comptime!(rows * cols) {
            let x = regs[t];
            let h = round_to::<tf32>(x);
            let l = round_to::<tf32>(x - h);
            let mut at = r * ld + c;
            if comptime!(col_major_store) {
                at = c * ld + r;
            }
            hi[at] = h;
            lo[at] = l;
        }
    }
}

/// `x` rounded to the nearest value of `T` (on CUDA, `__float_to_tf32` for TF32), as f32.
#[cube]
fn round_to<T: Float>(x: f32) -> f32 {
    f32::cast_from(T::cast_from(x))
}
