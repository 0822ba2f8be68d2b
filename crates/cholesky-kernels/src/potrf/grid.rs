//! Batched small Cholesky on a grid of register tiles: the lower triangle of each nb × nb
//! matrix (order n ≤ nb) split into T × T tiles, one unit per tile (g(g + 1)/2 units, g =
//! nb/T), `mats` matrices per cube, right-looking, one barrier per column, the whole op in
//! one launch.
//!
//! Storage: the unit of tile (I, K), K ≤ I, holds `a[r·T + c] = a_ik` (i = I·T + r,
//! k = K·T + c) in registers; tiles are numbered column by column (K = 0: I = 0 … g − 1, then
//! K = 1, …). Entries above the diagonal of a diagonal tile are scratch, never stored. Rows
//! n … nb − 1 are the identity, so a ragged order needs no special case.
//! Step j: the broadcast buffer `col` holds column j with its entries at rows ≤ j zeroed,
//! and the pivot d = a_jj in slot nb. Every unit whose tile still has a column ≥ j reads d,
//! x_i = a_ij/d for its rows and a_kj for its columns, and subtracts x_i·a_kj from its T²
//! entries: the zeros make the update a no-op on finished rows and columns (and on column j
//! itself), so there is no branch inside a tile. The owners of column j scale it by 1/√d.
//! Column j + 1 is updated and published first (into the other buffer: one barrier per
//! column), then the rest. Each shared word read feeds T multiply-adds, against one with a
//! unit per row (`rows.rs`), whose shared-memory return rate bounds it.
//! The load and the store go through shared memory (`t`: the tiles one after another,
//! T² + 1 words apart, so the units of a plane reading their tiles hit distinct banks), in
//! the order of the smaller stride, so both are coalesced for lower (row-major) and upper
//! (transposed view) alike.
//! A pivot that is not > 0 (NaN included) at column c sets `info = c + 1`; the factor then
//! holds L's first c columns and zeros, as [`super::small`]'s.
use crate::config::GridConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// `src`: matrix `b`'s lower triangle at `ss` (only k ≤ i < n is read); `dst`: L with zeros
/// above the diagonal; `info[b]` (0 or the failed pivot's order) and `flags[b]` (1 if a NaN
/// or infinity was read, else 0) are always written. Matrix b = cube·mats + UNIT_POS / units.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn grid_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    n: usize,
    batch: usize,
    #[comptime] cfg: GridConfig,
) {
    let nb = comptime!(cfg.nb);
    let tt = comptime!(cfg.tile);
    let g = comptime!(cfg.nb / cfg.tile);
    let units = comptime!(cfg.units());
    let mats = comptime!(cfg.mats);
    // Words per tile in `t`, and element loads per unit (the nb² of its matrix, strided).
    let ts = comptime!(cfg.tile * cfg.tile + 1);
    let per = comptime!((cfg.nb * cfg.nb).div_ceil(cfg.units()));
    let chunk = comptime!(GridConfig::CHUNK);
    let trips = comptime!(per.div_ceil(GridConfig::CHUNK));
    let lcol = comptime!(cfg.nb + 1);

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

    // This unit's tile (ti, tk): tiles numbered column by column.
    let mut tk = 0usize;
    let mut rem = u;
    #[unroll(cfg.unroll)]
    for q in 0..g {
        if tk == q && rem >= g - q {
            rem -= g - q;
            tk += 1;
        }
    }
    let ti = tk + rem;

    let mut t = Shared::<[F]>::new_slice(comptime!(cfg.mats * cfg.units() * ts));
    let mut col = Shared::<[F]>::new_slice(comptime!(2 * cfg.mats * (cfg.nb + 1)));
    let mut bad = Shared::<[u32]>::new_slice(comptime!(cfg.mats));
    let tb = m * comptime!(cfg.units() * (cfg.tile * cfg.tile + 1));

    // Load in the order of the smaller source stride: element e of the nb × nb block is
    // (e / nb, e % nb) row-major, (e % nb, e / nb) column-major; tiles above the diagonal are
    // neither read nor staged.
    let scol = ss.rs < ss.cs;
    let sb = ss.offset + b * ss.bs;
    let mut nonfinite = false;
    let mut vals = Array::<F>::new(chunk);
    // Trips and the steps' tile columns are run-time loops: the kernel's code stays within
    // the instruction cache (a whole unrolled kernel stalled on instruction fetch on the H200).
    for c0 in 0..trips {
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
            if live && e < nb * nb && i < n && k <= i {
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
            let bi = i / tt;
            let bk = k / tt;
            if e < nb * nb && bk <= bi {
                let tile = bk * g - bk * (bk + 1) / 2 + bi;
                t[tb + tile * ts + (i % tt) * tt + k % tt] = vals[q];
            }
        }
    }
    if u == 0 {
        bad[m] = 0;
    }
    sync_cube();
    if nonfinite {
        bad[m] = 1;
    }

    // The tile into registers; column 0 published (rows ≤ 0 zeroed, the pivot in slot nb).
    let mut a = Array::<F>::new(comptime!(cfg.tile * cfg.tile));
    #[unroll(cfg.unroll)]
    for e in 0..comptime!(cfg.tile * cfg.tile) {
        a[e] = t[tb + u * ts + e];
    }
    let cb = m * lcol;
    if tk == 0 {
        #[unroll(cfg.unroll)]
        for r in 0..tt {
            let i = ti * tt + r;
            let mut v = F::new(0.0);
            if i > 0 {
                v = a[r * tt];
            }
            col[cb + i] = v;
        }
        if ti == 0 {
            col[cb + nb] = a[0];
        }
    }
    sync_cube();

    let mut fail = 0usize;
    let mut x = Array::<F>::new(comptime!(cfg.tile));
    let mut y = Array::<F>::new(comptime!(cfg.tile));
    // Step j = jb·T + jj: jj (unrolled) gives every register index; T is even, so the
    // buffer parity is jj's.
    for jb in 0..g {
        #[unroll(cfg.unroll)]
        for jj in 0..tt {
            let j = jb * tt + jj;
            let cur = (jj % 2) * comptime!(cfg.mats * (cfg.nb + 1)) + cb;
            let nxt = ((jj + 1) % 2) * comptime!(cfg.mats * (cfg.nb + 1)) + cb;
            let d = col[cur + nb];
            let rs = F::inverse_sqrt(d);
            let pos = d > F::new(0.0);
            if !pos && fail == 0 {
                fail = j + 1;
            }
            // Tiles whose columns are all < j are finished; after a failed pivot nothing runs (a
            // NaN times a zero of the broadcast would reach the finished columns).
            if fail == 0 && j < tk * tt + tt {
                let r2 = rs * rs;
                #[unroll(cfg.unroll)]
                for r in 0..tt {
                    x[r] = col[cur + ti * tt + r] * r2;
                    y[r] = col[cur + tk * tt + r];
                }
                if tk == jb {
                    #[unroll(cfg.unroll)]
                    for r in 0..tt {
                        a[r * tt + jj] *= rs;
                    }
                }
                // Column j + 1 first (it gates the next barrier); it is column c1 of tile column
                // jb1.
                let j1 = j + 1;
                let c1 = (jj + 1) % tt;
                let mut jb1 = jb;
                if jj + 1 == tt {
                    jb1 = jb + 1;
                }
                if j1 < nb {
                    #[unroll(cfg.unroll)]
                    for r in 0..tt {
                        a[r * tt + c1] -= x[r] * y[c1];
                    }
                    if tk == jb1 {
                        #[unroll(cfg.unroll)]
                        for r in 0..tt {
                            let i = ti * tt + r;
                            let w = a[r * tt + c1];
                            let mut v = F::new(0.0);
                            if i > j1 {
                                v = w;
                            }
                            col[nxt + i] = v;
                            if i == j1 {
                                col[nxt + nb] = w;
                            }
                        }
                    }
                }
                #[unroll(cfg.unroll)]
                for c in 0..tt {
                    if c != c1 || j1 >= nb {
                        #[unroll(cfg.unroll)]
                        for r in 0..tt {
                            a[r * tt + c] -= x[r] * y[c];
                        }
                    }
                }
            }
            sync_cube();
        }
    }

    // Columns from a failed pivot on are not L: stored as zeros, as is the upper triangle.
    let mut done = n;
    if fail > 0 {
        done = fail - 1;
    }
    #[unroll(cfg.unroll)]
    for r in 0..tt {
        #[unroll(cfg.unroll)]
        for c in 0..tt {
            let i = ti * tt + r;
            let k = tk * tt + c;
            let mut v = F::new(0.0);
            if k <= i && k < done {
                v = a[r * tt + c];
            }
            t[tb + u * ts + r * tt + c] = v;
        }
    }
    sync_cube();

    let dcol = sd.rs < sd.cs;
    let db = sd.offset + b * sd.bs;
    if live {
        for it in 0..per {
            let e = it * units + u;
            let mut i = e / nb;
            let mut k = e % nb;
            if dcol {
                i = e % nb;
                k = e / nb;
            }
            if e < nb * nb && i < n && k < n {
                let bi = i / tt;
                let bk = k / tt;
                let mut v = F::new(0.0);
                if bk <= bi {
                    let tile = bk * g - bk * (bk + 1) / 2 + bi;
                    v = t[tb + tile * ts + (i % tt) * tt + k % tt];
                }
                dst[db + i * sd.rs + k * sd.cs] = v;
            }
        }
        if u == 0 {
            info[b] = fail as u32;
            flags[b] = bad[m];
        }
    }
}
