//! QR kernels in CubeCL, generic over the runtime (CUDA, the CPU runtime, wgpu).
//!
//! - [`tsqr`]: tall-skinny QR (m ≥ n, n ≤ 128), batched, Q and R or R only.
//! - [`geqrf`](mod@geqrf): blocked Householder QR in LAPACK's (H, τ) form, any shape, batched;
//!   [`householder_product`] (form Q) and [`apply_q`] (multiply by Q or Qᵀ) on that form.
//! - [`qr()`]: `torch.linalg.qr` (modes reduced, complete, r), choosing TSQR or blocked geqrf.
mod error;
pub mod geqrf;
mod qr;
pub mod tsqr;

pub use error::QrError;
pub use geqrf::{
    GeqrfOutput, HostGeqrf, HostMatrix, LookAhead, MatrixOutput, QrLaunch, QrParams, Side, apply_q,
    geqrf, geqrf_host, householder_product,
};
pub use linalg_common::gemm::View;
pub use linalg_common::matrix::MatrixRef;
pub use qr::{HostQrResult, QrMode, QrOutput, qr, qr_host};
