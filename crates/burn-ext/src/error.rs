//! [`LinalgError`]: why an op refused its input (nothing was launched).
use burn::tensor::DType;

/// Why an op of this crate refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LinalgError {
    #[error("{op}: `{name}` must be [..., rows, cols] (rank ≥ 2); got rank {rank}")]
    RankTooSmall {
        op: &'static str,
        name: &'static str,
        rank: usize,
    },
    #[error("{op}: `{name}` must be square; got {rows}×{cols}")]
    NotSquare {
        op: &'static str,
        name: &'static str,
        rows: usize,
        cols: usize,
    },
    #[error("{op}: shapes do not match: {detail}")]
    ShapeMismatch { op: &'static str, detail: String },
    #[error("{op}: dtype {dtype:?} is not supported (f32, or f16/bf16 computed in f32)")]
    UnsupportedDType { op: &'static str, dtype: DType },
    #[error(
        "{op}: {elements} elements exceed the kernels' 32-bit index range (max {max}); split the batch"
    )]
    IndexOverflow {
        op: &'static str,
        elements: usize,
        max: usize,
    },
    #[error("{op}: not differentiable ({reason}); detach the input or use a differentiable op")]
    NotDifferentiable {
        op: &'static str,
        reason: &'static str,
    },
    #[error("{op}: {detail}")]
    Unsupported { op: &'static str, detail: String },
    #[error(
        "cholesky: matrix {batch} of the batch is not positive definite (its leading minor of order {order} is not)"
    )]
    NotPositiveDefinite { batch: usize, order: usize },
    #[error("{op}: reading the result failed: {detail}")]
    Read { op: &'static str, detail: String },
}
