//! QR and Cholesky as Burn ops, with torch.linalg names and semantics, on our CubeCL kernels.
//!
//! ```
//! use burn::tensor::{Device, Distribution, Tensor};
//! use burn_ext::QrMode;
//! let device = Device::default(); // CUDA when built with `cuda`, else the CPU runtime
//! let x = Tensor::<3>::random([8, 64, 16], Distribution::Normal(0.0, 1.0), &device);
//! let (q, r) = burn_ext::qr(x.clone(), QrMode::Reduced)?;
//! let gram = x.clone().transpose().matmul(x) + Tensor::<2>::eye(16, &device).unsqueeze::<3>() * 64.0;
//! let (l, info) = burn_ext::cholesky_ex(gram, false)?;
//! # Ok::<(), burn_ext::LinalgError>(())
//! ```
//!
//! - [`qr`] (modes reduced / complete / r), [`tsqr`], [`tsqr_r`], [`geqrf`],
//!   [`householder_product`], [`apply_q`]: `crates/qr-kernels`.
//! - [`cholesky`], [`cholesky_ex`] ([`cholesky_ex_with`]: TF32 updates with
//!   [`MatmulPrecision::High`]), [`solve_triangular`], [`cholesky_solve`],
//!   [`cholesky_inverse`]: `crates/cholesky-kernels`.
//!
//! How an op runs ([`LinalgBackend`], one `#[backend_extension]` trait): on CubeCL devices
//! (CUDA, the CPU runtime, wgpu) our kernels launch on the tensor's own client, under Fusion
//! (on by default) as a lazy custom op; on Flex a host f64 fallback computes the same result; under
//! autodiff the backward passes are analytic (the `autodiff` module's docs).
//! Inputs are validated on the host without synchronising ([`LinalgError`]); f16/bf16 are computed
//! in f32 and cast back; f64 is refused.
mod autodiff;
mod backend;
mod cube;
mod error;
mod fallback;
pub mod host;
mod ops;
pub mod optim;

pub use backend::LinalgBackend;

/// Flex (pure-Rust CPU backend): the host fallback (the trait's default bodies).
impl LinalgBackend for burn::backend::Flex {}
pub use error::LinalgError;
pub use ops::{
    MatmulPrecision, QrMode, Side, apply_q, cholesky, cholesky_ex, cholesky_ex_with,
    cholesky_inverse, cholesky_solve, geqrf, householder_product, qr, solve_triangular, tsqr,
    tsqr_r,
};
