//! Why a Cholesky or triangular-solve call was refused or failed.

/// Errors of every op in this crate. A matrix that is not positive definite is not an error:
/// it is reported in the `info` output.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CholeskyError {
    #[error("`{name}` must be [n, n] or [batch, n, n] (got a shape of rank {rank})")]
    WrongRank { name: &'static str, rank: usize },
    #[error("`{name}` must be square (got {rows}×{cols})")]
    NotSquare {
        name: &'static str,
        rows: usize,
        cols: usize,
    },
    #[error("shapes do not match: {what}")]
    ShapeMismatch { what: String },
    #[error("{elements} elements overflow the kernels' 32-bit index (max {max}); split the batch")]
    IndexOverflow { elements: usize, max: usize },
    #[error("buffer `{name}` holds {got} f32 values, the view reaches {needed}")]
    BufferTooSmall {
        name: &'static str,
        needed: usize,
        got: usize,
    },
    #[error("this device cannot run the kernels with {0}")]
    Unsupported(String),
    #[error(
        "input holds NaN or infinite values (batch elements {batches:?}); the results are not meaningful"
    )]
    NonFinite { batches: Vec<usize> },
    #[error("the host-side input has {got} values, the shape says {needed}")]
    DataLength { needed: usize, got: usize },
    #[error("device error: {0}")]
    Device(String),
}

impl From<linalg_common::matrix::ViewError> for CholeskyError {
    fn from(e: linalg_common::matrix::ViewError) -> Self {
        use linalg_common::matrix::ViewError as V;
        match e {
            V::WrongRank { name, rank } => Self::WrongRank { name, rank },
            V::IndexOverflow { elements, max } => Self::IndexOverflow { elements, max },
            V::BufferTooSmall { name, needed, got } => Self::BufferTooSmall { name, needed, got },
        }
    }
}
