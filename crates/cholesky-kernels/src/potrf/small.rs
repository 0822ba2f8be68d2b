//! Batched small Cholesky: one small cube of `units` units per matrix of order n ≤ nb (a unit
//! per row on GPUs: one or two planes, so a barrier costs little), left-looking (Crout), the
//! whole op in one launch.
//!
//! Storage: shared memory holds the lower triangle row-major in vectors of 4,
//! `t[i·ldv + k/4][k % 4] = a_ik` (k ≤ i; zeros elsewhere), ldv = nb/4 + 1 (rows 4 words
//! apart in the banks, so 8 units reading vectors of 8 rows hit no bank twice). Step j
//! overwrites column j of A with column j of L:
//! l_jj = √(a_jj − Σ_{k<j} l_jk²), l_ij = (a_ij − Σ_{k<j} l_ik·l_jk) / l_jj for i > j.
//! Unit u owns rows u, u + units, …: the sums run over whole vectors of its own rows against
//! the same vector of row j for every unit (one shared word for all), four independent
//! multiply-add chains each, four vectors' loads in flight at once, the last partial vector
//! masked. Every unit computes the pivot
//! itself (the same sums in the same order, so the branch on it is uniform); the diagonal goes
//! to its own vector, so the only words step j writes are its units' own rows, and one barrier
//! per step publishes them.
//!
//! A pivot that is not > 0 (NaN included) stops the matrix with `info = j + 1`; its factor
//! then holds L's first j columns and zeros. Rows whose block of units lies above j are
//! skipped (a uniform test), so the work is about the n³/6 multiply-adds of the factorization.
use crate::config::SmallConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Element `m` (runtime, < 4) of `v`, without a dynamic extract.
#[cube]
fn pick<F: Float>(v: Vector<F, Const<4>>, m: usize) -> F {
    let mut x = v.extract(0usize);
    x = select(m == 1, v.extract(1usize), x);
    x = select(m == 2, v.extract(2usize), x);
    select(m == 3, v.extract(3usize), x)
}

/// `v` with the elements from `m` on set to zero.
#[cube]
fn head<F: Float>(v: Vector<F, Const<4>>, m: usize) -> Vector<F, Const<4>> {
    let mut w = v;
    #[unroll]
    for c in 0..4usize {
        w.insert(c, select(c < m, v.extract(c), F::new(0.0)));
    }
    w
}

/// `v` with element `m` set to `x`.
#[cube]
fn put<F: Float>(v: Vector<F, Const<4>>, m: usize, x: F) -> Vector<F, Const<4>> {
    let mut w = v;
    #[unroll]
    for c in 0..4usize {
        w.insert(c, select(c == m, x, v.extract(c)));
    }
    w
}

#[cube]
fn sum4<F: Float>(v: Vector<F, Const<4>>) -> F {
    (v.extract(0usize) + v.extract(1usize)) + (v.extract(2usize) + v.extract(3usize))
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
    let nb = comptime!(cfg.nb);
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
    let mut diag = Shared::<[F]>::new_slice(nb);
    let zero = Vector::<F, Const<4>>::broadcast(F::new(0.0));

    // `info` and `flags` are written for every matrix (their buffers start uninitialised).
    let mut bad = Shared::<[u32]>::new_slice(1usize);
    if unit == 0 {
        bad[0] = 0;
    }
    sync_cube();

    // Load: unit e takes vector e (row e / nv, columns 4·(e % nv) + 0..4).
    let sb = ss.offset + b * ss.bs;
    let mut e = unit;
    while e < nb * nv {
        let i = e / nv;
        let c = e % nv;
        let mut w = zero;
        #[unroll]
        for q in 0..4usize {
            let k = 4 * c + q;
            let mut v = F::new(0.0);
            if i < n && k <= i {
                v = src[sb + i * ss.rs + k * ss.cs];
                let finite = F::abs(v) <= F::new(f32::MAX);
                if !finite {
                    bad[0] = 1;
                }
            }
            w.insert(q, v);
        }
        t[i * ldv + c] = w;
        e += units;
    }
    sync_cube();

    let mut s = Array::<F>::new(rows);
    let mut own = Array::<Vector<F, Const<4>>>::new(rows);
    let mut acc = Array::<Vector<F, Const<4>>>::new(rows);
    let mut lq = Array::<Vector<F, Const<4>>>::new(4usize);
    let mut fail = 0usize;
    let mut j = 0usize;
    while j < n {
        let jv = j / 4;
        let jm = j % 4;
        let rowj = j * ldv;
        // The vector holding column j: a_jj, a_ij, and the last (partial) vector of the sums.
        let dv = t[rowj + jv];
        let mut d = pick::<F>(dv, jm);
        let lm = head::<F>(dv, jm);
        let mut dacc = lm * lm;
        #[unroll(cfg.unroll)]
        for r in 0..rows {
            let w = t[(unit + r * units) * ldv + jv];
            own[r] = w;
            s[r] = pick::<F>(w, jm);
            acc[r] = w * lm;
        }
        // Four vectors per trip, their loads issued together; then the rest one by one.
        let mut kv = 0usize;
        while kv + 4 <= jv {
            #[unroll]
            for q in 0..4usize {
                let lv = t[rowj + kv + q];
                lq[q] = lv;
                dacc += lv * lv;
            }
            #[unroll(cfg.unroll)]
            for r in 0..rows {
                // Uniform: some row of this block is below j.
                if (r + 1) * units > j + 1 {
                    let base = (unit + r * units) * ldv + kv;
                    #[unroll]
                    for q in 0..4usize {
                        acc[r] += t[base + q] * lq[q];
                    }
                }
            }
            kv += 4;
        }
        while kv < jv {
            let lv = t[rowj + kv];
            dacc += lv * lv;
            #[unroll(cfg.unroll)]
            for r in 0..rows {
                acc[r] += t[(unit + r * units) * ldv + kv] * lv;
            }
            kv += 1;
        }
        d -= sum4::<F>(dacc);
        if d > F::new(0.0) {
            let l = F::sqrt(d);
            let inv = F::new(1.0) / l;
            #[unroll(cfg.unroll)]
            for r in 0..rows {
                let i = unit + r * units;
                if i > j && i < n {
                    let x = (s[r] - sum4::<F>(acc[r])) * inv;
                    t[i * ldv + jv] = put::<F>(own[r], jm, x);
                }
            }
            if unit == 0 {
                diag[j] = l;
            }
            sync_cube();
            j += 1;
        } else {
            fail = j + 1;
            j = n;
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
                if k < done {
                    if k < i {
                        v = w.extract(q);
                    } else if k == i {
                        v = diag[k];
                    }
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
