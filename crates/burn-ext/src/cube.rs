//! [`LinalgBackend`] for `CubeBackend`: our kernels, launched on the tensor's own client.
//!
//! Inputs are read in place through their strides (transposed, sliced and batch-broadcast
//! tensors included) whenever the leading dims collapse to one batch stride; otherwise, and for
//! storage-tiled tensors, they are made contiguous once. Outputs are new contiguous tensors.
//! Nothing here synchronises: `info` and the outputs stay on the device.
use crate::backend::{LinalgBackend, batch_shape, info_shape, qr_shapes, tau_shape, with_last};
use burn::tensor::{DType, Shape};
use burn_cubecl::{CubeBackend, kernel::into_contiguous, tensor::CubeTensor};
use cholesky_kernels::CholeskyParams;
use cubecl::server::Handle;
use linalg_common::gemm::View;
use linalg_common::launch::Hardware;
use linalg_common::matrix::MatrixRef;
use qr_kernels::tsqr::{TsqrLaunch, TsqrMode, TsqrParams};
use qr_kernels::{QrMode, QrParams, Side};

/// `batch` matrices of `shape = [..., rows, cols]` with `strides`, when the leading dims collapse
/// to one batch stride (size-1 dims ignored; a stride of 0 broadcasts).
fn view_of(shape: &[usize], strides: &[usize]) -> Option<(usize, View)> {
    let r = shape.len();
    let (rows, cols) = (shape[r - 2], shape[r - 1]);
    let lead: Vec<(usize, usize)> = (0..r - 2)
        .filter(|&i| shape[i] != 1)
        .map(|i| (shape[i], strides[i]))
        .collect();
    if lead.windows(2).any(|w| w[0].1 != w[1].1 * w[1].0) {
        return None;
    }
    Some((
        lead.iter().map(|d| d.0).product(),
        View {
            offset: 0,
            rows,
            cols,
            row_stride: strides[r - 2],
            col_stride: strides[r - 1],
            batch_stride: lead.last().map_or(rows * cols, |d| d.1),
        },
    ))
}

/// A tensor our kernels can read: in place when possible, else made contiguous.
struct Input {
    tensor: CubeTensor,
    batch: usize,
    view: View,
}

impl Input {
    /// `[..., rows, cols]`.
    fn matrix(t: CubeTensor) -> Self {
        Self::with(t, |s| s.to_vec())
    }

    /// τ `[..., k]` read as `[..., 1, k]`.
    fn vector(t: CubeTensor) -> Self {
        Self::with(t, |s| {
            let mut v = s.to_vec();
            v.insert(v.len() - 1, 1);
            v
        })
    }

    fn with(t: CubeTensor, dims: impl Fn(&[usize]) -> Vec<usize>) -> Self {
        assert_eq!(
            t.dtype,
            DType::F32,
            "burn-ext kernels take f32 (the public ops cast)"
        );
        let found = |t: &CubeTensor| {
            let shape = dims(t.meta.shape());
            let mut strides = t.meta.strides().to_vec();
            if strides.len() < shape.len() {
                let last = strides.len() - 1;
                strides.insert(last, 0);
            }
            (!t.meta.is_tiled())
                .then(|| view_of(&shape, &strides))
                .flatten()
        };
        let (tensor, (batch, view)) = match found(&t) {
            Some(v) => (t, v),
            None => {
                let t = into_contiguous(t);
                let v = found(&t).expect("a contiguous tensor is a strided batch");
                (t, v)
            }
        };
        Self {
            tensor,
            batch,
            view,
        }
    }

    fn as_ref(&self) -> MatrixRef<'_> {
        MatrixRef {
            handle: &self.tensor.handle,
            batch: self.batch,
            view: self.view,
        }
    }
}

/// A new contiguous tensor over `handle` on `like`'s device.
fn output(like: &CubeTensor, handle: Handle, shape: Shape, dtype: DType) -> CubeTensor {
    CubeTensor::new_contiguous(
        like.client.clone(),
        like.device.clone(),
        shape,
        handle,
        dtype,
    )
}

/// The kernels validate what the public ops validated already; failing here is a bug.
fn ok<T, E: std::fmt::Display>(r: Result<T, E>, op: &str) -> T {
    r.unwrap_or_else(|e| {
        panic!("burn-ext {op}: input passed validation but the kernel refused it: {e}")
    })
}

impl LinalgBackend for CubeBackend {
    fn geqrf(a: CubeTensor) -> (CubeTensor, CubeTensor) {
        let shape = a.meta.shape().clone();
        let a = Input::matrix(a);
        let out = ok(
            qr_kernels::geqrf(&a.tensor.client, a.as_ref(), &QrParams::default()),
            "geqrf",
        );
        (
            output(&a.tensor, out.h, shape.clone(), DType::F32),
            output(&a.tensor, out.tau, tau_shape(&shape), DType::F32),
        )
    }

    fn householder_product(h: CubeTensor, tau: CubeTensor) -> CubeTensor {
        let shape = with_last(h.meta.shape(), tau.meta.shape()[tau.meta.num_dims() - 1]);
        let (h, tau) = (Input::matrix(h), Input::vector(tau));
        let client = h.tensor.client.clone();
        let out = ok(
            qr_kernels::householder_product(
                &client,
                h.as_ref(),
                tau.as_ref(),
                &QrParams::default(),
            ),
            "householder_product",
        );
        output(&h.tensor, out.out, shape, DType::F32)
    }

    fn apply_q(
        h: CubeTensor,
        tau: CubeTensor,
        c: CubeTensor,
        left: bool,
        transpose: bool,
    ) -> CubeTensor {
        let shape = c.meta.shape().clone();
        let (h, tau, c) = (Input::matrix(h), Input::vector(tau), Input::matrix(c));
        let side = if left { Side::Left } else { Side::Right };
        let client = c.tensor.client.clone();
        let out = ok(
            qr_kernels::apply_q(
                &client,
                h.as_ref(),
                tau.as_ref(),
                c.as_ref(),
                side,
                transpose,
                &QrParams::default(),
            ),
            "apply_q",
        );
        output(&c.tensor, out.out, shape, DType::F32)
    }

    fn qr(a: CubeTensor, complete: bool) -> (CubeTensor, CubeTensor) {
        let (qs, rs) = qr_shapes(a.meta.shape(), complete);
        let a = Input::matrix(a);
        let mode = if complete {
            QrMode::Complete
        } else {
            QrMode::Reduced
        };
        let out = ok(
            qr_kernels::qr(&a.tensor.client, a.as_ref(), mode, &QrParams::default()),
            "qr",
        );
        let q = out.q.expect("reduced and complete modes return Q");
        (
            output(&a.tensor, q, qs, DType::F32),
            output(&a.tensor, out.r, rs, DType::F32),
        )
    }

    fn qr_r(a: CubeTensor) -> CubeTensor {
        let rs = qr_shapes(a.meta.shape(), false).1;
        let a = Input::matrix(a);
        let out = ok(
            qr_kernels::qr(
                &a.tensor.client,
                a.as_ref(),
                QrMode::R,
                &QrParams::default(),
            ),
            "qr",
        );
        output(&a.tensor, out.r, rs, DType::F32)
    }

    fn tsqr(a: CubeTensor) -> (CubeTensor, CubeTensor) {
        let (q, r) = tsqr(a, TsqrMode::Reduced);
        (q.expect("reduced TSQR returns Q"), r)
    }

    fn tsqr_r(a: CubeTensor) -> CubeTensor {
        tsqr(a, TsqrMode::R).1
    }

    fn cholesky_ex(a: CubeTensor, upper: bool, tf32: bool) -> (CubeTensor, CubeTensor) {
        let shape = a.meta.shape().clone();
        let a = Input::matrix(a);
        let client = &a.tensor.client;
        let params = if tf32 {
            CholeskyParams::tf32_updates(&Hardware::of(client))
        } else {
            CholeskyParams::default()
        };
        let out = ok(
            cholesky_kernels::potrf(client, a.as_ref(), upper, &params),
            "cholesky_ex",
        );
        // info is u32 0…n per matrix: the same bits as i32.
        let info = output(&a.tensor, out.info, info_shape(&shape), DType::I32);
        (output(&a.tensor, out.l, shape, DType::F32), info)
    }

    fn solve_triangular(
        a: CubeTensor,
        b: CubeTensor,
        upper: bool,
        left: bool,
        unit_diagonal: bool,
    ) -> CubeTensor {
        let shape = b.meta.shape().clone();
        let (a, b) = (Input::matrix(a), Input::matrix(b));
        let client = b.tensor.client.clone();
        let out = ok(
            cholesky_kernels::solve_triangular(
                &client,
                a.as_ref(),
                b.as_ref(),
                upper,
                left,
                unit_diagonal,
                &CholeskyParams::default(),
            ),
            "solve_triangular",
        );
        output(&b.tensor, out.x, shape, DType::F32)
    }

    fn cholesky_solve(b: CubeTensor, l: CubeTensor, upper: bool) -> CubeTensor {
        let shape = b.meta.shape().clone();
        let (b, l) = (Input::matrix(b), Input::matrix(l));
        let client = b.tensor.client.clone();
        let out = ok(
            cholesky_kernels::cholesky_solve(
                &client,
                b.as_ref(),
                l.as_ref(),
                upper,
                &CholeskyParams::default(),
            ),
            "cholesky_solve",
        );
        output(&b.tensor, out.x, shape, DType::F32)
    }

    fn cholesky_inverse(l: CubeTensor, upper: bool) -> CubeTensor {
        let shape = l.meta.shape().clone();
        let l = Input::matrix(l);
        let out = ok(
            cholesky_kernels::cholesky_inverse(
                &l.tensor.client,
                l.as_ref(),
                upper,
                &CholeskyParams::default(),
            ),
            "cholesky_inverse",
        );
        output(&l.tensor, out.x, shape, DType::F32)
    }
}

/// TSQR reads a contiguous `[batch, m, n]` buffer. Where the device cannot run TSQR for this n
/// (the CPU runtime takes n ≤ 64), the blocked QR computes the same factorization.
fn tsqr(a: CubeTensor, mode: TsqrMode) -> (Option<CubeTensor>, CubeTensor) {
    let (qs, rs) = qr_shapes(a.meta.shape(), false);
    let batch = batch_shape(a.meta.shape()).num_elements();
    let r = a.meta.num_dims();
    let (m, n) = (a.meta.shape()[r - 2], a.meta.shape()[r - 1]);
    let hw = Hardware::of(&a.client);
    if TsqrLaunch::new(&hw, n, &TsqrParams::default()).is_none() {
        return match mode {
            TsqrMode::Reduced => {
                let (q, r) = <CubeBackend as LinalgBackend>::qr(a, false);
                (Some(q), r)
            }
            TsqrMode::R => (None, <CubeBackend as LinalgBackend>::qr_r(a)),
        };
    }
    let a = into_contiguous(a);
    let out = ok(
        qr_kernels::tsqr::tsqr(
            &a.client,
            &a.handle,
            &[batch, m, n],
            mode,
            &TsqrParams::default(),
        ),
        "tsqr",
    );
    (
        out.q.map(|q| output(&a, q, qs, DType::F32)),
        output(&a, out.r, rs, DType::F32),
    )
}
