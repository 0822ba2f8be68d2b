//! Triangular solves with few right-hand sides: T·X = B (T n×n, B n×k, k ≤ `trsv_max_k`) by
//! block substitution, one launch per nb-row diagonal block, where the GEMM recursion would
//! chain about 2·n/nb latency-bound launches of one narrow GEMM each.
//!
//! Launch for block j (in solve order: ascending for lower T, descending for upper): every
//! cube forms X_j = inv(T_jj)·B_j from the block inverses (B_j is read-only in this launch);
//! the cube of block j stores X_j to the scratch `xs`, the cube of each block i still to
//! solve (below j for lower T, above for upper) updates B_i −= T_ij·X_j. The caller copies
//! `xs` into B at the end. Operand blocks are staged in shared memory (row r of a block at
//! r·(nb + 1)), each unit owns rows unit + u·units and loops over the k columns.
//!
//! With `trsv_chain`, one launch: the cube at grid position x owns the x-th block i in solve
//! order. It keeps B_i in shared memory and, for each earlier block j in turn, loads T_ij,
//! waits for `ready[b·blocks + j]` (set by j's cube after it stored X_j to `xs`, behind a
//! storage barrier), reads X_j and subtracts T_ij·X_j; then X_i = inv(T_ii)·B_i goes to
//! `xs`, and its own flag is set. With `inv_ahead` (`trsv_prefetch`) inv(T_ii) is staged in
//! its own shared block before the loop, so no global read follows the last wait. Earlier
//! grid positions start first (CUDA, Vulkan, Metal; the CPU runtime runs cubes in order), so
//! the waits end.
use crate::Ctx;
use crate::trsm::BlockInverses;
use cubecl::prelude::*;
use linalg_common::copy::{CopyConfig, launch_copy};
use linalg_common::gemm::{Operand, Strides, View, batch_grid};
use linalg_common::launch::Hardware;

/// Comptime shape of the block-substitution kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrsvConfig {
    pub nb: usize,
    pub units: usize,
    /// Most right-hand sides (the shared tiles of B_j and X_j hold nb × max_k).
    pub max_k: usize,
    pub unroll: bool,
    /// The one-launch chain stages its own block's inverse into a second shared block before
    /// the substitution loop, so that its last step waits on no global read.
    pub inv_ahead: bool,
}

impl TrsvConfig {
    /// nb units on GPUs (a row each), else the few the runtime has; `inv_ahead` where asked
    /// for (default: wherever the second block fits the shared memory).
    pub fn new(hw: &Hardware, nb: usize, max_k: usize, inv_ahead: Option<bool>) -> Option<Self> {
        let gpu = hw.max_units_per_cube >= 256;
        let units = if gpu {
            nb
        } else {
            hw.max_units_per_cube.clamp(1, 2)
        };
        let shared = |blocks: usize| 4 * (blocks * nb * (nb + 1) + 2 * nb * max_k);
        let fits_ahead = shared(2) <= hw.max_shared_bytes;
        let cfg = Self {
            nb,
            units,
            max_k,
            unroll: gpu,
            inv_ahead: inv_ahead.unwrap_or(fits_ahead),
        };
        let ok = max_k >= 1
            && nb.is_multiple_of(units)
            && units <= hw.max_units_per_cube
            && shared(1) <= hw.max_shared_bytes
            && (!cfg.inv_ahead || fits_ahead);
        ok.then_some(cfg)
    }
}

/// T·X = B in place for B with at most `cfg.max_k` columns (see the module docs).
pub(crate) fn trsv(
    ctx: &Ctx,
    cfg: TrsvConfig,
    t: Operand,
    lower: bool,
    inv: &BlockInverses,
    g0: usize,
    b: Operand,
) {
    let (n, k) = (b.view.rows, b.view.cols);
    debug_assert!(k <= cfg.max_k && t.view.rows == n);
    let nb = cfg.nb;
    let nblocks = n.div_ceil(nb);
    let xs = ctx.buffer(ctx.batch * n * k);
    let xv = View::contiguous(n, k);
    let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.max_count());
    let iv = inv.block(g0, nb).view;
    // Both kernels take the same operands around the chain's flags and the step's block.
    macro_rules! launch {
        ($kernel:path, $cubes:expr, [$($ready:expr)?], [$($j:expr)?], [$($sync:expr)?]) => {
            $kernel(
                ctx.client,
                CubeCount::Static($cubes as u32, by as u32, bz as u32),
                CubeDim::new_1d(cfg.units as u32),
                BufferArg::from_raw_parts(t.handle.clone(), t.len),
                BufferArg::from_raw_parts(inv.handle.clone(), inv.len),
                BufferArg::from_raw_parts(b.handle.clone(), b.len),
                BufferArg::from_raw_parts(xs.0.clone(), xs.1),
                $(BufferArg::from_raw_parts($ready, ctx.batch.max(1) * nblocks),)?
                t.view.launch_arg(),
                iv.launch_arg(),
                b.view.launch_arg(),
                xv.launch_arg(),
                n,
                k,
                $($j,)?
                ctx.batch,
                cfg,
                lower,
                $($sync,)?
            )
        };
    }
    if ctx.launch.trsv_chain {
        let ready = ctx.zeroed_u32(ctx.batch.max(1) * nblocks);
        let sync = ctx.launch.hw().storage_sync;
        // SAFETY: cube x (< nblocks) owns block i = x (lower) or nblocks − 1 − x (upper): it
        // reads T's blocks (i, j) for the blocks j before it in solve order and (the inverse)
        // block i at offset (g0 + i)·nb² of the inverses' view, B's block i, and xs's blocks
        // j, all row/column indices masked to < n, so every access lies inside the views,
        // which the caller keeps inside their buffers. xs's block i is written by cube x
        // only, and read by the later cubes only after its flag (ready[b·nblocks + i] <
        // batch·nblocks) is set behind a storage barrier. Shared indices stay below
        // nb·(nb + 1) and nb·max_k. The early exit is uniform per cube and every unit runs
        // every loop trip, so every barrier is reached by all units.
        unsafe {
            launch!(
                trsv_chain_kernel::launch_unchecked::<f32>,
                nblocks,
                [ready],
                [],
                [sync]
            )
        }
    } else {
        for step in 0..nblocks {
            let j = if lower { step } else { nblocks - 1 - step };
            let cubes = nblocks - step;
            // SAFETY: cube x works on block i = j ± x (< nblocks): it reads T's blocks (j, j)
            // and (i, j), B's blocks j and i, and the inverse of block j (offset (g0 + j)·nb²
            // of the inverses' view), all row/column indices masked to < n (the blocks'
            // orders), so every access lies inside the views, which the caller keeps inside
            // their buffers. B_j is only read in this launch; block i ≠ j of B is written by
            // its own cube only, and xs's block j only by cube 0. Shared indices stay below
            // nb·(nb + 1) and nb·max_k. The early exit and the role branch are uniform per
            // cube, so every barrier is reached by all units.
            unsafe {
                launch!(
                    trsv_step_kernel::launch_unchecked::<f32>,
                    cubes,
                    [],
                    [j],
                    []
                )
            }
        }
    }
    launch_copy(
        ctx.client,
        ctx.launch.hw(),
        ctx.batch,
        (&xs.0, xs.1, xv),
        (b.handle, b.len, b.view),
        // Not written: a plain copy checks nothing.
        &xs.0,
        CopyConfig::PLAIN,
    );
}

#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsv_step_kernel<F: Float>(
    t: &[F],
    inv: &[F],
    b: &mut [F],
    xs: &mut [F],
    st: Strides,
    si: Strides,
    sb: Strides,
    sx: Strides,
    n: usize,
    k: usize,
    j: usize,
    batch: usize,
    #[comptime] cfg: TrsvConfig,
    #[comptime] lower: bool,
) {
    let nb = comptime!(cfg.nb);
    let units = comptime!(cfg.units);
    let mk = comptime!(cfg.max_k);
    let ld = comptime!(cfg.nb + 1);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    if bidx >= batch {
        terminate!();
    }
    let off = CUBE_POS_X as usize;
    let mut i = j + off;
    if comptime!(!lower) {
        i = j - off;
    }
    let (rj, ri) = (j * nb, i * nb);
    let ntj = min(nb, n - rj);
    let nti = min(nb, n - ri);
    let unit = UNIT_POS as usize;
    let tb = st.offset + bidx * st.bs;
    let bb = sb.offset + bidx * sb.bs;

    // One nb × nb tile: inv(T_jj), then T_ij (prefetched into registers meanwhile).
    let mut sh_m = Shared::<[F]>::new_slice(comptime!(nb * (nb + 1)));
    let mut sh_b = Shared::<[F]>::new_slice(comptime!(nb * mk));
    let mut sh_x = Shared::<[F]>::new_slice(comptime!(nb * mk));
    let mut pt = Array::<F>::new(comptime!(nb * nb / units));
    let ib = si.offset + bidx * si.bs + j * nb * nb;
    #[unroll(cfg.unroll)]
    for q in 0..comptime!(nb * nb / units) {
        let idx = unit + q * units;
        let r = idx / nb;
        let c = idx % nb;
        let mut v = F::new(0.0);
        let mut w = F::new(0.0);
        if r < ntj && c < ntj {
            v = inv[ib + r * si.rs + c * si.cs];
        }
        if off > 0 && r < nti && c < ntj {
            w = t[tb + (ri + r) * st.rs + (rj + c) * st.cs];
        }
        sh_m[r * ld + c] = v;
        pt[q] = w;
    }
    stage_rows(&*b, bb, &sb, rj, ntj, k, &mut sh_b, unit, cfg);
    sync_cube();
    // X_j = inv(T_jj)·B_j (zeros past ntj).
    for q in 0..comptime!(nb / units) {
        let r = unit + q * units;
        for c in 0..k {
            sh_x[r * mk + c] = row_product(&sh_m, &sh_b, r, c, cfg);
        }
    }
    sync_cube();
    if off == 0 {
        let xb = sx.offset + bidx * sx.bs;
        for q in 0..comptime!(nb / units) {
            let r = unit + q * units;
            if r < ntj {
                for c in 0..k {
                    xs[xb + (rj + r) * sx.rs + c * sx.cs] = sh_x[r * mk + c];
                }
            }
        }
    } else {
        #[unroll(cfg.unroll)]
        for q in 0..comptime!(nb * nb / units) {
            let idx = unit + q * units;
            sh_m[(idx / nb) * ld + idx % nb] = pt[q];
        }
        sync_cube();
        for q in 0..comptime!(nb / units) {
            let r = unit + q * units;
            if r < nti {
                for c in 0..k {
                    b[bb + (ri + r) * sb.rs + c * sb.cs] -= row_product(&sh_m, &sh_x, r, c, cfg);
                }
            }
        }
    }
}

/// The one-launch block substitution (`trsv_chain`; see the module docs). B is only read;
/// X goes to `xs`.
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn trsv_chain_kernel<F: Float>(
    t: &[F],
    inv: &[F],
    b: &[F],
    xs: &mut [F],
    ready: &[Atomic<u32>],
    st: Strides,
    si: Strides,
    sb: Strides,
    sx: Strides,
    n: usize,
    k: usize,
    batch: usize,
    #[comptime] cfg: TrsvConfig,
    #[comptime] lower: bool,
    #[comptime] storage_sync: bool,
) {
    let nb = comptime!(cfg.nb);
    let units = comptime!(cfg.units);
    let mk = comptime!(cfg.max_k);
    let bidx = (CUBE_POS_Y + CUBE_POS_Z * CUBE_COUNT_Y) as usize;
    if bidx >= batch {
        terminate!();
    }
    let nblocks = n.div_ceil(nb);
    let x = CUBE_POS_X as usize;
    let mut i = x;
    if comptime!(!lower) {
        i = nblocks - 1 - x;
    }
    let ri = i * nb;
    let nti = min(nb, n - ri);
    let unit = UNIT_POS as usize;
    let tb = st.offset + bidx * st.bs;
    let bb = sb.offset + bidx * sb.bs;
    let xb = sx.offset + bidx * sx.bs;
    let fb = bidx * nblocks;

    let mut sh_m = Shared::<[F]>::new_slice(comptime!(nb * (nb + 1)));
    let mut sh_b = Shared::<[F]>::new_slice(comptime!(nb * mk));
    let mut sh_x = Shared::<[F]>::new_slice(comptime!(nb * mk));
    // inv(T_ii) ahead of the loop, where a second block fits: no global read after the wait.
    let mut sh_i =
        Shared::<[F]>::new_slice(comptime!(if cfg.inv_ahead { nb * (nb + 1) } else { 1 }));
    let ib = si.offset + bidx * si.bs + i * nb * nb;
    if comptime!(cfg.inv_ahead) {
        stage_block(inv, ib, si.rs, si.cs, nti, nti, &mut sh_i, unit, cfg);
    }
    stage_rows(b, bb, &sb, ri, nti, k, &mut sh_b, unit, cfg);
    // B_i −= T_ij·X_j for the blocks j solved before i, in solve order.
    for s in 0..x {
        let mut j = s;
        if comptime!(!lower) {
            j = nblocks - 1 - s;
        }
        let rj = j * nb;
        let ntj = min(nb, n - rj);
        // T_ij first: it does not wait for anything.
        let tij = tb + ri * st.rs + rj * st.cs;
        stage_block(t, tij, st.rs, st.cs, nti, ntj, &mut sh_m, unit, cfg);
        if unit == 0 {
            loop {
                if ready[fb + j].load() != 0 {
                    break;
                }
            }
        }
        // Acquire X_j.
        chain_barrier(storage_sync);
        stage_rows(&*xs, xb, &sx, rj, ntj, k, &mut sh_x, unit, cfg);
        sync_cube();
        for q in 0..comptime!(nb / units) {
            let r = unit + q * units;
            for c in 0..k {
                sh_b[r * mk + c] -= row_product(&sh_m, &sh_x, r, c, cfg);
            }
        }
        // sh_m and sh_x are refilled by the next trip.
        sync_cube();
    }
    // X_i = inv(T_ii)·B_i (zeros past nti), stored, then published.
    if comptime!(cfg.inv_ahead) {
        // Staged before the loop; a barrier for a first block, which ran no trip.
        sync_cube();
        store_solution(&sh_i, &sh_b, xs, xb, &sx, ri, nti, k, unit, cfg);
    } else {
        stage_block(inv, ib, si.rs, si.cs, nti, nti, &mut sh_m, unit, cfg);
        sync_cube();
        store_solution(&sh_m, &sh_b, xs, xb, &sx, ri, nti, k, unit, cfg);
    }
    chain_barrier(storage_sync);
    if unit == 0 {
        ready[fb + i].store(1u32);
    }
}

/// X_i = M·B_i (M: the staged inverse) into rows `ri`.. (`nti` of them) of `xs`.
#[cube]
#[allow(clippy::too_many_arguments)]
fn store_solution<F: Float>(
    m: &Shared<[F]>,
    sh_b: &Shared<[F]>,
    xs: &mut [F],
    xb: usize,
    sx: &Strides,
    ri: usize,
    nti: usize,
    k: usize,
    unit: usize,
    #[comptime] cfg: TrsvConfig,
) {
    for q in 0..comptime!(cfg.nb / cfg.units) {
        let r = unit + q * cfg.units;
        if r < nti {
            for c in 0..k {
                xs[xb + (ri + r) * sx.rs + c * sx.cs] = row_product(m, sh_b, r, c, cfg);
            }
        }
    }
}

/// Rows `row0`.. (`rows` of them; zeros past) of an n×k operand at `base` into `sh`, row r
/// at r·max_k.
#[cube]
#[allow(clippy::too_many_arguments)]
fn stage_rows<F: Float>(
    src: &[F],
    base: usize,
    s: &Strides,
    row0: usize,
    rows: usize,
    k: usize,
    sh: &mut Shared<[F]>,
    unit: usize,
    #[comptime] cfg: TrsvConfig,
) {
    let mk = comptime!(cfg.max_k);
    for q in 0..comptime!(cfg.nb / cfg.units) {
        let r = unit + q * cfg.units;
        for c in 0..k {
            let mut v = F::new(0.0);
            if r < rows {
                v = src[base + (row0 + r) * s.rs + c * s.cs];
            }
            sh[r * mk + c] = v;
        }
    }
}

/// The `rows` × `cols` block at `base` (strides `rs`, `cs`; zeros past it, up to nb × nb)
/// into `sh`, row r at r·(nb + 1).
#[cube]
#[allow(clippy::too_many_arguments)]
fn stage_block<F: Float>(
    src: &[F],
    base: usize,
    rs: usize,
    cs: usize,
    rows: usize,
    cols: usize,
    sh: &mut Shared<[F]>,
    unit: usize,
    #[comptime] cfg: TrsvConfig,
) {
    let nb = comptime!(cfg.nb);
    let ld = comptime!(cfg.nb + 1);
    #[unroll(cfg.unroll)]
    for q in 0..comptime!(cfg.nb * cfg.nb / cfg.units) {
        let idx = unit + q * cfg.units;
        let r = idx / nb;
        let c = idx % nb;
        let mut v = F::new(0.0);
        if r < rows && c < cols {
            v = src[base + r * rs + c * cs];
        }
        sh[r * ld + c] = v;
    }
}

/// Σ_u M(r, u)·V(u, c) over a staged nb×nb block M (row r at r·(nb + 1)) and nb×k rows V.
#[cube]
fn row_product<F: Float>(
    m: &Shared<[F]>,
    v: &Shared<[F]>,
    r: usize,
    c: usize,
    #[comptime] cfg: TrsvConfig,
) -> F {
    let ld = comptime!(cfg.nb + 1);
    let mk = comptime!(cfg.max_k);
    let mut acc = F::new(0.0);
    #[unroll(cfg.unroll)]
    for u in 0..cfg.nb {
        acc += m[r * ld + u] * v[u * mk + c];
    }
    acc
}

/// A storage barrier where the runtime has one, else (the CPU runtime) a cube barrier.
#[cube]
pub(crate) fn chain_barrier(#[comptime] storage_sync: bool) {
    if comptime!(storage_sync) {
        sync_storage();
    } else {
        sync_cube();
    }
}
