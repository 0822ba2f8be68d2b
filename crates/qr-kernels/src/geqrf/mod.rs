//! Blocked Householder QR in the compact (H, τ) form of LAPACK `sgeqrf` / `torch.geqrf`, and
//! the ops on that form: [`householder_product`] (`sorgqr`, forms Q) and [`apply_q`] (`sormqr`,
//! multiplies by Q or Qᵀ without forming it). Batched, f32, any m and n.
//!
//! Storage: H `[batch, m, n]` holds R on and above the diagonal and the Householder vectors
//! below it (leading 1 implicit); τ `[batch, min(m, n)]`; A = Q·R with
//! Q = H_1·H_2⋯H_k, H_j = I − τ_j·v_j·v_jᵀ. Reflectors follow `slarfg`: β = −sign(α)·‖x‖ and
//! τ = 0 (H_j = I) when the part below the diagonal is exactly zero (the one-cube panel; the
//! TSQR panel gives τ = 2 there), so rank-deficient and zero columns give no NaN.
//!
//! Algorithm, per panel of nb columns (one launch for the whole batch each step): the panel
//! kernel (`panel`) factors the p × nb panel in one cube per matrix (staged in shared memory
//! when it fits; in registers with `panel_regs` where that fits: on GPUs, up to 128 rows
//! per unit) and forms the compact-WY factor T with V and U = V·Tᵀ. With
//! `QrParams::panel_grid` (CUDA, opt-in) a panel too tall for one cube's registers is held
//! in the registers of several cubes that run at once and exchange each column's sums
//! through global memory (`panel_regs`'s grid panels). Other tall panels of few
//! matrices (`QrParams::tsqr_panel_rows`) instead go through TSQR, many cubes per panel, and
//! Householder reconstruction (`recon`; τ = 2 rather than 0 for a column already zero below
//! the diagonal, the one difference from LAPACK's reflectors). The trailing columns are then
//! updated as A₂ −= U·(Vᵀ·A₂), two GEMMs (`update`); with outer blocks
//! (`QrParams::outer_block`) only the rest of the panel's outer block is, and the columns past
//! it are updated once per outer block with its reflectors (V, T and U formed as in `gram`).
//! With look-ahead (`QrParams::lookahead`) a step's U·W and the next panel's factorization
//! share one launch (`lookahead`), the panel beside the update.
//! householder_product applies the block
//! reflectors to the identity last to first; apply_q applies them to C in the order the side
//! and transpose call for. For tall matrices of few matrices both take blocks wider than the
//! panels (`QrParams::apply_block`) whose T come from GEMM Gram matrices, formed for a group
//! of blocks at once (`gram`).
//!
//! Errors: shapes and buffers are checked before any launch ([`QrError`]); NaN or infinite
//! input is flagged per matrix on the device and becomes [`QrError::NonFinite`] on read.
mod config;
mod gram;
mod lookahead;
mod panel;
mod panel_regs;
mod product;
mod q;
mod recon;
mod update;

pub use config::{
    DEFAULT_GRID_ROWS, DEFAULT_GRID_TALL, GPU_TSQR_PANEL_PARAMS, GRID_FROM_ROWS, GRID_WAIT_POLLS,
    LookAhead, MAX_TOP_ROWS_NB, MIN_CHUNK, PRODUCT_DEFAULT, PRODUCT_FROM_ROWS, PRODUCT_MAX_BATCH,
    PanelConfig, ProductConfig, QrLaunch, QrParams, RegPanelConfig, SPLIT_PER_SM,
};
/// The look-ahead kernel, public only for `examples/ptx_probe.rs` (compiled, never launched).
#[doc(hidden)]
pub use lookahead::{AheadLaunch, ahead_tiles, lookahead_kernel};
/// The register panel kernel, public only for `examples/ptx_probe.rs` (compiled, never
/// launched).
#[doc(hidden)]
pub use panel_regs::panel_regs_kernel;
/// The register product kernel, public only for `examples/ptx_probe.rs` (compiled, never
/// launched).
#[doc(hidden)]
pub use product::{MAX_PRODUCT_SLICES, product_kernel};
pub(crate) use q::form_q;
pub use q::{HostMatrix, MatrixOutput, Side, apply_q, householder_product};
pub use recon::ReconConfig;
/// The reconstruction's top-block kernels, public only for `examples/ptx_probe.rs` (compiled,
/// never launched).
#[doc(hidden)]
pub use recon::{recon_top_kernel, recon_top_rows_kernel};

use crate::error::{QrError, device_error};
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;
use gram::GramBlocks;
use linalg_common::copy::{CopyConfig, launch_copy};
use linalg_common::gemm::{Operand, View};
use linalg_common::launch::Hardware;
use linalg_common::matrix::MatrixRef;
use update::{Reflectors, TauRef, UpdateWork};

/// The launch context of one op.
pub(crate) struct Ctx<'a> {
    pub client: &'a Client,
    pub launch: QrLaunch,
    pub batch: usize,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        client: &'a Client,
        params: &QrParams,
        batch: usize,
        rows: usize,
        cols: usize,
    ) -> Result<Self, QrError> {
        let hw = Hardware::of(client);
        let launch = QrLaunch::new(&hw, params, batch, rows)
            .ok_or_else(|| QrError::Unsupported(format!("{params:?} on {hw:?}")))?;
        if !launch.fits(rows, cols, batch) {
            return Err(QrError::Unsupported(format!(
                "a grid for {batch} matrices of {rows}×{cols}"
            )));
        }
        Ok(Self {
            client,
            launch,
            batch,
        })
    }

    /// An uninitialised f32 buffer of `len` elements (at least one).
    pub(crate) fn buffer(&self, len: usize) -> (Handle, usize) {
        (self.client.empty(len.max(1) * 4), len.max(1))
    }

    /// A zeroed u32 per matrix.
    pub(crate) fn flags(&self) -> Handle {
        self.client
            .create_from_slice(u32::as_bytes(&vec![0u32; self.batch.max(1)]))
    }

    /// Copy `src` into `dst` (same shape), flagging non-finite values per matrix.
    pub(crate) fn copy(&self, src: Operand, dst: Operand, flags: &Handle, cfg: CopyConfig) {
        launch_copy(
            self.client,
            &self.launch.hw,
            self.batch,
            (src.handle, src.len, src.view),
            (dst.handle, dst.len, dst.view),
            flags,
            cfg,
        );
    }
}

/// Device result of [`geqrf`]: H `[batch, m, n]` and τ `[batch, min(m, n)]`, contiguous, and a
/// per-matrix non-finite flag. Nothing synchronised yet.
#[derive(Debug, Clone)]
pub struct GeqrfOutput {
    pub h: Handle,
    pub tau: Handle,
    pub nonfinite: Handle,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
}

/// Host copy of a [`geqrf`] result.
#[derive(Debug, Clone, PartialEq)]
pub struct HostGeqrf {
    pub h: Vec<f32>,
    pub tau: Vec<f32>,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
}

impl GeqrfOutput {
    /// Synchronise and read H and τ; non-finite input becomes [`QrError::NonFinite`].
    pub fn read(self, client: &Client) -> Result<HostGeqrf, QrError> {
        check_flags(client, self.nonfinite)?;
        let k = self.m.min(self.n);
        Ok(HostGeqrf {
            h: read_prefix(client, self.h, self.batch * self.m * self.n)?,
            tau: read_prefix(client, self.tau, self.batch * k)?,
            batch: self.batch,
            m: self.m,
            n: self.n,
        })
    }

    /// H as an argument of the other ops.
    pub fn h_ref(&self) -> MatrixRef<'_> {
        MatrixRef::dense(&self.h, self.batch, self.m, self.n)
    }

    /// τ as an argument of the other ops (`[batch, 1, k]`).
    pub fn tau_ref(&self) -> MatrixRef<'_> {
        MatrixRef::dense(&self.tau, self.batch, 1, self.m.min(self.n))
    }
}

/// QR-factor `a` (any m, n; validated up front; launches only, no synchronisation).
pub fn geqrf(client: &Client, a: MatrixRef, params: &QrParams) -> Result<GeqrfOutput, QrError> {
    a.validate("a")?;
    let (batch, m, n) = (a.batch, a.view.rows, a.view.cols);
    let ctx = Ctx::new(client, params, batch, m, n)?;
    let h = ctx.buffer(batch * m * n);
    let tau = ctx.buffer(batch * m.min(n));
    let nonfinite = ctx.flags();
    if !a.is_empty() {
        let dst = Operand::new(&h.0, h.1, View::contiguous(m, n));
        let check = CopyConfig {
            check: true,
            ..CopyConfig::PLAIN
        };
        ctx.copy(a.operand(), dst, &nonfinite, check);
        factor_in_place(&ctx, dst, &tau, &nonfinite);
    }
    Ok(GeqrfOutput {
        h: h.0,
        tau: tau.0,
        nonfinite,
        batch,
        m,
        n,
    })
}

/// Host convenience: upload a contiguous `[batch, m, n]` or `[m, n]` array, factor, read back.
pub fn geqrf_host(
    client: &Client,
    a: &[f32],
    shape: &[usize],
    params: &QrParams,
) -> Result<HostGeqrf, QrError> {
    let handle = upload(client, a, shape)?;
    let m = MatrixRef::contiguous(&handle, shape, "a")?;
    geqrf(client, m, params)?.read(client)
}

/// Upload host values whose count must match `shape` (the host conveniences' input).
pub(crate) fn upload(client: &Client, a: &[f32], shape: &[usize]) -> Result<Handle, QrError> {
    let needed: usize = shape.iter().product();
    if a.len() != needed {
        return Err(QrError::DataLength {
            needed,
            got: a.len(),
        });
    }
    Ok(client.create_from_slice(f32::as_bytes(a)))
}

/// Factor the contiguous m × n matrices of `h` in place, τ (k per matrix) into `tau`; a grid
/// panel whose wait gives up marks its matrix in `status` (the per-matrix flags
/// [`check_flags`] reads).
pub(crate) fn factor_in_place(ctx: &Ctx, h: Operand, tau: &(Handle, usize), status: &Handle) {
    let (m, n) = (h.view.rows, h.view.cols);
    let k = m.min(n);
    let nb = ctx.launch.nb;
    let mut refl = Reflectors::new(ctx, m, n);
    // Outer blocks of ob columns (`QrParams::outer_block`): a panel updates the rest of its
    // block; the columns past the block are updated once the block is factored.
    let ob = ctx.launch.outer;
    let mut outer = (ob > 0 && n > ob).then(|| {
        (
            GramBlocks::with_width(ctx, m, ob, 1),
            UpdateWork::new(ctx, m, n, ob),
        )
    });
    // Whether the panel at c0 was factored by the last step's look-ahead launch.
    let mut factored = false;
    let mut c0 = 0;
    while c0 < k {
        let w = nb.min(k - c0);
        let p = m - c0;
        let end = match outer {
            Some(_) => ((c0 / ob + 1) * ob).min(n),
            None => n,
        };
        let t = TauRef {
            offset: c0,
            ..tau_ref(tau, k)
        };
        let panel = h.with_view(h.view.block(c0, c0, p, w));
        // A grid panel where it is on and takes two cubes or more, else the register panel
        // kernel where it fits, else TSQR for tall panels, else the shared-memory panel
        // kernel.
        if factored {
            factored = false;
        } else if let Some(grid) = refl.grid_for(ctx, p) {
            refl.panel_grid(ctx, grid, panel, t, status);
        } else {
            match refl.tsqr_for(ctx, p, w) {
                Some(tsqr) if ctx.launch.panel_regs(p, true, true).is_none() => {
                    refl.panel_tsqr(ctx, &tsqr, panel, t)
                }
                _ => refl.panel(ctx, panel, t, true, true),
            }
        }
        if end > c0 + w {
            let n2 = end - c0 - w;
            let c = h.with_view(h.view.block(c0, c0 + w, p, n2));
            // Look-ahead: the next panel (inside this outer block) in the update's launch.
            let plan = (c0 + w < end.min(k))
                .then(|| refl.ahead_for(ctx, p - w, n2))
                .flatten();
            match plan {
                Some(plan) => {
                    let w2 = nb.min(k - c0 - w);
                    let t2 = TauRef {
                        offset: c0 + w,
                        ..tau_ref(tau, k)
                    };
                    refl.apply_ahead(ctx, plan, w, c, w2, t2, status);
                    factored = true;
                }
                None => refl.apply(ctx, w, c),
            }
        }
        c0 += w;
        if let Some((gram, work)) = &mut outer
            && c0 == end.min(k)
            && end < n
        {
            // The block [b0, c0) is factored: its block reflector, (I − V·T·Vᵀ)ᵀ applied to
            // the columns past it.
            let b0 = (c0 - 1) / ob * ob;
            gram.form(ctx, h, tau_ref(tau, k), k, (b0 / ob, 1), true);
            let (v, u) = gram.block(0, b0, m - b0, c0 - b0);
            work.apply(
                ctx,
                v,
                u,
                h.with_view(h.view.block(b0, end, m - b0, n - end)),
            );
        }
    }
}

/// τ of a contiguous `[batch, k]` buffer as a kernel argument.
pub(crate) fn tau_ref(tau: &(Handle, usize), k: usize) -> TauRef<'_> {
    TauRef {
        handle: &tau.0,
        len: tau.1,
        offset: 0,
        batch_stride: k,
    }
}

/// Synchronise on per-matrix flags: an error naming the flagged matrices (non-finite input),
/// or, first, the matrices whose grid panel gave up waiting.
pub(crate) fn check_flags(client: &Client, flags: Handle) -> Result<(), QrError> {
    use linalg_common::matrix::{marked, read_flags};
    let flags = read_flags(client, flags).map_err(device_error)?;
    let stalled = marked(&flags, |f| f == panel_regs::GRID_TIMEOUT);
    if !stalled.is_empty() {
        return Err(QrError::Device(format!(
            "a grid panel's cubes did not run at the same time (matrices {stalled:?}); \
             turn QrParams::panel_grid off on this device"
        )));
    }
    let batches = marked(&flags, |f| f != 0);
    if batches.is_empty() {
        Ok(())
    } else {
        Err(QrError::NonFinite { batches })
    }
}

/// The first `len` values of a device buffer.
pub(crate) fn read_prefix<T: cubecl::CubeElement>(
    client: &Client,
    handle: Handle,
    len: usize,
) -> Result<Vec<T>, QrError> {
    linalg_common::matrix::read_prefix(client, handle, len).map_err(device_error)
}
