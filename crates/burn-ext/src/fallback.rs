//! The host fallback behind [`crate::LinalgBackend`]'s default bodies: read the tensors, run
//! [`crate::host`] in f64 per matrix, write tensors of the input's dtype on the input's device.
//! Correct on any backend (Flex uses it); it synchronises, so it is not how CubeCL backends run.
use crate::backend::{batch_shape, info_shape, qr_shapes, tau_shape, with_last};
use crate::host;
use burn::backend::{
    Backend, TensorMetadata,
    tensor::{FloatTensor, IntTensor},
};
use burn::tensor::{DType, Shape, TensorData, read_sync};

/// One tensor on the host: f64 values, shape, dtype.
struct Host {
    data: Vec<f64>,
    shape: Shape,
    dtype: DType,
}

impl Host {
    fn read<B: Backend>(t: FloatTensor<B>) -> Self {
        let shape = t.shape();
        let dtype = t.dtype();
        let data = read_sync(B::float_into_data(t))
            .unwrap_or_else(|e| panic!("burn-ext fallback: reading a tensor failed: {e}"));
        Self {
            data: data.iter::<f64>().collect(),
            shape,
            dtype,
        }
    }

    /// (batch, rows, cols) of `[..., rows, cols]`.
    fn dims(&self) -> (usize, usize, usize) {
        let r = self.shape.num_dims();
        let (rows, cols) = (self.shape[r - 2], self.shape[r - 1]);
        (batch_shape(&self.shape).num_elements(), rows, cols)
    }

    /// Matrix `i` of the batch (`i` wraps for a broadcast batch of 1).
    fn matrix(&self, i: usize) -> &[f64] {
        let (batch, rows, cols) = self.dims();
        let i = if batch == 1 { 0 } else { i };
        &self.data[i * rows * cols..(i + 1) * rows * cols]
    }
}

fn write<B: Backend>(
    data: Vec<f64>,
    shape: Shape,
    dtype: DType,
    device: &B::Device,
) -> FloatTensor<B> {
    B::float_from_data(TensorData::new(data, shape).convert_dtype(dtype), device)
}

/// Run `f` on every matrix of `a` and concatenate the outputs.
fn per_matrix(a: &Host, mut f: impl FnMut(usize, &[f64]) -> Vec<f64>) -> Vec<f64> {
    let (batch, _, _) = a.dims();
    (0..batch).flat_map(|i| f(i, a.matrix(i))).collect()
}

pub fn geqrf<B: Backend>(a: FloatTensor<B>) -> (FloatTensor<B>, FloatTensor<B>) {
    let device = a.device();
    let a = Host::read::<B>(a);
    let (batch, m, n) = a.dims();
    let (mut h, mut tau) = (Vec::new(), Vec::new());
    for i in 0..batch {
        let (hi, ti) = host::geqrf(a.matrix(i), m, n);
        h.extend(hi);
        tau.extend(ti);
    }
    (
        write::<B>(h, a.shape.clone(), a.dtype, &device),
        write::<B>(tau, tau_shape(&a.shape), a.dtype, &device),
    )
}

pub fn householder_product<B: Backend>(h: FloatTensor<B>, tau: FloatTensor<B>) -> FloatTensor<B> {
    let device = h.device();
    let (h, tau) = (Host::read::<B>(h), Host::read::<B>(tau));
    let (_, m, n) = h.dims();
    let k = tau.shape[tau.shape.num_dims() - 1];
    let q = per_matrix(&h, |i, hi| {
        host::orgqr(hi, &tau.data[i * k..(i + 1) * k], m, n, k)
    });
    write::<B>(q, with_last(&h.shape, k), h.dtype, &device)
}

pub fn apply_q<B: Backend>(
    h: FloatTensor<B>,
    tau: FloatTensor<B>,
    c: FloatTensor<B>,
    left: bool,
    transpose: bool,
) -> FloatTensor<B> {
    let device = c.device();
    let (h, tau, c) = (Host::read::<B>(h), Host::read::<B>(tau), Host::read::<B>(c));
    let (hb, m, n) = (h.dims().0, h.dims().1, h.dims().2);
    let (_, rows, cols) = c.dims();
    let k = tau.shape[tau.shape.num_dims() - 1];
    let out = per_matrix(&c, |i, ci| {
        let j = if hb == 1 { 0 } else { i };
        let mut x = ci.to_vec();
        let t = &tau.data[j * k..(j + 1) * k];
        host::ormqr(h.matrix(j), t, m, n, &mut x, rows, cols, left, transpose);
        x
    });
    write::<B>(out, c.shape.clone(), c.dtype, &device)
}

pub fn qr<B: Backend>(a: FloatTensor<B>, complete: bool) -> (FloatTensor<B>, FloatTensor<B>) {
    let device = a.device();
    let a = Host::read::<B>(a);
    let (batch, m, n) = a.dims();
    let (mut q, mut r) = (Vec::new(), Vec::new());
    for i in 0..batch {
        let (qi, ri) = host::qr(a.matrix(i), m, n, complete, true);
        q.extend(qi);
        r.extend(ri);
    }
    let (qs, rs) = qr_shapes(&a.shape, complete);
    (
        write::<B>(q, qs, a.dtype, &device),
        write::<B>(r, rs, a.dtype, &device),
    )
}

pub fn qr_r<B: Backend>(a: FloatTensor<B>) -> FloatTensor<B> {
    let device = a.device();
    let a = Host::read::<B>(a);
    let (_, m, n) = a.dims();
    let r = per_matrix(&a, |_, ai| host::qr(ai, m, n, false, false).1);
    write::<B>(r, qr_shapes(&a.shape, false).1, a.dtype, &device)
}

pub fn cholesky_ex<B: Backend>(a: FloatTensor<B>, upper: bool) -> (FloatTensor<B>, IntTensor<B>) {
    let device = a.device();
    let a = Host::read::<B>(a);
    let (batch, n, _) = a.dims();
    let (mut l, mut info) = (Vec::new(), Vec::new());
    for i in 0..batch {
        let (li, fi) = host::cholesky(a.matrix(i), n, upper);
        l.extend(li);
        info.push(fi);
    }
    let info = B::int_from_data(TensorData::new(info, info_shape(&a.shape)), &device);
    (write::<B>(l, a.shape.clone(), a.dtype, &device), info)
}

pub fn solve_triangular<B: Backend>(
    a: FloatTensor<B>,
    b: FloatTensor<B>,
    upper: bool,
    left: bool,
    unit_diagonal: bool,
) -> FloatTensor<B> {
    let device = b.device();
    let (a, b) = (Host::read::<B>(a), Host::read::<B>(b));
    let (_, n, _) = a.dims();
    let (_, rows, cols) = b.dims();
    let k = if left { cols } else { rows };
    let x = per_matrix(&b, |i, bi| {
        host::solve_triangular(a.matrix(i), bi, n, k, upper, left, unit_diagonal)
    });
    write::<B>(x, b.shape.clone(), b.dtype, &device)
}

pub fn cholesky_solve<B: Backend>(
    b: FloatTensor<B>,
    l: FloatTensor<B>,
    upper: bool,
) -> FloatTensor<B> {
    let device = b.device();
    let (b, l) = (Host::read::<B>(b), Host::read::<B>(l));
    let (_, n, k) = b.dims();
    let x = per_matrix(&b, |i, bi| {
        host::cholesky_solve(l.matrix(i), bi, n, k, upper)
    });
    write::<B>(x, b.shape.clone(), b.dtype, &device)
}

pub fn cholesky_inverse<B: Backend>(l: FloatTensor<B>, upper: bool) -> FloatTensor<B> {
    let device = l.device();
    let l = Host::read::<B>(l);
    let (_, n, _) = l.dims();
    let x = per_matrix(&l, |_, li| host::cholesky_inverse(li, n, upper));
    write::<B>(x, l.shape.clone(), l.dtype, &device)
}
