//! Batched small Cholesky with the matrix in registers: `units` units per matrix of order
//! n ≤ nb, `mats` matrices per cube, right-looking, one barrier per column, the whole op in
//! one launch.
//!
//! Storage: unit u of a matrix holds rows i = s·units + u (slot s < nb/units) in registers,
//! `a[s·nb + k] = a_ik` for k below the slot's end (s + 1)·units (only k ≤ i is meaningful;
//! the rest is scratch that is never stored). Rows n … nb − 1 are the identity, so a ragged
//! order needs no special case: the factor of diag(A, I) is diag(L, I).
//! Column j is broadcast through a shared buffer `col` (two of them, alternating, so one
//! barrier per column suffices): the owners of rows > j publish a_ij, then every unit reads
//! the pivot d = a_jj, scales its own l_ij = a_ij/√d and updates its rows,
//! a_ik −= (l_ij/√d)·a_kj for j < k < the slot's end, reading a_kj from `col`. Column j + 1 is
//! updated and published first, the rest after, so the next barrier waits on little.
//! The load and the store go through shared memory (`t`, rows nb + 1 words apart: the units
//! of a plane reading their rows hit distinct banks), in the order of the smaller stride, so
//! both are coalesced for lower (row-major) and upper (transposed view) alike.
//!
//! Vector I/O (`cfg.vec`, only where both matrices' rows are contiguous and 16-byte aligned
//! and n is a multiple of 4): the load reads the lower triangle's 4-vectors (those with
//! 4v ≤ i, so up to three elements past the diagonal; they are zeroed before any use or check)
//! coalesced into `tv` (for lower, rows nb/4 + 1 vectors apart), and each unit takes its rows from there;
//! the store goes back the same way. Same values, far fewer instructions than the scalar
//! path's per-element index arithmetic (ptxas 13, nb = 64, 32 units: 7024 against 9584), which
//! also leaves two rows per unit in 187 registers without spilling: the GPU default for
//! nb = 64 with vector I/O (`RowsConfig::new`, BENCHMARKS.md). Upper (`cfg.cols`: the kernel's
//! views are transposed, so their columns are contiguous) moves 4 × 4 blocks: four vectors
//! down a block's columns, transposed in registers into its rows of `tv`, and back. Its units
//! then touch rows 4·b + r for consecutive b, so its staging rows are skewed
//! (`RowsConfig::vec_row`, [`tv_at`]) to keep those 128-bit accesses free of bank conflicts.
//!
//! Slots wholly above column j skip it at compile time (unrolled); inside a slot every row
//! runs every column's update (rows above the column update scratch), so a unit does about
//! Σ_s ((s + 1)·units)²/2 multiply-adds. With a unit per row that is nb²/2 per unit, about 3×
//! the n³/6 of the factorization, with no branch in the unrolled code; with two rows per unit
//! (slots of nb/2), 5·nb²/8.
//! Skipping finished rows (per row, or per plane) did not make it faster on the H200: each
//! barrier waits for the plane of the last rows, which does the whole step (BENCHMARKS.md).
//! A pivot that is not > 0 (NaN included) at column c sets `info = c + 1`; the factor then
//! holds L's first c columns and zeros, as [`super::small`]'s.
use crate::config::RowsConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

type V4<F> = Vector<F, Const<4>>;

/// `src`: matrix `b`'s lower triangle at `ss` (only k ≤ i < n is used; the vector load also
/// reads the rest of the 4-vector holding a_ii); `dst`: L with zeros above the diagonal;
/// `info[b]` (0 or the failed pivot's order) and `flags[b]` (1 if the triangle held a NaN or
/// infinity, else 0) are always written. Matrix b = cube·mats + UNIT_POS / units.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub fn rows_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    n: usize,
    batch: usize,
    #[comptime] cfg: RowsConfig,
) {
    let nb = comptime!(cfg.nb);
    let units = comptime!(cfg.units);
    let mats = comptime!(cfg.mats);
    let slots = comptime!(cfg.nb / cfg.units);
    let ld = comptime!(cfg.nb + 1);
    let per = comptime!(cfg.nb * cfg.nb / cfg.units);
    // Loads in flight per unit before their shared-memory stores.
    let chunk = comptime!(cfg.chunk());

    let unit = UNIT_POS as usize;
    let m = unit / units;
    let u = unit % units;
    let cube = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    let b = cube * mats + m;
    // A cube whose matrices are all past the batch leaves before any barrier (uniform).
    if cube * mats >= batch {
        terminate!();
    }
    // Matrices past the batch in a ragged last cube run on zeros (identity) and store nothing.
    let live = b < batch;

    let vec = comptime!(cfg.vec);
    let cols = comptime!(cfg.cols);
    let mut t = Shared::<[F]>::new_slice(comptime!(if cfg.vec {
        1
    } else {
        cfg.mats * cfg.nb * (cfg.nb + 1)
    }));
    let mut tv = Shared::<[V4<F>]>::new_slice(comptime!(if cfg.vec {
        cfg.mats * cfg.vec_block()
    } else {
        1
    }));
    let vw = comptime!(cfg.nb / 4);
    let ldv = comptime!(cfg.vec_row());
    let skew = comptime!(cfg.vec_skew());
    let tvb = m * comptime!(cfg.vec_block());
    let mut col = Shared::<[F]>::new_slice(comptime!(2 * cfg.mats * cfg.nb));
    let mut bad = Shared::<[u32]>::new_slice(comptime!(cfg.mats));
    let tb = m * comptime!(cfg.nb * (cfg.nb + 1));

    // Load in the order of the smaller source stride: element e of the nb × nb block is
    // (e / nb, e % nb) row-major, (e % nb, e / nb) column-major.
    let scol = ss.rs < ss.cs;
    let sb = ss.offset + b * ss.bs;
    let mut nonfinite = false;
    if vec {
        let srcv = src.as_vectorized().with_vector_size::<Const<4>>();
        let sbv = sb / 4;
        // `load_whole`: every load issued in one unrolled trip before the first store, else two
        // trips of a run-time loop where they split evenly.
        let (trips, inner) = comptime!((cfg.vec_loads(), cfg.vec_loads_per_trip()));
        if cols {
            // 4 × 4 blocks (rows 4·bi …, columns 4·bk …) holding elements with k ≤ i < n: four
            // vectors down the block's columns, transposed in registers into its row vectors.
            // ptxas 13, nb = 64, 32 units: 224 registers in one trip, 141 in two.
            let csv = ss.cs / 4;
            for outer in 0..comptime!(trips / inner) {
                #[unroll(cfg.unroll)]
                for it2 in 0..inner {
                    let it = outer * inner + it2;
                    let (bk, bi) = vec_slot(it, u, units, vw);
                    if bk < vw {
                        let mut g = Array::<V4<F>>::new(4usize);
                        #[unroll]
                        for c in 0..4usize {
                            g[c] = V4::<F>::broadcast(F::new(0.0));
                            if live && 4 * bi < n && bk <= bi {
                                g[c] = srcv[sbv + (4 * bk + c) * csv + bi];
                            }
                        }
                        #[unroll]
                        for r in 0..4usize {
                            let i = 4 * bi + r;
                            let mut w = V4::<F>::broadcast(F::new(0.0));
                            #[unroll]
                            for c in 0..4usize {
                                let k = 4 * bk + c;
                                if k <= i {
                                    let x = g[c].extract(r);
                                    w.insert(c, x);
                                    let finite = F::abs(x) <= F::new(f32::MAX);
                                    nonfinite = nonfinite || !finite;
                                }
                                if i >= n && k == i {
                                    w.insert(c, F::new(1.0));
                                }
                            }
                            tv[tvb + tv_at(i, bk, ldv, skew)] = w;
                        }
                    }
                }
            }
        } else {
            // Vector v of row i: (i, 4v … 4v + 3), read where 4v ≤ i < n. ptxas 13, nb = 64,
            // 32 units: 187 registers in one trip, 147 in two.
            let rsv = ss.rs / 4;
            for outer in 0..comptime!(trips / inner) {
                #[unroll(cfg.unroll)]
                for it2 in 0..inner {
                    let (i, v) = vec_slot(outer * inner + it2, u, units, vw);
                    let mut w = V4::<F>::broadcast(F::new(0.0));
                    if live && i < n && 4 * v <= i {
                        w = srcv[sbv + i * rsv + v];
                    }
                    #[unroll]
                    for c in 0..4usize {
                        let k = 4 * v + c;
                        let x = w.extract(c);
                        if k > i {
                            w.insert(c, F::new(0.0));
                        } else {
                            let finite = F::abs(x) <= F::new(f32::MAX);
                            nonfinite = nonfinite || !finite;
                        }
                        if i >= n && k == i {
                            w.insert(c, F::new(1.0));
                        }
                    }
                    tv[tvb + tv_at(i, v, ldv, skew)] = w;
                }
            }
        }
    }
    let mut vals = Array::<F>::new(chunk);
    #[unroll(cfg.unroll)]
    for c0 in 0..comptime!(if cfg.vec { 0 } else { per / chunk }) {
        #[unroll(cfg.unroll)]
        for q in 0..chunk {
            let e = (c0 * chunk + q) * units + u;
            let mut i = e / nb;
            let mut k = e % nb;
            if scol {
                i = e % nb;
                k = e / nb;
            }
            let mut v = F::new(0.0);
            if i >= n && i == k {
                v = F::new(1.0);
            }
            if live && i < n && k <= i {
                v = src[sb + i * ss.rs + k * ss.cs];
                let finite = F::abs(v) <= F::new(f32::MAX);
                nonfinite = nonfinite || !finite;
            }
            vals[q] = v;
        }
        #[unroll(cfg.unroll)]
        for q in 0..chunk {
            let e = (c0 * chunk + q) * units + u;
            let mut i = e / nb;
            let mut k = e % nb;
            if scol {
                i = e % nb;
                k = e / nb;
            }
            t[tb + i * ld + k] = vals[q];
        }
    }
    if u == 0 {
        bad[m] = 0;
    }
    sync_cube();
    if nonfinite {
        bad[m] = 1;
    }

    // Rows into registers; column 0 published.
    let mut a = Array::<F>::new(comptime!(cfg.nb * cfg.nb / cfg.units));
    #[unroll(cfg.unroll)]
    for s in 0..slots {
        let i = s * units + u;
        if vec {
            #[unroll(cfg.unroll)]
            for v in 0..vw {
                if 4 * v < (s + 1) * units {
                    let w = tv[tvb + tv_at(i, v, ldv, skew)];
                    #[unroll]
                    for c in 0..4usize {
                        if 4 * v + c < (s + 1) * units {
                            a[s * nb + 4 * v + c] = w.extract(c);
                        }
                    }
                }
            }
        } else {
            #[unroll(cfg.unroll)]
            for k in 0..nb {
                if k < (s + 1) * units {
                    a[s * nb + k] = t[tb + i * ld + k];
                }
            }
        }
        col[m * nb + i] = a[s * nb];
    }
    sync_cube();

    let mut fail = 0usize;
    #[unroll(cfg.unroll)]
    for j in 0..nb {
        let cur = (j % 2) * comptime!(cfg.mats * cfg.nb) + m * nb;
        let nxt = ((j + 1) % 2) * comptime!(cfg.mats * cfg.nb) + m * nb;
        let d = col[cur + j];
        let r = F::inverse_sqrt(d);
        let pos = d > F::new(0.0);
        if !pos && fail == 0 {
            fail = j + 1;
        }
        // Column j + 1 first (it gates the next barrier), then the rest of each slot.
        #[unroll(cfg.unroll)]
        for s in 0..slots {
            let end = (s + 1) * units;
            if end > j {
                let l = a[s * nb + j] * r;
                a[s * nb + j] = l;
                if j + 1 < end {
                    let x = l * r;
                    a[s * nb + j + 1] -= x * col[cur + j + 1];
                    col[nxt + s * units + u] = a[s * nb + j + 1];
                }
            }
        }
        #[unroll(cfg.unroll)]
        for s in 0..slots {
            let end = (s + 1) * units;
            if end > j + 1 {
                let x = a[s * nb + j] * r;
                #[unroll(cfg.unroll)]
                for k in 0..nb {
                    if k > j + 1 && k < end {
                        a[s * nb + k] -= x * col[cur + k];
                    }
                }
            }
        }
        sync_cube();
    }

    // Columns from a failed pivot on are not L: stored as zeros, as is the upper triangle.
    let mut done = n;
    if fail > 0 {
        done = fail - 1;
    }
    #[unroll(cfg.unroll)]
    for s in 0..slots {
        let i = s * units + u;
        if vec {
            #[unroll(cfg.unroll)]
            for v in 0..vw {
                let mut w = V4::<F>::broadcast(F::new(0.0));
                #[unroll]
                for c in 0..4usize {
                    let k = 4 * v + c;
                    if k < (s + 1) * units {
                        if k <= i && k < done {
                            w.insert(c, a[s * nb + k]);
                        }
                    }
                }
                tv[tvb + tv_at(i, v, ldv, skew)] = w;
            }
        } else {
            #[unroll(cfg.unroll)]
            for k in 0..nb {
                let mut v = F::new(0.0);
                if k < (s + 1) * units {
                    if k <= i && k < done {
                        v = a[s * nb + k];
                    }
                }
                t[tb + i * ld + k] = v;
            }
        }
    }
    sync_cube();

    let dcol = sd.rs < sd.cs;
    let db = sd.offset + b * sd.bs;
    if live && vec {
        let dstv = dst.as_vectorized_mut().with_vector_size_mut::<Const<4>>();
        let dbv = db / 4;
        if cols {
            // 4 × 4 blocks: their row vectors transposed in registers into vectors down the
            // columns.
            let csv = sd.cs / 4;
            #[unroll(cfg.unroll)]
            for it in 0..comptime!(cfg.vec_loads()) {
                let (bk, bi) = vec_slot(it, u, units, vw);
                if bk < vw && 4 * bi < n && 4 * bk < n {
                    let mut h = Array::<V4<F>>::new(4usize);
                    #[unroll]
                    for r in 0..4usize {
                        h[r] = tv[tvb + tv_at(4 * bi + r, bk, ldv, skew)];
                    }
                    #[unroll]
                    for c in 0..4usize {
                        let mut w = V4::<F>::broadcast(F::new(0.0));
                        #[unroll]
                        for r in 0..4usize {
                            w.insert(r, h[r].extract(c));
                        }
                        dstv[dbv + (4 * bk + c) * csv + bi] = w;
                    }
                }
            }
        } else {
            let rsv = sd.rs / 4;
            #[unroll(cfg.unroll)]
            for it in 0..comptime!(cfg.vec_loads()) {
                let (i, v) = vec_slot(it, u, units, vw);
                if i < n && 4 * v < n {
                    dstv[dbv + i * rsv + v] = tv[tvb + tv_at(i, v, ldv, skew)];
                }
            }
        }
    }
    if live {
        #[unroll(cfg.unroll)]
        for it in 0..comptime!(if cfg.vec { 0 } else { per }) {
            let e = it * units + u;
            let mut i = e / nb;
            let mut k = e % nb;
            if dcol {
                i = e % nb;
                k = e / nb;
            }
            if i < n && k < n {
                dst[db + i * sd.rs + k * sd.cs] = t[tb + i * ld + k];
            }
        }
        if u == 0 {
            info[b] = fail as u32;
            flags[b] = bad[m];
        }
    }
}

/// Slot `it` of unit `u`, (p, v) = (e / vw, e % vw) for e = it·units + u: vector v of row p,
/// or with `cols` block v of block column p. Consecutive units take consecutive v, so a
/// plane's global loads and stores are coalesced.
#[cube]
fn vec_slot(
    it: usize,
    u: usize,
    #[comptime] units: usize,
    #[comptime] vw: usize,
) -> (usize, usize) {
    let e = it * units + u;
    (e / vw, e % vw)
}

/// Vector v of staging row i: `ldv` ([`RowsConfig::vec_row`]) vectors per row, with `skew`
/// one more per four rows ([`RowsConfig::vec_skew`]).
#[cube]
fn tv_at(i: usize, v: usize, #[comptime] ldv: usize, #[comptime] skew: bool) -> usize {
    let mut at = i * ldv + v;
    if skew {
        at += i / 4;
    }
    at
}
