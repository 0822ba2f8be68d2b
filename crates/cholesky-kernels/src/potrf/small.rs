//! Batched small Cholesky: one small cube of `units` units per matrix of order n ≤ nb (a unit
//! per row on GPUs: one or two planes, so a barrier costs little), left-looking (Crout) by
//! blocks of four columns, the whole op in one launch.
//!
//! Storage: shared memory holds the lower triangle row-major in vectors of 4,
//! `t[i·ldv + k/4][k % 4] = a_ik` (k ≤ i; zeros elsewhere), ldv = nb/4 + 1 (rows 4 words
//! apart in the banks, so 8 units reading vectors of 8 rows hit no bank twice). Block J (the
//! columns j = 4·jv … j + 3, one vector) overwrites those columns of A with L's:
//! 1. every unit updates its rows i ≥ j: u_i = a_iJ − Σ_{kv<jv} L_{i,kv}·L_{J,kv}ᵀ (four
//!    vector multiply-add chains, one per column of J, against rows j … j+3, which every unit
//!    reads from the same shared words); the rows of J publish u to `dblk`; barrier;
//! 2. every unit factors the 4×4 block of `dblk` itself (the same operations in the same
//!    order, so the pivot test is uniform), solves its rows below J against it
//!    (x = u·L_JJ⁻ᵀ) and stores them, and the rows of J store L_JJ's rows; barrier.
//!
//! Two barriers per four columns; every word a block writes is its own units' rows.
//!
//! A pivot that is not > 0 (NaN included) at column c stops the matrix with `info = c + 1`;
//! its factor then holds L's first c columns and zeros. Rows above j are skipped, so the
//! work is about the n³/6 multiply-adds of the factorization.
use crate::config::SmallConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

#[cube]
fn sum4<F: Float>(v: Vector<F, Const<4>>) -> F {
    (v.extract(0usize) + v.extract(1usize)) + (v.extract(2usize) + v.extract(3usize))
}

#[cube]
fn vec4<F: Float>(a: F, b: F, c: F, d: F) -> Vector<F, Const<4>> {
    let mut w = Vector::<F, Const<4>>::broadcast(a);
    w.insert(1usize, b);
    w.insert(2usize, c);
    w.insert(3usize, d);
    w
}

/// `src`: matrix `b`'s lower triangle at `ss` (only k ≤ i is read); `dst`: L with zeros above
/// the diagonal; `info[b]` (0 or the failed pivot's order) and `flags[b]` (1 if a NaN or
/// infinity was read, else 0) are always written.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn small_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    n: usize,
    batch: usize,
    #[comptime] cfg: SmallConfig,
) {
    let units = comptime!(cfg.units);
    let rows = comptime!(cfg.nb / cfg.units);
    let nv = comptime!(cfg.nb / 4);
    let ldv = comptime!(cfg.nb / 4 + 1);

    let b = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if b >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let mut t = Shared::<[Vector<F, Const<4>>]>::new_slice(comptime!(cfg.nb * (cfg.nb / 4 + 1)));
    let mut dblk = Shared::<[Vector<F, Const<4>>]>::new_slice(4usize);
    let zero = Vector::<F, Const<4>>::broadcast(F::new(0.0));

    // `info` and `flags` are written for every matrix (their buffers start uninitialised).
    let mut bad = Shared::<[u32]>::new_slice(1usize);
    if unit == 0 {
        bad[0] = 0;
    }
    sync_cube();

    // Load: unit e takes vectors e, e + units, … (row e / nv, columns 4·(e % nv) + 0..4),
    // every read issued before the first store.
    let per = comptime!(cfg.nb * (cfg.nb / 4) / cfg.units);
    let sb = ss.offset + b * ss.bs;
    let mut vals = Array::<Vector<F, Const<4>>>::new(per);
    let mut nonfinite = false;
    #[unroll(cfg.unroll)]
    for it in 0..per {
        let e = unit + it * units;
        let i = e / nv;
        let c = e % nv;
        let mut w = zero;
        #[unroll]
        for q in 0..4usize {
            let k = 4 * c + q;
            if i < n && k <= i {
                let v = src[sb + i * ss.rs + k * ss.cs];
                let finite = F::abs(v) <= F::new(f32::MAX);
                nonfinite = nonfinite || !finite;
                w.insert(q, v);
            }
        }
        vals[it] = w;
    }
    #[unroll(cfg.unroll)]
    for it in 0..per {
        let e = unit + it * units;
        t[(e / nv) * ldv + e % nv] = vals[it];
    }
    if nonfinite {
        bad[0] = 1;
    }
    sync_cube();

    let mut own = Array::<Vector<F, Const<4>>>::new(rows);
    let mut fail = 0usize;
    let blocks = n.div_ceil(4);
    let mut jv = 0usize;
    while jv < blocks {
        let j = 4 * jv;
        // 1. u_i = a_iJ − L_i,:j · L_J,:jᵀ for the units' rows i ≥ j.
        #[unroll(cfg.unroll)]
        for r in 0..rows {
            let i = unit + r * units;
            if i >= j {
                let base = i * ldv;
                let mut a0 = zero;
                let mut a1 = zero;
                let mut a2 = zero;
                let mut a3 = zero;
                let mut kv = 0usize;
                // Two vectors per trip, their loads issued together; then the last one.
                while kv + 2 <= jv {
                    #[unroll]
                    for q in 0..2usize {
                        let x = t[base + kv + q];
                        a0 += x * t[j * ldv + kv + q];
                        a1 += x * t[(j + 1) * ldv + kv + q];
                        a2 += x * t[(j + 2) * ldv + kv + q];
                        a3 += x * t[(j + 3) * ldv + kv + q];
                    }
                    kv += 2;
                }
                if kv < jv {
                    let x = t[base + kv];
                    a0 += x * t[j * ldv + kv];
                    a1 += x * t[(j + 1) * ldv + kv];
                    a2 += x * t[(j + 2) * ldv + kv];
                    a3 += x * t[(j + 3) * ldv + kv];
                }
                let u = t[base + jv]
                    - vec4::<F>(sum4::<F>(a0), sum4::<F>(a1), sum4::<F>(a2), sum4::<F>(a3));
                own[r] = u;
                if i < j + 4 {
                    dblk[i - j] = u;
                }
            }
        }
        sync_cube();

        // 2. L_JJ (every unit, identically), then the rows below J.
        let d0 = dblk[0];
        let d1 = dblk[1];
        let d2 = dblk[2];
        let d3 = dblk[3];
        let p0 = d0.extract(0usize);
        let i0 = F::inverse_sqrt(p0);
        let l00 = p0 * i0;
        let l10 = d1.extract(0usize) * i0;
        let l20 = d2.extract(0usize) * i0;
        let l30 = d3.extract(0usize) * i0;
        let p1 = d1.extract(1usize) - l10 * l10;
        let i1 = F::inverse_sqrt(p1);
        let l11 = p1 * i1;
        let l21 = (d2.extract(1usize) - l20 * l10) * i1;
        let l31 = (d3.extract(1usize) - l30 * l10) * i1;
        let p2 = d2.extract(2usize) - l20 * l20 - l21 * l21;
        let i2 = F::inverse_sqrt(p2);
        let l22 = p2 * i2;
        let l32 = (d3.extract(2usize) - l30 * l20 - l31 * l21) * i2;
        let p3 = d3.extract(3usize) - l30 * l30 - l31 * l31 - l32 * l32;
        let i3 = F::inverse_sqrt(p3);
        let l33 = p3 * i3;
        // The first column of J (below n) whose pivot is not > 0; 4 if none.
        let m = n - j;
        let ok0 = p0 > F::new(0.0);
        let ok1 = p1 > F::new(0.0);
        let ok2 = p2 > F::new(0.0);
        let ok3 = p3 > F::new(0.0);
        let mut c = 4usize;
        if !ok3 && m > 3 {
            c = 3;
        }
        if !ok2 && m > 2 {
            c = 2;
        }
        if !ok1 && m > 1 {
            c = 1;
        }
        if !ok0 {
            c = 0;
        }
        #[unroll(cfg.unroll)]
        for r in 0..rows {
            let i = unit + r * units;
            if i >= j && i < n {
                // Row j + 3 of L_JJ unless replaced below.
                let q = i - j;
                let z = F::new(0.0);
                let mut w = vec4::<F>(l30, l31, l32, l33);
                if q >= 4 {
                    let u = own[r];
                    let x0 = u.extract(0usize) * i0;
                    let x1 = (u.extract(1usize) - x0 * l10) * i1;
                    let x2 = (u.extract(2usize) - x0 * l20 - x1 * l21) * i2;
                    let x3 = (u.extract(3usize) - x0 * l30 - x1 * l31 - x2 * l32) * i3;
                    w = vec4::<F>(x0, x1, x2, x3);
                } else if q == 0 {
                    w = vec4::<F>(l00, z, z, z);
                } else if q == 1 {
                    w = vec4::<F>(l10, l11, z, z);
                } else if q == 2 {
                    w = vec4::<F>(l20, l21, l22, z);
                }
                t[i * ldv + jv] = w;
            }
        }
        sync_cube();
        if c < 4 {
            fail = j + c + 1;
            jv = blocks;
        } else {
            jv += 1;
        }
    }

    // Columns from a failed pivot on are not L: written as zeros.
    let mut done = n;
    if fail > 0 {
        done = fail - 1;
    }
    let db = sd.offset + b * sd.bs;
    let mut e = unit;
    while e < n * nv {
        let i = e / nv;
        let c = e % nv;
        let w = t[i * ldv + c];
        #[unroll]
        for q in 0..4usize {
            let k = 4 * c + q;
            if k < n {
                let mut v = F::new(0.0);
                if k < done && k <= i {
                    v = w.extract(q);
                }
                dst[db + i * sd.rs + k * sd.cs] = v;
            }
        }
        e += units;
    }
    if unit == 0 {
        info[b] = fail as u32;
        flags[b] = bad[0];
    }
}
