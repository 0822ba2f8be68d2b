//! The panel kernel: one cube per matrix factors a p × w panel (w ≤ nb) by Householder
//! reflections and forms what the blocked update needs, in one launch.
//!
//! Factor (LAPACK `sgeqr2` + `slarft`): for column j, with α = a_jj and s = Σ_{i>j} a_ij²:
//! s = 0 gives τ = 0 (H = I); else β = −sign(α)·√(α² + s), τ = (β − α)/β, and the reflector
//! v = [1; a_{j+1:,j}/(α − β)] is applied to the columns right of j within the panel:
//! a_k −= τ·v·(vᵀa_k). One pass over the rows below j forms every dot product the step needs
//! (s, vᵀa_k up to the scaling, and the Gram column vₖᵀv_j, k < j, for T); a second pass
//! applies the reflector. Two barriers per column. The scaling of the stored reflectors is
//! deferred to one pass at the end, so the Gram sums read unscaled columns and correct with the
//! recorded scales.
//!
//! A column whose α² + s falls outside [2⁻¹⁰⁰, 2¹⁰⁰] ([`RESCUE_LO`]: its sum of squares, or its
//! dot products with the other columns, would under- or overflow) is first scaled by a power of
//! two c that brings its largest entry (rows ≥ j) to [1, 2), and pass 1 is redone: v, τ and the
//! Gram column do not depend on c, and β is stored scaled back by 1/c. So matrices of any scale,
//! and columns far smaller than the others, factor as LAPACK's scaled norms do.
//!
//! T (compact WY, Q = H_1⋯H_w = I − V·T·Vᵀ, T upper triangular) is built column by column
//! from the Gram column: T[0:j, j] = −τ_j·T[0:j, 0:j]·(Vᵀv_j)[0:j], T[j, j] = τ_j.
//!
//! Outputs, row-major with row stride nb: V (p × nb, explicit: unit diagonal, zeros above and
//! in columns ≥ w) and U = V·Tᵀ (`trans`: the update A ← (I − V·Tᵀ·Vᵀ)·A = QᵀA) or U = V·T
//! (A ← Q·A), so a block reflector is applied as A −= U·(Vᵀ·A), two GEMMs.
//!
//! Without `factor` the panel already holds reflectors (scaled, below the diagonal) and τ is
//! read: the Gram matrix VᵀV, formed in one pass over the rows ([`gram_t`]), gives T for
//! householder_product and apply_q.
//!
//! Layout: unit (ty, tx) owns columns tx + c·gx and rows ty + t·gy, so the units of a plane read
//! consecutive elements of one row (row-major panels) while the pivot column is a broadcast.
//! Panels that fit are staged in shared memory (`rows_cap`), else the kernel works in place in
//! global memory.
use super::config::PanelConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Panel of matrix `b`: rows/columns from `sh.offset + b·sh.bs` (its (0, 0)), p × w; τ at
/// `tau_off + b·tau_bs + j`; V and U at `b·vu_bs + i·nb + k`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn panel_kernel<F: Float>(
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    sh: Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    #[comptime] cfg: PanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let units = comptime!(cfg.gx * cfg.gy);
    let unit = UNIT_POS as usize;
    let hbase = sh.offset + bidx * sh.bs;
    let tbase = tau_off + bidx * tau_bs;
    let vbase = bidx * vu_bs;

    let mut red = Shared::<[F]>::new_slice(comptime!(cfg.gy * cfg.nb));
    let mut piv = Shared::<[F]>::new_slice(nb);
    let mut scl = Shared::<[F]>::new_slice(nb);
    let mut gcol = Shared::<[F]>::new_slice(nb);
    let mut taus = Shared::<[F]>::new_slice(nb);
    let mut tsh = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    let mut gsh = Shared::<[F]>::new_slice(comptime!(if cfg.factor {
        1
    } else {
        cfg.nb * (cfg.nb + 1)
    }));
    let mut pan = Shared::<[F]>::new_slice(comptime!(cfg.rows_cap.max(1) * cfg.nb));

    if comptime!(cfg.rows_cap > 0) {
        let mut idx = unit;
        while idx < p * w {
            let i = idx / w;
            let k = idx % w;
            pan[i * nb + k] = h[hbase + i * sh.rs + k * sh.cs];
            idx += units;
        }
        sync_cube();
        panel_body::<F>(
            &mut pan, 0, nb, 1, tau, tbase, v_out, u_out, vbase, &mut red, &mut piv, &mut scl,
            &mut gcol, &mut taus, &mut tsh, &mut gsh, p, w, cfg,
        );
        if comptime!(cfg.factor) {
            sync_cube();
            let mut idx = unit;
            while idx < p * w {
                let i = idx / w;
                let k = idx % w;
                h[hbase + i * sh.rs + k * sh.cs] = pan[i * nb + k];
                idx += units;
            }
        }
    } else {
        panel_body::<F>(
            h, hbase, sh.rs, sh.cs, tau, tbase, v_out, u_out, vbase, &mut red, &mut piv, &mut scl,
            &mut gcol, &mut taus, &mut tsh, &mut gsh, p, w, cfg,
        );
    }
}

/// The factorization (or, without `factor`, the Gram pass) on the panel at `a[base + i·rs +
/// k·cs]`, then V and U.
#[cube]
#[allow(clippy::too_many_arguments, clippy::collapsible_if)]
fn panel_body<F: Float>(
    a: &mut [F],
    base: usize,
    rs: usize,
    cs: usize,
    tau: &mut [F],
    tbase: usize,
    v_out: &mut [F],
    u_out: &mut [F],
    vbase: usize,
    red: &mut [F],
    piv: &mut [F],
    scl: &mut [F],
    gcol: &mut [F],
    taus: &mut [F],
    tsh: &mut [F],
    gsh: &mut [F],
    p: usize,
    w: usize,
    #[comptime] cfg: PanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gx = comptime!(cfg.gx);
    let gy = comptime!(cfg.gy);
    let ex = comptime!(cfg.nb / cfg.gx);
    let ld = comptime!(cfg.nb + 1);
    let units = comptime!(cfg.gx * cfg.gy);
    let unit = UNIT_POS as usize;
    let ty = unit / gx;
    let tx = unit % gx;
    let ilp = comptime!(cfg.ilp);
    let mut acc = Array::<F>::new(ex);
    let mut coef = Array::<F>::new(ex);
    let mut xs = Array::<F>::new(ilp);
    let mut ys = Array::<F>::new(ilp);

    let mut idx = unit;
    while idx < nb * ld {
        tsh[idx] = F::new(0.0);
        idx += units;
    }

    if comptime!(cfg.factor) {
        let mut j = 0usize;
        while j < w {
            // T column j − 1 from the Gram column published before the last barrier.
            if j > 0 {
                t_column::<F>(tsh, gcol, 0, 1, taus, j - 1, ty, tx, cfg);
            }
            pass1::<F>(
                a, base, rs, cs, red, piv, &mut acc, &mut xs, p, w, j, ty, tx, cfg,
            );
            sync_cube();

            let mut alpha = piv[j];
            let mut s = group_sum::<F>(red, j, cfg.nb, cfg.gy, cfg.unroll);
            // A column whose squared norm under- or overflows: scaled by a power of two c
            // (rows ≥ j, in place) and pass 1 redone. v and τ do not change with c; β is
            // scaled back by d = 1/c. (Uniform branch: every unit read the same α and s.)
            let mut d = F::new(1.0);
            if comptime!(cfg.factor) {
                let nn = alpha * alpha + s;
                if nn < F::new(RESCUE_LO) || nn > F::new(RESCUE_HI) {
                    sync_cube();
                    if tx == 0 {
                        let mut m = F::new(0.0);
                        let mut i = j + ty;
                        while i < p {
                            m = F::max(m, F::abs(a[base + i * rs + j * cs]));
                            i += gy;
                        }
                        red[ty * nb] = m;
                    }
                    sync_cube();
                    let amax = group_max::<F>(red, 0, cfg.nb, cfg.gy, cfg.unroll);
                    if amax > F::new(0.0) {
                        let f = pow2_scale::<F>(amax);
                        if tx == 0 {
                            let mut i = j + ty;
                            while i < p {
                                let x = a[base + i * rs + j * cs];
                                a[base + i * rs + j * cs] = x * f.c;
                                i += gy;
                            }
                        }
                        sync_cube();
                        pass1::<F>(
                            a, base, rs, cs, red, piv, &mut acc, &mut xs, p, w, j, ty, tx, cfg,
                        );
                        sync_cube();
                        alpha = piv[j];
                        s = group_sum::<F>(red, j, cfg.nb, cfg.gy, cfg.unroll);
                        d = f.d;
                    }
                }
            }
            let mut t = F::new(0.0);
            // τ = 0 keeps the column as given (scaled back if it was rescaled).
            let mut scale = d;
            let mut beta = alpha;
            if comptime!(cfg.factor) {
                if s > F::new(0.0) {
                    let norm = F::sqrt(alpha * alpha + s);
                    beta = select(alpha >= F::new(0.0), -norm, norm);
                    t = (beta - alpha) / beta;
                    scale = F::new(1.0) / (alpha - beta);
                }
            } else {
                t = tau[tbase + j];
            }
            if unit == 0 {
                taus[j] = t;
                scl[j] = scale;
                if comptime!(cfg.factor) {
                    tau[tbase + j] = t;
                }
            }
            // Gram column: v_kᵀv_j = scl_k·(a_jk + scale·Σ_{i>j} a_ik·a_ij), k < j.
            if ty == 0 {
                #[unroll(cfg.unroll)]
                for c in 0..ex {
                    let k = tx + c * gx;
                    if k < j {
                        let raw = group_sum::<F>(red, k, cfg.nb, cfg.gy, cfg.unroll);
                        gcol[k] = scl[k] * (piv[k] + scale * raw);
                    }
                }
            }
            // Pass 2 (uniform branch): a_k −= τ·v·(vᵀa_k) for k > j; a_jj ← β.
            if comptime!(cfg.factor) {
                if s > F::new(0.0) {
                    #[unroll(cfg.unroll)]
                    for c in 0..ex {
                        let k = tx + c * gx;
                        coef[c] = F::new(0.0);
                        if k > j && k < w {
                            let below = group_sum::<F>(red, k, cfg.nb, cfg.gy, cfg.unroll);
                            coef[c] = t * (piv[k] + scale * below);
                        }
                    }
                    if ty == 0 {
                        #[unroll(cfg.unroll)]
                        for c in 0..ex {
                            let k = tx + c * gx;
                            if k > j && k < w {
                                a[base + j * rs + k * cs] = piv[k] - coef[c];
                            }
                        }
                    }
                    let mut i = j + 1 + ty;
                    while i + (ilp - 1) * gy < p {
                        #[unroll]
                        for t in 0..ilp {
                            xs[t] = a[base + (i + t * gy) * rs + j * cs] * scale;
                        }
                        #[unroll(cfg.unroll)]
                        for c in 0..ex {
                            let k = tx + c * gx;
                            if k > j && k < w {
                                // All loads before the stores: they cannot be reordered past them.
                                #[unroll]
                                for t in 0..ilp {
                                    ys[t] = a[base + (i + t * gy) * rs + k * cs];
                                }
                                #[unroll]
                                for t in 0..ilp {
                                    a[base + (i + t * gy) * rs + k * cs] = ys[t] - coef[c] * xs[t];
                                }
                            }
                        }
                        i += ilp * gy;
                    }
                    while i < p {
                        let xs = a[base + i * rs + j * cs] * scale;
                        #[unroll(cfg.unroll)]
                        for c in 0..ex {
                            let k = tx + c * gx;
                            if k > j && k < w {
                                a[base + i * rs + k * cs] -= coef[c] * xs;
                            }
                        }
                        i += gy;
                    }
                }
            }
            // R_jj = β, in the column's own scale.
            if ty == 0 && tx == j % gx {
                a[base + j * rs + j * cs] = beta * d;
            }
            sync_cube();
            j += 1;
        }
        if w > 0 {
            t_column::<F>(tsh, gcol, 0, 1, taus, w - 1, ty, tx, cfg);
        }
    } else {
        gram_t::<F>(
            a, base, rs, cs, tau, tbase, red, scl, taus, tsh, gsh, p, w, cfg,
        );
    }

    // Scale the reflectors (factor) and write V explicitly.
    let mut i = ty;
    while i < p {
        #[unroll(cfg.unroll)]
        for c in 0..ex {
            let k = tx + c * gx;
            let mut v = F::new(0.0);
            if k < w {
                if i > k {
                    v = a[base + i * rs + k * cs] * scl[k];
                    if comptime!(cfg.factor) {
                        a[base + i * rs + k * cs] = v;
                    }
                } else if i == k {
                    v = F::new(1.0);
                }
            }
            v_out[vbase + i * nb + k] = v;
        }
        i += gy;
    }
    sync_cube();

    // U = V·Tᵀ (trans) or V·T, from the scaled panel and T in shared memory.
    let mut i = ty;
    while i < p {
        #[unroll(cfg.unroll)]
        for c in 0..ex {
            let k = tx + c * gx;
            let mut u = F::new(0.0);
            #[unroll(cfg.unroll)]
            for l in 0..nb {
                if l < w && i >= l {
                    let vil = select(i == l, F::new(1.0), a[base + i * rs + l * cs]);
                    let m = if comptime!(cfg.trans) {
                        tsh[k * ld + l]
                    } else {
                        tsh[l * ld + k]
                    };
                    u += vil * m;
                }
            }
            u_out[vbase + i * nb + k] = u;
        }
        i += gy;
    }
}

/// Pass 1 of column `j`: Σ_{i>j} a_ij·a_ik for every owned column (k = j: s; k > j: vᵀa_k up
/// to the scale; k < j: the unscaled Gram column) into the reduction rows, and row j into the
/// pivot row.
#[cube]
#[allow(clippy::too_many_arguments)]
fn pass1<F: Float>(
    a: &mut [F],
    base: usize,
    rs: usize,
    cs: usize,
    red: &mut [F],
    piv: &mut [F],
    acc: &mut Array<F>,
    xs: &mut Array<F>,
    p: usize,
    w: usize,
    j: usize,
    ty: usize,
    tx: usize,
    #[comptime] cfg: PanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gx = comptime!(cfg.gx);
    let gy = comptime!(cfg.gy);
    let ex = comptime!(cfg.nb / cfg.gx);
    let ilp = comptime!(cfg.ilp);
    #[unroll(cfg.unroll)]
    for c in 0..ex {
        acc[c] = F::new(0.0);
    }
    // `ilp` rows per iteration: that many independent loads in flight (the loop is latency
    // bound when the panel lives in global memory).
    let mut i = j + 1 + ty;
    while i + (ilp - 1) * gy < p {
        #[unroll]
        for t in 0..ilp {
            xs[t] = a[base + (i + t * gy) * rs + j * cs];
        }
        #[unroll(cfg.unroll)]
        for c in 0..ex {
            let k = tx + c * gx;
            if k < w {
                let mut sum = F::new(0.0);
                #[unroll]
                for t in 0..ilp {
                    sum += xs[t] * a[base + (i + t * gy) * rs + k * cs];
                }
                acc[c] += sum;
            }
        }
        i += ilp * gy;
    }
    while i < p {
        let x = a[base + i * rs + j * cs];
        #[unroll(cfg.unroll)]
        for c in 0..ex {
            let k = tx + c * gx;
            if k < w {
                acc[c] += x * a[base + i * rs + k * cs];
            }
        }
        i += gy;
    }
    #[unroll(cfg.unroll)]
    for c in 0..ex {
        let k = tx + c * gx;
        red[ty * nb + k] = acc[c];
        if ty == 0 && k < w {
            piv[k] = a[base + j * rs + k * cs];
        }
    }
}

/// Columns whose squared norm α² + s falls outside [`RESCUE_LO`], [`RESCUE_HI`] are rescaled
/// by a power of two before their reflector is formed (LAPACK's `snrm2` / `slarfg` concern):
/// below it the sum loses the entries whose squares are subnormal, above it the sum, or
/// the dot products with the column, overflow.
pub(super) const RESCUE_LO: f32 = 7.888_609e-31; // 2⁻¹⁰⁰
/// See [`RESCUE_LO`].
pub(super) const RESCUE_HI: f32 = 1.267_650_6e30; // 2¹⁰⁰

/// c = 2⁻ᵏ and d = 1/c = 2ᵏ with 2ᵏ ≤ amax < 2ᵏ⁺¹ (k from amax's exponent bits, clamped to
/// [−126, 126] so both are normal f32; a subnormal amax is scaled to at least 2⁻²³). `amax` is
/// a finite f32 > 0.
#[derive(CubeType)]
pub(super) struct Pow2Scale<F: Float> {
    pub c: F,
    pub d: F,
}

/// See [`Pow2Scale`].
#[cube]
pub(super) fn pow2_scale<F: Float>(amax: F) -> Pow2Scale<F> {
    let be = clamp((u32::reinterpret(amax) >> 23u32) & 0xffu32, 1u32, 253u32);
    Pow2Scale::<F> {
        c: F::reinterpret((254u32 - be) << 23u32),
        d: F::reinterpret(be << 23u32),
    }
}

/// max_g red[g·nb + k] over the `gy` row groups.
#[cube]
pub(super) fn group_max<F: Float>(
    red: &mut [F],
    k: usize,
    #[comptime] nb: usize,
    #[comptime] gy: usize,
    #[comptime] unroll: bool,
) -> F {
    let mut m = F::new(0.0);
    #[unroll(unroll)]
    for g in 0..gy {
        m = F::max(m, red[g * nb + k]);
    }
    m
}

/// T[0:jj, jj] = −τ_jj·T[0:jj, 0:jj]·g[0:jj] and T[jj, jj] = τ_jj (units of row group 0), the
/// Gram column g[l] = `gram[goff + l·gstride]`.
#[cube]
#[allow(clippy::too_many_arguments)]
fn t_column<F: Float>(
    tsh: &mut [F],
    gram: &mut [F],
    goff: usize,
    gstride: usize,
    taus: &mut [F],
    jj: usize,
    ty: usize,
    tx: usize,
    #[comptime] cfg: PanelConfig,
) {
    let gx = comptime!(cfg.gx);
    let ex = comptime!(cfg.nb / cfg.gx);
    let ld = comptime!(cfg.nb + 1);
    if ty == 0 {
        #[unroll(cfg.unroll)]
        for c in 0..ex {
            let k = tx + c * gx;
            if k < jj {
                let mut sum = F::new(0.0);
                let mut l = k;
                while l < jj {
                    sum += tsh[k * ld + l] * gram[goff + l * gstride];
                    l += 1;
                }
                tsh[k * ld + jj] = -taus[jj] * sum;
            } else if k == jj {
                tsh[k * ld + k] = taus[jj];
            }
        }
    }
}

/// Reflectors given (scaled, below the diagonal; τ read): the Gram matrix G = VᵀV in one pass
/// over the rows (each unit accumulates a row of G for its column, reduced over the row groups
/// one column of G at a time), then T column by column. Sets the scales to 1.
#[cube]
#[allow(clippy::too_many_arguments)]
fn gram_t<F: Float>(
    a: &mut [F],
    base: usize,
    rs: usize,
    cs: usize,
    tau: &mut [F],
    tbase: usize,
    red: &mut [F],
    scl: &mut [F],
    taus: &mut [F],
    tsh: &mut [F],
    gsh: &mut [F],
    p: usize,
    w: usize,
    #[comptime] cfg: PanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gx = comptime!(cfg.gx);
    let gy = comptime!(cfg.gy);
    let ex = comptime!(cfg.nb / cfg.gx);
    let ld = comptime!(cfg.nb + 1);
    let units = comptime!(cfg.gx * cfg.gy);
    let unit = UNIT_POS as usize;
    let ty = unit / gx;
    let tx = unit % gx;
    let mut idx = unit;
    while idx < nb {
        scl[idx] = F::new(1.0);
        taus[idx] = F::new(0.0);
        if idx < w {
            taus[idx] = tau[tbase + idx];
        }
        idx += units;
    }
    let mut gp = Array::<F>::new(nb);
    for c in 0..ex {
        let k = tx + c * gx;
        #[unroll(cfg.unroll)]
        for l in 0..nb {
            gp[l] = F::new(0.0);
        }
        if k < w {
            let mut i = ty;
            while i < p {
                let vk = select(
                    i > k,
                    a[base + i * rs + k * cs],
                    select(i == k, F::new(1.0), F::new(0.0)),
                );
                #[unroll(cfg.unroll)]
                for l in 0..nb {
                    if l < w && i >= l {
                        let vl = select(i == l, F::new(1.0), a[base + i * rs + l * cs]);
                        gp[l] += vk * vl;
                    }
                }
                i += gy;
            }
        }
        // Reduce over the row groups, one column of G at a time.
        let mut l = 0usize;
        while l < w {
            red[ty * nb + k] = gp[l];
            sync_cube();
            if ty == 0 {
                gsh[k * ld + l] = group_sum::<F>(red, k, cfg.nb, cfg.gy, cfg.unroll);
            }
            sync_cube();
            l += 1;
        }
    }
    let mut j = 0usize;
    while j < w {
        t_column::<F>(tsh, gsh, j, ld, taus, j, ty, tx, cfg);
        sync_cube();
        j += 1;
    }
}

/// Σ_g red[g·nb + k] over the `gy` row groups, in four independent partial sums (the chain of
/// shared-memory loads is the latency of every column step's scalar phase).
#[cube]
pub(super) fn group_sum<F: Float>(
    red: &mut [F],
    k: usize,
    #[comptime] nb: usize,
    #[comptime] gy: usize,
    #[comptime] unroll: bool,
) -> F {
    let mut parts = Array::<F>::new(4usize);
    #[unroll]
    for q in 0..4usize {
        parts[q] = F::new(0.0);
    }
    #[unroll(unroll)]
    for g in 0..gy {
        parts[g % 4] += red[g * nb + k];
    }
    (parts[0] + parts[1]) + (parts[2] + parts[3])
}
