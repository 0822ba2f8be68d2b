//! The true-f32 SIMT GEMM of [`crate::gemm`] with 4-vector shared-memory tiles
//! (`GemmConfig::vector`): the same contract (C ← β·C ± A·B on strided views, batched, sign,
//! lower-only), the same cube tiling and f32 multiply-adds in the same K order per element.
//!
//! What changes is the ownership of C: unit (ux, uy) owns rows `g·4·units_y + 4·uy + q` and
//! columns `h·4·units_x + 4·ux + q` (g < tm/4, h < tn/4, q < 4), four consecutive rows and
//! columns at a time. Shared memory holds A as `[k][row/4]` and B as `[k][col/4]` in vectors of
//! 4 (each k-row padded by one vector, so the units that fill a window along K do not share
//! banks), so one K step costs a unit tm/4 + tn/4 vector reads for tm·tn multiply-adds instead
//! of tm + tn scalar ones. Two shared windows alternate: the next window is stored while the
//! current one is read, one barrier per K window.
use crate::gemm::{
    GemmConfig, GemmOp, Layout, MatArgs, Strides, TileAt, load_tile_c, operand_base, put_tile,
    store_tile, tile_at,
};
use cubecl::prelude::*;

type V4<F> = Vector<F, Const<4>>;

/// The kernel (public only for `examples/ptx_probe.rs`, which compiles it and never launches
/// it; launches go through [`crate::gemm::GemmLaunch`]).
#[doc(hidden)]
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn gemm_vec_kernel<F: Float>(
    a: &[F],
    b: &[F],
    c: &mut [F],
    dims: MatArgs,
    sa: Strides,
    sb: Strides,
    sc: Strides,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
    #[comptime] layout: Layout,
) {
    let at = tile_at(&dims, cfg.tile_m(), cfg.tile_n(), op);
    gemm_vec_tile(a, b, c, &dims, &sa, &sb, &sc, &at, cfg, op, layout, false);
}

/// The cube's tile `at` of the product (every unit of the cube calls it; kernels that fuse a
/// GEMM with more work call it after [`tile_at()`]). With `c_first`, an accumulating tile
/// issues its C loads behind the first windows' loads, so their latency overlaps the product
/// instead of following it. That holds the tm·tn old values and their addresses through the
/// K loop (ptxas 13, the default 64 × 64 tiles: 145 registers against 74), so only kernels
/// whose cubes are few per multiprocessor anyway should ask for it.
#[cube]
#[allow(clippy::too_many_arguments)]
pub fn gemm_vec_tile<F: Float>(
    a: &[F],
    b: &[F],
    c: &mut [F],
    dims: &MatArgs,
    sa: &Strides,
    sb: &Strides,
    sc: &Strides,
    at: &TileAt,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
    #[comptime] layout: Layout,
    #[comptime] c_first: bool,
) {
    let mut acc = Array::<F>::new(comptime!(cfg.tm * cfg.tn));
    let mut old = Array::<F>::new(comptime!(cfg.tm * cfg.tn));
    gemm_vec_acc(
        a, b, c, dims, sa, sb, sc, at, &mut acc, &mut old, cfg, op, layout, c_first,
    );
    let unit = UNIT_POS as usize;
    let (uy, ux) = (unit / cfg.units_x, unit % cfg.units_x);
    let c_base = sc.offset + at.bidx * sc.bs;
    if comptime!(c_first && op.accumulate) {
        put_tile(
            c, c_base, sc, dims, &acc, &old, at.row0, at.col0, uy, ux, cfg, op,
        );
    } else {
        store_tile(c, c_base, sc, dims, &acc, at.row0, at.col0, uy, ux, cfg, op);
    }
}

/// [`gemm_vec_tile()`] up to its epilogue: this unit's products (without sign) into `acc`, its
/// elements at rows `result_index(at.row0, UNIT_POS / units_x, r, units_y, true)` and
/// columns `result_index(at.col0, UNIT_POS % units_x, s, units_x, true)`; with `c_first`
/// and an accumulating `op`, their old values ([`load_tile_c()`]) into `old`.
#[cube]
#[allow(clippy::too_many_arguments)]
pub fn gemm_vec_acc<F: Float>(
    a: &[F],
    b: &[F],
    c: &mut [F],
    dims: &MatArgs,
    sa: &Strides,
    sb: &Strides,
    sc: &Strides,
    at: &TileAt,
    acc: &mut Array<F>,
    old: &mut Array<F>,
    #[comptime] cfg: GemmConfig,
    #[comptime] op: GemmOp,
    #[comptime] layout: Layout,
    #[comptime] c_first: bool,
) {
    let tm = comptime!(cfg.tm);
    let tn = comptime!(cfg.tn);
    let ux_n = comptime!(cfg.units_x);
    let uy_n = comptime!(cfg.units_y);
    let bk = comptime!(cfg.tile_k);
    let lda = comptime!(cfg.tile_m() / 4 + 1);
    let ldb = comptime!(cfg.tile_n() / 4 + 1);
    let half_a = comptime!(cfg.tile_k * (cfg.tile_m() / 4 + 1));
    let half_b = comptime!(cfg.tile_k * (cfg.tile_n() / 4 + 1));

    let (bidx, row0, col0, kdim) = (at.bidx, at.row0, at.col0, at.kdim);
    let unit = UNIT_POS as usize;
    let ux = unit % ux_n;
    let uy = unit / ux_n;
    let a_base = operand_base(at, sa, dims.a_split);
    let b_base = operand_base(at, sb, dims.b_split);
    let c_base = sc.offset + bidx * sc.bs;

    let mut sh_a = Shared::<[V4<F>]>::new_slice(comptime!(2 * half_a));
    let mut sh_b = Shared::<[V4<F>]>::new_slice(comptime!(2 * half_b));
    let mut ra = Array::<F>::new(tm);
    let mut rb = Array::<F>::new(tn);
    #[unroll(cfg.unroll)]
    for e in 0..comptime!(tm * tn) {
        acc[e] = F::new(0.0);
    }

    let na = comptime!((cfg.tile_k * cfg.tile_m() / 4).div_ceil(cfg.units()));
    let nbv = comptime!((cfg.tile_k * cfg.tile_n() / 4).div_ceil(cfg.units()));
    let mut pa = Array::<V4<F>>::new(na);
    let mut pb = Array::<V4<F>>::new(nbv);
    fetch_vec_windows(
        a, b, a_base, b_base, sa, sb, dims, kdim, row0, col0, 0, &mut pa, &mut pb, unit, cfg,
        layout,
    );
    if comptime!(c_first && op.accumulate) {
        load_tile_c(c, c_base, sc, dims, old, row0, col0, uy, ux, cfg, op);
    }
    stash_vec_windows(&pa, &pb, &mut sh_a, &mut sh_b, 0, 0, unit, cfg, layout);
    sync_cube();

    let mut k0 = 0usize;
    let mut cur = 0usize;
    while k0 < kdim {
        let next = k0 + bk;
        // Uniform per cube.
        if next < kdim {
            fetch_vec_windows(
                a, b, a_base, b_base, sa, sb, dims, kdim, row0, col0, next, &mut pa, &mut pb, unit,
                cfg, layout,
            );
        }
        let oa = cur * half_a;
        let ob = cur * half_b;
        #[unroll(cfg.unroll)]
        for kk in 0..bk {
            #[unroll(cfg.unroll)]
            for g in 0..comptime!(tm / 4) {
                let v = sh_a[oa + kk * lda + g * uy_n + uy];
                #[unroll]
                for q in 0..4usize {
                    ra[g * 4 + q] = v.extract(q);
                }
            }
            #[unroll(cfg.unroll)]
            for h in 0..comptime!(tn / 4) {
                let v = sh_b[ob + kk * ldb + h * ux_n + ux];
                #[unroll]
                for q in 0..4usize {
                    rb[h * 4 + q] = v.extract(q);
                }
            }
            #[unroll(cfg.unroll)]
            for r in 0..tm {
                #[unroll(cfg.unroll)]
                for s in 0..tn {
                    acc[r * tn + s] = fma(ra[r], rb[s], acc[r * tn + s]);
                }
            }
        }
        // The other window was last read before the previous barrier.
        if next < kdim {
            let (other_a, other_b) = ((1 - cur) * half_a, (1 - cur) * half_b);
            stash_vec_windows(
                &pa, &pb, &mut sh_a, &mut sh_b, other_a, other_b, unit, cfg, layout,
            );
        }
        sync_cube();
        cur = 1 - cur;
        k0 = next;
    }
}

/// This unit's share of the A window (rows `row0..`, K `k0..`: x = rows, stride rs) and of the
/// B window (x = columns, stride cs) of K window `k0`, into registers.
#[cube]
#[allow(clippy::too_many_arguments)]
fn fetch_vec_windows<F: Float>(
    a: &[F],
    b: &[F],
    a_base: usize,
    b_base: usize,
    sa: &Strides,
    sb: &Strides,
    dims: &MatArgs,
    kdim: usize,
    row0: usize,
    col0: usize,
    k0: usize,
    pa: &mut Array<V4<F>>,
    pb: &mut Array<V4<F>>,
    unit: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    load_vec_window(
        a,
        a_base,
        sa.rs,
        sa.cs,
        row0,
        k0,
        dims.m,
        kdim,
        pa,
        unit,
        bm,
        bk,
        units,
        !layout.a_col_major,
        cfg.unroll,
    );
    load_vec_window(
        b,
        b_base,
        sb.cs,
        sb.rs,
        col0,
        k0,
        dims.n,
        kdim,
        pb,
        unit,
        bn,
        bk,
        units,
        layout.b_col_major,
        cfg.unroll,
    );
}

/// The registers of [`fetch_vec_windows`] into the shared windows at `off_a`, `off_b`.
#[cube]
#[allow(clippy::too_many_arguments)]
fn stash_vec_windows<F: Float>(
    pa: &Array<V4<F>>,
    pb: &Array<V4<F>>,
    sh_a: &mut Shared<[V4<F>]>,
    sh_b: &mut Shared<[V4<F>]>,
    off_a: usize,
    off_b: usize,
    unit: usize,
    #[comptime] cfg: GemmConfig,
    #[comptime] layout: Layout,
) {
    let (bm, bn, bk, units) = comptime!((cfg.tile_m(), cfg.tile_n(), cfg.tile_k, cfg.units()));
    store_vec_window(
        pa,
        sh_a,
        off_a,
        unit,
        bm,
        bk,
        units,
        !layout.a_col_major,
        cfg.unroll,
    );
    store_vec_window(
        pb,
        sh_b,
        off_b,
        unit,
        bn,
        bk,
        units,
        layout.b_col_major,
        cfg.unroll,
    );
}

/// Load this unit's share of an `x_len × k_len` window at (x0, k0) — element (x, k) at
/// `base + x·xs + k·ks`, zeros past `xmax`, `kmax` — as vectors of 4 consecutive x. Slot
/// `unit + t·units` is (vector along x, k) with k varying fastest (`k_fastest`, when K is the
/// contiguous dimension) or x, to match the memory layout.
#[cube]
#[allow(clippy::too_many_arguments)]
fn load_vec_window<F: Float>(
    src: &[F],
    base: usize,
    xs: usize,
    ks: usize,
    x0: usize,
    k0: usize,
    xmax: usize,
    kmax: usize,
    regs: &mut Array<V4<F>>,
    unit: usize,
    #[comptime] x_len: usize,
    #[comptime] k_len: usize,
    #[comptime] units: usize,
    #[comptime] k_fastest: bool,
    #[comptime] unroll: bool,
) {
    let xv = comptime!(x_len / 4);
    #[unroll(unroll)]
    for t in 0..comptime!((x_len / 4 * k_len).div_ceil(units)) {
        let idx = unit + t * units;
        let mut g = idx % xv;
        let mut kk = idx / xv;
        if comptime!(k_fastest) {
            g = idx / k_len;
            kk = idx % k_len;
        }
        let gk = k0 + kk;
        let mut w = V4::<F>::broadcast(F::new(0.0));
        if idx < comptime!(x_len / 4 * k_len) && gk < kmax {
            #[unroll]
            for q in 0..4usize {
                let gx = x0 + 4 * g + q;
                if gx < xmax {
                    w.insert(q, src[base + gx * xs + gk * ks]);
                }
            }
        }
        regs[t] = w;
    }
}

/// Store the vectors of [`load_vec_window`] to the shared window at `off`: `[k][x/4]`, k-rows
/// `x_len/4 + 1` vectors apart.
#[cube]
#[allow(clippy::too_many_arguments)]
fn store_vec_window<F: Float>(
    regs: &Array<V4<F>>,
    sh: &mut Shared<[V4<F>]>,
    off: usize,
    unit: usize,
    #[comptime] x_len: usize,
    #[comptime] k_len: usize,
    #[comptime] units: usize,
    #[comptime] k_fastest: bool,
    #[comptime] unroll: bool,
) {
    let xv = comptime!(x_len / 4);
    let ld = comptime!(x_len / 4 + 1);
    #[unroll(unroll)]
    for t in 0..comptime!((x_len / 4 * k_len).div_ceil(units)) {
        let idx = unit + t * units;
        let mut g = idx % xv;
        let mut kk = idx / xv;
        if comptime!(k_fastest) {
            g = idx / k_len;
            kk = idx % k_len;
        }
        if idx < comptime!(x_len / 4 * k_len) {
            sh[off + kk * ld + g] = regs[t];
        }
    }
}
