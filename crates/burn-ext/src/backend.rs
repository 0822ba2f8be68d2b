//! The backend extension: one trait, [`LinalgBackend`], whose methods are the primitive ops.
//!
//! `#[backend_extension]` generates the `Dispatch` routing and the lazy `Fusion<B>`
//! implementation (output metadata now, our kernel later, from the `#[fusion(meta = …)]`
//! helpers below). The default bodies are the host fallback ([`crate::fallback`]), used by Flex;
//! `CubeBackend` (CUDA, the CPU runtime, wgpu) overrides every method with our kernels
//! ([`crate::cube`]); `Autodiff<B>` adds the backward passes ([`crate::autodiff`]).
//!
//! Every method takes `[..., m, n]` tensors, batched over the leading dims, and expects inputs
//! already validated by the public functions of this crate (f32, shapes, index range): called
//! directly with bad input, a method may panic.
use crate::fallback;
use burn::backend::fusion::custom::TensorSpec;
use burn::backend::{
    Backend, backend_extension,
    tensor::{FloatTensor, IntTensor},
};
use burn::tensor::{DType, Shape};

/// QR and Cholesky primitives on backend tensors (see the module docs).
#[backend_extension(
    Cube: cfg(any(feature = "cpu", feature = "cuda", feature = "wgpu")),
    Fusion,
    Flex,
    Autodiff
)]
pub trait LinalgBackend: Backend {
    /// `[..., m, n]` → (H `[..., m, n]`, τ `[..., min(m, n)]`), LAPACK `geqrf` form.
    #[fusion(meta = |a| (a.clone(), spec(tau_shape(&a.shape), a.dtype)))]
    fn geqrf(a: FloatTensor<Self>) -> (FloatTensor<Self>, FloatTensor<Self>) {
        fallback::geqrf::<Self>(a)
    }

    /// Q `[..., m, k]` = H_1⋯H_k from (H `[..., m, n]`, τ `[..., k]`), k ≤ n ≤ m.
    #[fusion(meta = |h, tau| spec(with_last(&h.shape, last(&tau.shape)), h.dtype))]
    fn householder_product(h: FloatTensor<Self>, tau: FloatTensor<Self>) -> FloatTensor<Self> {
        fallback::householder_product::<Self>(h, tau)
    }

    /// op(Q)·C (`left`) or C·op(Q), Q = H_1⋯H_k, op = ᵀ when `transpose`.
    #[fusion(meta = |_h, _tau, c, _left, _transpose| c.clone())]
    fn apply_q(
        h: FloatTensor<Self>,
        tau: FloatTensor<Self>,
        c: FloatTensor<Self>,
        left: bool,
        transpose: bool,
    ) -> FloatTensor<Self> {
        fallback::apply_q::<Self>(h, tau, c, left, transpose)
    }

    /// (Q, R): reduced (Q `[..., m, k]`, R `[..., k, n]`) or `complete` (Q `[..., m, m]`,
    /// R `[..., m, n]`); TSQR or blocked Householder, whichever is faster for the shape.
    #[fusion(meta = |a, complete| qr_specs(a, *complete))]
    fn qr(a: FloatTensor<Self>, complete: bool) -> (FloatTensor<Self>, FloatTensor<Self>) {
        fallback::qr::<Self>(a, complete)
    }

    /// R `[..., min(m, n), n]` of a QR factorization; Q is never formed.
    #[fusion(meta = |a| qr_specs(a, false).1)]
    fn qr_r(a: FloatTensor<Self>) -> FloatTensor<Self> {
        fallback::qr_r::<Self>(a)
    }

    /// TSQR, m ≥ n: (Q `[..., m, n]`, R `[..., n, n]`); R's rows may differ in sign from
    /// LAPACK's (diag(R) is not made non-negative or matched to geqrf).
    #[fusion(meta = |a| qr_specs(a, false))]
    fn tsqr(a: FloatTensor<Self>) -> (FloatTensor<Self>, FloatTensor<Self>) {
        fallback::qr::<Self>(a, false)
    }

    /// TSQR's R only (one pass over A), m ≥ n.
    #[fusion(meta = |a| qr_specs(a, false).1)]
    fn tsqr_r(a: FloatTensor<Self>) -> FloatTensor<Self> {
        fallback::qr_r::<Self>(a)
    }

    /// (L, info): the Cholesky factor (lower, or U when `upper`; other triangle zero) and
    /// `info` `[batch]` (leading dims flattened; i32: 0, or the 1-based order of the first
    /// non-positive pivot). `tf32`: large trailing updates may round their products to TF32
    /// ([`crate::MatmulPrecision::High`]; the host fallback computes in f32 regardless).
    #[fusion(meta = |a, _upper, _tf32| (a.clone(), spec(info_shape(&a.shape), DType::I32)))]
    fn cholesky_ex(
        a: FloatTensor<Self>,
        upper: bool,
        tf32: bool,
    ) -> (FloatTensor<Self>, IntTensor<Self>) {
        let _ = tf32;
        fallback::cholesky_ex::<Self>(a, upper)
    }

    /// X with A·X = B (`left`) or X·A = B, A triangular (its batch may be 1: broadcast).
    #[fusion(dtype = b, shape = b)]
    fn solve_triangular(
        a: FloatTensor<Self>,
        b: FloatTensor<Self>,
        upper: bool,
        left: bool,
        unit_diagonal: bool,
    ) -> FloatTensor<Self> {
        fallback::solve_triangular::<Self>(a, b, upper, left, unit_diagonal)
    }

    /// X = (L·Lᵀ)⁻¹·B (or (Uᵀ·U)⁻¹·B when `upper`).
    #[fusion(dtype = b, shape = b)]
    fn cholesky_solve(
        b: FloatTensor<Self>,
        l: FloatTensor<Self>,
        upper: bool,
    ) -> FloatTensor<Self> {
        fallback::cholesky_solve::<Self>(b, l, upper)
    }

    /// (L·Lᵀ)⁻¹ (or (Uᵀ·U)⁻¹ when `upper`).
    #[fusion(dtype = l, shape = l)]
    fn cholesky_inverse(l: FloatTensor<Self>, upper: bool) -> FloatTensor<Self> {
        fallback::cholesky_inverse::<Self>(l, upper)
    }
}

fn spec(shape: Shape, dtype: DType) -> TensorSpec {
    TensorSpec::new(shape, dtype)
}

/// The leading (batch) dims of `[..., m, n]`.
pub(crate) fn batch_shape(shape: &Shape) -> Shape {
    Shape::from(shape.as_slice()[..shape.num_dims() - 2].to_vec())
}

/// `[batch]`: the leading dims of `[..., n, n]` flattened (1 for a single matrix).
pub(crate) fn info_shape(shape: &Shape) -> Shape {
    Shape::from(vec![batch_shape(shape).num_elements()])
}

pub(crate) fn last(shape: &Shape) -> usize {
    shape[shape.num_dims() - 1]
}

/// `shape` with its last dim replaced.
pub(crate) fn with_last(shape: &Shape, last: usize) -> Shape {
    let mut s = shape.clone();
    let r = s.num_dims();
    s[r - 1] = last;
    s
}

/// `shape` with its two matrix dims replaced.
pub(crate) fn with_matrix(shape: &Shape, rows: usize, cols: usize) -> Shape {
    let mut s = shape.clone();
    let r = s.num_dims();
    s[r - 2] = rows;
    s[r - 1] = cols;
    s
}

/// `[..., m, n]` → `[..., min(m, n)]`.
pub(crate) fn tau_shape(shape: &Shape) -> Shape {
    let r = shape.num_dims();
    let mut s = batch_shape(shape);
    s.push(shape[r - 2].min(shape[r - 1]));
    s
}

/// Shapes of (Q, R) for a QR of `a`.
pub(crate) fn qr_shapes(a: &Shape, complete: bool) -> (Shape, Shape) {
    let r = a.num_dims();
    let (m, n) = (a[r - 2], a[r - 1]);
    let k = if complete { m } else { m.min(n) };
    (with_matrix(a, m, k), with_matrix(a, k, n))
}

fn qr_specs(a: &TensorSpec, complete: bool) -> (TensorSpec, TensorSpec) {
    let (q, r) = qr_shapes(&a.shape, complete);
    (spec(q, a.dtype), spec(r, a.dtype))
}
