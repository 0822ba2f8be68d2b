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
//! - [`recon_top_kernel`], one cube per matrix: the LU of the top block Q₁ − S in shared memory
//!   (a unit per row, one barrier per column), U⁻¹ and V₁⁻¹ (a unit per column), T; it writes
//!   the top w rows of H, τ, V and the update's U = V·Tᵀ, and per matrix the w × w factors
//!   U⁻¹ and U⁻¹·Tᵀ (`mats`, `[batch, 2, nb, nb]`).
//! - [`recon_rows_kernel`]: rows i ≥ w, `rows` per cube: V_i = Q_i·U⁻¹ (into H and V) and
//!   U_i = Q_i·(U⁻¹·Tᵀ).
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
    /// Unroll the row kernel's inner products (GPU).
    pub unroll: bool,
}

impl ReconConfig {
    /// Shared memory of the top kernel, in bytes (the row kernel needs half of it).
    pub fn shared_bytes(&self) -> usize {
        4 * (4 * self.nb * self.nb + self.nb)
    }
}

/// s = −sign(d) of row i's pivot d; the pivot becomes d − s. d is an entry of an orthonormal
/// basis (|d| ≤ 1 in exact arithmetic), clamped so rounding cannot push τ past 2.
#[cube]
fn shift<F: Float>(a: &mut [F], sg: &mut [F], i: usize, #[comptime] nb: usize) {
    let d = clamp(a[i * nb + i], F::new(-1.0), F::new(1.0));
    let s = select(d >= F::new(0.0), F::new(-1.0), F::new(1.0));
    a[i * nb + i] = d - s;
    sg[i] = s;
}

/// The top w × w block of each matrix. `q` `[batch, p, w]` and `r` `[batch, w, w]` are TSQR's
/// contiguous outputs; H's panel at `sh.offset + b·sh.bs` (its (0, 0)); τ at
/// `tau_off + b·tau_bs + j`; V and U at `b·vu_bs + i·nb + j`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn recon_top_kernel<F: Float>(
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
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let qbase = bidx * p * w;
    let rbase = bidx * w * w;
    let hbase = sh.offset + bidx * sh.bs;
    let tbase = tau_off + bidx * tau_bs;
    let vbase = bidx * vu_bs;
    let mbase = bidx * 2 * nn;
    // a: Q₁ − S, then V₁ (strictly lower) and U (upper); ui = U⁻¹; li = V₁⁻¹; t = T.
    let mut a = Shared::<[F]>::new_slice(nn);
    let mut ui = Shared::<[F]>::new_slice(nn);
    let mut li = Shared::<[F]>::new_slice(nn);
    let mut t = Shared::<[F]>::new_slice(nn);
    let mut sg = Shared::<[F]>::new_slice(nb);

    let mut idx = unit;
    while idx < w * w {
        a[(idx / w) * nb + idx % w] = q[qbase + idx];
        idx += units;
    }
    sync_cube();
    if unit == 0 {
        shift::<F>(&mut a, &mut sg, 0, nb);
    }
    sync_cube();
    // Elimination: the unit of row i reads row j (final since step j − 1) and writes row i
    // only; the next pivot's owner shifts it before the barrier.
    let mut j = 0usize;
    while j < w {
        let piv = a[j * nb + j];
        let mut i = unit;
        while i < w {
            if i > j {
                let l = a[i * nb + j] / piv;
                a[i * nb + j] = l;
                let mut k = j + 1;
                while k < w {
                    let ajk = a[j * nb + k];
                    a[i * nb + k] -= l * ajk;
                    k += 1;
                }
                if i == j + 1 {
                    shift::<F>(&mut a, &mut sg, i, nb);
                }
            }
            i += units;
        }
        sync_cube();
        j += 1;
    }
    // Column c of U⁻¹ (rows ≤ c, back substitution) and of V₁⁻¹ (rows ≥ c, unit diagonal).
    let mut c = unit;
    while c < w {
        ui[c * nb + c] = F::new(1.0) / a[c * nb + c];
        let mut ii = c;
        while ii > 0 {
            let i = ii - 1;
            let mut sum = F::new(0.0);
            let mut k = i + 1;
            while k <= c {
                sum += a[i * nb + k] * ui[k * nb + c];
                k += 1;
            }
            ui[i * nb + c] = -sum / a[i * nb + i];
            ii -= 1;
        }
        li[c * nb + c] = F::new(1.0);
        let mut i = c + 1;
        while i < w {
            let mut sum = F::new(0.0);
            let mut k = c;
            while k < i {
                sum += a[i * nb + k] * li[k * nb + c];
                k += 1;
            }
            li[i * nb + c] = -sum;
            i += 1;
        }
        c += units;
    }
    sync_cube();
    // T[i][j] = −Σ_{i ≤ k ≤ j} U[i][k]·s_k·V₁⁻¹[j][k] (i ≤ j).
    idx = unit;
    while idx < w * w {
        let i = idx / w;
        let jj = idx % w;
        if i <= jj {
            let mut sum = F::new(0.0);
            let mut k = i;
            while k <= jj {
                sum += a[i * nb + k] * sg[k] * li[jj * nb + k];
                k += 1;
            }
            t[i * nb + jj] = -sum;
        }
        idx += units;
    }
    sync_cube();
    idx = unit;
    while idx < w * w {
        let i = idx / w;
        let jj = idx % w;
        let lower = i > jj;
        let hv = select(lower, a[i * nb + jj], sg[i] * r[rbase + i * w + jj]);
        h[hbase + i * sh.rs + jj * sh.cs] = hv;
        v_out[vbase + i * nb + jj] = select(
            lower,
            a[i * nb + jj],
            select(i == jj, F::new(1.0), F::new(0.0)),
        );
        // (V·Tᵀ)[i][jj] = Σ_{jj ≤ k ≤ i} V[i][k]·T[jj][k].
        let mut u = F::new(0.0);
        if i >= jj {
            u = t[jj * nb + i];
            let mut k = jj;
            while k < i {
                u += a[i * nb + k] * t[jj * nb + k];
                k += 1;
            }
        }
        u_out[vbase + i * nb + jj] = u;
        // U⁻¹ and (U⁻¹·Tᵀ)[i][jj] = Σ_{k ≥ max(i, jj)} U⁻¹[i][k]·T[jj][k].
        mats[mbase + i * nb + jj] = select(i <= jj, ui[i * nb + jj], F::new(0.0));
        let mut m2 = F::new(0.0);
        let mut k = select(i > jj, i, jj);
        while k < w {
            m2 += ui[i * nb + k] * t[jj * nb + k];
            k += 1;
        }
        mats[mbase + nn + i * nb + jj] = m2;
        if i == jj {
            tau[tbase + jj] = t[jj * nb + jj];
        }
        idx += units;
    }
}

/// Rows w ≤ i < p: V_i = Q_i·U⁻¹ into H and V, U_i = Q_i·(U⁻¹·Tᵀ). Cube x takes rows
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
    let mut m2 = Shared::<[F]>::new_slice(nn);
    let mut idx = unit;
    while idx < nn {
        mi[idx] = mats[mbase + idx];
        m2[idx] = mats[mbase + nn + idx];
        idx += units;
    }
    sync_cube();
    let row0 = w + CUBE_POS_X as usize * comptime!(cfg.rows);
    idx = unit;
    while idx < comptime!(cfg.rows * cfg.nb) {
        let i = row0 + idx / nb;
        let j = idx % nb;
        if i < p && j < w {
            let qrow = qbase + i * w;
            let mut v = F::new(0.0);
            let mut u = F::new(0.0);
            #[unroll(cfg.unroll)]
            for k in 0..nb {
                if k < w {
                    let qk = q[qrow + k];
                    if k <= j {
                        v += qk * mi[k * nb + j];
                    }
                    u += qk * m2[k * nb + j];
                }
            }
            h[hbase + i * sh.rs + j * sh.cs] = v;
            v_out[vbase + i * nb + j] = v;
            u_out[vbase + i * nb + j] = u;
        }
        idx += units;
    }
}
