//! Householder reconstruction: the panel path for tall panels of few matrices. TSQR
//! ([`crate::tsqr`], many cubes per panel) factors the panel P (p × w) as P = Q·R, and the
//! kernels here turn its explicit Q back into LAPACK's reflectors (Ballard, Demmel, Grigori,
//! Jacquelin, Nguyen, Solomonik, "Reconstructing Householder vectors from Tall-Skinny QR",
//! 2015).
//!
//! Math: an unpivoted LU of Q − [S; 0] = V·U, with S = diag(s) chosen during the elimination as
//! s_j = −sign(d_j) (sign(0) = +1, d_j the pivot before the shift), so |u_jj| = |d_j| + 1 ≥ 1.
//! V is unit lower trapezoidal, U upper triangular. With T = −U·S·V₁⁻ᵀ (V₁ the top w × w of V,
//! T upper triangular), (I − V·T·Vᵀ)·[I; 0] = Q·S, hence P = (I − V·T·Vᵀ)·[S·R; 0]: H receives
//! S·R on and above the diagonal and V below it, and τ_j = T_jj = |u_jj| ∈ [1, 2]. The signs
//! are those of `slarfg` (R_jj = −sign(α_j)·‖x_j‖), so for full-rank panels H and τ are
//! LAPACK's in exact arithmetic. One difference: a column already zero below the diagonal gets
//! τ = 2 (a sign flip) where LAPACK stores τ = 0; both are exact factorizations.
//!
//! Kernels (one launch each, the batch in grid y and z):
//! - [`recon_top_kernel`], one cube per matrix, a unit per element of the w × w top block
//!   (several where the cube is smaller): the right-looking LU of Q₁ − S in shared memory, then
//!   U⁻¹ (back substitution) and Tᵀ = −V₁⁻¹·S·Uᵀ (forward substitution) together, each
//!   element's right-hand side in a register; one barrier per column in each phase. It writes
//!   the top w rows of H, τ, V and the update's U = V·Tᵀ (there V₁·Tᵀ = −S·Uᵀ), and per matrix
//!   U⁻¹ and Tᵀ (`mats`, `[batch, 2, nb, nb]`).
//! - or [`recon_top_rows_kernel`] (`ReconConfig::top_rows`): the same with a unit per row of
//!   the block, its row in registers; one barrier per column in the LU, none in the
//!   substitutions (a unit per column of U⁻¹ and Tᵀ).
//! - [`recon_rows_kernel`]: rows i ≥ w, `rows` per cube: V_i = Q_i·U⁻¹ (into H and V, staged in
//!   shared memory), then U_i = V_i·Tᵀ.
//!
//! V and U are row-major with row stride nb (the layout of the panel kernel's outputs).
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Comptime shape of the reconstruction kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReconConfig {
    /// Bound on the panel width w (the stride of the w × w blocks).
    pub nb: usize,
    /// Units per cube.
    pub units: usize,
    /// Rows per cube of the row kernel.
    pub rows: usize,
    /// Unroll the per-unit element loops and the inner products (GPU).
    pub unroll: bool,
    /// The top block by `recon_top_rows_kernel` (a unit per row, [`Self::top_units`]
    /// units) instead of `recon_top_kernel` (a unit per element, `units` units).
    pub top_rows: bool,
}

impl ReconConfig {
    /// Shared memory of the larger of the two kernels, in bytes.
    pub fn shared_bytes(&self) -> usize {
        let nn = self.nb * self.nb;
        let top = 3 * nn + if self.top_rows { 5 } else { 2 } * self.nb;
        4 * top.max(2 * nn + self.rows * self.nb)
    }
    /// Units of `recon_top_rows_kernel`: the largest divisor of nb that a cube holds (nb on
    /// GPUs: a unit per row).
    pub fn top_units(&self) -> usize {
        (1..=self.nb.min(self.units))
            .rev()
            .find(|u| self.nb.is_multiple_of(*u))
            .unwrap_or(1)
    }
    /// Elements of the w × w block per unit of the top kernel.
    pub fn top_per_unit(&self) -> usize {
        (self.nb * self.nb).div_ceil(self.units)
    }
    /// Elements of the row block per unit of the row kernel.
    pub fn rows_per_unit(&self) -> usize {
        (self.rows * self.nb).div_ceil(self.units)
    }
}

/// The top w × w block of each matrix. `q` `[batch, p, w]` and `r` `[batch, w, w]` are TSQR's
/// contiguous outputs; H's panel at `sh.offset + b·sh.bs` (its (0, 0)); τ at
/// `tau_off + b·tau_bs + j`; V and U at `b·vu_bs + i·nb + j`.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn recon_top_kernel<F: Float>(
    q: &[F],
    r: &[F],
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    mats: &mut [F],
    sh: Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    #[comptime] cfg: ReconConfig,
) {
    let nb = comptime!(cfg.nb);
    let nn = comptime!(cfg.nb * cfg.nb);
    let units = comptime!(cfg.units);
    let per = comptime!(cfg.top_per_unit());
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let qbase = bidx * p * w;
    let out = top_out(&sh, tau_off, tau_bs, vu_bs, w, bidx, nn);
    // a: Q₁ − S, then V₁ (strictly lower, scaled at the end) and U (strictly upper; its
    // diagonal in pv); xu: rows of U⁻¹, xt: rows of Tᵀ, as the substitutions finish them.
    let mut a = Shared::<[F]>::new_slice(nn);
    let mut xu = Shared::<[F]>::new_slice(nn);
    let mut xt = Shared::<[F]>::new_slice(nn);
    let mut sg = Shared::<[F]>::new_slice(nb);
    let mut pv = Shared::<[F]>::new_slice(nb);

    #[unroll(cfg.unroll)]
    for t in 0..per {
        let e = unit + t * units;
        let i = e / nb;
        let c = e % nb;
        if i < w && c < w {
            a[e] = q[qbase + i * w + c];
        }
    }
    sync_cube();
    // Step j: a[i][c] −= a[i][j]·a[j][c]/u_jj for i, c > j. Column j and row j are only read,
    // so one barrier per step; the shift of the pivot is recomputed from a[j][j] by every unit.
    let mut j = 0usize;
    while j < w {
        let piv = shifted::<F>(a[j * nb + j]);
        #[unroll(cfg.unroll)]
        for t in 0..per {
            let e = unit + t * units;
            let i = e / nb;
            let c = e % nb;
            if i > j && c > j && i < w && c < w {
                let upd = a[i * nb + j] / piv * a[j * nb + c];
                a[e] -= upd;
            }
        }
        sync_cube();
        j += 1;
    }
    #[unroll(cfg.unroll)]
    for t in 0..per {
        let e = unit + t * units;
        let i = e / nb;
        let c = e % nb;
        if i < w && c < w {
            let d = a[c * nb + c];
            let piv = shifted::<F>(d);
            if i == c {
                sg[c] = clamp(d, F::new(-1.0), F::new(1.0)) - piv;
                pv[c] = piv;
            } else if i > c {
                a[e] /= piv;
            }
        }
    }
    sync_cube();
    // U·X = I backwards (row w − 1 − step of U⁻¹) and V₁·Y = −S·Uᵀ forwards (row `step` of
    // Y = Tᵀ): the unit of (i, c) keeps both right-hand sides in registers.
    let mut bu = Array::<F>::new(per);
    let mut bt = Array::<F>::new(per);
    #[unroll(cfg.unroll)]
    for t in 0..per {
        let e = unit + t * units;
        let i = e / nb;
        let c = e % nb;
        bu[t] = F::new(0.0);
        bt[t] = F::new(0.0);
        if i < w && c < w {
            bu[t] = select(i == c, F::new(1.0), F::new(0.0));
            if i >= c {
                let ui = select(i == c, pv[c], a[c * nb + i]);
                bt[t] = -sg[i] * ui;
            }
        }
    }
    let mut step = 0usize;
    while step < w {
        let iu = w - 1 - step;
        #[unroll(cfg.unroll)]
        for t in 0..per {
            let e = unit + t * units;
            let i = e / nb;
            let c = e % nb;
            if c < w {
                if i == iu {
                    let x = bu[t] / pv[iu];
                    bu[t] = x;
                    xu[e] = x;
                }
                if i == step {
                    xt[e] = bt[t];
                }
            }
        }
        sync_cube();
        #[unroll(cfg.unroll)]
        for t in 0..per {
            let e = unit + t * units;
            let i = e / nb;
            let c = e % nb;
            if c < w {
                if i < iu {
                    bu[t] -= a[i * nb + iu] * xu[iu * nb + c];
                }
                if i > step && i < w {
                    bt[t] -= a[i * nb + step] * xt[step * nb + c];
                }
            }
        }
        step += 1;
    }
    sync_cube();
    #[unroll(cfg.unroll)]
    for t in 0..per {
        let e = unit + t * units;
        if e / nb < w && e % nb < w {
            store_top::<F>(
                e, &a, &xu, &xt, &sg, &pv, r, h, tau, v_out, u_out, mats, &sh, &out, nb, nb,
            );
        }
    }
}

/// Where matrix b's top-block outputs start (its R at `rbase`, H's panel at `hbase`, τ at
/// `tbase`, V and U at `vbase`, `mats` at `mbase`), and the block's order w.
#[derive(CubeType, Clone, Copy)]
struct TopOut {
    rbase: usize,
    hbase: usize,
    tbase: usize,
    vbase: usize,
    mbase: usize,
    w: usize,
}

/// Matrix `bidx`'s [`TopOut`] (`nn` = nb²).
#[cube]
fn top_out(
    sh: &Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    w: usize,
    bidx: usize,
    #[comptime] nn: usize,
) -> TopOut {
    TopOut {
        rbase: bidx * w * w,
        hbase: sh.offset + bidx * sh.bs,
        tbase: tau_off + bidx * tau_bs,
        vbase: bidx * vu_bs,
        mbase: bidx * 2 * nn,
        w,
    }
}

/// Element e = i·nb + c (i, c < w) of the top block's outputs, from `a` (V₁ below the
/// diagonal, U above it, at stride `ld`), S, the pivots, and U⁻¹ and Tᵀ (`xu`, `xt`, at e):
/// H (V₁ below the diagonal, S·R on and above it), V, U = V₁·Tᵀ = −S·Uᵀ, `mats` and τ.
#[cube]
#[allow(clippy::too_many_arguments)]
fn store_top<F: Float>(
    e: usize,
    a: &Shared<[F]>,
    xu: &Shared<[F]>,
    xt: &Shared<[F]>,
    sg: &Shared<[F]>,
    pv: &Shared<[F]>,
    r: &[F],
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    mats: &mut [F],
    sh: &Strides,
    out: &TopOut,
    #[comptime] nb: usize,
    #[comptime] ld: usize,
) {
    let i = e / nb;
    let c = e % nb;
    let lower = i > c;
    let av = a[i * ld + c];
    let hv = select(lower, av, sg[i] * r[out.rbase + i * out.w + c]);
    h[out.hbase + i * sh.rs + c * sh.cs] = hv;
    v_out[out.vbase + e] = select(lower, av, select(i == c, F::new(1.0), F::new(0.0)));
    // (V₁·Tᵀ)[i][c] = −s_i·U[c][i].
    let uci = select(i == c, pv[c], a[c * ld + i]);
    u_out[out.vbase + e] = select(i >= c, -sg[i] * uci, F::new(0.0));
    mats[out.mbase + e] = xu[e];
    mats[out.mbase + comptime!(nb * nb) + e] = xt[e];
    if i == c {
        tau[out.tbase + c] = xt[e];
    }
}

/// `recon_top_kernel` with a unit per row (`cfg.top_rows`; a cube of
/// [`ReconConfig::top_units`] units, each with the rows unit + t·units): a unit holds its rows
/// of Q₁ − S in registers through the LU, the pivot row reaches the others through shared
/// memory (two slots, one barrier per column), and each unit keeps its multipliers (V₁) and
/// its rows of U. Then the unit of row c forms column c of U⁻¹ (back substitution) and of Tᵀ
/// (forward substitution) from U and V₁ in shared memory, with no barrier between steps. The
/// same operations in the same order as `recon_top_kernel`; the same outputs.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn recon_top_rows_kernel<F: Float>(
    q: &[F],
    r: &[F],
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    mats: &mut [F],
    sh: Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    #[comptime] cfg: ReconConfig,
) {
    let nb = comptime!(cfg.nb);
    let nn = comptime!(cfg.nb * cfg.nb);
    let units = comptime!(cfg.top_units());
    let rpu = comptime!(cfg.nb / cfg.top_units());
    // Rows of `a` padded: each unit reads whole rows.
    let ld = comptime!(cfg.nb + 1);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let qbase = bidx * p * w;
    let out = top_out(&sh, tau_off, tau_bs, vu_bs, w, bidx, nn);
    // a: Q₁, then V₁ (strictly lower), the unshifted pivots and U (strictly upper);
    // prow: the pivot row, slot j % 2 for column j; xu, xt: U⁻¹ and Tᵀ.
    let mut a = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    let mut prow = Shared::<[F]>::new_slice(comptime!(2 * cfg.nb));
    let mut xu = Shared::<[F]>::new_slice(nn);
    let mut xt = Shared::<[F]>::new_slice(nn);
    let mut sg = Shared::<[F]>::new_slice(nb);
    let mut pv = Shared::<[F]>::new_slice(nb);

    // Q₁, coalesced; rows and columns ≥ w are zero (pivot 1, no updates).
    let mut idx = unit;
    while idx < nn {
        let i = idx / nb;
        let c = idx % nb;
        let mut v = F::new(0.0);
        if i < w && c < w {
            v = q[qbase + i * w + c];
        }
        a[i * ld + c] = v;
        idx += units;
    }
    sync_cube();
    // ra[t·nb + c]: row unit + t·units.
    let mut ra = Array::<F>::new(nn / units);
    #[unroll(cfg.unroll)]
    for t in 0..rpu {
        #[unroll(cfg.unroll)]
        for c in 0..nb {
            ra[t * nb + c] = a[(unit + t * units) * ld + c];
        }
    }
    // Step j: row j is final; rows i > j take l = a_ij / u_jj into column j and
    // a_ic −= l·a_jc for c > j. The unit of row j keeps its unshifted pivot.
    let mut d = Array::<F>::new(rpu);
    #[unroll(cfg.unroll)]
    for t in 0..rpu {
        d[t] = F::new(0.0);
    }
    #[unroll(cfg.unroll)]
    for j in 0..nb {
        if j < w {
            let slot = (j % 2) * nb;
            let tj = j / units;
            if unit == j % units {
                d[tj] = ra[tj * nb + j];
                #[unroll(cfg.unroll)]
                for c in 0..nb {
                    if c >= j {
                        prow[slot + c] = ra[tj * nb + c];
                    }
                }
            }
            sync_cube();
            let piv = shifted::<F>(prow[slot + j]);
            #[unroll(cfg.unroll)]
            for t in 0..rpu {
                if unit + t * units > j {
                    let l = ra[t * nb + j] / piv;
                    ra[t * nb + j] = l;
                    #[unroll(cfg.unroll)]
                    for c in 0..nb {
                        if c > j {
                            ra[t * nb + c] -= l * prow[slot + c];
                        }
                    }
                }
            }
        }
    }
    // Each row: V₁ left of the diagonal, the unshifted pivot on it, U right of it.
    #[unroll(cfg.unroll)]
    for t in 0..rpu {
        let i = unit + t * units;
        #[unroll(cfg.unroll)]
        for c in 0..nb {
            a[i * ld + c] = ra[t * nb + c];
        }
        let piv = shifted::<F>(d[t]);
        sg[i] = clamp(d[t], F::new(-1.0), F::new(1.0)) - piv;
        pv[i] = piv;
    }
    sync_cube();
    #[unroll(cfg.unroll)]
    for t in 0..rpu {
        let col = unit + t * units;
        // Column `col` of X = U⁻¹: U·X = I backwards.
        let mut b = Array::<F>::new(nb);
        #[unroll(cfg.unroll)]
        for k in 0..nb {
            b[k] = select(k == col, F::new(1.0), F::new(0.0));
        }
        #[unroll(cfg.unroll)]
        for s in 0..nb {
            let iu = nb - 1 - s;
            if iu < w {
                let x = b[iu] / pv[iu];
                b[iu] = x;
                xu[iu * nb + col] = x;
                #[unroll(cfg.unroll)]
                for k in 0..nb {
                    if k < iu {
                        b[k] -= a[k * ld + iu] * x;
                    }
                }
            }
        }
        // Column `col` of Y = Tᵀ: V₁·Y = −S·Uᵀ forwards; Uᵀ's column `col` is U's row `col`,
        // this unit's row t.
        #[unroll(cfg.unroll)]
        for k in 0..nb {
            let ui = select(k == col, pv[col], ra[t * nb + k]);
            b[k] = select(k >= col, -sg[k] * ui, F::new(0.0));
        }
        #[unroll(cfg.unroll)]
        for step in 0..nb {
            if step < w {
                let y = b[step];
                xt[step * nb + col] = y;
                #[unroll(cfg.unroll)]
                for k in 0..nb {
                    if k > step {
                        b[k] -= a[k * ld + step] * y;
                    }
                }
            }
        }
    }
    sync_cube();
    let mut idx = unit;
    while idx < nn {
        if idx / nb < w && idx % nb < w {
            store_top::<F>(
                idx, &a, &xu, &xt, &sg, &pv, r, h, tau, v_out, u_out, mats, &sh, &out, nb, ld,
            );
        }
        idx += units;
    }
}

/// The pivot u_jj = d − s_j of a diagonal entry d, s_j = −sign(d) (sign(0) = +1). d is an entry
/// of an orthonormal basis (|d| ≤ 1 in exact arithmetic), clamped so rounding cannot push
/// τ = |u_jj| past 2.
#[cube]
fn shifted<F: Float>(d: F) -> F {
    let dc = clamp(d, F::new(-1.0), F::new(1.0));
    dc + select(dc >= F::new(0.0), F::new(1.0), F::new(-1.0))
}

/// Rows w ≤ i < p: V_i = Q_i·U⁻¹ into H and V, then U_i = V_i·Tᵀ. Cube x takes rows
/// w + x·rows …; layouts as in [`recon_top_kernel`].
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn recon_rows_kernel<F: Float>(
    q: &[F],
    mats: &[F],
    h: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    sh: Strides,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    #[comptime] cfg: ReconConfig,
) {
    let nb = comptime!(cfg.nb);
    let nn = comptime!(cfg.nb * cfg.nb);
    let units = comptime!(cfg.units);
    let per = comptime!(cfg.rows_per_unit());
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let qbase = bidx * p * w;
    let hbase = sh.offset + bidx * sh.bs;
    let vbase = bidx * vu_bs;
    let mbase = bidx * 2 * nn;
    let mut mi = Shared::<[F]>::new_slice(nn);
    let mut tt = Shared::<[F]>::new_slice(nn);
    let mut vs = Shared::<[F]>::new_slice(comptime!(cfg.rows * cfg.nb));
    let mut idx = unit;
    while idx < nn {
        mi[idx] = mats[mbase + idx];
        tt[idx] = mats[mbase + nn + idx];
        idx += units;
    }
    sync_cube();
    let row0 = w + CUBE_POS_X as usize * comptime!(cfg.rows);
    #[unroll(cfg.unroll)]
    for t in 0..per {
        let e = unit + t * units;
        let i = row0 + e / nb;
        let j = e % nb;
        if e < comptime!(cfg.rows * cfg.nb) && i < p && j < w {
            let qrow = qbase + i * w;
            let mut v = F::new(0.0);
            #[unroll(cfg.unroll)]
            for k in 0..nb {
                if k <= j {
                    v += q[qrow + k] * mi[k * nb + j];
                }
            }
            vs[e] = v;
            h[hbase + i * sh.rs + j * sh.cs] = v;
            v_out[vbase + i * nb + j] = v;
        }
    }
    sync_cube();
    #[unroll(cfg.unroll)]
    for t in 0..per {
        let e = unit + t * units;
        let i = row0 + e / nb;
        let j = e % nb;
        if e < comptime!(cfg.rows * cfg.nb) && i < p && j < w {
            let r0 = (e / nb) * nb;
            let mut u = F::new(0.0);
            #[unroll(cfg.unroll)]
            for k in 0..nb {
                if k >= j && k < w {
                    u += vs[r0 + k] * tt[k * nb + j];
                }
            }
            u_out[vbase + i * nb + j] = u;
        }
    }
}
