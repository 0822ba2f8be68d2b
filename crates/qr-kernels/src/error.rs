//! Why a blocked-QR call (geqrf, householder_product, apply_q, qr) was refused or failed.
use linalg_common::matrix::ViewError;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum QrError {
    #[error("`{name}` must be [rows, cols] or [batch, rows, cols] (got a shape of rank {rank})")]
    WrongRank { name: &'static str, rank: usize },
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
        "input holds NaN or infinite values (batch elements {batches:?}); the factors are not meaningful"
    )]
    NonFinite { batches: Vec<usize> },
    #[error("the host-side input has {got} values, the shape says {needed}")]
    DataLength { needed: usize, got: usize },
    #[error("device error: {0}")]
    Device(String),
}

impl From<ViewError> for QrError {
    fn from(e: ViewError) -> Self {
        match e {
            ViewError::WrongRank { name, rank } => Self::WrongRank { name, rank },
            ViewError::IndexOverflow { elements, max } => Self::IndexOverflow { elements, max },
            ViewError::BufferTooSmall { name, needed, got } => {
                Self::BufferTooSmall { name, needed, got }
            }
        }
    }
}

pub(crate) fn device_error(e: cubecl::server::ServerError) -> QrError {
    QrError::Device(format!("{e:?}"))
}
