//! QR kernels in CubeCL, generic over the runtime (CUDA, the CPU runtime, wgpu).
//!
//! - [`tsqr`]: tall-skinny QR (m ≥ n, n ≤ 128), batched, Q and R or R only.
pub mod tsqr;
