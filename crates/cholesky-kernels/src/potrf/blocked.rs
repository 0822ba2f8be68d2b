//! The blocked diagonal-block kernel: one cube factors (A = L·Lᵀ) and/or inverts (L⁻¹) one
//! nt×nt block, nt ≤ nb, in `sub`×`sub` sub-blocks. Same operands and contract as
//! [`super::leaf`]; fewer steps on the critical path: per sub-block column J, one plane
//! factors and inverts the diagonal sub-block in registers (steps linked by plane shuffles,
//! no cube barrier), then all units apply it — three cube barriers per sub-block where the
//! step kernel has one per column and per row.
//!
//! Storage: the block's lower triangle in shared memory `a` (row-major, ld nb + 1), rows past
//! nt padded with the identity (so a ragged block needs no special case: its factor and
//! inverse are those of nt, bordered by I). Per sub-block column J (c0 = J·sub):
//! - F (plane 0; lane i owns sub-block row i, `sub / lanes` rows per lane): factor
//!   A_JJ = L_JJ·L_JJᵀ right-looking (pivot and column by shuffles), then D_J = L_JJ⁻¹ by
//!   column sweeps; L_JJ back to `a`, D_J to the diagonal block of `x` (X = L⁻¹).
//! - T (all units): panel L_IJ = A_IJ·D_Jᵀ for the rows below, into `pan`; with `invert`,
//!   W = Σ_{M<J} L_JM·X_MK for the row block J of X (columns before c0), into `w`.
//! - S (all units): A_22 −= L_IJ·L_KJᵀ on and below the diagonal, the panel copied into `a`;
//!   with `invert`, X_JK = −D_J·W.
//!
//! With `cfg.lookahead` (factor stage), F of J + 1 moves into J's S phase: plane 0 updates
//! A_{J+1,J+1} with the panel itself and factors it, while the other units run the rest of S
//! (on an s_gy × s_gx grid). F of sub-block 0 runs before the loop. Two barriers per
//! sub-block, and F leaves the critical path for the length of S.
//!
//! With `cfg.subst_panel` (factor-only stages), F factors A_JJ without inverting it and stores
//! 1/l_jj in `x`; T solves each row of the panel, L_IJ·L_JJᵀ = A_IJ, by substitution (a
//! unit per row, its `sub` values in registers, L_JJ's entries read as broadcasts), so F's chain
//! loses the inverse's steps and shuffles, and nothing needs X.
//!
//! With `cfg.plane_factor` (factor-only stages, opt-in: slower on the H200), plane 0 alone
//! factors the block as two halves instead, every value in registers, passed by shuffles
//! ([`plane_factor`]); the other units wait at one barrier.
//!
//! A pivot that is not > 0 (NaN included) stops the block at that column and stores
//! `info = d0 + column + 1`, as [`super::leaf`] does; columns after it are not meaningful.
use crate::config::{BlockedLeafConfig, LeafStage};
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Where [`blocked_leaf_block`] finds its block (comptime).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BlockFrom {
    /// `src` at `ss`.
    Src,
    /// `dst` at `ss`, which the caller's own stores just wrote (behind a storage barrier).
    Dst,
    /// The shared memory `a`, where the caller has put it as the loader would (its lower
    /// triangle row-major at stride nb + 1, zeros above it, identity past nt) behind a cube
    /// barrier, having left the cube where `info` already records a failure.
    Staged,
}

/// `src`: the lower triangle of block `CUBE_POS_X` along the diagonal of the region starting
/// at `ss.offset` (only the triangle is read; not the diagonal for a unit-diagonal inverse);
/// `dst`: L with zeros above the diagonal (factor); `inv`: the nt×nt inverse at
/// `si.offset + x·nb²` (invert). With `check`, a NaN or infinity read sets `flags[b]`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn blocked_leaf_kernel<F: Float>(
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
    #[comptime] cfg: BlockedLeafConfig,
    #[comptime] stage: LeafStage,
) {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let mut a = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    blocked_leaf_block(
        src,
        dst,
        inv,
        info,
        flags,
        &mut a,
        &ss,
        &sd,
        &si,
        nt_total,
        d0,
        CUBE_POS_X as usize,
        bidx,
        cfg,
        stage,
        BlockFrom::Src,
    );
}

/// Diagonal block `blk` of matrix `bidx` < batch, by the whole cube (the kernel's body; a
/// fused kernel calls it after its own work). `a`: shared memory of nb·(nb + 1) values;
/// `from`: where the block is ([`BlockFrom`]).
#[cube]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
pub(crate) fn blocked_leaf_block<F: Float>(
    src: &[F],
    dst: &mut [F],
    inv: &mut [F],
    info: &mut [u32],
    flags: &mut [u32],
    a: &mut Shared<[F]>,
    ss: &Strides,
    sd: &Strides,
    si: &Strides,
    nt_total: usize,
    d0: usize,
    blk: usize,
    bidx: usize,
    #[comptime] cfg: BlockedLeafConfig,
    #[comptime] stage: LeafStage,
    #[comptime] from: BlockFrom,
) {
    let staged = comptime!(from == BlockFrom::Staged);
    // The plane path ([`plane_factor`]) needs neither X nor the panel; the substituted panel
    // (`tsub`) no X.
    let plane_path = comptime!(cfg.plane_path(stage));
    let tsub = comptime!(cfg.substitutes(stage));
    let nb = comptime!(cfg.nb);
    let sub = comptime!(cfg.sub);
    let units = comptime!(cfg.units());
    let ld = comptime!(cfg.nb + 1);
    let pld = comptime!(cfg.sub + 1);

    if comptime!(stage.factor && !staged) {
        if info[bidx] != 0 {
            terminate!();
        }
    }
    let start = blk * nb;
    let nt = min(nb, nt_total - start);
    // Sub-block rows past nt are identity padding: only whole sub-blocks up to nt are worked.
    let nblk = nt.div_ceil(sub);
    let unit = UNIT_POS as usize;
    let sbase = ss.offset + bidx * ss.bs + start * (ss.rs + ss.cs);

    // X; with `tsub` instead 1/l_jj of each column, from F (one slice either way: a slice
    // more shifts the others, and ptxas allocates the default path's registers differently).
    let mut x = Shared::<[F]>::new_slice(comptime!(if plane_path {
        1
    } else if tsub {
        nb
    } else {
        nb * (nb + 1)
    }));
    let mut pan = Shared::<[F]>::new_slice(comptime!(if stage.factor && !plane_path {
        cfg.pan_rows() * (sub + 1)
    } else {
        1
    }));
    let mut w = Shared::<[F]>::new_slice(comptime!(if stage.invert { sub * (nb + 1) } else { 1 }));
    let mut fsh = Shared::<[u32]>::new_slice(1usize);
    // The units as a gy × gx grid: (ty, tx) takes rows ty + a·gy and columns tx + b·gx of
    // each phase's region (comptime trip counts, ragged ends masked); phase S's grid is
    // s_gy × s_gx (the same one without the look-ahead).
    let (gy, gx) = comptime!((cfg.gy, cfg.gx));
    let ty = unit / gx;
    let tx = unit % gx;
    // Rows below a diagonal sub-block, and sub-block columns, per unit.
    let rt = comptime!((cfg.nb - cfg.sub).div_ceil(cfg.gy));
    let ct = comptime!(cfg.sub / cfg.gx);

    // The lower triangle (with an implicit unit diagonal: ones), identity past nt; X zeroed
    // (its blocks above the diagonal stay zero, so the products below need no masks).
    #[unroll(cfg.unroll)]
    for q in 0..comptime!((cfg.nb * cfg.nb).div_ceil(units)) {
        let idx = unit + q * units;
        let i = idx / nb;
        let k = idx % nb;
        if idx < comptime!(nb * nb) {
            if comptime!(!staged) {
                let mut v = F::new(0.0);
                if i < nt {
                    if k < i || (k == i && !comptime!(stage.unit_diag)) {
                        if comptime!(from == BlockFrom::Dst) {
                            v = dst[sbase + i * ss.rs + k * ss.cs];
                        } else {
                            v = src[sbase + i * ss.rs + k * ss.cs];
                        }
                        if comptime!(stage.check) {
                            let finite = F::abs(v) <= F::new(f32::MAX);
                            if !finite {
                                flags[bidx] = 1;
                            }
                        }
                    } else if k == i {
                        v = F::new(1.0);
                    }
                } else if k == i {
                    v = F::new(1.0);
                }
                a[i * ld + k] = v;
            }
            if comptime!(!plane_path && !tsub) {
                x[i * ld + k] = F::new(0.0);
            }
        }
    }
    if unit == 0 {
        fsh[0] = 0u32;
    }
    sync_cube();

    let mut failed = 0u32;
    if comptime!(plane_path) {
        // Plane 0 factors the whole block (the other units wait for it at the barrier).
        if unit < comptime!(cfg.plane) {
            plane_factor::<F>(a, &mut fsh, unit, cfg);
        }
        sync_cube();
        failed = fsh[0];
    } else {
        let nbp = nblk * sub;
        let mut jb = 0usize;
        // The look-ahead (factor only): plane 0 factors sub-block 0 here, and sub-block J + 1
        // during J's trailing update (phase S below), which the other units run on their grid.
        let la = comptime!(cfg.lookahead && stage.factor);
        let plane = comptime!(cfg.plane);
        let sbase = comptime!(if cfg.lookahead && stage.factor {
            cfg.plane
        } else {
            0
        });
        let (sgy, sgx) = comptime!((cfg.s_gy(), cfg.s_gx()));
        let srt = comptime!((cfg.nb - cfg.sub).div_ceil(cfg.s_gy()));
        let sst = comptime!((cfg.nb - cfg.sub).div_ceil(cfg.s_gx()));
        let sct = comptime!(cfg.sub / cfg.s_gx());
        if comptime!(la) {
            if nblk > 0 {
                if unit < plane {
                    diag_sub::<F>(a, &mut x, &mut fsh, &pan, unit, 0usize, cfg, stage, false);
                }
                sync_cube();
                failed = fsh[0];
                if failed != 0 {
                    jb = nblk;
                }
            }
        }
        while jb < nblk {
            let c0 = jb * sub;
            let r0 = c0 + sub;
            // F: plane 0 factors and inverts the diagonal sub-block (uniform per plane).
            if comptime!(!la) {
                if unit < plane {
                    diag_sub::<F>(a, &mut x, &mut fsh, &pan, unit, c0, cfg, stage, false);
                }
                sync_cube();
                failed = fsh[0];
                if failed != 0 {
                    break;
                }
            }
            // T with `tsub`: unit u solves rows r0 + u + q·units of the panel (one row on
            // GPUs), l_c = (a_c − Σ_{t<c} l_t·l_JJ[c][t])·x[c] (x[c] = 1/l_cc), right-looking
            // along the row.
            if comptime!(tsub) {
                let mut i = r0 + unit;
                while i < nbp {
                    let mut v = Array::<F>::new(sub);
                    #[unroll(cfg.unroll)]
                    for c in 0..sub {
                        v[c] = a[i * ld + c0 + c];
                    }
                    #[unroll(cfg.unroll)]
                    for c in 0..sub {
                        let lc = v[c] * x[c0 + c];
                        v[c] = lc;
                        #[unroll(cfg.unroll)]
                        for k in 0..sub {
                            if k > c {
                                v[k] -= lc * a[(c0 + k) * ld + c0 + c];
                            }
                        }
                    }
                    #[unroll(cfg.unroll)]
                    for c in 0..sub {
                        pan[i * pld + c] = v[c];
                    }
                    i += units;
                }
            }
            // T: the panel below, L_IJ = A_IJ·D_Jᵀ (D_J lower, zeros above). Each unit's rows
            // share the loads of D_J.
            if comptime!(stage.factor && !tsub) {
                let mut acc = Array::<F>::new(comptime!(rt * ct));
                #[unroll(cfg.unroll)]
                for e in 0..comptime!(rt * ct) {
                    acc[e] = F::new(0.0);
                }
                // Trips of `ku` steps: the steps of one trip share their loads' latency; fewer
                // steps per trip keep fewer loads in registers.
                #[unroll(comptime!(cfg.unroll && cfg.ku == cfg.sub))]
                for t0 in 0..comptime!(cfg.sub / cfg.ku) {
                    #[unroll(cfg.unroll)]
                    for tt in 0..comptime!(cfg.ku) {
                        let t = t0 * comptime!(cfg.ku) + tt;
                        #[unroll(cfg.unroll)]
                        for bc in 0..ct {
                            let d = x[(c0 + tx + bc * gx) * ld + c0 + t];
                            #[unroll(cfg.unroll)]
                            for ar in 0..rt {
                                // Rows past the block are clamped into it (masked below).
                                let ai = a[min(r0 + ty + ar * gy, comptime!(nb - 1)) * ld + c0 + t];
                                acc[ar * ct + bc] += ai * d;
                            }
                        }
                    }
                }
                #[unroll(cfg.unroll)]
                for ar in 0..rt {
                    let i = r0 + ty + ar * gy;
                    if i < nbp {
                        #[unroll(cfg.unroll)]
                        for bc in 0..ct {
                            pan[i * pld + tx + bc * gx] = acc[ar * ct + bc];
                        }
                    }
                }
            }
            // W = Σ_{M<J} L_JM·X_MK for the columns k < c0 of X (X lower: the m < k terms are 0).
            // Each unit's columns share the loads of L_J·.
            if comptime!(stage.invert) {
                let mut acc = Array::<F>::new(comptime!(rt * ct));
                #[unroll(cfg.unroll)]
                for e in 0..comptime!(rt * ct) {
                    acc[e] = F::new(0.0);
                }
                for m in 0..c0 {
                    #[unroll(cfg.unroll)]
                    for bc in 0..ct {
                        let lv = a[(c0 + tx + bc * gx) * ld + m];
                        #[unroll(cfg.unroll)]
                        for ak in 0..rt {
                            let xv = x[m * ld + min(ty + ak * gy, comptime!(nb - 1))];
                            acc[ak * ct + bc] += lv * xv;
                        }
                    }
                }
                #[unroll(cfg.unroll)]
                for ak in 0..rt {
                    let k = ty + ak * gy;
                    if k < c0 {
                        #[unroll(cfg.unroll)]
                        for bc in 0..ct {
                            w[(tx + bc * gx) * ld + k] = acc[ak * ct + bc];
                        }
                    }
                }
            }
            sync_cube();
            // S: the trailing lower triangle, and the panel into `a` (rows of `pan` past nbp hold
            // garbage that only masked elements use); X_JK. With the look-ahead plane 0 instead
            // updates sub-block J + 1 with this panel and factors it, and the other units (an
            // s_gy × s_gx grid) leave that sub-block out.
            let mut in_s = true;
            if comptime!(la) {
                in_s = unit >= plane;
                if !in_s && jb + 1 < nblk {
                    diag_sub::<F>(a, &mut x, &mut fsh, &pan, unit, r0, cfg, stage, true);
                }
            }
            let su = max(unit, sbase) - sbase;
            let sy = su / sgx;
            let sx = su % sgx;
            if in_s && su < comptime!(cfg.s_gy() * cfg.s_gx()) {
                if comptime!(stage.factor) {
                    let mut acc = Array::<F>::new(comptime!(srt * sst));
                    #[unroll(cfg.unroll)]
                    for e in 0..comptime!(srt * sst) {
                        acc[e] = F::new(0.0);
                    }
                    // In trips of `ku` steps, as in T.
                    #[unroll(comptime!(cfg.unroll && cfg.ku == cfg.sub))]
                    for t0 in 0..comptime!(cfg.sub / cfg.ku) {
                        #[unroll(cfg.unroll)]
                        for tt in 0..comptime!(cfg.ku) {
                            let t = t0 * comptime!(cfg.ku) + tt;
                            #[unroll(cfg.unroll)]
                            for ar in 0..srt {
                                let pi = pan[(r0 + sy + ar * sgy) * pld + t];
                                #[unroll(cfg.unroll)]
                                for bk in 0..sst {
                                    let pk = pan[(r0 + sx + bk * sgx) * pld + t];
                                    acc[ar * sst + bk] += pi * pk;
                                }
                            }
                        }
                    }
                    #[unroll(cfg.unroll)]
                    for ar in 0..srt {
                        let i = r0 + sy + ar * sgy;
                        // With the look-ahead, rows of sub-block J + 1 (whose k ≤ i lie in it)
                        // are plane 0's.
                        let mine = !comptime!(la) || i >= r0 + sub;
                        #[unroll(cfg.unroll)]
                        for bk in 0..sst {
                            let k = r0 + sx + bk * sgx;
                            if i < nbp && k <= i && mine {
                                a[i * ld + k] -= acc[ar * sst + bk];
                            }
                        }
                    }
                    #[unroll(cfg.unroll)]
                    for ar in 0..srt {
                        let i = r0 + sy + ar * sgy;
                        if i < nbp {
                            #[unroll(cfg.unroll)]
                            for bc in 0..sct {
                                let c = sx + bc * sgx;
                                a[i * ld + c0 + c] = pan[i * pld + c];
                            }
                        }
                    }
                }
                // X_JK = −D_J·W (D_J lower, zeros above).
                if comptime!(stage.invert) {
                    let mut acc = Array::<F>::new(comptime!(srt * sct));
                    #[unroll(cfg.unroll)]
                    for e in 0..comptime!(srt * sct) {
                        acc[e] = F::new(0.0);
                    }
                    // In trips of `ku` steps, as in T.
                    #[unroll(comptime!(cfg.unroll && cfg.ku == cfg.sub))]
                    for t0 in 0..comptime!(cfg.sub / cfg.ku) {
                        #[unroll(cfg.unroll)]
                        for tt in 0..comptime!(cfg.ku) {
                            let t = t0 * comptime!(cfg.ku) + tt;
                            #[unroll(cfg.unroll)]
                            for bc in 0..sct {
                                let d = x[(c0 + sx + bc * sgx) * ld + c0 + t];
                                #[unroll(cfg.unroll)]
                                for ak in 0..srt {
                                    let wv = w[t * ld + min(sy + ak * sgy, comptime!(nb - 1))];
                                    acc[ak * sct + bc] += d * wv;
                                }
                            }
                        }
                    }
                    #[unroll(cfg.unroll)]
                    for ak in 0..srt {
                        let k = sy + ak * sgy;
                        if k < c0 {
                            #[unroll(cfg.unroll)]
                            for bc in 0..sct {
                                x[(c0 + sx + bc * sgx) * ld + k] = -acc[ak * sct + bc];
                            }
                        }
                    }
                }
            }
            sync_cube();
            if comptime!(la) {
                failed = fsh[0];
                if failed != 0 {
                    break;
                }
            }
            jb += 1;
        }
    }

    let per_unit = comptime!((cfg.nb * cfg.nb).div_ceil(units));
    if comptime!(stage.factor) {
        let dbase = sd.offset + bidx * sd.bs + start * (sd.rs + sd.cs);
        #[unroll(cfg.unroll)]
        for q in 0..per_unit {
            let idx = unit + q * units;
            let i = idx / nb;
            let k = idx % nb;
            if i < nt && k < nt {
                let mut v = F::new(0.0);
                if k <= i {
                    v = a[i * ld + k];
                }
                dst[dbase + i * sd.rs + k * sd.cs] = v;
            }
        }
        if failed > 0 && unit == 0 {
            info[bidx] = d0 as u32 + failed;
        }
    }
    // A failed block has no inverse to compute (`failed` is uniform).
    if comptime!(stage.invert) {
        if failed == 0 {
            let ibase = si.offset + bidx * si.bs + blk * nb * nb;
            #[unroll(cfg.unroll)]
            for q in 0..per_unit {
                let idx = unit + q * units;
                let i = idx / nb;
                let k = idx % nb;
                if i < nt && k < nt {
                    inv[ibase + i * si.rs + k * si.cs] = x[i * ld + k];
                }
            }
        }
    }
}

/// Value (row, col) of a sub-block held by the plane: row r lives in lane r % lanes, slot
/// r / lanes of `regs` (`sub` values per slot).
/// `regs` is only read; it is `&mut` because CubeCL cannot pass a caller's `&mut Array`
/// parameter on as `&`.
#[cube]
fn held<F: Float>(
    regs: &mut Array<F>,
    row: usize,
    col: usize,
    #[comptime] sub: usize,
    #[comptime] lanes: usize,
) -> F {
    from_lane::<F>(regs[(row / lanes) * sub + col], row % lanes, lanes)
}

/// `v` of lane `src` (every lane of the plane calls it).
#[cube]
fn from_lane<F: Float>(v: F, src: usize, #[comptime] lanes: usize) -> F {
    if comptime!(lanes == 1) {
        v
    } else {
        plane_shuffle(v, src as u32)
    }
}

/// Phase F on the diagonal sub-block at (c0, c0), run by every unit of plane 0 (lanes past
/// `lanes` mirror lane `unit % lanes` and store nothing): factor it (with `stage.factor`; a
/// failing pivot stores its 1-based column in `fsh[0]`) and write L_JJ to `a`; invert it into
/// the diagonal block of `x`.
#[cube]
#[allow(clippy::too_many_arguments)]
fn diag_sub<F: Float>(
    a: &mut Shared<[F]>,
    x: &mut Shared<[F]>,
    fsh: &mut Shared<[u32]>,
    pan: &Shared<[F]>,
    unit: usize,
    c0: usize,
    #[comptime] cfg: BlockedLeafConfig,
    #[comptime] stage: LeafStage,
    #[comptime] update: bool,
) {
    let sub = comptime!(cfg.sub);
    let lanes = comptime!(cfg.lanes);
    let slots = comptime!(cfg.sub / cfg.lanes);
    let ld = comptime!(cfg.nb + 1);
    let lane = unit % lanes;
    let owner = unit < lanes;
    // Factor only, no inverse: the panel is solved by substitution ([`blocked_leaf_block`]).
    let tsub = comptime!(cfg.substitutes(stage));
    let mut l = Array::<F>::new(comptime!(cfg.sub * cfg.sub / cfg.lanes));
    let mut xr = Array::<F>::new(comptime!(cfg.sub * cfg.sub / cfg.lanes));
    #[unroll(cfg.unroll)]
    for q in 0..slots {
        let i = lane + q * lanes;
        #[unroll(cfg.unroll)]
        for k in 0..sub {
            let mut v = a[(c0 + i) * ld + c0 + k];
            if comptime!(update) {
                // A_JJ −= L_JM·L_JMᵀ with the previous sub-block column's panel (in `pan`).
                let pld = comptime!(cfg.sub + 1);
                let mut acc = F::new(0.0);
                #[unroll(cfg.unroll)]
                for t in 0..sub {
                    acc += pan[(c0 + i) * pld + t] * pan[(c0 + k) * pld + t];
                }
                v -= acc;
            }
            l[q * sub + k] = v;
            xr[q * sub + k] = F::new(0.0);
            if k == i {
                xr[q * sub + k] = F::new(1.0);
            }
        }
    }
    let mut fail = 0u32;
    if comptime!(stage.factor) {
        // Right-looking: step j scales column j by 1/√pivot and updates the columns after it;
        // the inverse's step j (independent of the update, so the two chains interleave)
        // follows. Elements above the diagonal pick up garbage; only the lower triangle is
        // used.
        #[unroll(cfg.unroll)]
        for j in 0..sub {
            let p = held::<F>(&mut l, j, j, sub, lanes);
            // Uniform over the plane: every lane has the same pivot. The test stays off the
            // chain to the square root: a pivot that is not > 0 gives NaN or ∞ there, in
            // columns from the failed one on, which are not L anyway.
            let positive = p > F::new(0.0);
            if !positive && fail == 0 {
                fail = (c0 + j + 1) as u32;
            }
            let s = F::inverse_sqrt(p);
            let inv_p = s * s;
            // a_ik −= (a_ij/p)·a_kj with column j unscaled: its shuffles do not wait for the
            // pivot's square root.
            let mut ci = Array::<F>::new(slots);
            #[unroll(cfg.unroll)]
            for q in 0..slots {
                ci[q] = l[q * sub + j] * inv_p;
            }
            #[unroll(cfg.unroll)]
            for k in 0..sub {
                if k > j {
                    let akj = held::<F>(&mut l, k, j, sub, lanes);
                    #[unroll(cfg.unroll)]
                    for q in 0..slots {
                        l[q * sub + k] -= ci[q] * akj;
                    }
                }
            }
            #[unroll(cfg.unroll)]
            for q in 0..slots {
                l[q * sub + j] *= s;
            }
            if comptime!(tsub) {
                if unit == 0 {
                    x[c0 + j] = s;
                }
            } else {
                inverse_step::<F>(&mut xr, &l, j, s, lane, cfg);
            }
        }
    } else {
        #[unroll(cfg.unroll)]
        for j in 0..sub {
            let s = F::new(1.0) / held::<F>(&mut l, j, j, sub, lanes);
            inverse_step::<F>(&mut xr, &l, j, s, lane, cfg);
        }
    }
    if owner {
        #[unroll(cfg.unroll)]
        for q in 0..slots {
            let i = lane + q * lanes;
            #[unroll(cfg.unroll)]
            for k in 0..sub {
                if k <= i {
                    if comptime!(stage.factor) {
                        a[(c0 + i) * ld + c0 + k] = l[q * sub + k];
                    }
                    if comptime!(!tsub) {
                        x[(c0 + i) * ld + c0 + k] = xr[q * sub + k];
                    }
                }
            }
        }
        if fail != 0 && lane == 0 {
            fsh[0] = fail;
        }
    }
}

/// Step j of X = L⁻¹ by column sweeps (X starts as I; `s` = 1/l_jj): row j of X is final
/// once divided by l_jj, and is removed from the rows below it.
#[cube]
fn inverse_step<F: Float>(
    xr: &mut Array<F>,
    l: &Array<F>,
    j: usize,
    s: F,
    lane: usize,
    #[comptime] cfg: BlockedLeafConfig,
) {
    let (sub, lanes) = comptime!((cfg.sub, cfg.lanes));
    #[unroll(cfg.unroll)]
    for t in 0..sub {
        if t <= j {
            let v = xr[(j / lanes) * sub + t];
            let xjt = from_lane::<F>(v, j % lanes, lanes) * s;
            #[unroll(cfg.unroll)]
            for q in 0..comptime!(cfg.sub / cfg.lanes) {
                let i = lane + q * lanes;
                let lij = select(i > j, l[q * sub + j], F::new(0.0));
                let upd = xr[q * sub + t] - lij * xjt;
                xr[q * sub + t] = select(i == j, xjt, upd);
            }
        }
    }
}

/// The plane path ([`BlockedLeafConfig::plane_factor`], factor only), run by every unit of
/// plane 0: with h = nb/2 and the block [[A11, 0], [A21, A22]] in `a`, A11 = L11·L11ᵀ, then
/// L21 = A21·L11⁻ᵀ row by row by substitution, then A22 − L21·L21ᵀ = L22·L22ᵀ. Lane r holds
/// rows r + q·lanes of a half (h values each, in registers) and takes the other lanes' values
/// by shuffles, so no barrier sits between columns; lanes past `plane_lanes` mirror lane
/// `unit % lanes` and store nothing. L goes back to `a` (rows past nt are I and stay I). The
/// first pivot that is not > 0 stores its 1-based column in `fsh[0]`; the columns after it
/// are not meaningful.
#[cube]
fn plane_factor<F: Float>(
    a: &mut Shared<[F]>,
    fsh: &mut Shared<[u32]>,
    unit: usize,
    #[comptime] cfg: BlockedLeafConfig,
) {
    let h = comptime!(cfg.nb / 2);
    let lanes = comptime!(cfg.plane_lanes());
    let slots = comptime!(cfg.nb / 2 / cfg.plane_lanes());
    let lane = unit % lanes;
    let owner = unit < lanes;
    // A11 = L11·L11ᵀ; s_j = 1/l_jj.
    let mut l = Array::<F>::new(comptime!(slots * h));
    let mut s = Array::<F>::new(h);
    load_half::<F>(a, &mut l, 0usize, 0usize, lane, cfg);
    let mut fail = factor_half::<F>(&mut l, &mut s, 0u32, 0usize, cfg);
    store_half::<F>(a, &l, 0usize, 0usize, lane, owner, true, cfg);
    // L21: x_j = s_j·(a_j − Σ_{k<j} x_k·l_jk), as a right-looking sweep over j.
    let mut x = Array::<F>::new(comptime!(slots * h));
    load_half::<F>(a, &mut x, h, 0usize, lane, cfg);
    #[unroll(cfg.unroll)]
    for j in 0..h {
        let sj = s[j];
        #[unroll(cfg.unroll)]
        for q in 0..slots {
            x[q * h + j] *= sj;
        }
        #[unroll(cfg.unroll)]
        for k in 0..h {
            if k > j {
                let lkj = held::<F>(&mut l, k, j, h, lanes);
                #[unroll(cfg.unroll)]
                for q in 0..slots {
                    let xj = x[q * h + j];
                    x[q * h + k] -= xj * lkj;
                }
            }
        }
    }
    store_half::<F>(a, &x, h, 0usize, lane, owner, false, cfg);
    // A22 −= L21·L21ᵀ (row i, column k: rows i and k of L21), then A22 = L22·L22ᵀ. Entries
    // above the diagonal pick up garbage; only the lower triangle is read and stored.
    let mut y = Array::<F>::new(comptime!(slots * h));
    load_half::<F>(a, &mut y, h, h, lane, cfg);
    #[unroll(cfg.unroll)]
    for k in 0..h {
        #[unroll(cfg.unroll)]
        for j in 0..h {
            let xkj = held::<F>(&mut x, k, j, h, lanes);
            #[unroll(cfg.unroll)]
            for q in 0..slots {
                y[q * h + k] -= x[q * h + j] * xkj;
            }
        }
    }
    fail = factor_half::<F>(&mut y, &mut s, fail, h, cfg);
    store_half::<F>(a, &y, h, h, lane, owner, true, cfg);
    if owner && lane == 0 && fail != 0 {
        fsh[0] = fail;
    }
}

/// Right-looking POTRF of a half block held as [`plane_factor`] holds it (h = nb/2 values a
/// row): step j scales column j by s_j = √(1/pivot) (kept in `s`) and updates the columns
/// after it with column j unscaled, so the next pivot waits for 1/pivot only. Returns `fail`,
/// or where it is 0 the 1-based column `c0 + j + 1` of the first pivot that is not > 0.
#[cube]
fn factor_half<F: Float>(
    l: &mut Array<F>,
    s: &mut Array<F>,
    fail: u32,
    c0: usize,
    #[comptime] cfg: BlockedLeafConfig,
) -> u32 {
    let h = comptime!(cfg.nb / 2);
    let lanes = comptime!(cfg.plane_lanes());
    let slots = comptime!(cfg.nb / 2 / cfg.plane_lanes());
    let mut failed = fail;
    #[unroll(cfg.unroll)]
    for j in 0..h {
        // Uniform over the plane; the test stays off the chain to the square root.
        let p = held::<F>(l, j, j, h, lanes);
        let positive = p > F::new(0.0);
        if !positive && failed == 0 {
            failed = (c0 + j + 1) as u32;
        }
        // 1/p on the chain, its square root off it (`inverse_sqrt` is an IEEE square root and
        // a division, both on the chain).
        let inv_p = F::new(1.0) / p;
        let sj = F::sqrt(inv_p);
        let mut ci = Array::<F>::new(slots);
        #[unroll(cfg.unroll)]
        for q in 0..slots {
            ci[q] = l[q * h + j] * inv_p;
        }
        #[unroll(cfg.unroll)]
        for k in 0..h {
            if k > j {
                let akj = held::<F>(l, k, j, h, lanes);
                #[unroll(cfg.unroll)]
                for q in 0..slots {
                    l[q * h + k] -= ci[q] * akj;
                }
            }
        }
        #[unroll(cfg.unroll)]
        for q in 0..slots {
            l[q * h + j] *= sj;
        }
        s[j] = sj;
    }
    failed
}

/// Rows `r0 + i` (i = lane + q·lanes) of the half-block columns `c0..c0 + h` of `a` into
/// `regs` (h values a row).
#[cube]
fn load_half<F: Float>(
    a: &mut Shared<[F]>,
    regs: &mut Array<F>,
    r0: usize,
    c0: usize,
    lane: usize,
    #[comptime] cfg: BlockedLeafConfig,
) {
    let h = comptime!(cfg.nb / 2);
    let lanes = comptime!(cfg.plane_lanes());
    let ld = comptime!(cfg.nb + 1);
    #[unroll(cfg.unroll)]
    for q in 0..comptime!(cfg.nb / 2 / cfg.plane_lanes()) {
        let i = lane + q * lanes;
        #[unroll(cfg.unroll)]
        for k in 0..h {
            regs[q * h + k] = a[(r0 + i) * ld + c0 + k];
        }
    }
}

/// [`load_half`]'s inverse, by the owning lanes; `lower`: only k ≤ i (a diagonal half).
#[cube]
#[allow(clippy::too_many_arguments)]
fn store_half<F: Float>(
    a: &mut Shared<[F]>,
    regs: &Array<F>,
    r0: usize,
    c0: usize,
    lane: usize,
    owner: bool,
    #[comptime] lower: bool,
    #[comptime] cfg: BlockedLeafConfig,
) {
    let h = comptime!(cfg.nb / 2);
    let lanes = comptime!(cfg.plane_lanes());
    let ld = comptime!(cfg.nb + 1);
    if owner {
        #[unroll(cfg.unroll)]
        for q in 0..comptime!(cfg.nb / 2 / cfg.plane_lanes()) {
            let i = lane + q * lanes;
            #[unroll(cfg.unroll)]
            for k in 0..h {
                if !lower || k <= i {
                    a[(r0 + i) * ld + c0 + k] = regs[q * h + k];
                }
            }
        }
    }
}
