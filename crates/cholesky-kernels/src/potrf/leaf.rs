//! The fused diagonal-block kernel: one cube factors (A = L·Lᵀ) and/or inverts (L⁻¹) one
//! nt×nt block, nt ≤ nb. It is the recursion's leaf, the whole op for a batch of small
//! matrices (one launch), and the inverter of the diagonal blocks the triangular solves
//! multiply by.
//!
//! Layout: the cube's units form a gy×gx grid; unit (ty, tx) keeps the ey×ex elements at rows
//! ty + a·gy, columns tx + b·gx in registers (interleaved, so the shrinking trailing triangle
//! stays spread over all units). One barrier per step: the column (factor) or row (invert)
//! that every unit needs next is published in a double-buffered shared vector by its owners.
//!
//! Factor, right-looking: step j reads column j (p = a_jj), every unit updates its trailing
//! elements a_ik −= a_ij·a_kj/p (k > j, k ≤ i) and scales its column-j elements by 1/√p. A
//! pivot that is not > 0 (NaN included) stops the block and stores `info = d0 + j + 1`
//! (1-based in the whole matrix) — a block whose matrix already failed is skipped, so `info`
//! is the first failing leading minor, as LAPACK's spotrf.
//! Invert (lower L, from the factor phase or loaded): X = I; step j: X_j· /= l_jj, then
//! X_i· −= l_ij·X_j· for i > j (L in shared memory).
use crate::config::{LeafConfig, LeafStage};
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// `src`: the lower triangle of block `CUBE_POS_X` along the diagonal of the region starting
/// at `ss.offset` (only the triangle is read; not the diagonal for a unit-diagonal inverse);
/// `dst`: L with zeros above the diagonal (factor); `inv`: the nt×nt inverse at
/// `si.offset + x·nb²` (invert). With `check`, a NaN or infinity read sets `flags[b]`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn leaf_kernel<F: Float>(
    src: &[F],
    dst: &mut [F],
    inv: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    ss: Strides,
    sd: Strides,
    si: Strides,
    nt_total: usize,
    d0: usize,
    batch: usize,
    #[comptime] cfg: LeafConfig,
    #[comptime] stage: LeafStage,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let gx = comptime!(cfg.gx);
    let ey = comptime!(cfg.nb / cfg.gy);
    let ex = comptime!(cfg.nb / cfg.gx);
    let ld = comptime!(cfg.nb + 1);

    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    if comptime!(stage.factor) {
        if info[bidx] != 0 {
            terminate!();
        }
    }
    let start = CUBE_POS_X as usize * nb;
    let nt = min(nb, nt_total - start);
    let unit = UNIT_POS as usize;
    let ty = unit / gx;
    let tx = unit % gx;
    let sbase = ss.offset + bidx * ss.bs + start * (ss.rs + ss.cs);

    let mut lsh = Shared::<[F]>::new_slice(comptime!(if stage.invert { nb * (nb + 1) } else { 1 }));
    let mut buf = Shared::<[F]>::new_slice(comptime!(2 * nb));
    let mut dsh = Shared::<[F]>::new_slice(comptime!(if stage.invert { nb } else { 1 }));
    let mut r = Array::<F>::new(comptime!(ey * ex));
    let mut ci = Array::<F>::new(ey);
    let mut ck = Array::<F>::new(ex);
    let mut fail = 0usize;

    if comptime!(stage.factor) {
        #[unroll(cfg.unroll)]
        for a in 0..ey {
            let i = ty + a * gy;
            #[unroll(cfg.unroll)]
            for b in 0..ex {
                let k = tx + b * gx;
                let mut v = F::new(0.0);
                if i < nt && k <= i {
                    v = src[sbase + i * ss.rs + k * ss.cs];
                    if comptime!(stage.check) {
                        let finite = F::abs(v) <= F::new(f32::MAX);
                        if !finite {
                            flags[bidx] = 1;
                        }
                    }
                }
                r[a * ex + b] = v;
            }
        }
        // Column 0 (owned by tx = 0, b = 0).
        if tx == 0 {
            #[unroll(cfg.unroll)]
            for a in 0..ey {
                let i = ty + a * gy;
                if i < nt {
                    buf[i] = r[a * ex];
                }
            }
        }
        sync_cube();
        let mut j = 0usize;
        while j < nt {
            let cur = (j % 2) * nb;
            let nxt = nb - cur;
            // The same value for every unit: the branch is uniform.
            let p = buf[cur + j];
            if p > F::new(0.0) {
                // One reciprocal square root on the step's critical path (no division).
                let inv_s = F::inverse_sqrt(p);
                let inv_p = inv_s * inv_s;
                #[unroll(cfg.unroll)]
                for a in 0..ey {
                    let i = ty + a * gy;
                    ci[a] = select(i < nt, buf[cur + i] * inv_p, F::new(0.0));
                }
                #[unroll(cfg.unroll)]
                for b in 0..ex {
                    let k = tx + b * gx;
                    ck[b] = select(k < nt, buf[cur + k], F::new(0.0));
                }
                // Rows above j are final: skipped whole (measured faster than a branch-free
                // update of every element, BENCHMARKS.md).
                #[unroll(cfg.unroll)]
                for a in 0..ey {
                    let i = ty + a * gy;
                    if i >= j && i < nt {
                        #[unroll(cfg.unroll)]
                        for b in 0..ex {
                            let k = tx + b * gx;
                            if k > j && k <= i {
                                r[a * ex + b] -= ci[a] * ck[b];
                            } else if k == j {
                                r[a * ex + b] *= inv_s;
                            }
                        }
                    }
                }
                // Publish column j + 1, now up to date, for the next step.
                let jn = j + 1;
                if jn < nt && tx == jn % gx {
                    let bsel = jn / gx;
                    #[unroll(cfg.unroll)]
                    for b in 0..ex {
                        if b == bsel {
                            #[unroll(cfg.unroll)]
                            for a in 0..ey {
                                let i = ty + a * gy;
                                if i >= jn && i < nt {
                                    buf[nxt + i] = r[a * ex + b];
                                }
                            }
                        }
                    }
                }
                sync_cube();
                j += 1;
            } else {
                fail = j + 1;
                j = nt;
            }
        }
        let dbase = sd.offset + bidx * sd.bs + start * (sd.rs + sd.cs);
        #[unroll(cfg.unroll)]
        for a in 0..ey {
            let i = ty + a * gy;
            #[unroll(cfg.unroll)]
            for b in 0..ex {
                let k = tx + b * gx;
                if i < nt && k < nt {
                    let mut v = F::new(0.0);
                    if k <= i {
                        v = r[a * ex + b];
                    }
                    dst[dbase + i * sd.rs + k * sd.cs] = v;
                }
            }
        }
        if fail > 0 && unit == 0 {
            info[bidx] = (d0 + fail) as u32;
        }
    }

    if comptime!(stage.invert) {
        // `fail` is uniform: a failed block has no inverse to compute.
        if fail == 0 {
            if comptime!(stage.factor) {
                #[unroll(cfg.unroll)]
                for a in 0..ey {
                    let i = ty + a * gy;
                    #[unroll(cfg.unroll)]
                    for b in 0..ex {
                        let k = tx + b * gx;
                        lsh[i * ld + k] = r[a * ex + b];
                        // 1/l_jj for every j by its owner, off the steps' critical path.
                        if i == k {
                            dsh[i] = F::new(1.0) / r[a * ex + b];
                        }
                    }
                }
            } else {
                let mut idx = unit;
                while idx < nt * nt {
                    let i = idx / nt;
                    let k = idx % nt;
                    let mut v = F::new(0.0);
                    if k < i {
                        v = src[sbase + i * ss.rs + k * ss.cs];
                    } else if k == i {
                        if comptime!(stage.unit_diag) {
                            v = F::new(1.0);
                        } else {
                            v = src[sbase + i * ss.rs + k * ss.cs];
                        }
                    }
                    lsh[i * ld + k] = v;
                    if k == i {
                        dsh[i] = F::new(1.0) / v;
                    }
                    idx += comptime!(cfg.units());
                }
            }
            // X = I; row 0 (owned by ty = 0, a = 0) published.
            #[unroll(cfg.unroll)]
            for a in 0..ey {
                let i = ty + a * gy;
                #[unroll(cfg.unroll)]
                for b in 0..ex {
                    let k = tx + b * gx;
                    let mut v = F::new(0.0);
                    if i == k {
                        v = F::new(1.0);
                    }
                    r[a * ex + b] = v;
                }
            }
            if ty == 0 {
                #[unroll(cfg.unroll)]
                for b in 0..ex {
                    buf[tx + b * gx] = r[b];
                }
            }
            sync_cube();
            let mut j = 0usize;
            while j < nt {
                let cur = (j % 2) * nb;
                let nxt = nb - cur;
                let dinv = dsh[j];
                #[unroll(cfg.unroll)]
                for b in 0..ex {
                    ck[b] = buf[cur + tx + b * gx] * dinv;
                }
                #[unroll(cfg.unroll)]
                for a in 0..ey {
                    let i = ty + a * gy;
                    ci[a] = select(i > j && i < nt, lsh[i * ld + j], F::new(0.0));
                }
                #[unroll(cfg.unroll)]
                for a in 0..ey {
                    let i = ty + a * gy;
                    if i == j {
                        #[unroll(cfg.unroll)]
                        for b in 0..ex {
                            r[a * ex + b] = ck[b];
                        }
                    } else if i > j && i < nt {
                        #[unroll(cfg.unroll)]
                        for b in 0..ex {
                            r[a * ex + b] -= ci[a] * ck[b];
                        }
                    }
                }
                let jn = j + 1;
                if jn < nt && ty == jn % gy {
                    let asel = jn / gy;
                    #[unroll(cfg.unroll)]
                    for a in 0..ey {
                        if a == asel {
                            #[unroll(cfg.unroll)]
                            for b in 0..ex {
                                buf[nxt + tx + b * gx] = r[a * ex + b];
                            }
                        }
                    }
                }
                sync_cube();
                j += 1;
            }
            let ibase = si.offset + bidx * si.bs + CUBE_POS_X as usize * nb * nb;
            #[unroll(cfg.unroll)]
            for a in 0..ey {
                let i = ty + a * gy;
                #[unroll(cfg.unroll)]
                for b in 0..ex {
                    let k = tx + b * gx;
                    if i < nt && k < nt {
                        inv[ibase + i * si.rs + k * si.cs] = r[a * ex + b];
                    }
                }
            }
        }
    }
}
