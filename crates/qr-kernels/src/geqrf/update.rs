//! Block reflectors: the panel launch (V and U for panel columns [c0, c0 + w) of H) and the
//! update C −= U·(Vᵀ·C) as two GEMMs ([`linalg_common::gemm`], true f32, or for Vᵀ·C on CUDA
//! 3×TF32 on tensor cores with f32 accuracy (`QrParams::thin_tiles`), in place on strided
//! views). With U = V·Tᵀ this is C ← QᵀC, with U = V·T it is C ← Q·C (Q = I − V·T·Vᵀ).
use super::Ctx;
use super::config::{LookAhead, MAX_SPLITS, PanelConfig, RegPanelConfig};
use super::lookahead::{AheadLaunch, STRIP, lookahead_kernel};
use super::panel::panel_kernel;
use super::panel_regs::panel_regs_kernel;
use super::product::{ProductWork, launch_product, product_fits, slices};
use super::recon::{recon_rows_kernel, recon_top_kernel, recon_top_rows_kernel};
use crate::tsqr::{TsqrLaunch, TsqrMode, fits_grid, tsqr_launch};
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::copy::CopyConfig;
use linalg_common::gemm::{GemmConfig, GemmOp, MatArgsLaunch, Operand, View, batch_grid};
use std::cell::Cell;

/// C −= U·W, the update's second product.
pub(crate) const SUB_OP: GemmOp = GemmOp {
    accumulate: true,
    negate: true,
    lower_only: false,
    a_lower: false,
};

/// Workspace for the block reflectors of matrices with up to `rows` rows, applied to up to
/// `cols` columns: V and U (`batch × rows × nb`) and the update's ([`UpdateWork`]).
pub(crate) struct Reflectors {
    v: (Handle, usize),
    u: (Handle, usize),
    update: UpdateWork,
    /// Tall panels (TSQR); `None` where no panel takes that path.
    tsqr: Option<TallWork>,
    /// Grid panels; `None` where they are off.
    grid: Option<GridWork>,
    /// Look-ahead: the other V and U pair, which the next panel fills while the update reads
    /// this one; `None` where look-ahead is off.
    ahead: Option<[(Handle, usize); 2]>,
    rows: usize,
}

/// The exchange words of geqrf's grid panels ([`super::QrLaunch::panel_grid`]), shared by all
/// of an op's panel launches.
struct GridWork {
    /// Two slots of 2 × (gmax + 1) × nb u64 words per matrix (two parts with pairs), zeroed
    /// once: exchange numbers only grow.
    words: (Handle, usize),
    /// Most cubes of a panel.
    gmax: usize,
    /// The exchange number the next launch starts from.
    next: Cell<u32>,
}

impl GridWork {
    /// The exchange arguments of a grid panel launch of `cubes` cubes and w columns: its
    /// exchange numbers follow the last launch's (at most 4 per column: a rescued column
    /// takes two more, and with pairs one more for the pair's exchange it started from).
    fn args<'a>(&'a self, ctx: &Ctx, cubes: usize, w: usize, status: &'a Handle) -> GridArgs<'a> {
        let e0 = self.next.get();
        self.next.set(e0 + 4 * w as u32 + 1);
        GridArgs {
            cubes,
            words: &self.words,
            status: (status, ctx.batch.max(1)),
            e0,
            gmax: self.gmax,
        }
    }
}

/// Workspace of the TSQR panel path.
struct TallWork {
    /// A contiguous copy of the panel (TSQR's input), `batch × rows × nb`.
    work: (Handle, usize),
    /// U⁻¹ and Tᵀ (reconstruction): `batch × 2 × nb × nb`.
    mats: (Handle, usize),
    /// Flags the panel copy does not use.
    dummy: Handle,
}

/// Workspace of the update C −= U·(Vᵀ·C) for reflector blocks of up to `width` columns and C
/// of up to `rows × cols`: W = Vᵀ·C (`batch × width × cols`) and split-K partials.
pub(crate) struct UpdateWork {
    w: (Handle, usize),
    /// The register product kernel's K-slice workspace, where it is on.
    product: Option<ProductWork>,
    /// Split-K partial products of Vᵀ·C ([`super::QrLaunch::split_matrices`] matrices at most,
    /// [`MAX_SPLITS`] chunks in all).
    partials: Option<(Handle, usize)>,
    rows: usize,
    cols: usize,
    width: usize,
}

/// A step that geqrf takes with look-ahead ([`Reflectors::ahead_for`]): the next panel's
/// register panel kernel (a grid panel where `cfg.grid`) on `cubes` cubes, and the update's
/// tiles.
pub(crate) struct AheadPlan {
    cfg: RegPanelConfig,
    cubes: usize,
    gcfg: GemmConfig,
}

/// A grid panel that geqrf takes ([`Reflectors::grid_for`]).
pub(crate) struct GridPlan<'a> {
    cfg: RegPanelConfig,
    cubes: usize,
    work: &'a GridWork,
}

/// A grid panel's launch: its cube count and exchange buffers ([`Reflectors::panel_grid`]).
struct GridArgs<'a> {
    cubes: usize,
    words: &'a (Handle, usize),
    status: (&'a Handle, usize),
    e0: u32,
    gmax: usize,
}

/// Where τ of the panel lives: element j of matrix b at `offset + b·batch_stride + j`.
#[derive(Clone, Copy)]
pub(crate) struct TauRef<'a> {
    pub handle: &'a Handle,
    pub len: usize,
    pub offset: usize,
    pub batch_stride: usize,
}

impl Reflectors {
    pub(crate) fn new(ctx: &Ctx, rows: usize, cols: usize) -> Self {
        let nb = ctx.launch.nb;
        let sms = ctx.launch.hw.num_sms.unwrap_or(0) as usize;
        Self {
            v: ctx.buffer(ctx.batch * rows * nb),
            u: ctx.buffer(ctx.batch * rows * nb),
            update: UpdateWork::new(ctx, rows, cols, nb),
            tsqr: (ctx.launch.recon.is_some() && rows >= ctx.launch.tsqr_rows).then(|| TallWork {
                work: ctx.buffer(ctx.batch * rows * nb),
                mats: ctx.buffer(ctx.batch * 2 * nb * nb),
                dummy: ctx.flags(),
            }),
            // Only where a grid of two cubes or more fits: at most sms / batch cubes.
            grid: (ctx.launch.grid_rows > 0
                && rows >= ctx.launch.grid_from
                && 2 * ctx.batch.max(1) <= sms)
                .then(|| {
                    let gmax = rows
                        .div_ceil(ctx.launch.grid_rows)
                        .min(sms / ctx.batch.max(1))
                        .max(2);
                    // Two slots of up to two parts ([`RegPanelConfig::parts`]).
                    let words = ctx.batch.max(1) * 2 * 2 * (gmax + 1) * nb;
                    GridWork {
                        words: (
                            ctx.client
                                .create_from_slice(u64::as_bytes(&vec![0u64; words])),
                            words,
                        ),
                        gmax,
                        next: Cell::new(0),
                    }
                }),
            ahead: (ctx.launch.lookahead != LookAhead::Off).then(|| {
                [
                    ctx.buffer(ctx.batch * rows * nb),
                    ctx.buffer(ctx.batch * rows * nb),
                ]
            }),
            rows,
        }
    }

    /// The grid panel for a p-row panel, where geqrf takes one.
    pub(crate) fn grid_for(&self, ctx: &Ctx, p: usize) -> Option<GridPlan<'_>> {
        let work = self.grid.as_ref()?;
        let (cfg, cubes) = ctx.launch.panel_grid(p, ctx.batch)?;
        (cubes <= work.gmax).then_some(GridPlan { cfg, cubes, work })
    }

    /// Factor the p × w panel `h` as the grid panel `plan` (from [`Reflectors::grid_for`]):
    /// the outputs of [`Reflectors::panel`] with `factor` and `trans`. A wait that gives up
    /// sets `status[b]` to [`super::panel_regs::GRID_TIMEOUT`].
    pub(crate) fn panel_grid(
        &self,
        ctx: &Ctx,
        plan: GridPlan,
        h: Operand,
        tau: TauRef,
        status: &Handle,
    ) {
        let GridPlan {
            cfg,
            cubes,
            work: g,
        } = plan;
        let args = g.args(ctx, cubes, h.view.cols, status);
        self.launch_regs(ctx, cfg, h, tau, Some(args));
    }

    /// The look-ahead step for a next panel of p rows and an update of `cols` columns, where
    /// geqrf takes one ([`super::QrLaunch::lookahead_panel`]; a grid panel's cubes within the
    /// exchange buffer's).
    pub(crate) fn ahead_for(&self, ctx: &Ctx, p: usize, cols: usize) -> Option<AheadPlan> {
        self.ahead.as_ref()?;
        let (cfg, cubes, gcfg) = ctx.launch.lookahead_panel(p, cols, ctx.batch)?;
        if cfg.grid && self.grid.as_ref().is_none_or(|g| cubes > g.gmax) {
            return None;
        }
        Some(AheadPlan { cfg, cubes, gcfg })
    }

    /// C −= U·(Vᵀ·C) for the w reflectors of the last panel and C a p × n2 view, with the next
    /// panel — C's first w2 columns below its first w rows (p − w rows) — factored in the
    /// launch that updates the rest, as `plan` says ([`super::lookahead`]; with strips, Vᵀ·C
    /// is formed first only for those w2 columns); τ of that panel into `tau`. Its V and U
    /// are then the current ones.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply_ahead(
        &mut self,
        ctx: &Ctx,
        plan: AheadPlan,
        w: usize,
        c: Operand,
        w2: usize,
        tau: TauRef,
        status: &Handle,
    ) {
        let (p, n2) = (c.view.rows, c.view.cols);
        let nb = ctx.launch.nb;
        debug_assert!(p <= self.rows && w <= p && w2 >= 1 && w2 <= n2.min(nb));
        debug_assert_eq!(plan.cfg.units(), plan.gcfg.units());
        let AheadPlan { cfg, cubes, gcfg } = plan;
        let (v, u) = self.current(ctx, p, w);
        let strips = ctx.launch.strips;
        // With strips, W only for the next panel's columns: the strips form the rest's.
        let wk = if strips {
            self.update
                .product(ctx, v, c.with_view(c.view.block(0, 0, p, w2)))
        } else {
            self.update.product(ctx, v, c)
        };
        let panel = c.with_view(c.view.block(w, 0, p - w, w2));
        let rest = c.view.block(0, w2, p, n2 - w2);
        let n = n2 - w2;
        let wrest = if strips {
            wk.view
        } else {
            wk.view.block(0, w2, w, n)
        };
        let (tiles_n, tiles) = match (strips, n) {
            (_, 0) => (1, 0),
            (true, _) => (n.div_ceil(STRIP), n.div_ceil(STRIP)),
            (false, _) => {
                let tiles_n = n.div_ceil(gcfg.tile_n());
                (tiles_n, p.div_ceil(gcfg.tile_m()) * tiles_n)
            }
        };
        let count = CubeCount::Static(((cubes + tiles) * ctx.batch.max(1)) as u32, 1, 1);
        let dim = CubeDim::new_1d(cfg.units() as u32);
        let vu_bs = self.rows * nb;
        let ah = AheadLaunch::new(w, vu_bs, wk.view.row_stride, wk.view.batch_stride, cubes);
        let dims = MatArgsLaunch::new(p, n, w, tiles_n, ctx.batch, w, 1, 0, 0);
        let next = self.ahead.as_ref().expect("look-ahead buffers (ahead_for)");
        let grid = cfg
            .grid
            .then(|| self.grid.as_ref().map(|g| g.args(ctx, cubes, w2, status)))
            .flatten();
        debug_assert_eq!(cfg.grid, grid.is_some());
        // SAFETY: cubes x < cubes·batch are the register panel kernel's launch on the
        // (p − w) × w2 panel view, cube x % cubes of matrix x / cubes < batch (its SAFETY in
        // `launch_regs`: rows below p − w, columns below w2, grid words and status of that
        // matrix, V and U of the other pair), plus the pre-update: U rows < p of the current
        // pair (the panel's row i is U's row i + w, i < p − w) and W's w × w2 first columns
        // (inside the product's w × n2), and cube 0's stores to the w rows above the panel
        // in its w2 columns, which no other cube touches. The others are the vector GEMM's
        // tiles (`GemmLaunch::launch`'s contract), tile t % tiles of matrix t / tiles < batch:
        // C_rest = rows < p, columns ≥ w2 of C, disjoint from the panel, the rows above it
        // and from U and W (workspace); or, with strips, strip t % tiles of matrix t / tiles
        // < batch, columns [w2 + STRIP·s, w2 + STRIP·(s + 1)) ∩ [w2, n2) of C's rows < p
        // (each cube its own columns; reads of V and U rows < p, columns < w ≤ nb). Every
        // branch around a barrier is uniform per cube (x against cubes·batch, the batch
        // exit), and the grid's waits end (the panels' cubes come first in the launch and fit
        // the multiprocessors together; else the bounded polls).
        macro_rules! launch {
            ($x:ty, $words:expr, $status:expr, $e0:expr, $gmax:expr) => {
                lookahead_kernel::launch_unchecked::<f32, $x>(
                    ctx.client,
                    count,
                    dim,
                    BufferArg::from_raw_parts(c.handle.clone(), c.len),
                    BufferArg::from_raw_parts(tau.handle.clone(), tau.len),
                    BufferArg::from_raw_parts(next[0].0.clone(), next[0].1),
                    BufferArg::from_raw_parts(next[1].0.clone(), next[1].1),
                    BufferArg::from_raw_parts($words.0.clone(), $words.1),
                    BufferArg::from_raw_parts($status.0.clone(), $status.1),
                    BufferArg::from_raw_parts(u.handle.clone(), u.len),
                    BufferArg::from_raw_parts(v.handle.clone(), v.len),
                    BufferArg::from_raw_parts(wk.handle.clone(), wk.len),
                    panel.view.launch_arg(),
                    tau.offset,
                    tau.batch_stride,
                    vu_bs,
                    p - w,
                    w2,
                    ctx.batch,
                    $e0,
                    $gmax,
                    ah,
                    dims,
                    u.view.launch_arg(),
                    wrest.launch_arg(),
                    rest.launch_arg(),
                    cfg,
                    gcfg,
                    strips,
                )
            };
        }
        let dummy = (&next[0].0, next[0].1);
        unsafe {
            match grid {
                Some(g) => launch!(u64, (&g.words.0, g.words.1), g.status, g.e0, g.gmax),
                None => launch!(u32, dummy, dummy, 0, 1),
            }
        }
        let next = self.ahead.as_mut().expect("look-ahead buffers");
        std::mem::swap(&mut self.v, &mut next[0]);
        std::mem::swap(&mut self.u, &mut next[1]);
    }

    /// V and U of the last panel as p × w views.
    fn current(&self, ctx: &Ctx, p: usize, w: usize) -> (Operand<'_>, Operand<'_>) {
        let view = View {
            offset: 0,
            rows: p,
            cols: w,
            row_stride: ctx.launch.nb,
            col_stride: 1,
            batch_stride: self.rows * ctx.launch.nb,
        };
        (
            Operand::new(&self.v.0, self.v.1, view),
            Operand::new(&self.u.0, self.u.1, view),
        )
    }

    /// Factor (`factor`) or read the reflectors of the p × w panel `h` (a view whose (0, 0) is
    /// the panel's diagonal start), writing V and U (= V·Tᵀ with `trans`, else V·T).
    pub(crate) fn panel(&self, ctx: &Ctx, h: Operand, tau: TauRef, factor: bool, trans: bool) {
        let (p, w) = (h.view.rows, h.view.cols);
        debug_assert!(p <= self.rows && w <= ctx.launch.nb && w >= 1);
        debug_assert!(h.view.extent(ctx.batch) <= h.len);
        if let Some(cfg) = ctx.launch.panel_regs(p, factor, trans) {
            return self.launch_regs(ctx, cfg, h, tau, None);
        }
        let cfg: PanelConfig = ctx.launch.panel(p, factor, trans);
        let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.hw.max_cube_count);
        // SAFETY: the cube of matrix b touches only its panel (rows < p, columns < w of the
        // view, inside the buffer: checked by the public ops, debug-checked here), τ entries
        // offset + b·bs + j (j < w, inside the τ buffer by construction) and rows < p ≤ rows
        // of its own V and U slices. Shared staging holds p ≤ rows_cap rows (PanelConfig).
        // Barriers are reached by every unit: the only early exit (batch) and every branch
        // around a barrier (s > 0, comptime flags) are uniform per cube.
        unsafe {
            panel_kernel::launch_unchecked::<f32>(
                ctx.client,
                CubeCount::Static(1, by as u32, bz as u32),
                CubeDim::new_1d(cfg.units() as u32),
                BufferArg::from_raw_parts(h.handle.clone(), h.len),
                BufferArg::from_raw_parts(tau.handle.clone(), tau.len),
                BufferArg::from_raw_parts(self.v.0.clone(), self.v.1),
                BufferArg::from_raw_parts(self.u.0.clone(), self.u.1),
                h.view.launch_arg(),
                tau.offset,
                tau.batch_stride,
                self.rows * ctx.launch.nb,
                p,
                w,
                ctx.batch,
                cfg,
            )
        }
    }

    /// The register panel kernel on the p × w panel `h` (a grid panel with `grid`).
    fn launch_regs(
        &self,
        ctx: &Ctx,
        cfg: RegPanelConfig,
        h: Operand,
        tau: TauRef,
        grid: Option<GridArgs>,
    ) {
        let (p, w) = (h.view.rows, h.view.cols);
        debug_assert_eq!(cfg.grid, grid.is_some());
        let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.hw.max_cube_count);
        let count = |cubes: usize| CubeCount::Static(cubes as u32, by as u32, bz as u32);
        let dim = CubeDim::new_1d(cfg.units() as u32);
        // SAFETY: as for the panel kernel (the same operands and writes; grid cube x holds
        // rows x·rows_cap + …, and cubes·rows_cap ≥ p). Registers: rows ty + t·gy < rows_cap
        // (t < rows_cap/gy), loads and stores only below p and w. Shared indices, per part
        // (RegPanelConfig::parts): two slots of gy·(rows_cap/(4·gy)) vectors of the pivot
        // column, gy·nb reduction rows and nb pivot-row entries; V below rows_cap·(nb + 1)
        // (rows rg + r·4·gy < rows_cap), and before it the exchanges' parts·(cubes + 1)·nb
        // fetched words (RegPanelConfig::grid, QrLaunch::with_variant); T and the Gram
        // matrix below nb·(nb + 1). Grid exchanges: matrix b's 4·(gmax + 1)·nb words (two
        // slots of two parts; cubes ≤ gmax, b < batch: the buffer's size), `status[b]`; other
        // launches never read `xv` and `status` (V stands in). Barriers: the early exit
        // (batch), the loop bounds (w), the pair and rescue branches (the same totals in every
        // unit) are uniform per cube, the Gram rounds' plane barrier (`plane_rows`: one row
        // group per plane) uniform per plane; the branches around the divergent stores and
        // the waits hold no barrier.
        // The waits end: every cube of the panel stores its words (the grid's cube count fits
        // the multiprocessors), or a wait gives up after GRID_WAIT_POLLS polls.
        macro_rules! launch {
            ($x:ty, $cubes:expr, $words:expr, $status:expr, $e0:expr, $gmax:expr) => {
                panel_regs_kernel::launch_unchecked::<f32, $x>(
                    ctx.client,
                    count($cubes),
                    dim,
                    BufferArg::from_raw_parts(h.handle.clone(), h.len),
                    BufferArg::from_raw_parts(tau.handle.clone(), tau.len),
                    BufferArg::from_raw_parts(self.v.0.clone(), self.v.1),
                    BufferArg::from_raw_parts(self.u.0.clone(), self.u.1),
                    BufferArg::from_raw_parts($words.0.clone(), $words.1),
                    BufferArg::from_raw_parts($status.0.clone(), $status.1),
                    h.view.launch_arg(),
                    tau.offset,
                    tau.batch_stride,
                    self.rows * ctx.launch.nb,
                    p,
                    w,
                    ctx.batch,
                    $e0,
                    $gmax,
                    cfg,
                )
            };
        }
        let v = (&self.v.0, self.v.1);
        unsafe {
            match grid {
                Some(g) => launch!(
                    u64,
                    g.cubes,
                    (&g.words.0, g.words.1),
                    g.status,
                    g.e0,
                    g.gmax
                ),
                None => launch!(u32, 1, v, v, 0, 1),
            }
        }
    }

    /// The TSQR launch for a p × w panel when [`Reflectors::panel_tsqr`] should take it: the
    /// launch enables the path for panels of `tsqr_rows` rows or more, and TSQR must fit the
    /// device for w columns.
    pub(crate) fn tsqr_for(&self, ctx: &Ctx, p: usize, w: usize) -> Option<TsqrLaunch> {
        let cfg = ctx.launch.recon?;
        if self.tsqr.is_none() || p < ctx.launch.tsqr_rows || p < w || w > cfg.nb {
            return None;
        }
        let t = TsqrLaunch::new(&ctx.launch.hw, w, &ctx.launch.tsqr_params)?;
        t.levels(p, w)
            .iter()
            .all(|l| fits_grid(&t, l.nblocks, ctx.batch))
            .then_some(t)
    }

    /// Factor the p × w panel `h` by TSQR and Householder reconstruction ([`super::recon`]):
    /// the outputs of [`Reflectors::panel`] with `factor` and `trans` (H, τ, V, U = V·Tᵀ).
    /// `tsqr` comes from [`Reflectors::tsqr_for`] (without its workspace, the one-cube panel
    /// runs instead).
    pub(crate) fn panel_tsqr(&self, ctx: &Ctx, tsqr: &TsqrLaunch, h: Operand, tau: TauRef) {
        let (p, w) = (h.view.rows, h.view.cols);
        let (Some(TallWork { work, mats, dummy }), Some(cfg)) = (&self.tsqr, ctx.launch.recon)
        else {
            return self.panel(ctx, h, tau, true, true);
        };
        debug_assert!(p <= self.rows && w <= cfg.nb && p >= w);
        let panel = Operand::new(&work.0, work.1, View::contiguous(p, w));
        ctx.copy(h, panel, dummy, CopyConfig::PLAIN);
        let lv = tsqr.levels(p, w);
        let f = tsqr_launch(
            ctx.client,
            tsqr,
            &work.0,
            ctx.batch,
            p,
            w,
            &lv,
            TsqrMode::Reduced,
        );
        let Some(q) = f.q else {
            return self.panel(ctx, h, tau, true, true);
        };
        let (_, by, bz) = batch_grid(ctx.batch, ctx.launch.hw.max_cube_count);
        let b = ctx.batch;
        let hv = h.view;
        macro_rules! top {
            ($kernel:path, $units:expr) => {
                $kernel(
                    ctx.client,
                    CubeCount::Static(1, by as u32, bz as u32),
                    CubeDim::new_1d($units as u32),
                    BufferArg::from_raw_parts(q.clone(), b * p * w),
                    BufferArg::from_raw_parts(f.r.clone(), b * w * w),
                    BufferArg::from_raw_parts(h.handle.clone(), h.len),
                    BufferArg::from_raw_parts(tau.handle.clone(), tau.len),
                    BufferArg::from_raw_parts(self.v.0.clone(), self.v.1),
                    BufferArg::from_raw_parts(self.u.0.clone(), self.u.1),
                    BufferArg::from_raw_parts(mats.0.clone(), mats.1),
                    hv.launch_arg(),
                    tau.offset,
                    tau.batch_stride,
                    self.rows * ctx.launch.nb,
                    p,
                    w,
                    b,
                    cfg,
                )
            };
        }
        // SAFETY (both kernels): matrix b's cube reads Q rows < p and R (w × w) of its own
        // slices (TSQR's contiguous outputs, b·p·w and b·w·w elements), writes the panel's rows
        // < p and columns < w of H (inside the buffer: checked by the public ops,
        // debug-checked by the callers), τ entries offset + b·bs + j (j < w), rows < p ≤ rows
        // of its V and U slices (stride nb, columns < w ≤ nb) and its 2·nb² slice of `mats`.
        // Barriers are reached by every unit: the only early exit (batch) is uniform per cube
        // and the loop bounds (w, the step counter) are uniform. The per-row kernel's cube has
        // `top_units()` units, a divisor of nb.
        unsafe {
            if cfg.top_rows {
                top!(
                    recon_top_rows_kernel::launch_unchecked::<f32>,
                    cfg.top_units()
                );
            } else {
                top!(recon_top_kernel::launch_unchecked::<f32>, cfg.units);
            }
        }
        if p > w {
            let cubes = (p - w).div_ceil(cfg.rows);
            // SAFETY: as above; cube x writes rows w + x·rows … (< p) of matrix b only, and
            // reads its own 2·nb² slice of `mats` written by the launch before.
            unsafe {
                recon_rows_kernel::launch_unchecked::<f32>(
                    ctx.client,
                    CubeCount::Static(cubes as u32, by as u32, bz as u32),
                    CubeDim::new_1d(cfg.units as u32),
                    BufferArg::from_raw_parts(q, b * p * w),
                    BufferArg::from_raw_parts(mats.0.clone(), mats.1),
                    BufferArg::from_raw_parts(h.handle.clone(), h.len),
                    BufferArg::from_raw_parts(self.v.0.clone(), self.v.1),
                    BufferArg::from_raw_parts(self.u.0.clone(), self.u.1),
                    hv.launch_arg(),
                    self.rows * ctx.launch.nb,
                    p,
                    w,
                    b,
                    cfg,
                );
            }
        }
    }

    /// C −= U·(Vᵀ·C) for the p × w reflectors of the last [`Reflectors::panel`] call and C a
    /// p × nc view (not overlapping the workspace).
    pub(crate) fn apply(&self, ctx: &Ctx, w: usize, c: Operand) {
        let p = c.view.rows;
        debug_assert!(p <= self.rows);
        let (v, u) = self.current(ctx, p, w);
        self.update.apply(ctx, v, u, c);
    }
}

impl UpdateWork {
    pub(crate) fn new(ctx: &Ctx, rows: usize, cols: usize, width: usize) -> Self {
        Self {
            w: ctx.buffer(ctx.batch * width * cols),
            product: ctx
                .launch
                .product
                .map(|cfg| ProductWork::new(ctx.client, cfg, &ctx.launch.hw)),
            partials: (ctx.batch <= ctx.launch.split_matrices
                && rows >= 2 * ctx.launch.split_chunk)
                .then(|| ctx.buffer(MAX_SPLITS * width * cols)),
            rows,
            cols,
            width,
        }
    }

    /// C −= U·(Vᵀ·C) for reflectors V and U given as p × w views and C a p × nc view (not
    /// overlapping V, U or the workspace).
    pub(crate) fn apply(&self, ctx: &Ctx, v: Operand, u: Operand, c: Operand) {
        let (p, nc) = (c.view.rows, c.view.cols);
        let w = v.view.cols;
        if nc == 0 || p == 0 || w == 0 {
            return;
        }
        debug_assert!(v.view == u.view && v.view.rows == p);
        let wk = self.product(ctx, v, c);
        ctx.launch
            .gemm_for(p, nc)
            .launch(ctx.client, ctx.batch, u, wk, c, SUB_OP);
    }

    /// W = Vᵀ·C (w × nc, returned) for V a p × w view and C a p × nc view, both non-empty.
    pub(crate) fn product(&self, ctx: &Ctx, v: Operand, c: Operand) -> Operand<'_> {
        let (p, nc) = (c.view.rows, c.view.cols);
        let w = v.view.cols;
        debug_assert!(p <= self.rows && nc <= self.cols && w <= self.width);
        debug_assert_eq!(v.view.rows, p);
        let w_view = View {
            offset: 0,
            rows: w,
            cols: nc,
            row_stride: nc,
            col_stride: 1,
            batch_stride: self.width * self.cols,
        };
        let wk = Operand::new(&self.w.0, self.w.1, w_view);
        let set = GemmOp::SET;
        let vt = v.with_view(v.view.t());
        if let (Some(cfg), Some(work)) = (ctx.launch.product, &self.product)
            && product_fits(&v, &c, ctx.batch)
        {
            let hw = &ctx.launch.hw;
            let ks = slices(cfg, hw, ctx.batch, p, nc, ctx.launch.product_slices);
            let max = hw.max_cube_count;
            launch_product(ctx.client, cfg, max, ctx.batch, v, c, wk, work, ks);
            return wk;
        }
        // Vᵀ·C has few output tiles (w rows) and K = p: for a few matrices, K is split so the
        // device fills.
        let g = ctx.launch.gemm_rows(w, nc);
        match &self.partials {
            Some(work) => {
                let splits = ctx.launch.splits(g, ctx.batch, w, nc, p);
                let work = (&work.0, work.1);
                g.launch_split_k(ctx.client, ctx.batch, vt, c, wk, set, splits, work);
            }
            None => g.launch(ctx.client, ctx.batch, vt, c, wk, set),
        }
        wk
    }
}
