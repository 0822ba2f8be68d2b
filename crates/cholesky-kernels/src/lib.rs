//! Cholesky and triangular solves in CubeCL, batched, f32.
//!
//! - [`potrf()`]: A = L·Lᵀ (or UᵀU) by the recursive algorithm — POTRF(A11) → TRSM
//!   (L21 = A21·L11⁻ᵀ) → SYRK (A22 −= L21·L21ᵀ) → POTRF(A22), halving above `blocked_below`
//!   (4096) and splitting off one leaf at a time below it; the TRSM recurses the same way
//!   and SYRK is one lower-triangle GEMM (or recurses, by parameter), so the off-diagonal work
//!   is GEMM ([`linalg_common::gemm`], true f32; 3×TF32 tensor cores at f32 accuracy by
//!   parameter, [`linalg_common::gemm_tc`]); for a single matrix each right-looking step's SYRK
//!   also factors the next diagonal block in its first cube. Diagonal blocks up to `leaf` are
//!   factored (and inverted, for the TRSM leaves) by one kernel per block: blocked in 16×16 sub-blocks
//!   that one plane factors and inverts with shuffles ([`LeafKernel::Blocked`], the default),
//!   or one barrier per column ([`LeafKernel::Steps`]); a batch of matrices of
//!   order ≤ `leaf` is one launch of a left-looking kernel with a small cube per matrix (or of the
//!   diagonal-block kernel, by parameter). Per-matrix `info` as
//!   `torch.linalg.cholesky_ex`, with no host synchronisation.
//! - [`PotrfGraph`]: the same factorization recorded once as a device graph (CUDA, wgpu) and
//!   replayed for new inputs of one shape, without the per-launch host cost.
//! - [`solve_triangular()`]: torch.linalg.solve_triangular (left or right, upper or lower, unit
//!   diagonal), recursive on GEMM; its leaves multiply by the inverses of the diagonal blocks
//!   (all formed in one launch first), and with at least `inv_block` (1024) right-hand sides,
//!   potrf's TRSMs included, by whole inverted blocks of that order (doubled from those); on
//!   GPUs a single matrix or a small batch takes smaller whole blocks for fewer right-hand
//!   sides (`inv_rhs`). With few right-hand sides (≤ `trsv_max_k`, 16) it is block substitution
//!   instead ([`trsm::trsv`]): one launch for all diagonal blocks where cubes can hand data
//!   to each other (`trsv_chain`), else one per block.
//! - [`cholesky_solve()`] and [`cholesky_inverse()`]: torch.cholesky_solve / cholesky_inverse.
//!
//! Storage: every matrix argument is a [`MatrixRef`] — `batch` matrices of one strided
//! [`View`] into a device buffer of f32 (row-major contiguous is [`MatrixRef::contiguous`];
//! transposed, sliced or batch-broadcast inputs are other strides, read in place). Outputs are
//! new contiguous row-major buffers. Only the selected triangle of a triangular or symmetric
//! input is ever used (the batched small kernel's vector loads read whole 4-vectors, so up to
//! three elements past a row's diagonal, inside the matrix, which they discard); the other
//! triangle of a factor is written as exact zeros.
//!
//! Errors: malformed shapes and buffers are refused before any launch ([`CholeskyError`]).
//! NaN or infinite input is flagged per matrix on the device and becomes
//! [`CholeskyError::NonFinite`] when the result is read. A matrix that is not positive definite
//! is not an error: its `info` is the 1-based order of the first failing leading minor, and its
//! factor is not meaningful past that column (it may hold NaN or ∞ there); the other matrices
//! of the batch are unaffected.
mod config;
mod error;
pub mod potrf;
mod solve;
mod syrk;
pub mod trsm;

pub use config::{
    BatchedLeaf, BlockedLeafConfig, CholeskyLaunch, CholeskyParams, DEFAULT_WHOLE_WORK,
    FUSED_MMA_FROM, FUSED_SHARED_FROM, LeafConfig, LeafKernel, LeafStage, RowsConfig, SOLVE_TILES,
    SmallConfig,
};
pub use error::CholeskyError;
pub use linalg_common::gemm::View;
pub use linalg_common::matrix::MatrixRef;
pub use potrf::{CholeskyOutput, HostCholesky, PotrfGraph, potrf, potrf_host};
pub use solve::{cholesky_inverse, cholesky_solve};
pub use trsm::{HostSolve, SolveOutput, solve_triangular};

use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;
use linalg_common::launch::Hardware;

/// The square order of `m` after validating it.
pub(crate) fn square(m: &MatrixRef, name: &'static str) -> Result<usize, CholeskyError> {
    m.validate(name)?;
    if m.view.rows != m.view.cols {
        return Err(CholeskyError::NotSquare {
            name,
            rows: m.view.rows,
            cols: m.view.cols,
        });
    }
    Ok(m.view.rows)
}

/// The launch context of one op.
pub(crate) struct Ctx<'a> {
    pub client: &'a Client,
    pub launch: CholeskyLaunch,
    pub batch: usize,
    /// Every buffer the op allocated (a recorded graph must keep them all alive).
    pub allocated: std::cell::RefCell<Vec<Handle>>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        client: &'a Client,
        params: &CholeskyParams,
        batch: usize,
    ) -> Result<Self, CholeskyError> {
        let hw = Hardware::of(client);
        let launch = CholeskyLaunch::new(&hw, params)
            .ok_or_else(|| CholeskyError::Unsupported(format!("{params:?} on {hw:?}")))?;
        Ok(Self {
            client,
            launch,
            batch,
            allocated: Default::default(),
        })
    }

    pub(crate) fn check_grid(&self, rows: usize, cols: usize) -> Result<(), CholeskyError> {
        if self.launch.fits(rows, cols, self.batch) {
            Ok(())
        } else {
            Err(CholeskyError::Unsupported(format!(
                "a grid for {} matrices of {rows}×{cols}",
                self.batch
            )))
        }
    }

    /// A zeroed u32 per matrix: uploaded, or zeroed by a kernel while a graph is recorded
    /// (a capture admits no host writes).
    pub(crate) fn flags(&self) -> Handle {
        self.zeroed_u32(self.batch.max(1))
    }

    /// A zeroed u32 buffer of `len` elements (recorded as a launch while capturing a graph).
    pub(crate) fn zeroed_u32(&self, len: usize) -> Handle {
        let h = if self.client.is_capturing() {
            let h = self.client.empty(len * 4);
            let hw = self.launch.hw();
            linalg_common::copy::launch_zero_u32(self.client, hw, &h, len);
            h
        } else {
            self.client
                .create_from_slice(u32::as_bytes(&vec![0u32; len]))
        };
        self.allocated.borrow_mut().push(h.clone());
        h
    }

    /// An uninitialised f32 buffer of `len` elements (at least one).
    pub(crate) fn buffer(&self, len: usize) -> (Handle, usize) {
        let h = self.client.empty(len.max(1) * 4);
        self.allocated.borrow_mut().push(h.clone());
        (h, len.max(1))
    }
}

/// Split point of a recursion on an n×n diagonal block (n > nb): about n/2, a multiple of nb,
/// so every leaf but the last is exactly nb.
pub(crate) fn split(n: usize, nb: usize) -> usize {
    debug_assert!(n > nb);
    let h = (n / 2).div_ceil(nb) * nb;
    if h >= n { nb } else { h }
}

/// Synchronise on the per-matrix non-finite flags: an error naming the flagged matrices.
pub(crate) fn check_flags(client: &Client, flags: Handle) -> Result<(), CholeskyError> {
    let batches = linalg_common::matrix::flagged(client, flags).map_err(device_error)?;
    if batches.is_empty() {
        Ok(())
    } else {
        Err(CholeskyError::NonFinite { batches })
    }
}

/// The first `len` values of a device buffer.
pub(crate) fn read_prefix<T: cubecl::CubeElement>(
    client: &Client,
    handle: Handle,
    len: usize,
) -> Result<Vec<T>, CholeskyError> {
    linalg_common::matrix::read_prefix(client, handle, len).map_err(device_error)
}

pub(crate) fn device_error(e: cubecl::server::ServerError) -> CholeskyError {
    CholeskyError::Device(format!("{e:?}"))
}
