//! [`MatrixRef`]: `batch` matrices of one strided [`View`] into a device buffer of f32 — how
//! every op of both kernel crates takes its matrix arguments (contiguous, transposed, sliced
//! or batch-broadcast inputs are all strides, read in place).
use crate::gemm::{Operand, View};
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::{Handle, ServerError};

/// `batch` matrices laid out as `view` in `handle` (f32).
#[derive(Clone, Copy, Debug)]
pub struct MatrixRef<'a> {
    pub handle: &'a Handle,
    pub batch: usize,
    pub view: View,
}

/// Why a [`MatrixRef`] cannot be used as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("`{name}` must be [rows, cols] or [batch, rows, cols] (got a shape of rank {rank})")]
    WrongRank { name: &'static str, rank: usize },
    #[error("{elements} elements overflow the kernels' 32-bit index (max {max}); split the batch")]
    IndexOverflow { elements: usize, max: usize },
    #[error("buffer `{name}` holds {got} f32 values, the view reaches {needed}")]
    BufferTooSmall {
        name: &'static str,
        needed: usize,
        got: usize,
    },
}

impl<'a> MatrixRef<'a> {
    /// `batch` contiguous row-major rows×cols matrices.
    pub fn dense(handle: &'a Handle, batch: usize, rows: usize, cols: usize) -> Self {
        Self {
            handle,
            batch,
            view: View::contiguous(rows, cols),
        }
    }

    /// A contiguous row-major `[rows, cols]` or `[batch, rows, cols]` buffer.
    pub fn contiguous(
        handle: &'a Handle,
        shape: &[usize],
        name: &'static str,
    ) -> Result<Self, ViewError> {
        let (batch, rows, cols) = match *shape {
            [r, c] => (1, r, c),
            [b, r, c] => (b, r, c),
            _ => {
                return Err(ViewError::WrongRank {
                    name,
                    rank: shape.len(),
                });
            }
        };
        Ok(Self::dense(handle, batch, rows, cols))
    }

    /// Buffer length in f32 elements.
    pub fn len(&self) -> usize {
        (self.handle.size_in_used() / 4) as usize
    }

    pub fn is_empty(&self) -> bool {
        self.batch == 0 || self.view.rows == 0 || self.view.cols == 0
    }

    pub fn operand(&self) -> Operand<'a> {
        Operand::new(self.handle, self.len(), self.view)
    }

    /// The view lies inside the buffer and inside the 32-bit index range.
    pub fn validate(&self, name: &'static str) -> Result<(), ViewError> {
        let needed = self.view.extent(self.batch);
        let max = u32::MAX as usize;
        if needed > max {
            return Err(ViewError::IndexOverflow {
                elements: needed,
                max,
            });
        }
        if !self.is_empty() && needed > self.len() {
            return Err(ViewError::BufferTooSmall {
                name,
                needed,
                got: self.len(),
            });
        }
        Ok(())
    }
}

/// Synchronise and read per-matrix u32 flags: the indices of the matrices whose flag is set.
pub fn flagged(client: &Client, flags: Handle) -> Result<Vec<usize>, ServerError> {
    Ok(marked(&read_flags(client, flags)?, |f| f != 0))
}

/// Synchronise and read per-matrix u32 flags (the whole allocation).
pub fn read_flags(client: &Client, flags: Handle) -> Result<Vec<u32>, ServerError> {
    Ok(u32::from_bytes(&client.read_one(flags)?).to_vec())
}

/// The indices of the flags `hit` accepts.
pub fn marked(flags: &[u32], hit: impl Fn(u32) -> bool) -> Vec<usize> {
    (0..flags.len()).filter(|&b| hit(flags[b])).collect()
}

/// Synchronise and read the first `len` values of a device buffer (allocations are rounded up).
pub fn read_prefix<T: cubecl::CubeElement>(
    client: &Client,
    handle: Handle,
    len: usize,
) -> Result<Vec<T>, ServerError> {
    let bytes = client.read_one(handle)?;
    Ok(T::from_bytes(&bytes)[..len].to_vec())
}
