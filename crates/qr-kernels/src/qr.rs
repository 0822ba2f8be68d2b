//! `torch.linalg.qr`: A = Q·R in the modes reduced (Q m × k, R k × n), complete (Q m × m,
//! R m × n) and r (R k × n only), k = min(m, n), for a batch of strided matrices.
//!
//! Tall-skinny shapes go to TSQR when it is the faster path ([`QrParams::tsqr_max_cols`],
//! [`QrParams::tsqr_min_ratio`]: the crossover measured on the H200, BENCHMARKS.md); everything
//! else is blocked geqrf, then R = triu(H) and Q = householder_product(H, τ). The geqrf path
//! follows LAPACK's sign convention (as torch); TSQR's tree may flip the signs of rows of R (and
//! the matching columns of Q), so the paths agree up to those signs and rounding.
use crate::error::QrError;
use crate::geqrf::{
    Ctx, QrParams, check_flags, factor_in_place, form_q, read_prefix, tau_ref, upload,
};
use crate::tsqr::{TsqrError, TsqrMode, TsqrParams, tsqr};
use cubecl::client::Client;
use cubecl::server::Handle;
use linalg_common::copy::CopyConfig;
use linalg_common::gemm::{Operand, View};
use linalg_common::matrix::MatrixRef;

/// What [`qr`] returns, as torch.linalg.qr's `mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QrMode {
    Reduced,
    Complete,
    R,
}

/// Device result of [`qr`]: Q `[batch, m, q_cols]` (None in mode r), R `[batch, r_rows, n]`,
/// contiguous, and per-matrix non-finite flags. Nothing synchronised yet.
#[derive(Debug, Clone)]
pub struct QrOutput {
    pub q: Option<Handle>,
    pub r: Handle,
    pub nonfinite: Handle,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
    pub q_cols: usize,
    pub r_rows: usize,
    /// Whether the TSQR path ran.
    pub tsqr: bool,
}

/// Host copy of a [`QrOutput`].
#[derive(Debug, Clone, PartialEq)]
pub struct HostQrResult {
    pub q: Option<Vec<f32>>,
    pub r: Vec<f32>,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
    pub q_cols: usize,
    pub r_rows: usize,
    pub tsqr: bool,
}

impl QrOutput {
    /// Synchronise and read; non-finite input becomes [`QrError::NonFinite`].
    pub fn read(self, client: &Client) -> Result<HostQrResult, QrError> {
        check_flags(client, self.nonfinite)?;
        let q = match self.q {
            Some(q) => Some(read_prefix(client, q, self.batch * self.m * self.q_cols)?),
            None => None,
        };
        Ok(HostQrResult {
            q,
            r: read_prefix(client, self.r, self.batch * self.r_rows * self.n)?,
            batch: self.batch,
            m: self.m,
            n: self.n,
            q_cols: self.q_cols,
            r_rows: self.r_rows,
            tsqr: self.tsqr,
        })
    }
}

/// Whether `qr` takes the TSQR path for an m × n shape in `mode`.
pub fn uses_tsqr(params: &QrParams, m: usize, n: usize, mode: QrMode) -> bool {
    mode != QrMode::Complete
        && n >= 1
        && n <= params.tsqr_max_cols.unwrap_or(DEFAULT_TSQR_MAX_COLS)
        && m >= n * params.tsqr_min_ratio.unwrap_or(DEFAULT_TSQR_MIN_RATIO)
}

/// Measured crossover (H200, BENCHMARKS.md § QR: TSQR or blocked geqrf): TSQR was faster on
/// every shape it takes — n ≤ 128 (its limit), m ≥ n, from 32×32 and 128×128 (1.9–2.3×) to
/// 131072×32 (190×) — so qr() uses it up to this many columns …
pub const DEFAULT_TSQR_MAX_COLS: usize = 128;
/// … whenever m is at least this many times n.
pub const DEFAULT_TSQR_MIN_RATIO: usize = 1;

/// Factor `a` (validated up front; launches only, no synchronisation).
pub fn qr(
    client: &Client,
    a: MatrixRef,
    mode: QrMode,
    params: &QrParams,
) -> Result<QrOutput, QrError> {
    a.validate("a")?;
    let (batch, m, n) = (a.batch, a.view.rows, a.view.cols);
    let k = m.min(n);
    let (q_cols, r_rows) = match mode {
        QrMode::Reduced => (k, k),
        QrMode::Complete => (m, m),
        QrMode::R => (0, k),
    };
    let ctx = Ctx::new(client, params, batch, m, n.max(m))?;
    if !a.is_empty()
        && uses_tsqr(params, m, n, mode)
        && let Some(out) = qr_tsqr(&ctx, a, mode)?
    {
        return Ok(out);
    }
    let nonfinite = ctx.flags();
    let h = ctx.buffer(batch * m * n);
    let tau = ctx.buffer(batch * k);
    let r = ctx.buffer(batch * r_rows * n);
    let mut q = (mode != QrMode::R).then(|| ctx.buffer(batch * m * q_cols));
    if !a.is_empty() {
        let hv = Operand::new(&h.0, h.1, View::contiguous(m, n));
        let check = CopyConfig {
            check: true,
            ..CopyConfig::PLAIN
        };
        ctx.copy(a.operand(), hv, &nonfinite, check);
        factor_in_place(&ctx, hv, &tau, &nonfinite);
        // R = triu(H[0:r_rows, :]): the lower-triangle copy of the transposed views.
        let rv = Operand::new(&r.0, r.1, View::contiguous(r_rows, n));
        let upper = CopyConfig {
            lower: true,
            ..CopyConfig::PLAIN
        };
        let rows = r_rows.min(m);
        ctx.copy(
            hv.with_view(hv.view.block(0, 0, rows, n).t()),
            rv.with_view(rv.view.t()),
            &nonfinite,
            upper,
        );
        if let Some(q) = q.as_mut() {
            *q = form_q(&ctx, hv, tau_ref(&tau, k), k, q_cols, None);
        }
    } else if let Some(q) = q.as_ref() {
        // Empty A: Q is the identity (complete mode with m > 0, n = 0), R is empty or zero.
        let qv = Operand::new(&q.0, q.1, View::contiguous(m, q_cols));
        let identity = CopyConfig {
            identity: true,
            ..CopyConfig::PLAIN
        };
        ctx.copy(qv, qv, &nonfinite, identity);
        let rv = Operand::new(&r.0, r.1, View::contiguous(r_rows, n));
        let zero = CopyConfig {
            lower: true,
            skip_diag: true,
            ..CopyConfig::PLAIN
        };
        ctx.copy(
            rv.with_view(rv.view.t()),
            rv.with_view(rv.view.t()),
            &nonfinite,
            zero,
        );
    }
    Ok(QrOutput {
        q: q.map(|q| q.0),
        r: r.0,
        nonfinite,
        batch,
        m,
        n,
        q_cols,
        r_rows,
        tsqr: false,
    })
}

/// The TSQR path (m ≥ n, reduced or r); `None` when TSQR cannot run this shape here.
fn qr_tsqr(ctx: &Ctx, a: MatrixRef, mode: QrMode) -> Result<Option<QrOutput>, QrError> {
    let (batch, m, n) = (a.batch, a.view.rows, a.view.cols);
    let dense = View::contiguous(m, n);
    let owned;
    let input = if a.view == dense {
        a.handle
    } else {
        let buf = ctx.buffer(batch * m * n);
        ctx.copy(
            a.operand(),
            Operand::new(&buf.0, buf.1, dense),
            &ctx.flags(),
            CopyConfig::PLAIN,
        );
        owned = buf.0;
        &owned
    };
    let tmode = if mode == QrMode::R {
        TsqrMode::R
    } else {
        TsqrMode::Reduced
    };
    match tsqr(
        ctx.client,
        input,
        &[batch, m, n],
        tmode,
        &TsqrParams::default(),
    ) {
        Ok(out) => Ok(Some(QrOutput {
            q: out.q,
            r: out.r,
            nonfinite: out.info,
            batch,
            m,
            n,
            q_cols: if mode == QrMode::R { 0 } else { n },
            r_rows: n,
            tsqr: true,
        })),
        Err(TsqrError::Unsupported { .. }) | Err(TsqrError::TooManyColumns { .. }) => Ok(None),
        Err(e) => Err(QrError::Unsupported(format!("tsqr: {e}"))),
    }
}

/// Host convenience: upload a contiguous `[batch, m, n]` or `[m, n]` array, factor, read back.
pub fn qr_host(
    client: &Client,
    a: &[f32],
    shape: &[usize],
    mode: QrMode,
    params: &QrParams,
) -> Result<HostQrResult, QrError> {
    let handle = upload(client, a, shape)?;
    let m = MatrixRef::contiguous(&handle, shape, "a")?;
    qr(client, m, mode, params)?.read(client)
}
