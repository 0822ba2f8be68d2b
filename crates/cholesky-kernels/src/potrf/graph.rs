//! [`potrf`](super::potrf) recorded once as a device graph and replayed for new inputs of the
//! same shape. A large factorization is hundreds of launches, each costing ≈ 10 µs of host time
//! through CubeCL (BENCHMARKS.md); a replay pays that once, at capture. CUDA records a hardware
//! graph and wgpu a software one; a runtime without graphs (the CPU runtime) is refused with
//! [`CholeskyError::Unsupported`].
//!
//! The graph reads its own contiguous input buffer ([`PotrfGraph::input`]) and writes the same
//! output buffers on every replay; [`PotrfGraph::run`] copies a caller's matrices (the selected
//! triangle only, any strides) into it first. Every buffer the recorded kernels touch is owned
//! by the graph, so none can be freed and reused while it lives.
use super::{CholeskyOutput, potrf_in};
use crate::{CholeskyError, CholeskyParams, Ctx, MatrixRef, device_error};
use cubecl::client::{Client, Graph};
use cubecl::server::Handle;
use linalg_common::copy::{CopyConfig, launch_copy};
use linalg_common::gemm::View;

/// A recorded factorization of `batch` n×n matrices.
pub struct PotrfGraph {
    graph: Graph,
    input: Handle,
    output: CholeskyOutput,
    upper: bool,
    hw: linalg_common::launch::Hardware,
    /// Every buffer the recorded kernels read or write (the graph holds raw pointers).
    _buffers: Vec<Handle>,
}

impl PotrfGraph {
    /// Record the factorization (lower, or upper with `upper`) of `batch` n×n matrices: one
    /// warm-up run (whose buffers the recording reuses), then the recorded run. Both read an
    /// uninitialised input; nothing is synchronised.
    pub fn new(
        client: &Client,
        batch: usize,
        n: usize,
        upper: bool,
        params: &CholeskyParams,
    ) -> Result<Self, CholeskyError> {
        let input = client.empty((batch * n * n).max(1) * 4);
        let a = MatrixRef::dense(&input, batch, n, n);
        crate::square(&a, "a")?;
        let hw = {
            let ctx = Ctx::new(client, params, batch)?;
            ctx.check_grid(n, n)?;
            *ctx.launch.hw()
        };
        let refused = |e| CholeskyError::Unsupported(format!("graph capture: {e:?}"));
        client.graph_prepare().map_err(refused)?;
        // Cannot fail any more (validated above): the capture always ends in stop_capture.
        let warm = Ctx::new(client, params, batch).map(|ctx| {
            potrf_in(&ctx, a, n, upper);
        });
        let started = warm.and_then(|()| client.start_capture().map_err(refused));
        let recorded = started.and_then(|()| {
            let ctx = Ctx::new(client, params, batch)?;
            let output = potrf_in(&ctx, a, n, upper);
            Ok((output, ctx.allocated.into_inner()))
        });
        let graph = client.stop_capture().map_err(refused);
        let (output, buffers) = recorded?;
        Ok(Self {
            graph: graph?,
            input,
            output,
            upper,
            hw,
            _buffers: buffers,
        })
    }

    /// The contiguous `[batch, n, n]` input the graph reads (its selected triangle).
    pub fn input(&self) -> MatrixRef<'_> {
        MatrixRef::dense(&self.input, self.output.batch, self.output.n, self.output.n)
    }

    /// Replay on what [`Self::input`] holds now. The output handles are overwritten by every
    /// replay: read (or copy) them before the next one.
    pub fn replay(&self) -> Result<&CholeskyOutput, CholeskyError> {
        // SAFETY: every buffer the recorded kernels use is owned by `self` (input, outputs and
        // the temporaries in `_buffers`), so all stay allocated and unshared while it lives;
        // replays, input copies and reads go through the capturing thread's stream in order.
        unsafe { self.graph.replay() }.map_err(device_error)?;
        Ok(&self.output)
    }

    /// Copy `a` (the graph's shape, any strides; only the selected triangle is read) into the
    /// graph's input and replay.
    pub fn run(&self, client: &Client, a: MatrixRef) -> Result<&CholeskyOutput, CholeskyError> {
        let (batch, n) = (self.output.batch, self.output.n);
        let got = crate::square(&a, "a")?;
        if a.batch != batch || got != n {
            return Err(CholeskyError::ShapeMismatch {
                what: format!(
                    "the graph factors {batch} matrices of order {n}, got {} of order {got}",
                    a.batch
                ),
            });
        }
        if a.is_empty() {
            return self.replay();
        }
        let dense = View::contiguous(n, n);
        let (src, dst) = if self.upper {
            (a.view.t(), dense.t())
        } else {
            (a.view, dense)
        };
        let lower = CopyConfig {
            lower: true,
            ..CopyConfig::PLAIN
        };
        launch_copy(
            client,
            &self.hw,
            batch,
            (a.handle, a.len(), src),
            (&self.input, batch * n * n, dst),
            &self.output.nonfinite,
            lower,
        );
        self.replay()
    }
}
