//! TSQR: QR of tall-skinny matrices, batched.
//!
//! A is `[batch, m, n]`, row-major and contiguous (f32), m ≥ n, 1 ≤ n ≤ [`MAX_COLUMNS`].
//! The result is the thin factorization A = QR with Q `[batch, m, n]` (orthonormal columns) and
//! R `[batch, n, n]` (upper-triangular; the strictly lower triangle is exactly zero; the
//! diagonal follows LAPACK's sign convention and may be negative).
//!
//! Stages, one file each: `block` (per-block Householder QR in shared memory and registers),
//! `tree` (reduction of the stacked R factors), `q` (Q built top-down). Launches:
//! one per tree level for R, and as many again for Q; no host synchronisation.
//!
//! Zero and dependent columns: a column whose part below the diagonal is exactly zero gets the
//! identity in place of a reflector, so R has a zero there and Q keeps orthonormal columns
//! (Householder Q is orthogonal whatever the input). Rank-deficient input gives no NaN.
//!
//! Non-finite input is reported per batch element in [`TsqrOutput::info`] (1 where A held a NaN
//! or an infinity) and turned into [`TsqrError::NonFinite`] by [`TsqrOutput::read`]; the factors
//! of such an element are not meaningful (NaN spreads through its tree).
mod block;
mod config;
mod q;
mod tree;

pub(crate) use block::butterfly_low;
pub use config::{MAX_COLUMNS, TsqrLaunch, TsqrParams};
pub(crate) use tree::fits as fits_grid;
pub use tree::{Level, levels};

use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::launch::Hardware;
use tree::{BlockStage, launch_block};

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TsqrMode {
    /// Q and R.
    Reduced,
    /// R only: Q is never formed nor written (one pass over A).
    R,
}

impl std::fmt::Display for TsqrMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TsqrMode::Reduced => "reduced",
            TsqrMode::R => "r",
        })
    }
}

/// Why a TSQR call was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TsqrError {
    #[error("TSQR takes [batch, m, n] or [m, n]; got a shape of rank {rank}")]
    WrongRank { rank: usize },
    #[error(
        "TSQR needs m >= n (got m = {m}, n = {n}): for wide matrices use blocked geqrf / qr, or factor the transpose"
    )]
    WideMatrix { m: usize, n: usize },
    #[error("TSQR needs at least one column and one batch element (got batch = {batch}, n = {n})")]
    Empty { batch: usize, n: usize },
    #[error(
        "TSQR supports up to {max} columns (got n = {n}): use blocked geqrf for wider matrices"
    )]
    TooManyColumns { n: usize, max: usize },
    #[error("{elements} elements overflow the kernels' 32-bit index (max {max}); split the batch")]
    IndexOverflow { elements: usize, max: usize },
    #[error("buffer `{name}` holds {got} bytes, {needed} needed")]
    BufferTooSmall {
        name: &'static str,
        needed: u64,
        got: u64,
    },
    #[error(
        "this device cannot run TSQR with n = {n} and {params:?} (shared memory, cube size, or rows_per_block not >= 2n and a multiple of the plane width {lanes})"
    )]
    Unsupported {
        n: usize,
        lanes: usize,
        params: TsqrParams,
    },
    #[error(
        "input holds NaN or infinite values (batch elements {batches:?}); the factors are not meaningful"
    )]
    NonFinite { batches: Vec<usize> },
    #[error("the host-side input has {got} values, the shape says {needed}")]
    DataLength { needed: usize, got: usize },
    #[error("device error: {0}")]
    Device(String),
}

/// Batch, rows, columns of a `[batch, m, n]` or `[m, n]` shape, validated for TSQR.
pub fn validate_shape(shape: &[usize]) -> Result<(usize, usize, usize), TsqrError> {
    let (batch, m, n) = match *shape {
        [m, n] => (1, m, n),
        [b, m, n] => (b, m, n),
        _ => return Err(TsqrError::WrongRank { rank: shape.len() }),
    };
    if batch == 0 || n == 0 {
        return Err(TsqrError::Empty { batch, n });
    }
    if m < n {
        return Err(TsqrError::WideMatrix { m, n });
    }
    if n > MAX_COLUMNS {
        return Err(TsqrError::TooManyColumns {
            n,
            max: MAX_COLUMNS,
        });
    }
    let elements = batch
        .checked_mul(m)
        .and_then(|x| x.checked_mul(n))
        .unwrap_or(usize::MAX);
    let max = u32::MAX as usize;
    if elements > max {
        return Err(TsqrError::IndexOverflow { elements, max });
    }
    Ok((batch, m, n))
}

/// Device results of [`tsqr`]. Nothing has been synchronised yet.
#[derive(Debug, Clone)]
pub struct TsqrOutput {
    /// Q, `batch·m·n` f32 (None in [`TsqrMode::R`]).
    pub q: Option<Handle>,
    /// R, `batch·n·n` f32.
    pub r: Handle,
    /// Per batch element, u32: 0 = ok, 1 = the input held NaN or infinity.
    pub info: Handle,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
}

/// Host copies of a factorization.
#[derive(Debug, Clone)]
pub struct HostQr {
    pub q: Option<Vec<f32>>,
    pub r: Vec<f32>,
    pub batch: usize,
    pub m: usize,
    pub n: usize,
}

impl TsqrOutput {
    /// Synchronise, read the factors back and turn a non-finite input into an error.
    pub fn read(self, client: &Client) -> Result<HostQr, TsqrError> {
        use linalg_common::matrix::{flagged, read_prefix};
        let dev = |e: cubecl::server::ServerError| TsqrError::Device(format!("{e:?}"));
        let bad = flagged(client, self.info).map_err(dev)?;
        if !bad.is_empty() {
            return Err(TsqrError::NonFinite { batches: bad });
        }
        let (b, m, n) = (self.batch, self.m, self.n);
        let r = read_prefix(client, self.r, b * n * n).map_err(dev)?;
        let q = match self.q {
            Some(q) => Some(read_prefix(client, q, b * m * n).map_err(dev)?),
            None => None,
        };
        Ok(HostQr {
            q,
            r,
            batch: self.batch,
            m: self.m,
            n: self.n,
        })
    }
}

/// Workspace TSQR allocates for a shape, in bytes: the R stacks and, with Q, every level's
/// reflectors (the leaf's are as large as A).
pub fn tsqr_workspace(
    shape: &[usize],
    mode: TsqrMode,
    launch: &TsqrLaunch,
) -> Result<u64, TsqrError> {
    let (batch, m, n) = validate_shape(shape)?;
    let lv = launch.levels(m, n);
    let stacks: usize = lv[1..].iter().map(|l| l.rows_in * n).sum();
    let per = if mode == TsqrMode::Reduced {
        2 * stacks
    } else {
        stacks
    };
    Ok((batch * per * 4) as u64)
}

/// TSQR of the contiguous row-major f32 batch in `a` (`shape` = `[batch, m, n]` or `[m, n]`).
///
/// Validates everything up front (typed errors), then launches; never synchronises.
pub fn tsqr(
    client: &Client,
    a: &Handle,
    shape: &[usize],
    mode: TsqrMode,
    params: &TsqrParams,
) -> Result<TsqrOutput, TsqrError> {
    let (batch, m, n) = validate_shape(shape)?;
    let hw = Hardware::of(client);
    let launch = TsqrLaunch::new(&hw, n, params).ok_or(TsqrError::Unsupported {
        n,
        lanes: hw.lanes,
        params: *params,
    })?;
    let needed = (batch * m * n * 4) as u64;
    if a.size_in_used() < needed {
        return Err(TsqrError::BufferTooSmall {
            name: "a",
            needed,
            got: a.size_in_used(),
        });
    }
    let lv = launch.levels(m, n);
    if lv.iter().any(|l| !tree::fits(&launch, l.nblocks, batch)) {
        return Err(TsqrError::Unsupported {
            n,
            lanes: hw.lanes,
            params: *params,
        });
    }
    Ok(tsqr_launch(client, &launch, a, batch, m, n, &lv, mode))
}

/// The launcher: assumes a validated shape and a launch that fits the device.
#[allow(clippy::too_many_arguments)]
pub(crate) fn tsqr_launch(
    client: &Client,
    launch: &TsqrLaunch,
    a: &Handle,
    batch: usize,
    m: usize,
    n: usize,
    lv: &[Level],
    mode: TsqrMode,
) -> TsqrOutput {
    let f32b = 4usize;
    let with_q = mode == TsqrMode::Reduced;
    let info = client.create_from_slice(u32::as_bytes(&vec![0u32; batch]));
    let r = client.empty(batch * n * n * f32b);
    // inputs[L]: level L's input; the R pass writes inputs[L + 1] (or R at the top), and
    // level L's reflectors to refl[L] when Q is wanted.
    let mut inputs = vec![a.clone()];
    for l in &lv[1..] {
        inputs.push(client.empty(batch * l.rows_in * n * f32b));
    }
    let refl: Vec<Handle> = if with_q {
        lv.iter()
            .map(|l| client.empty(batch * l.rows_in * n * f32b))
            .collect()
    } else {
        Vec::new()
    };
    let top = lv.len() - 1;
    for (l, level) in lv.iter().enumerate() {
        let out = if l == top { &r } else { &inputs[l + 1] };
        let stage = BlockStage::Factor {
            check_finite: l == 0,
            store_v: with_q,
        };
        let refl_l = if with_q { &refl[l] } else { &inputs[l] };
        launch_block(
            client, launch, *level, batch, stage, &inputs[l], &inputs[l], out, refl_l, &info,
        );
    }
    let q = with_q.then(|| {
        let q = client.empty(batch * m * n * f32b);
        // Level L ≥ 1 writes its Q·Y rows (the Y slices of level L − 1) over its R stack:
        // the R stacks are dead once the R pass is done.
        q::form_q(client, launch, lv, batch, &refl, &inputs, &q, &info);
        q
    });
    TsqrOutput {
        q,
        r,
        info,
        batch,
        m,
        n,
    }
}

/// Host convenience: upload `a`, factor, read back (synchronises).
pub fn tsqr_host(
    client: &Client,
    a: &[f32],
    shape: &[usize],
    mode: TsqrMode,
    params: &TsqrParams,
) -> Result<HostQr, TsqrError> {
    let (batch, m, n) = validate_shape(shape)?;
    if a.len() != batch * m * n {
        return Err(TsqrError::DataLength {
            needed: batch * m * n,
            got: a.len(),
        });
    }
    let handle = client.create_from_slice(f32::as_bytes(a));
    tsqr(client, &handle, shape, mode, params)?.read(client)
}
