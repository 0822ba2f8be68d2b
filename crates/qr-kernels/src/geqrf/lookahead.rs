//! Look-ahead ([`super::QrParams::lookahead`]): step k's trailing update and panel k + 1 in
//! one launch.
//!
//! After panel k (reflectors V and U = V·Tᵀ of width kk on rows [c0, m)) and W = Vᵀ·C over
//! all its trailing columns, C −= U·W splits by columns into the next panel's w columns and
//! the rest. One launch does both:
//! - its first G cubes per matrix (G = 1, or a grid panel's cubes; the panels of every
//!   matrix come first in the 1-D launch) are panel k + 1: each loads its rows of the panel
//!   as the register panel kernel does, subtracts those rows of U·W (panel row i is row
//!   i + kk of U), cube 0 also updating and storing the kk rows above the panel (R's rows,
//!   rows 0 … kk − 1 of U), then factors the panel ([`super::panel_regs`]), writing V and U
//!   of panel k + 1 to the other buffer pair;
//! - the other cubes are the tiles of C_rest −= U·W_rest on the vector SIMT GEMM
//!   ([`gemm_vec_tile`]; f32, the same kernel as the update without look-ahead, with tiles
//!   of the panel's unit count); or, with strips ([`super::QrParams::lookahead_strips`]),
//!   column strips of [`STRIP`] columns of C_rest over all its rows, each cube forming its
//!   own W_s = Vᵀ·C_s and then C_s −= U·W_s ([`strip_update`]), so that W = Vᵀ·C before the
//!   launch covers only the next panel's columns and the product of the rest leaves the
//!   chain of launches.
//!
//! The panel — a chain of w column steps on G multiprocessors — runs beside the update on the
//! others, and one launch per step leaves the chain. The device starts a launch's cubes in
//! order (in practice; nothing promises it), so the panels' start first, and they fit the
//! multiprocessors together; a grid panel's cubes still wait for each other only through
//! bounded polls ([`super::GRID_WAIT_POLLS`]).
use super::config::RegPanelConfig;
use super::panel_regs::{
    PanelPos, cube_first_row, load_panel, panel_regs_body, unit_column, unit_row_group,
};
use super::update::SUB_OP;
use cubecl::prelude::*;
use linalg_common::gemm::{GemmConfig, Layout, MatArgs, Strides, TileAt};
use linalg_common::gemm_vec::gemm_vec_tile;

/// Where the previous panel's U and the product W = Vᵀ·C are, and how many cubes the panel
/// takes: U row r of matrix b at `b·u_bs + r·nb` (kk columns), W(l, j) at
/// `b·w_bs + l·w_rs + j` (the next panel's columns first).
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct Ahead {
    pub kk: usize,
    pub u_bs: usize,
    pub w_rs: usize,
    pub w_bs: usize,
    pub pcubes: usize,
}

/// U and W are row-major.
const AHEAD_LAYOUT: Layout = Layout {
    a_col_major: false,
    b_col_major: false,
};

/// Most units of a look-ahead cube. Cubes of 1024 (panels of 64 columns with 16 row groups)
/// leave 64 registers per unit: ptxas 13 spilled 152 bytes there (`ptx_probe qahead 4096 64
/// 16 grid 128` on ffc177f, before this limit); at 512 units the kernel takes 106 registers
/// and no spill (`qahead 4096 32 16 grid 128`).
pub const MAX_AHEAD_UNITS: usize = 512;

/// The GEMM tiles for a launch of `units` units (the panel's): 4 × 4 per unit, 16 units
/// along columns (32 from 512 units), K windows of 16; `None` below 64 units, off 16 or
/// above `MAX_AHEAD_UNITS`.
pub fn ahead_tiles(units: usize) -> Option<GemmConfig> {
    if !(64..=MAX_AHEAD_UNITS).contains(&units) || !units.is_multiple_of(16) {
        return None;
    }
    let units_x = if units >= 512 { 32 } else { 16 };
    Some(GemmConfig {
        units_x,
        units_y: units / units_x,
        tm: 4,
        tn: 4,
        tile_k: 16,
        unroll: true,
        vector: true,
    })
}

/// Columns of C_rest per cube of the strip update ([`strip_update`]).
pub const STRIP: usize = 16;

/// Shared memory of [`strip_update`] for a launch of `cfg`'s cubes, in bytes: gy slices of
/// nb × [`STRIP`] partial sums.
pub(crate) fn strip_bytes(cfg: &RegPanelConfig) -> usize {
    4 * cfg.gy * cfg.nb * STRIP
}

/// Panel k + 1 (cube x < pcubes·batch: cube x % pcubes of matrix x / pcubes; arguments as
/// `super::panel_regs_kernel`'s, `h` its view `sh`) after its rows of C −= U·W, and
/// C_rest −= U·W_rest (cube x ≥ pcubes·batch: tile t % tiles of matrix t / tiles, t = x −
/// pcubes·batch, tiles per matrix from `dims`; `sa`: U, `sb`: W_rest, `sc`: C_rest, a view of
/// `h` disjoint from the panel and the rows above it). With `strips`, tile t is strip t of
/// `STRIP` columns of C_rest (`dims.tiles_n` per matrix, `dims.m` rows, `dims.n` columns),
/// W_rest formed from V (`v_prev`, laid out as U) and not read.
#[cube(launch_unchecked, create_dummy_kernel)]
#[allow(clippy::too_many_arguments)]
pub fn lookahead_kernel<F: Float, X: Int>(
    h: &mut [F],
    tau: &mut [F],
    v_out: &mut [F],
    u_out: &mut [F],
    xv: &[Atomic<X>],
    status: &[Atomic<u32>],
    u_prev: &[F],
    v_prev: &[F],
    wk: &[F],
    sh: Strides,
    tau_off: usize,
    tau_bs: usize,
    vu_bs: usize,
    p: usize,
    w: usize,
    batch: usize,
    e0: u32,
    gmax: usize,
    ah: Ahead,
    dims: MatArgs,
    sa: Strides,
    sb: Strides,
    sc: Strides,
    #[comptime] cfg: RegPanelConfig,
    #[comptime] gcfg: GemmConfig,
    #[comptime] strips: bool,
) {
    // A 1-D launch: the panels' cubes of every matrix first (matrix-major), then the tiles.
    let cube = CUBE_POS_X as usize;
    let panels = ah.pcubes * batch;
    if cube < panels {
        let pos = PanelPos {
            bidx: cube / ah.pcubes,
            cube: cube % ah.pcubes,
            cubes: ah.pcubes,
        };
        let mut a = load_panel::<F>(h, &sh, p, w, &pos, cfg);
        pre_update::<F>(&mut a, h, u_prev, wk, &sh, &ah, &pos, p, w, cfg);
        panel_regs_body::<F, X>(
            &mut a, h, tau, v_out, u_out, xv, status, &sh, tau_off, tau_bs, vu_bs, p, w, e0, gmax,
            &pos, cfg,
        );
    } else if comptime!(strips) {
        let t = cube - panels;
        let bidx = t / dims.tiles_n;
        // Uniform per cube: leave before any barrier.
        if bidx >= batch {
            terminate!();
        }
        strip_update::<F>(
            h,
            v_prev,
            u_prev,
            &sc,
            &ah,
            dims.m,
            dims.n,
            bidx,
            t % dims.tiles_n,
            cfg,
        );
    } else {
        let tm = comptime!(gcfg.tile_m());
        let tiles = dims.m.div_ceil(tm) * dims.tiles_n;
        let t = cube - panels;
        let bidx = t / tiles;
        // Uniform per cube: leave before any barrier.
        if bidx >= batch {
            terminate!();
        }
        let tile = t % tiles;
        let at = TileAt {
            bidx,
            mat: bidx,
            chunk: 0usize,
            row0: (tile / dims.tiles_n) * tm,
            col0: (tile % dims.tiles_n) * comptime!(gcfg.tile_n()),
            kdim: dims.k,
        };
        gemm_vec_tile::<F>(
            u_prev,
            wk,
            h,
            &dims,
            &sa,
            &sb,
            &sc,
            &at,
            gcfg,
            SUB_OP,
            AHEAD_LAYOUT,
            false,
        );
    }
}

/// Strip `s` of C_rest (view `sc` of matrix `bidx`: columns s·STRIP … of `n`, rows 0 … p − 1)
/// by the whole cube: W_s = Vᵀ·C_s (kk × STRIP), then C_s −= U·W_s, with V and U p × kk at
/// row stride nb from `bidx·u_bs` (columns past kk are not read).
///
/// The product: unit (kg, lb, jb) = (unit / nb, (unit % nb) / (STRIP/4), unit % (STRIP/4))
/// sums rows kg, kg + gy, … of the 4 × 4 block (rows 4·lb, columns 4·jb) of W_s; the gy
/// partial sums meet in shared memory. The update: unit (rg, jg) = (unit / (STRIP/4),
/// unit % (STRIP/4)) takes 4 × 4 blocks (rows 4·rg + i of each pass of 4·units/(STRIP/4)
/// rows, columns 4·jg + j), K = kk in l order.
#[cube]
#[allow(clippy::too_many_arguments)]
pub(crate) fn strip_update<F: Float>(
    h: &mut [F],
    v: &[F],
    u: &[F],
    sc: &Strides,
    ah: &Ahead,
    p: usize,
    n: usize,
    bidx: usize,
    s: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let units = comptime!(cfg.units());
    let jn = comptime!(STRIP / 4);
    let wlen = comptime!(cfg.nb * STRIP);
    let unit = UNIT_POS as usize;
    let kk = ah.kk;
    let col0 = s * STRIP;
    let cbase = sc.offset + bidx * sc.bs + col0 * sc.cs;
    let vbase = bidx * ah.u_bs;
    // gy slices of nb × STRIP partial sums; slice 0 ends as W_s.
    let mut part = Shared::<[F]>::new_slice(comptime!(cfg.gy * cfg.nb * STRIP));

    let kg = unit / nb;
    let lb = (unit % nb) / jn;
    let jb = unit % jn;
    let mut acc = Array::<F>::new(16usize);
    #[unroll]
    for e in 0..16 {
        acc[e] = F::new(0.0);
    }
    let mut r = kg;
    while r < p {
        let mut vr = Array::<F>::new(4usize);
        let mut cr = Array::<F>::new(4usize);
        #[unroll]
        for i in 0..4 {
            let l = lb * 4 + i;
            let mut x = F::new(0.0);
            if l < kk {
                x = v[vbase + r * nb + l];
            }
            vr[i] = x;
            let j = jb * 4 + i;
            let mut y = F::new(0.0);
            if col0 + j < n {
                y = h[cbase + r * sc.rs + j * sc.cs];
            }
            cr[i] = y;
        }
        #[unroll]
        for i in 0..4 {
            #[unroll]
            for j in 0..4 {
                acc[i * 4 + j] = fma(vr[i], cr[j], acc[i * 4 + j]);
            }
        }
        r += gy;
    }
    #[unroll]
    for i in 0..4 {
        #[unroll]
        for j in 0..4 {
            part[kg * wlen + (lb * 4 + i) * STRIP + jb * 4 + j] = acc[i * 4 + j];
        }
    }
    sync_cube();
    #[unroll]
    for q in 0..comptime!((cfg.nb * STRIP).div_ceil(cfg.units())) {
        let e = unit + q * units;
        if e < wlen {
            let mut sum = part[e];
            #[unroll]
            for g in 1..gy {
                sum += part[g * wlen + e];
            }
            part[e] = sum;
        }
    }
    sync_cube();

    let rg = unit / jn;
    let jg = unit % jn;
    let pass = comptime!(cfg.units() / (STRIP / 4) * 4);
    let mut base = 0usize;
    while base < p {
        #[unroll]
        for e in 0..16 {
            acc[e] = F::new(0.0);
        }
        #[unroll]
        for l in 0..nb {
            if l < kk {
                let mut ur = Array::<F>::new(4usize);
                #[unroll]
                for i in 0..4 {
                    let r = base + rg * 4 + i;
                    let mut x = F::new(0.0);
                    if r < p {
                        x = u[vbase + r * nb + l];
                    }
                    ur[i] = x;
                }
                #[unroll]
                for j in 0..4 {
                    let wv = part[l * STRIP + jg * 4 + j];
                    #[unroll]
                    for i in 0..4 {
                        acc[i * 4 + j] = fma(ur[i], wv, acc[i * 4 + j]);
                    }
                }
            }
        }
        #[unroll]
        for i in 0..4 {
            let r = base + rg * 4 + i;
            #[unroll]
            for j in 0..4 {
                if r < p && col0 + jg * 4 + j < n {
                    let at = cbase + r * sc.rs + (jg * 4 + j) * sc.cs;
                    h[at] -= acc[i * 4 + j];
                }
            }
        }
        base += pass;
    }
}

/// The panel rows of C −= U·W in the unit's registers `a` (column tx, rows r0 + ty + t·gy);
/// cube 0 also updates and stores the kk rows above the panel.
#[cube]
#[allow(clippy::too_many_arguments)]
fn pre_update<F: Float>(
    a: &mut Array<F>,
    h: &mut [F],
    u_prev: &[F],
    wk: &[F],
    sh: &Strides,
    ah: &Ahead,
    pos: &PanelPos,
    p: usize,
    w: usize,
    #[comptime] cfg: RegPanelConfig,
) {
    let nb = comptime!(cfg.nb);
    let gy = comptime!(cfg.gy);
    let rt = comptime!(cfg.rows_per_unit());
    let ty = unit_row_group(cfg);
    let tx = unit_column(cfg);
    let r0 = cube_first_row(pos, cfg);
    if tx < w {
        // Column tx of W, zero past kk.
        let wb = pos.bidx * ah.w_bs + tx;
        let mut wcol = Array::<F>::new(nb);
        #[unroll]
        for l in 0..nb {
            let mut v = F::new(0.0);
            if l < ah.kk {
                v = wk[wb + l * ah.w_rs];
            }
            wcol[l] = v;
        }
        let ub = pos.bidx * ah.u_bs;
        #[unroll]
        for t in 0..rt {
            let i = r0 + ty + t * gy;
            if i < p {
                a[t] -= row_dot::<F>(u_prev, ub + (i + ah.kk) * nb, &wcol, ah.kk, cfg);
            }
        }
        if pos.cube == 0 {
            let hb = sh.offset + pos.bidx * sh.bs + tx * sh.cs;
            #[unroll]
            for t in 0..comptime!(cfg.nb.div_ceil(cfg.gy)) {
                let r = ty + t * gy;
                if r < ah.kk {
                    let at = hb + r * sh.rs - ah.kk * sh.rs;
                    h[at] -= row_dot::<F>(u_prev, ub + r * nb, &wcol, ah.kk, cfg);
                }
            }
        }
    }
}

/// Σ_{l < kk} u[base + l]·wcol[l], multiply-adds in l order.
#[cube]
fn row_dot<F: Float>(
    u: &[F],
    base: usize,
    wcol: &Array<F>,
    kk: usize,
    #[comptime] cfg: RegPanelConfig,
) -> F {
    let mut acc = F::new(0.0);
    #[unroll]
    for l in 0..comptime!(cfg.nb) {
        if l < kk {
            acc = fma(u[base + l], wcol[l], acc);
        }
    }
    acc
}
