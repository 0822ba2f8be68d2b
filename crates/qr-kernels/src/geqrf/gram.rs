//! Block reflectors of given panels (householder_product, apply_q) on GEMMs: the path for tall
//! panels of few matrices, where the one-cube panel kernel would read the whole panel alone.
//!
//! Math (LAPACK `slarft`, forward, columnwise): with V the panel's reflectors made explicit
//! (unit diagonal, zeros above) and G = VᵀV, T is upper triangular with T_jj = τ_j and
//! T[0:j, j] = −τ_j·T[0:j, 0:j]·G[0:j, j]; Q = I − V·T·Vᵀ.
//!
//! Stages: [`unit_lower_kernel`] writes V (many cubes); G = VᵀV is one GEMM (split over K for a
//! single matrix); [`t_from_gram_kernel`] (one cube per matrix, a unit per row of T, one
//! barrier per column) writes T or Tᵀ; U = V·T (or V·Tᵀ) is one more GEMM. V, G, T and U are
//! row-major with row stride nb.
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// V (p × w, row stride nb, at `b·vu_bs`) from the panel of H at `sh.offset + b·sh.bs`:
/// H below the diagonal, 1 on it, 0 above. Cube x covers elements x·units … of p·w.
#[cube(launch_unchecked)]
pub(crate) fn unit_lower_kernel<F: Float>(
    h: &[F],
    v_out: &mut [F],
    sh: Strides,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    #[comptime] nb: usize,
) {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    let e = ABSOLUTE_POS_X as usize;
    if bidx < batch && e < p * w {
        let i = e / w;
        let j = e % w;
        let x = h[sh.offset + bidx * sh.bs + i * sh.rs + j * sh.cs];
        v_out[bidx * vu_bs + i * nb + j] =
            select(i > j, x, select(i == j, F::new(1.0), F::new(0.0)));
    }
}

/// T (or Tᵀ with `trans`) of matrix b into `mats[b·2nb² + nb² + i·nb + j]` (w × w, zero in
/// the other triangle) from G at `mats[b·2nb² + i·nb + j]` and τ at `tau_off + b·tau_bs + j`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn t_from_gram_kernel<F: Float>(
    mats: &mut [F],
    tau: &[F],
    tau_off: usize,
    tau_bs: usize,
    w: usize,
    batch: usize,
    #[comptime] nb: usize,
    #[comptime] units: usize,
    #[comptime] trans: bool,
) {
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before any barrier.
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let nn = comptime!(nb * nb);
    let base = bidx * 2 * nn;
    let mut gs = Shared::<[F]>::new_slice(nn);
    let mut ts = Shared::<[F]>::new_slice(nn);
    let mut taus = Shared::<[F]>::new_slice(nb);
    let mut idx = unit;
    while idx < nn {
        let i = idx / nb;
        let c = idx % nb;
        gs[idx] = F::new(0.0);
        if i < w && c < w {
            gs[idx] = mats[base + idx];
        }
        ts[idx] = F::new(0.0);
        idx += units;
    }
    idx = unit;
    while idx < w {
        taus[idx] = tau[tau_off + bidx * tau_bs + idx];
        idx += units;
    }
    sync_cube();
    // Column j: row i < j reads T[i][i..j] (columns finished before the barrier) and G.
    let mut j = 0usize;
    while j < w {
        let mut i = unit;
        while i <= j {
            let mut tv = taus[j];
            if i < j {
                let mut sum = F::new(0.0);
                let mut l = i;
                while l < j {
                    sum += ts[i * nb + l] * gs[l * nb + j];
                    l += 1;
                }
                tv = -taus[j] * sum;
            }
            ts[i * nb + j] = tv;
            i += units;
        }
        sync_cube();
        j += 1;
    }
    idx = unit;
    while idx < nn {
        let mut v = ts[idx];
        if trans {
            v = ts[(idx % nb) * nb + idx / nb];
        }
        mats[base + nn + idx] = v;
        idx += units;
    }
}
