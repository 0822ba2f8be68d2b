//! Batched Cholesky of small matrices (n ≤ 2·plane width) with one plane (warp) per matrix,
//! the matrix in registers: lane ℓ holds rows ℓ, ℓ + 32 (nb = 64) whole. Step j (unrolled)
//! broadcasts the pivot from its owner lane, scales column j, and for every k > j broadcasts
//! l_kj so each lane updates its rows' column k: no shared memory, no barriers. Rows and columns
//! past n are the identity (its factor is itself), so one kernel serves every n ≤ nb.
//! `info` and the non-finite flag as in the diagonal-block kernel.
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Comptime shape: nb = rows per lane × 32, planes (matrices) per cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WarpConfig {
    pub nb: usize,
    pub lanes: usize,
    pub planes: usize,
}

#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn warp_potrf_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    n: usize,
    batch: usize,
    #[comptime] cfg: WarpConfig,
) {
    let nb = comptime!(cfg.nb);
    let lanes = comptime!(cfg.lanes);
    let rpl = comptime!(cfg.nb / cfg.lanes);
    let unit = UNIT_POS as usize;
    let lane = unit % lanes;
    let cube = (CUBE_POS_X + CUBE_POS_Y * CUBE_COUNT_X) as usize;
    let bidx = cube * comptime!(cfg.planes) + unit / lanes;
    // Whole planes leave together; the kernel has no barrier.
    if bidx >= batch {
        terminate!();
    }
    let sbase = ss.offset + bidx * ss.bs;
    let dbase = sd.offset + bidx * sd.bs;
    let mut a = Array::<F>::new(comptime!(cfg.nb * cfg.nb / cfg.lanes));
    let mut bad = false;
    #[unroll]
    for r in 0..rpl {
        let i = lane + r * lanes;
        #[unroll]
        for c in 0..nb {
            let mut v = F::new(0.0);
            if i < n && c <= i {
                v = src[sbase + i * ss.rs + c * ss.cs];
                let finite = F::abs(v) <= F::new(f32::MAX);
                bad = bad || !finite;
            } else if i == c {
                v = F::new(1.0);
            }
            a[r * nb + c] = v;
        }
    }
    if bad {
        flags[bidx] = 1;
    }
    let mut fail = 0u32;
    #[unroll]
    for j in 0..nb {
        let p = plane_shuffle(a[(j / lanes) * nb + j], (j % lanes) as u32);
        let ok = p > F::new(0.0);
        if fail == 0 && !ok {
            fail = (j + 1) as u32;
        }
        let inv_s = F::new(1.0) / F::sqrt(p);
        #[unroll]
        for r in 0..rpl {
            let i = lane + r * lanes;
            if i >= j {
                a[r * nb + j] *= inv_s;
            }
        }
        // k ≤ j is a constant condition once unrolled (both indices are literals).
        #[unroll]
        for k in 0..nb {
            if k > j {
                let lkj = plane_shuffle(a[(k / lanes) * nb + j], (k % lanes) as u32);
                #[unroll]
                for r in 0..rpl {
                    let i = lane + r * lanes;
                    if i >= k {
                        let upd = a[r * nb + j] * lkj;
                        a[r * nb + k] -= upd;
                    }
                }
            }
        }
    }
    #[unroll]
    for r in 0..rpl {
        let i = lane + r * lanes;
        if i < n {
            #[unroll]
            for c in 0..nb {
                if c < n {
                    let mut v = F::new(0.0);
                    if c <= i {
                        v = a[r * nb + c];
                    }
                    dst[dbase + i * sd.rs + c * sd.cs] = v;
                }
            }
        }
    }
    if lane == 0 && fail > 0 && (fail as usize) <= n {
        info[bidx] = fail;
    }
}
