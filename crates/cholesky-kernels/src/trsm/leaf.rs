//! The leaf of the triangular solve: T·X = B in place for an nt×nt triangular T (nt ≤ nb),
//! by substitution. T's triangle goes to shared memory; each unit owns one column of B, keeps
//! it in a local array and walks the rows (forward for lower T, backward for upper).
use crate::config::TrsmLeafConfig;
use cubecl::prelude::*;
use linalg_common::gemm::Strides;

/// Only T's selected triangle (diagonal included unless `unit_diag`) is read.
#[cube(launch_unchecked)]
#[allow(
    clippy::too_many_arguments,
    clippy::collapsible_if,
    clippy::collapsible_else_if
)]
pub(crate) fn trsm_leaf_kernel<F: Float>(
    t: &[F],
    b: &mut [F],
    st: Strides,
    sb: Strides,
    nt: usize,
    ncols: usize,
    batch: usize,
    #[comptime] cfg: TrsmLeafConfig,
) {
    let ld = comptime!(cfg.nb + 1);
    let units = comptime!(cfg.units);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    if bidx >= batch {
        terminate!();
    }
    let unit = UNIT_POS as usize;
    let tbase = st.offset + bidx * st.bs;
    let bbase = sb.offset + bidx * sb.bs;
    let mut sh = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    let mut idx = unit;
    while idx < nt * nt {
        let i = idx / nt;
        let j = idx % nt;
        let mut read = j >= i;
        if comptime!(cfg.lower) {
            read = j <= i;
        }
        if comptime!(cfg.unit_diag) {
            read = read && i != j;
        }
        if read {
            sh[i * ld + j] = t[tbase + i * st.rs + j * st.cs];
        }
        idx += units;
    }
    sync_cube();

    let col = CUBE_POS_X as usize * units + unit;
    if col < ncols {
        let mut x = Array::<F>::new(comptime!(cfg.nb));
        for i in 0..nt {
            x[i] = b[bbase + i * sb.rs + col * sb.cs];
        }
        for step in 0..nt {
            let mut i = step;
            if comptime!(!cfg.lower) {
                i = nt - 1 - step;
            }
            let mut s = x[i];
            if comptime!(cfg.lower) {
                for k in 0..i {
                    s -= sh[i * ld + k] * x[k];
                }
            } else {
                for k in i + 1..nt {
                    s -= sh[i * ld + k] * x[k];
                }
            }
            if comptime!(!cfg.unit_diag) {
                s /= sh[i * ld + i];
            }
            x[i] = s;
        }
        for i in 0..nt {
            b[bbase + i * sb.rs + col * sb.cs] = x[i];
        }
    }
}
