//! Fast, correct QR and Cholesky on the GPU for Burn users.
//!
//! This root crate re-exports the kernel crates and holds what the example and benchmark
//! binaries share (argument parsing, timing). The kernels live in
//! [`qr_kernels`] (TSQR today) and [`cholesky_kernels`] (Cholesky, triangular and Cholesky
//! solves); Burn ops will live in `burn-ext`.
pub use cholesky_kernels;
pub use linalg_common;
pub use qr_kernels;

pub mod cli;
pub mod timing;
