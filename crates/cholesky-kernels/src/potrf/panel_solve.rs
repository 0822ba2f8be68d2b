//! A right-looking step's panel solve by substitution, from L11 itself: L21 = A21·L11⁻ᵀ in
//! place, each row x of A21 solving x·L11ᵀ = a forward over the columns:
//! x_j = (a_j − Σ_{t<j} x_t·l_jt) / l_jj. With [`crate::CholeskyParams::step_substitution`]
//! the steps' leaves skip their inverses and this kernel replaces the TRSM GEMM that applied
//! them (H100, session 50, potrf 4096: this kernel 6.3–7.3 µs a step against the GEMM's
//! ~5.5; the fused steps without the inverse ~2 µs shorter at the floor).
//!
//! Storage: L11's strictly lower part staged in shared memory transposed, `lt[j][·]` holding
//! column j (zeros on and above the diagonal), with the reciprocals of its diagonal. A cube
//! takes `rows` rows of A21; the units of a row are `groups` consecutive lanes of one plane,
//! lane q holding the row's columns q, q + g, q + 2g, … (g = groups) in registers, so a
//! column's entries for the g lanes are g consecutive words of `lt`. Column j: its lane
//! scales its entry by 1/l_jj, a shuffle gives x_j to the row's lanes, and each removes
//! x_j·l_rj from its columns r (zero for r ≤ j, so no lane tests which columns are past its
//! own): one shuffle and cw = nb / g multiply-adds per column and lane. Rows past A21's last
//! are zeros and are not stored. (Carrying x·diag(L11) instead, with L11's columns divided by
//! their pivots when staged, took the multiply off the chain but the divisions made the
//! launch ~1 µs slower: H100, session 50.)
use crate::Ctx;
use cubecl::prelude::*;
use linalg_common::gemm::{Operand, Strides, batch_grid};
use linalg_common::launch::Hardware;

/// Comptime shape of `panel_solve_kernel`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PanelSolveConfig {
    /// Order of L11 (the leaf).
    pub nb: usize,
    /// Lanes sharing a row (1: a unit per row, no plane operations).
    pub groups: usize,
    /// Plane width (the shuffles' lanes).
    pub plane: usize,
    pub units: usize,
    /// Rows of A21 per cube (a multiple of units / groups).
    pub rows: usize,
    pub unroll: bool,
}

impl PanelSolveConfig {
    /// On GPUs with plane operations, 16 lanes per row and 512 units (32 rows per cube);
    /// elsewhere a unit per row: 64 units where cubes have that many (one row each: on
    /// wgpu/lavapipe a unit's 15th row and later came out wrong, session 49), else the few
    /// units the runtime has (the CPU runtime: one per thread), each looping over 64 rows.
    pub fn new(hw: &Hardware, nb: usize) -> Option<Self> {
        let gpu = hw.max_units_per_cube >= 512 && hw.plane_ops && hw.lanes.is_power_of_two();
        let groups = if gpu && nb.is_multiple_of(16) && hw.lanes >= 16 {
            16
        } else {
            1
        };
        let (units, rows) = if groups > 1 {
            (512, 512 / groups)
        } else if hw.max_units_per_cube >= 64 {
            (64, 64)
        } else {
            (hw.max_units_per_cube.clamp(1, 2), 64)
        };
        let cfg = Self {
            nb,
            groups,
            plane: if groups > 1 { hw.lanes } else { 1 },
            units,
            rows,
            unroll: gpu,
        };
        // By construction groups divides nb and the plane width, units fit the cube, and the
        // units' rows divide a cube's: only L11's staging can fail to fit.
        (nb >= 1 && 4 * (nb * (nb + 1) + nb) <= hw.max_shared_bytes).then_some(cfg)
    }
}

/// `w`: A21 (view `sa`, rows × nb), solved in place; `t`: L11 (view `sl`, nb × nb), read.
/// They may share a buffer (disjoint elements). Grid x: blocks of `cfg.rows` rows; y, z: the
/// batch.
#[cube(launch_unchecked, create_dummy_kernel)]
pub fn panel_solve_kernel<F: Float>(
    t: &[F],
    w: &mut [F],
    sa: Strides,
    sl: Strides,
    rows: usize,
    batch: usize,
    #[comptime] cfg: PanelSolveConfig,
) {
    let mat = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    // Uniform per cube: leave before the barriers.
    if mat >= batch {
        terminate!();
    }
    let (nb, g, units) = comptime!((cfg.nb, cfg.groups, cfg.units));
    let cw = comptime!(cfg.nb / cfg.groups);
    // Row stride of `lt`, padded so the transposing stores spread over the banks.
    let ld = comptime!(cfg.nb + 1);
    let unit = UNIT_POS as usize;
    let mut lt = Shared::<[F]>::new_slice(comptime!(cfg.nb * (cfg.nb + 1)));
    let mut dinv = Shared::<[F]>::new_slice(nb);
    let lb = sl.offset + mat * sl.bs;
    #[unroll(cfg.unroll)]
    for s in 0..comptime!((cfg.nb * cfg.nb).div_ceil(cfg.units)) {
        let idx = unit + s * units;
        if idx < comptime!(cfg.nb * cfg.nb) {
            let (i, k) = (idx / nb, idx % nb);
            let mut v = F::new(0.0);
            if k < i {
                v = t[lb + i * sl.rs + k * sl.cs];
            }
            lt[k * ld + i] = v;
        }
    }
    #[unroll(cfg.unroll)]
    for s in 0..comptime!(cfg.nb.div_ceil(cfg.units)) {
        let j = unit + s * units;
        if j < nb {
            dinv[j] = F::new(1.0) / t[lb + j * (sl.rs + sl.cs)];
        }
    }
    sync_cube();
    let q = unit % g;
    let row_units = comptime!(cfg.units / cfg.groups);
    // The lane of this row's first unit in its plane.
    let first = (unit % comptime!(cfg.plane)) - q;
    let base = sa.offset + mat * sa.bs;
    for slot in 0..comptime!(cfg.rows / (cfg.units / cfg.groups)) {
        let r = CUBE_POS_X as usize * comptime!(cfg.rows) + unit / g + slot * row_units;
        let live = r < rows;
        let mut a = Array::<F>::new(cw);
        #[unroll(cfg.unroll)]
        for c in 0..cw {
            let mut v = F::new(0.0);
            if live {
                v = w[base + r * sa.rs + (c * g + q) * sa.cs];
            }
            a[c] = v;
        }
        substitute_row(&mut a, &lt, &dinv, q, first, nb, g, cfg.unroll);
        if live {
            #[unroll(cfg.unroll)]
            for c in 0..cw {
                w[base + r * sa.rs + (c * g + q) * sa.cs] = a[c];
            }
        }
    }
}

/// One row x of x·L11ᵀ = a, forward over the columns, in place in `v`: the row's units are
/// `groups` consecutive lanes of one plane (`first` the first of them), lane `lq` holding
/// columns lq, lq + g, … (g = `groups`); `lt`: L11's strictly lower part transposed, column j
/// at j·(nb + 1) (zeros on and above the diagonal); `dinv`: 1/l_jj. Column j: its lane
/// scales its entry, a shuffle hands x_j to the row's lanes, each removes x_j·l_rj from its
/// columns r.
#[cube]
#[allow(clippy::too_many_arguments)]
pub(crate) fn substitute_row<F: Float>(
    v: &mut Array<F>,
    lt: &Shared<[F]>,
    dinv: &Shared<[F]>,
    lq: usize,
    first: usize,
    #[comptime] nb: usize,
    #[comptime] groups: usize,
    #[comptime] unroll: bool,
) {
    let g = groups;
    let cw = comptime!(nb / groups);
    let ld = comptime!(nb + 1);
    #[unroll(unroll)]
    for j in 0..nb {
        // Column j is register j / g of lane j % g; its lane's value is final now.
        let (o, c) = (j % g, j / g);
        let mut x = v[c] * dinv[j];
        if comptime!(groups > 1) {
            x = plane_shuffle(x, (first + o) as u32);
            if lq == o {
                v[c] = x;
            }
        } else {
            v[c] = x;
        }
        #[unroll(unroll)]
        for c2 in 0..cw {
            v[c2] -= x * lt[j * ld + c2 * g + lq];
        }
    }
}

/// L21 = A21·L11⁻ᵀ in place (`a21`: rows × nb; `l11`: nb × nb lower, factored) with
/// [`panel_solve_kernel`], where the device runs it. Returns false (and launches nothing)
/// otherwise.
pub(crate) fn launch_panel_solve(ctx: &Ctx, a21: Operand, l11: Operand) -> bool {
    let (av, lv) = (a21.view, l11.view);
    let nb = lv.rows;
    let Some(cfg) = PanelSolveConfig::new(ctx.launch.hw(), nb) else {
        return false;
    };
    if av.rows == 0 || av.cols != nb || lv.cols != nb {
        return false;
    }
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count());
    // SAFETY: the grid fits (potrf checked its order's grids before any launch). Each cube
    // reads L11's lower triangle (i, k) < (nb, nb) of its matrix into shared memory (indices
    // below nb·(nb + 1) and nb), behind a cube barrier reached by all its units (the early
    // exit is uniform per cube), and reads and writes only A21(r, c) with r < rows of its own
    // block of rows, c < nb, each element by one unit, which reads it before writing it; L11
    // and A21 are disjoint (views checked by the public op, inside their buffers). Shuffles
    // run on whole planes (units a multiple of the plane width on GPUs, every lane taking
    // every shuffle; `groups` consecutive lanes per row inside one plane, by construction).
    unsafe {
        panel_solve_kernel::launch_unchecked::<f32>(
            ctx.client,
            CubeCount::Static(av.rows.div_ceil(cfg.rows) as u32, by as u32, bz as u32),
            CubeDim::new_1d(cfg.units as u32),
            BufferArg::from_raw_parts(l11.handle.clone(), l11.len),
            BufferArg::from_raw_parts(a21.handle.clone(), a21.len),
            av.launch_arg(),
            lv.launch_arg(),
            av.rows,
            ctx.batch,
            cfg,
        )
    };
    true
}
