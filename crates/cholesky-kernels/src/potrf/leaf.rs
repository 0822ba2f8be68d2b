//! The fused small-matrix Cholesky: one cube factors one nt×nt diagonal block (nt ≤ nb) in
//! shared memory — the recursion's leaves, and the whole factorization of a batch of small
//! matrices in one launch.
//!
//! Right-looking, one column per step: d = √a_jj; a_ij /= d below it; the trailing lower
//! triangle loses the outer product; two barriers per column. A pivot that is not > 0 (NaN
//! included) stops the block and stores `info = d0 + j + 1` (1-based, in the whole matrix) —
//! only if `info` was still 0, and a block whose matrix already failed is skipped, so `info` is
//! the first failing leading minor, as LAPACK's spotrf.
use crate::config::LeafConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Reads the lower triangle of the nt×nt block `src`, writes L (zeros above the diagonal) to
/// `dst` (may be the same view: everything is read before anything is written). With `check`,
/// a NaN or infinite value read sets `flags[b]`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn potrf_leaf_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    nt: usize,
    d0: usize,
    batch: usize,
    #[comptime] cfg: LeafConfig,
    #[comptime] check: bool,
) {
    let ld = comptime!(cfg.nb + 1);
    let units = comptime!(cfg.units);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    if info[bidx] != 0 {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let sbase = ss.offset + bidx * ss.bs;
    let dbase = sd.offset + bidx * sd.bs;
    let mut sh = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));

    let count = nt * nt;
    let mut idx = unit;
    while idx < count {
        let i = idx / nt;
        let j = idx % nt;
        if j <= i {
            let v = src[sbase + i * ss.rs + j * ss.cs];
            if comptime!(check) {
                let finite = F::abs(v) <= F::new(f32::MAX);
                if !finite {
                    flags[bidx] = 1;
                }
            }
            sh[i * ld + j] = v;
        }
        idx += units;
    }
    sync_cube();

    let mut fail = 0usize;
    let mut j = 0usize;
    while j < nt {
        // Every unit reads the same pivot: the branch is uniform.
        let p = sh[j * ld + j];
        if p > F::new(0.0) {
            let d = F::sqrt(p);
            let inv = F::new(1.0) / d;
            let mut i = j + 1 + unit;
            while i < nt {
                sh[i * ld + j] *= inv;
                i += units;
            }
            sync_cube();
            let w = nt - j - 1;
            let mut e = unit;
            while e < w * w {
                let r = j + 1 + e / w;
                let c = j + 1 + e % w;
                if c <= r {
                    let upd = sh[r * ld + j] * sh[c * ld + j];
                    sh[r * ld + c] -= upd;
                }
                e += units;
            }
            if unit == 0 {
                sh[j * ld + j] = d;
            }
            sync_cube();
            j += 1;
        } else {
            fail = j + 1;
            j = nt;
        }
    }

    let mut idx = unit;
    while idx < count {
        let i = idx / nt;
        let j = idx % nt;
        let mut v = F::new(0.0);
        if j <= i {
            v = sh[i * ld + j];
        }
        dst[dbase + i * sd.rs + j * sd.cs] = v;
        idx += units;
    }
    if fail > 0 && unit == 0 {
        info[bidx] = (d0 + fail) as u32;
    }
}
