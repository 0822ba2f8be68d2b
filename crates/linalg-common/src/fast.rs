//! Scalar device math the CUDA back end expands slowly.
//!
//! CubeCL 0.11's CUDA code for `inverse_sqrt` is an IEEE square root followed by an IEEE
//! reciprocal (two multi-function-unit ops, each with Newton fix-ups and a slow-path branch:
//! ~100 cycles of dependent latency), which sits on the pivot chain of every Cholesky kernel.
use cubecl::prelude::*;

/// 1/√x in f32, for the pivots of a factorization: the bit-level estimate
/// `0x5f375a86 − bits(x)/2` (relative error ≤ 3.5e-2), then three Newton steps
/// y ← y·(3/2 − x/2·y²) (error 1.8e-3, 4.7e-6, then rounding: about an ulp). Twelve
/// dependent multiply-adds, no branch on normal x. Subnormal, infinite, zero, negative and NaN
/// x take the IEEE path (`1/√x`), so they give what it gives (callers test pivots before
/// trusting the result).
#[cube]
#[allow(clippy::manual_range_contains)] // no range types in #[cube] code
pub fn rsqrt<F: Float>(x: F) -> F {
    let xf = f32::cast_from(x);
    let bits = u32::reinterpret(xf);
    let mut y = f32::reinterpret(0x5f37_5a86u32 - (bits >> 1u32));
    let hx = 0.5f32 * xf;
    #[unroll]
    for _ in 0..3u32 {
        y *= 1.5f32 - hx * y * y;
    }
    let mut r = F::cast_from(y);
    let normal = xf >= f32::MIN_POSITIVE && xf <= f32::MAX;
    if !normal {
        r = F::new(1.0) / F::sqrt(x);
    }
    r
}
