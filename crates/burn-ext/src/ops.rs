//! The public ops on Burn tensors, torch.linalg names and semantics.
//!
//! Every op takes `[..., m, n]` tensors (rank D ≥ 2, batched over the leading dims), validates
//! shapes and dtypes on the host (no synchronisation), casts f16/bf16 to f32 and the results
//! back, and routes through [`LinalgBackend`]: our CubeCL kernels on CUDA, the CPU runtime and
//! wgpu (with or without Fusion), the host fallback on Flex, and analytic backward passes under
//! autodiff. Integer tensors cannot be passed (the signatures take float tensors); f64 is refused
//! (the kernels are f32).
use crate::LinalgError;
use crate::backend::{LinalgBackend, qr_shapes, with_last};
use burn::backend::Dispatch;
use burn::tensor::{DType, Device, FloatDType, Int, Shape, Tensor};

/// What [`qr`] returns, as `torch.linalg.qr`'s `mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum QrMode {
    /// Q `[..., m, k]`, R `[..., k, n]`, k = min(m, n).
    #[default]
    Reduced,
    /// Q `[..., m, m]`, R `[..., m, n]`.
    Complete,
    /// R `[..., k, n]` only; the returned Q is empty (`[..., m, 0]`), as torch's.
    R,
}

/// Precision of the matrix products inside a factorization, after
/// `torch.set_float32_matmul_precision`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum MatmulPrecision {
    /// f32 accuracy: SIMT f32 or error-compensated 3×TF32 products (the default).
    #[default]
    Highest,
    /// Large trailing updates may round their products to TF32 on tensor cores, where the
    /// device has them (elsewhere as `Highest`). H200, the potrf under `cholesky_ex`, one
    /// 16384² matrix: 27.0 ms against 37.4, residual ‖A − L·Lᵀ‖/‖A‖ 4.2e-5 against 7.8e-7
    /// (the accuracy gate 20·n·ε is 3.9e-2); BENCHMARKS.md, session 38.
    High,
}

type Result<T> = std::result::Result<T, LinalgError>;

/// The kernels index with 32 bits.
const MAX_ELEMENTS: usize = u32::MAX as usize;

/// (batch, rows, cols) of `[..., rows, cols]`.
fn matrix_dims(
    op: &'static str,
    name: &'static str,
    shape: &Shape,
) -> Result<(usize, usize, usize)> {
    let rank = shape.num_dims();
    if rank < 2 {
        return Err(LinalgError::RankTooSmall { op, name, rank });
    }
    let batch = shape.as_slice()[..rank - 2].iter().product();
    Ok((batch, shape[rank - 2], shape[rank - 1]))
}

fn square(op: &'static str, name: &'static str, shape: &Shape) -> Result<(usize, usize)> {
    let (batch, rows, cols) = matrix_dims(op, name, shape)?;
    if rows != cols {
        return Err(LinalgError::NotSquare {
            op,
            name,
            rows,
            cols,
        });
    }
    Ok((batch, rows))
}

fn index_range(op: &'static str, shapes: &[&Shape]) -> Result<()> {
    for s in shapes {
        let elements = s.num_elements();
        if elements > MAX_ELEMENTS {
            return Err(LinalgError::IndexOverflow {
                op,
                elements,
                max: MAX_ELEMENTS,
            });
        }
    }
    Ok(())
}

/// f32 as is; f16/bf16 upcast (the dtype to cast the results back to is returned).
fn to_f32<const D: usize>(op: &'static str, t: Tensor<D>) -> Result<(Tensor<D>, DType)> {
    match t.dtype() {
        DType::F32 => Ok((t, DType::F32)),
        d @ (DType::F16 | DType::BF16) => Ok((t.cast(FloatDType::F32), d)),
        dtype => Err(LinalgError::UnsupportedDType { op, dtype }),
    }
}

fn back<const D: usize>(t: Tensor<D>, dtype: DType) -> Tensor<D> {
    if dtype == DType::F32 {
        t
    } else {
        t.cast(dtype)
    }
}

fn no_grad<const D: usize>(op: &'static str, t: &Tensor<D>, reason: &'static str) -> Result<()> {
    if t.is_tracked() {
        return Err(LinalgError::NotDifferentiable { op, reason });
    }
    Ok(())
}

fn batch_dims(op: &'static str, a: &Shape, b: &Shape, broadcast_a: bool) -> Result<()> {
    let (ra, rb) = (a.num_dims(), b.num_dims());
    let (la, lb) = (&a.as_slice()[..ra - 2], &b.as_slice()[..rb - 2]);
    if la == lb || (broadcast_a && la.iter().all(|&d| d == 1)) {
        return Ok(());
    }
    Err(LinalgError::ShapeMismatch {
        op,
        detail: format!("batch dims {la:?} and {lb:?} differ"),
    })
}

fn zeros<const D: usize>(shape: Shape, device: &Device, dtype: DType) -> Tensor<D> {
    Tensor::<D>::zeros(shape, (device, dtype))
}

/// `[..., n, n]` identities.
fn eyes<const D: usize>(shape: Shape, device: &Device, dtype: DType) -> Tensor<D> {
    let n = shape[shape.num_dims() - 1];
    let mut dims = [1usize; D];
    dims[D - 2] = n;
    dims[D - 1] = n;
    Tensor::<2>::eye(n, device)
        .cast(dtype)
        .reshape(dims)
        .expand(shape)
}

fn dispatch<const D: usize>(t: Tensor<D>) -> burn::backend::DispatchTensor {
    t.into_dispatch()
}

fn tensor<const D: usize>(t: burn::backend::DispatchTensor) -> Tensor<D> {
    Tensor::from_dispatch(t)
}

/// `torch.linalg.qr(a, mode)`: Q with orthonormal columns and upper-triangular R, A = Q·R.
///
/// TSQR for tall-skinny shapes (n ≤ 128, m ≥ n: one pass, R's rows may differ in sign from
/// LAPACK's), blocked Householder otherwise. Differentiable in modes `Reduced` (any m, n) and
/// `Complete` with m ≤ n; `R` mode and complete Q of a tall matrix refuse inputs that require a
/// gradient ([`LinalgError::NotDifferentiable`]), as torch does.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use burn_ext::{QrMode, qr};
/// let device = Device::default();
/// let a = Tensor::<2>::from_floats([[3.0, 1.0], [4.0, 2.0], [0.0, 5.0]], &device);
/// let (q, r) = qr(a.clone(), QrMode::Reduced)?;
/// assert_eq!((q.dims(), r.dims()), ([3, 2], [2, 2]));
/// let err = (q.matmul(r) - a).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-5);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn qr<const D: usize>(a: Tensor<D>, mode: QrMode) -> Result<(Tensor<D>, Tensor<D>)> {
    const OP: &str = "qr";
    let shape = a.shape();
    let (batch, m, n) = matrix_dims(OP, "a", &shape)?;
    let complete = mode == QrMode::Complete;
    let (qs, rs) = qr_shapes(&shape, complete);
    index_range(OP, &[&shape, &qs, &rs])?;
    match mode {
        QrMode::R => no_grad(OP, &a, "mode r returns no Q")?,
        QrMode::Complete if m > n => {
            no_grad(OP, &a, "the complete Q of a tall matrix is not unique")?
        }
        _ => {}
    }
    let (a, dtype) = to_f32(OP, a)?;
    let device = a.device();
    if mode == QrMode::R {
        let q = zeros(with_last(&qs, 0), &device, dtype);
        let r = if batch * m.min(n) * n == 0 {
            zeros(rs, &device, DType::F32)
        } else {
            tensor(<Dispatch as LinalgBackend>::qr_r(dispatch(a)))
        };
        return Ok((q, back(r, dtype)));
    }
    if batch * m * n == 0 {
        // Empty factors; a complete Q is the identity.
        let q = if complete {
            eyes(qs, &device, DType::F32)
        } else {
            zeros(qs, &device, DType::F32)
        };
        return Ok((back(q, dtype), zeros(rs, &device, dtype)));
    }
    let (q, r) = <Dispatch as LinalgBackend>::qr(dispatch(a), complete);
    Ok((back(tensor(q), dtype), back(tensor(r), dtype)))
}

/// TSQR (tall-skinny QR, m ≥ n), reduced: Q `[..., m, n]`, R `[..., n, n]` in one fused pass.
/// R's rows may differ in sign from LAPACK's. Differentiable (as [`qr`]).
///
/// ```
/// use burn::tensor::{Device, Tensor, Distribution};
/// let device = Device::default();
/// let a = Tensor::<3>::random([2, 256, 8], Distribution::Normal(0.0, 1.0), &device);
/// let (q, r) = burn_ext::tsqr(a)?;
/// assert_eq!((q.dims(), r.dims()), ([2, 256, 8], [2, 8, 8]));
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn tsqr<const D: usize>(a: Tensor<D>) -> Result<(Tensor<D>, Tensor<D>)> {
    let (a, dtype, empty) = tsqr_input("tsqr", a)?;
    if let Some(shape) = empty {
        let (qs, rs) = qr_shapes(&shape, false);
        let device = a.device();
        return Ok((zeros(qs, &device, dtype), zeros(rs, &device, dtype)));
    }
    let (q, r) = <Dispatch as LinalgBackend>::tsqr(dispatch(a));
    Ok((back(tensor(q), dtype), back(tensor(r), dtype)))
}

/// TSQR's R only `[..., n, n]` (m ≥ n): one pass over A, Q never formed. Not differentiable.
///
/// ```
/// use burn::tensor::{Device, Tensor, Distribution};
/// let device = Device::default();
/// let a = Tensor::<2>::random([512, 4], Distribution::Normal(0.0, 1.0), &device);
/// assert_eq!(burn_ext::tsqr_r(a)?.dims(), [4, 4]);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn tsqr_r<const D: usize>(a: Tensor<D>) -> Result<Tensor<D>> {
    no_grad("tsqr_r", &a, "R only")?;
    let (a, dtype, empty) = tsqr_input("tsqr_r", a)?;
    if let Some(shape) = empty {
        return Ok(zeros(qr_shapes(&shape, false).1, &a.device(), dtype));
    }
    Ok(back(
        tensor(<Dispatch as LinalgBackend>::tsqr_r(dispatch(a))),
        dtype,
    ))
}

/// Validated f32 input of TSQR, its dtype, and its shape when it is empty.
fn tsqr_input<const D: usize>(
    op: &'static str,
    a: Tensor<D>,
) -> Result<(Tensor<D>, DType, Option<Shape>)> {
    let shape = a.shape();
    let (batch, m, n) = matrix_dims(op, "a", &shape)?;
    if m < n {
        return Err(LinalgError::Unsupported {
            op,
            detail: format!("TSQR needs m ≥ n (got {m}×{n}); use qr"),
        });
    }
    if n > qr_kernels::tsqr::MAX_COLUMNS {
        return Err(LinalgError::Unsupported {
            op,
            detail: format!(
                "TSQR takes n ≤ {} (got {n}); use qr",
                qr_kernels::tsqr::MAX_COLUMNS
            ),
        });
    }
    index_range(op, &[&shape])?;
    let (a, dtype) = to_f32(op, a)?;
    let empty = (batch * m * n == 0).then_some(shape);
    Ok((a, dtype, empty))
}

/// `torch.geqrf(a)`: H `[..., m, n]` (R on and above the diagonal, Householder vectors below,
/// leading 1 implicit) and τ `[..., min(m, n)]` (rank D − 1 = `DT`), LAPACK's conventions.
/// Not differentiable (as torch).
///
/// ```
/// use burn::tensor::{Device, Tensor, Distribution};
/// let device = Device::default();
/// let a = Tensor::<3>::random([4, 6, 5], Distribution::Normal(0.0, 1.0), &device);
/// let (h, tau) = burn_ext::geqrf::<3, 2>(a.clone())?;
/// let q = burn_ext::householder_product(h.clone(), tau)?; // [4, 6, 5]
/// let r = h.slice([0..4, 0..5, 0..5]).triu(0);
/// let err = (q.matmul(r) - a).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-4);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn geqrf<const D: usize, const DT: usize>(a: Tensor<D>) -> Result<(Tensor<D>, Tensor<DT>)> {
    const OP: &str = "geqrf";
    let shape = a.shape();
    let (batch, m, n) = matrix_dims(OP, "a", &shape)?;
    tau_rank::<D, DT>(OP)?;
    index_range(OP, &[&shape])?;
    no_grad(OP, &a, "torch.geqrf is not differentiable either; use qr")?;
    let (a, dtype) = to_f32(OP, a)?;
    if batch * m * n == 0 {
        let device = a.device();
        let tau = crate::backend::tau_shape(&shape);
        return Ok((zeros(shape, &device, dtype), zeros(tau, &device, dtype)));
    }
    let (h, tau) = <Dispatch as LinalgBackend>::geqrf(dispatch(a));
    Ok((back(tensor(h), dtype), back(tensor(tau), dtype)))
}

fn tau_rank<const D: usize, const DT: usize>(op: &'static str) -> Result<()> {
    if DT + 1 != D {
        return Err(LinalgError::ShapeMismatch {
            op,
            detail: format!("τ has rank D − 1 = {}, not {DT}", D - 1),
        });
    }
    Ok(())
}

/// Validate (H, τ): returns (batch of H, m, n, k).
fn reflectors<const D: usize, const DT: usize>(
    op: &'static str,
    h: &Tensor<D>,
    tau: &Tensor<DT>,
) -> Result<(usize, usize, usize, usize)> {
    tau_rank::<D, DT>(op)?;
    let (hs, ts) = (h.shape(), tau.shape());
    let (batch, m, n) = matrix_dims(op, "h", &hs)?;
    let k = ts[DT - 1];
    if ts.as_slice()[..DT - 1] != hs.as_slice()[..D - 2] {
        return Err(LinalgError::ShapeMismatch {
            op,
            detail: format!(
                "τ {ts:?} must have H's batch dims {:?}",
                &hs.as_slice()[..D - 2]
            ),
        });
    }
    if k > n.min(m) {
        return Err(LinalgError::ShapeMismatch {
            op,
            detail: format!("τ holds {k} reflectors, H ({m}×{n}) at most {}", m.min(n)),
        });
    }
    index_range(op, &[&hs, &ts])?;
    no_grad(op, h, "not implemented for (H, τ)")?;
    no_grad(op, tau, "not implemented for (H, τ)")?;
    Ok((batch, m, n, k))
}

/// `torch.linalg.householder_product(h, tau)`: the first k = τ's length columns of
/// Q = H_1⋯H_k, `[..., m, k]` (k ≤ n ≤ m). Not differentiable here.
///
/// ```
/// use burn::tensor::{Device, Tensor, Distribution};
/// let device = Device::default();
/// let a = Tensor::<2>::random([7, 3], Distribution::Normal(0.0, 1.0), &device);
/// let (h, tau) = burn_ext::geqrf::<2, 1>(a)?;
/// let q = burn_ext::householder_product(h, tau)?;
/// let eye = q.clone().transpose().matmul(q);
/// let err = (eye - Tensor::<2>::eye(3, &device)).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-5);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn householder_product<const D: usize, const DT: usize>(
    h: Tensor<D>,
    tau: Tensor<DT>,
) -> Result<Tensor<D>> {
    const OP: &str = "householder_product";
    let (batch, m, n, k) = reflectors(OP, &h, &tau)?;
    if n > m {
        return Err(LinalgError::ShapeMismatch {
            op: OP,
            detail: format!("H must have m ≥ n (got {m}×{n})"),
        });
    }
    let (h, dtype) = to_f32(OP, h)?;
    let (tau, _) = to_f32(OP, tau)?;
    let out = with_last(&h.shape(), k);
    if batch * m * k == 0 {
        let device = h.device();
        return Ok(zeros(out, &device, dtype));
    }
    let q = <Dispatch as LinalgBackend>::householder_product(dispatch(h), dispatch(tau));
    Ok(back(tensor(q), dtype))
}

/// Which side [`apply_q`] multiplies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// op(Q)·C
    Left,
    /// C·op(Q)
    Right,
}

/// `torch.ormqr(h, tau, c, left, transpose)`: op(Q)·C or C·op(Q) without forming Q, Q = H_1⋯H_k
/// (m×m) from geqrf's (H, τ); C is `[..., m, p]` (left) or `[..., p, m]` (right) with H's batch
/// dims, or any batch when H's batch dims are all 1 (one Q for every C). Not differentiable here.
///
/// ```
/// use burn::tensor::{Device, Tensor, Distribution};
/// use burn_ext::Side;
/// let device = Device::default();
/// let a = Tensor::<2>::random([6, 6], Distribution::Normal(0.0, 1.0), &device);
/// let (h, tau) = burn_ext::geqrf::<2, 1>(a.clone())?;
/// // Qᵀ·A = R
/// let r = burn_ext::apply_q(h.clone(), tau, a, Side::Left, true)?;
/// let err = (r - h.triu(0)).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-4);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn apply_q<const D: usize, const DT: usize>(
    h: Tensor<D>,
    tau: Tensor<DT>,
    c: Tensor<D>,
    side: Side,
    transpose: bool,
) -> Result<Tensor<D>> {
    const OP: &str = "apply_q";
    let (_, m, _, _) = reflectors(OP, &h, &tau)?;
    let cs = c.shape();
    let (cb, rows, cols) = matrix_dims(OP, "c", &cs)?;
    let along = if side == Side::Left { rows } else { cols };
    if along != m {
        return Err(LinalgError::ShapeMismatch {
            op: OP,
            detail: format!(
                "C is {rows}×{cols}: its {} must be H's m = {m}",
                if side == Side::Left { "rows" } else { "cols" }
            ),
        });
    }
    batch_dims(OP, &h.shape(), &cs, true)?;
    index_range(OP, &[&cs])?;
    no_grad(OP, &c, "not implemented for (H, τ)")?;
    let (h, _) = to_f32(OP, h)?;
    let (tau, _) = to_f32(OP, tau)?;
    let (c, dtype) = to_f32(OP, c)?;
    if cb * rows * cols == 0 {
        return Ok(back(c, dtype));
    }
    let out = <Dispatch as LinalgBackend>::apply_q(
        dispatch(h),
        dispatch(tau),
        dispatch(c),
        side == Side::Left,
        transpose,
    );
    Ok(back(tensor(out), dtype))
}

/// `torch.linalg.cholesky_ex(a, upper)`: the factor L (A = L·Lᵀ; U with A = Uᵀ·U when `upper`;
/// the other triangle exactly zero) and `info` `[batch]` (the leading dims flattened; i32: 0 on
/// success, else the 1-based order of the first leading minor that is not positive definite —
/// NaN input included). Only the selected triangle of A is used. Nothing synchronises: `info`
/// stays on the device. Differentiable in A (the gradient for symmetric perturbations, as torch).
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// let device = Device::default();
/// let a = Tensor::<3>::from_floats([[[4.0, 2.0], [2.0, 3.0]], [[1.0, 2.0], [2.0, 1.0]]], &device);
/// let (l, info) = burn_ext::cholesky_ex(a, false)?;
/// assert_eq!(info.into_data().iter::<i64>().collect::<Vec<_>>(), vec![0, 2]);
/// assert_eq!(l.dims(), [2, 2, 2]);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn cholesky_ex<const D: usize>(
    a: Tensor<D>,
    upper: bool,
) -> Result<(Tensor<D>, Tensor<1, Int>)> {
    cholesky_ex_with(a, upper, MatmulPrecision::Highest)
}

/// [`cholesky_ex`] with the precision of its trailing updates chosen: with
/// [`MatmulPrecision::High`] large updates run as TF32 products where the device has tensor
/// cores for them. The choice travels with the op (lazy backends run it as called).
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// use burn_ext::MatmulPrecision;
/// let device = Device::default();
/// let a = Tensor::<2>::from_floats([[4.0, 2.0], [2.0, 3.0]], &device);
/// let (l, info) = burn_ext::cholesky_ex_with(a, false, MatmulPrecision::High)?;
/// assert_eq!(info.into_data().iter::<i64>().collect::<Vec<_>>(), vec![0]);
/// assert_eq!(l.dims(), [2, 2]);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn cholesky_ex_with<const D: usize>(
    a: Tensor<D>,
    upper: bool,
    precision: MatmulPrecision,
) -> Result<(Tensor<D>, Tensor<1, Int>)> {
    const OP: &str = "cholesky_ex";
    let shape = a.shape();
    let (batch, n) = square(OP, "a", &shape)?;
    index_range(OP, &[&shape])?;
    let (a, dtype) = to_f32(OP, a)?;
    if batch * n == 0 {
        let device = a.device();
        return Ok((
            zeros(shape, &device, dtype),
            Tensor::<1, Int>::zeros([batch], &device),
        ));
    }
    let tf32 = precision == MatmulPrecision::High;
    let (l, info) = <Dispatch as LinalgBackend>::cholesky_ex(dispatch(a), upper, tf32);
    Ok((back(tensor(l), dtype), Tensor::from_dispatch(info)))
}

/// `torch.linalg.cholesky(a, upper)`: as [`cholesky_ex`], then (one synchronisation, as torch)
/// an error naming the first matrix of the batch that is not positive definite and its pivot.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// let device = Device::default();
/// let a = Tensor::<2>::from_floats([[4.0, 2.0], [2.0, 3.0]], &device);
/// let l = burn_ext::cholesky(a.clone(), false)?;
/// let err = (l.clone().matmul(l.transpose()) - a).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-5);
/// let bad = Tensor::<2>::from_floats([[1.0, 2.0], [2.0, 1.0]], &device);
/// assert!(burn_ext::cholesky(bad, false).is_err());
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn cholesky<const D: usize>(a: Tensor<D>, upper: bool) -> Result<Tensor<D>> {
    let (l, info) = cholesky_ex(a, upper)?;
    let info = info.into_data();
    if let Some((batch, order)) = info.iter::<i64>().enumerate().find(|(_, v)| *v != 0) {
        return Err(LinalgError::NotPositiveDefinite {
            batch,
            order: order as usize,
        });
    }
    Ok(l)
}

/// `torch.linalg.solve_triangular(a, b, upper, left, unit_diagonal)`: X with A·X = B (`left`)
/// or X·A = B, A `[..., n, n]` triangular (only its `upper`/lower triangle is read, and not its
/// diagonal when `unit_diagonal`), B `[..., n, k]` (left) or `[..., k, n]`. A's batch dims equal
/// B's, or are all 1 (broadcast). A singular A gives infinities or NaN, as torch.
/// Differentiable in A and B.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// let device = Device::default();
/// let a = Tensor::<2>::from_floats([[2.0, 0.0], [1.0, 4.0]], &device);
/// let b = Tensor::<2>::from_floats([[2.0], [9.0]], &device);
/// let x = burn_ext::solve_triangular(a, b, false, true, false)?;
/// let want = Tensor::<2>::from_floats([[1.0], [2.0]], &device);
/// assert!((x - want).abs().max().into_scalar::<f32>() < 1e-6);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn solve_triangular<const D: usize>(
    a: Tensor<D>,
    b: Tensor<D>,
    upper: bool,
    left: bool,
    unit_diagonal: bool,
) -> Result<Tensor<D>> {
    const OP: &str = "solve_triangular";
    let (as_, bs) = (a.shape(), b.shape());
    let (_, n) = square(OP, "a", &as_)?;
    let (bb, rows, cols) = matrix_dims(OP, "b", &bs)?;
    let along = if left { rows } else { cols };
    if along != n {
        return Err(LinalgError::ShapeMismatch {
            op: OP,
            detail: format!(
                "A is {n}×{n}, B is {rows}×{cols} ({})",
                if left {
                    "left: B's rows must be n"
                } else {
                    "right: B's cols must be n"
                }
            ),
        });
    }
    batch_dims(OP, &as_, &bs, true)?;
    index_range(OP, &[&as_, &bs])?;
    let (a, _) = to_f32(OP, a)?;
    let (b, dtype) = to_f32(OP, b)?;
    if bb * rows * cols == 0 {
        return Ok(back(b, dtype));
    }
    let x = <Dispatch as LinalgBackend>::solve_triangular(
        dispatch(a),
        dispatch(b),
        upper,
        left,
        unit_diagonal,
    );
    Ok(back(tensor(x), dtype))
}

/// `torch.cholesky_solve(b, l, upper)`: X = A⁻¹·B for A = L·Lᵀ (or Uᵀ·U when `upper`) from the
/// factor `[..., n, n]`; B `[..., n, k]` with the factor's batch dims. Differentiable in B and L.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// let device = Device::default();
/// let a = Tensor::<2>::from_floats([[4.0, 2.0], [2.0, 3.0]], &device);
/// let l = burn_ext::cholesky(a.clone(), false)?;
/// let b = Tensor::<2>::from_floats([[1.0], [2.0]], &device);
/// let x = burn_ext::cholesky_solve(b.clone(), l, false)?;
/// let err = (a.matmul(x) - b).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-5);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn cholesky_solve<const D: usize>(
    b: Tensor<D>,
    l: Tensor<D>,
    upper: bool,
) -> Result<Tensor<D>> {
    const OP: &str = "cholesky_solve";
    let (ls, bs) = (l.shape(), b.shape());
    let (_, n) = square(OP, "l", &ls)?;
    let (bb, rows, cols) = matrix_dims(OP, "b", &bs)?;
    if rows != n {
        return Err(LinalgError::ShapeMismatch {
            op: OP,
            detail: format!("L is {n}×{n}, B is {rows}×{cols}: B's rows must be n"),
        });
    }
    batch_dims(OP, &ls, &bs, false)?;
    index_range(OP, &[&ls, &bs])?;
    let (l, _) = to_f32(OP, l)?;
    let (b, dtype) = to_f32(OP, b)?;
    if bb * rows * cols == 0 {
        return Ok(back(b, dtype));
    }
    let x = <Dispatch as LinalgBackend>::cholesky_solve(dispatch(b), dispatch(l), upper);
    Ok(back(tensor(x), dtype))
}

/// `torch.cholesky_inverse(l, upper)`: A⁻¹ for A = L·Lᵀ (or Uᵀ·U) from the factor. Differentiable.
///
/// ```
/// use burn::tensor::{Device, Tensor};
/// let device = Device::default();
/// let a = Tensor::<2>::from_floats([[4.0, 2.0], [2.0, 3.0]], &device);
/// let inv = burn_ext::cholesky_inverse(burn_ext::cholesky(a.clone(), false)?, false)?;
/// let err = (a.matmul(inv) - Tensor::<2>::eye(2, &device)).abs().max().into_scalar::<f32>();
/// assert!(err < 1e-5);
/// # Ok::<(), burn_ext::LinalgError>(())
/// ```
pub fn cholesky_inverse<const D: usize>(l: Tensor<D>, upper: bool) -> Result<Tensor<D>> {
    const OP: &str = "cholesky_inverse";
    let ls = l.shape();
    let (batch, n) = square(OP, "l", &ls)?;
    index_range(OP, &[&ls])?;
    let (l, dtype) = to_f32(OP, l)?;
    if batch * n == 0 {
        return Ok(back(l, dtype));
    }
    Ok(back(
        tensor(<Dispatch as LinalgBackend>::cholesky_inverse(
            dispatch(l),
            upper,
        )),
        dtype,
    ))
}
