//! Pieces both kernel crates need, kept in one place:
//! - [`matrix`]: [`matrix::MatrixRef`], a batch of strided matrices in a device buffer, the
//!   argument type of every op;
//! - [`gemm`]: a true-f32 batched GEMM on strided views ([`gemm_vec`]: its 4-vector shared
//!   tiles), and [`gemm_tc`] and [`gemm_mma`], the same contract on tensor cores at f32
//!   accuracy (error-compensated 3×TF32, WMMA fragments or `mma.sync` with registers managed
//!   by the kernel); [`copy`]: strided copies, identity
//!   fills and non-finite checks;
//! - [`device`]: which runtime a binary or test runs on (CUDA when linked and present, else the
//!   CPU runtime), said out loud so a run never claims coverage it did not have;
//! - [`launch`]: the hardware facts kernels are configured from (plane width, units per cube,
//!   shared memory, grid limits), read once from the client's properties;
//! - [`rng`]: a seeded counter-based generator, reproducible bit for bit in Python (the
//!   PyTorch anchor draws the same matrices from the same seed);
//! - [`reference`](mod@reference): f64 host references and the numerical gates (GPU MODE qr_v2);
//! - [`matgen`]: test matrices by class (dense, graded, rank-deficient, clustered, zero columns).
pub mod copy;
pub mod device;
pub mod gemm;
pub mod gemm_mma;
pub mod gemm_tc;
pub mod gemm_vec;
pub mod launch;
pub mod matgen;
pub mod matrix;
pub mod reference;
pub mod rng;
