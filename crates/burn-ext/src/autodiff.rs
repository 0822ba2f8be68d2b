//! [`LinalgBackend`] for `Autodiff<B>`: the forward runs B's op (our kernels on CubeCL
//! backends), the backward is analytic and built from B's ops — our triangular and Cholesky
//! solves plus B's GEMM and elementwise ops — never by differentiating an op chain.
//!
//! Formulas (real case, as PyTorch's FunctionsManual.cpp; arXiv 2009.10071):
//! - QR, m ≥ n: X = triu(ḡR·Rᵀ − Qᵀ·ḡQ), S = X + tril(Xᵀ, −1), Ā = (Q·S + ḡQ)·R⁻ᵀ.
//!   m < n: A = [X | Y], R = [U | V]; Ȳ = Q·V̄ and X̄ is the square case with
//!   ḡQ' = ḡQ + Y·V̄ᵀ (Y = Q·V). Q and R are two graph nodes; the formula is linear in
//!   (ḡQ, ḡR), so each node sends its share and the sums meet in Ā.
//! - Cholesky A = L·Lᵀ: P = tril(Lᵀ·L̄), Φ = ½(P + tril(P, −1)ᵀ), Ā = L⁻ᵀ·Φ·L⁻¹ (symmetric: the
//!   gradient for symmetric perturbations of A, as torch); U = Lᵀ for `upper`.
//! - A·X = B: B̄ = A⁻ᵀ·X̄, Ā = −B̄·Xᵀ; X·A = B: B̄ = X̄·A⁻ᵀ, Ā = −Xᵀ·B̄; Ā keeps A's triangle
//!   (strictly, for a unit diagonal). A broadcast A sums Ā over the batch.
//! - X = (L·Lᵀ)⁻¹·B: B̄ = (L·Lᵀ)⁻¹·X̄, C = B̄·Xᵀ + X·B̄ᵀ, L̄ = −C·L (−L·C for U), in the triangle.
//! - W = (L·Lᵀ)⁻¹: C = W·(W̄ + W̄ᵀ)·W, L̄ = −C·L (−L·C for U), in the triangle.
//!
//! geqrf, householder_product, apply_q and complete QR with m > n are not differentiable here
//! (torch: geqrf neither); the public ops refuse them for inputs that require a gradient.
use crate::backend::LinalgBackend;
use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::{
    Autodiff, AutodiffBackend, Backend, TensorMetadata,
    tensor::{FloatTensor, IntTensor},
};
use burn::tensor::{Slice, TensorData};

type Inner<B> = FloatTensor<B>;
/// A float tensor of `Autodiff<B, C>`.
type Tracked<B, C> = FloatTensor<Autodiff<B, C>>;

/// Which triangle a mask keeps.
#[derive(Clone, Copy, Debug)]
enum Tri {
    /// j ≥ i + k
    Upper(i64),
    /// j ≤ i + k
    Lower(i64),
}

/// `t` (…×r×c) with the entries outside the triangle set to zero (a broadcast 0/1 mask).
fn keep<B: Backend>(t: Inner<B>, tri: Tri) -> Inner<B> {
    let shape = t.shape();
    let rank = shape.num_dims();
    let (r, c) = (shape[rank - 2], shape[rank - 1]);
    let mask: Vec<f32> = (0..r * c)
        .map(|x| {
            let (i, j) = ((x / c) as i64, (x % c) as i64);
            let on = match tri {
                Tri::Upper(k) => j >= i + k,
                Tri::Lower(k) => j <= i + k,
            };
            if on { 1.0 } else { 0.0 }
        })
        .collect();
    let mut dims = vec![1; rank];
    dims[rank - 2] = r;
    dims[rank - 1] = c;
    let mask = B::float_from_data(TensorData::new(mask, dims), &t.device());
    let mask = B::float_cast(mask, t.dtype().into());
    B::float_mul(t, mask)
}

fn tr<B: Backend>(t: Inner<B>) -> Inner<B> {
    B::float_transpose(t)
}

fn mm<B: Backend>(a: Inner<B>, b: Inner<B>) -> Inner<B> {
    B::float_matmul(a, b)
}

/// `t[..., :, cols]`.
fn cols<B: Backend>(t: Inner<B>, range: std::ops::Range<usize>) -> Inner<B> {
    let rank = t.shape().num_dims();
    let mut s: Vec<Slice> = (0..rank).map(|_| Slice::from(..)).collect();
    s[rank - 1] = Slice::from(range);
    B::float_slice(t, &s)
}

fn add_opt<B: Backend>(a: Option<Inner<B>>, b: Inner<B>) -> Inner<B> {
    match a {
        Some(a) => B::float_add(a, b),
        None => b,
    }
}

/// Ā for A = Q·R (reduced, m ≥ n or m < n) from the cotangents present.
fn qr_backward<B: Backend + LinalgBackend>(
    q: Inner<B>,
    r: Inner<B>,
    gq: Option<Inner<B>>,
    gr: Option<Inner<B>>,
) -> Inner<B> {
    let shape = r.shape();
    let rank = shape.num_dims();
    let (k, n) = (shape[rank - 2], shape[rank - 1]);
    if k >= n {
        return qr_square_backward::<B>(q, r, gq, gr);
    }
    // Wide: A = [X | Y], R = [U | V].
    let u = cols::<B>(r.clone(), 0..k);
    let v = cols::<B>(r, k..n);
    let (gu, gv) = match gr {
        Some(gr) => (Some(cols::<B>(gr.clone(), 0..k)), Some(cols::<B>(gr, k..n))),
        None => (None, None),
    };
    let (gq2, gy) = match gv {
        Some(gv) => {
            let y = mm::<B>(q.clone(), v);
            let gy = mm::<B>(q.clone(), gv.clone());
            (Some(add_opt::<B>(gq, mm::<B>(y, tr::<B>(gv)))), gy)
        }
        None => {
            let zeros = B::float_zeros(v.shape(), &v.device(), v.dtype().into());
            (gq, zeros)
        }
    };
    let gx = qr_square_backward::<B>(q, u, gq2, gu);
    B::float_cat(vec![gx, gy], rank - 1)
}

/// m ≥ n: Ā = (Q·S + ḡQ)·R⁻ᵀ with S = X + tril(Xᵀ, −1), X = triu(ḡR·Rᵀ − Qᵀ·ḡQ).
fn qr_square_backward<B: Backend + LinalgBackend>(
    q: Inner<B>,
    r: Inner<B>,
    gq: Option<Inner<B>>,
    gr: Option<Inner<B>>,
) -> Inner<B> {
    let x = match (&gr, &gq) {
        (Some(gr), Some(gq)) => B::float_sub(
            mm::<B>(gr.clone(), tr::<B>(r.clone())),
            mm::<B>(tr::<B>(q.clone()), gq.clone()),
        ),
        (Some(gr), None) => mm::<B>(gr.clone(), tr::<B>(r.clone())),
        (None, Some(gq)) => B::float_neg(mm::<B>(tr::<B>(q.clone()), gq.clone())),
        (None, None) => unreachable!("a QR node has a cotangent"),
    };
    let x = keep::<B>(x, Tri::Upper(0));
    let s = B::float_add(x.clone(), keep::<B>(tr::<B>(x), Tri::Lower(-1)));
    let g = add_opt::<B>(gq, mm::<B>(q, s));
    // G·R⁻ᵀ: X·Rᵀ = G with Rᵀ lower.
    B::solve_triangular(tr::<B>(r), g, false, false, false)
}

/// Ā for the lower factor L of A = L·Lᵀ.
fn cholesky_backward<B: Backend + LinalgBackend>(l: Inner<B>, gl: Inner<B>) -> Inner<B> {
    let p = keep::<B>(mm::<B>(tr::<B>(l.clone()), gl), Tri::Lower(0));
    let phi = B::float_add(p.clone(), keep::<B>(tr::<B>(p), Tri::Upper(1)));
    let phi = B::float_mul_scalar(phi, 0.5f32.into());
    // L⁻ᵀ·Φ, then ·L⁻¹.
    let z = B::solve_triangular(tr::<B>(l.clone()), phi, true, true, false);
    B::solve_triangular(l, z, false, false, false)
}

/// Sum `g` over the leading dims where `like` has size 1 (a broadcast operand's gradient).
fn unbroadcast<B: Backend>(mut g: Inner<B>, like: &burn::tensor::Shape) -> Inner<B> {
    let rank = like.num_dims();
    for d in 0..rank - 2 {
        if like[d] == 1 && g.shape()[d] != 1 {
            g = B::float_sum_dim(g, d);
        }
    }
    g
}

fn triangle(upper: bool) -> Tri {
    if upper { Tri::Upper(0) } else { Tri::Lower(0) }
}

#[derive(Debug)]
struct QrQ;
#[derive(Debug)]
struct QrR;

impl<B: Backend + LinalgBackend> Backward<B, 1> for QrQ {
    type State = (Inner<B>, Inner<B>);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let g = grads.consume::<B>(&ops.node);
        if let [Some(parent)] = ops.parents {
            let (q, r) = ops.state;
            grads.register::<B>(parent.id, qr_backward::<B>(q, r, Some(g), None));
        }
    }
}

impl<B: Backend + LinalgBackend> Backward<B, 1> for QrR {
    type State = (Inner<B>, Inner<B>);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let g = grads.consume::<B>(&ops.node);
        if let [Some(parent)] = ops.parents {
            let (q, r) = ops.state;
            grads.register::<B>(parent.id, qr_backward::<B>(q, r, None, Some(g)));
        }
    }
}

#[derive(Debug)]
struct Cholesky;

impl<B: Backend + LinalgBackend> Backward<B, 1> for Cholesky {
    /// (factor, upper)
    type State = (Inner<B>, bool);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let g = grads.consume::<B>(&ops.node);
        if let [Some(parent)] = ops.parents {
            let (f, upper) = ops.state;
            let ga = if upper {
                cholesky_backward::<B>(tr::<B>(f), tr::<B>(g))
            } else {
                cholesky_backward::<B>(f, g)
            };
            grads.register::<B>(parent.id, ga);
        }
    }
}

#[derive(Debug)]
struct SolveTriangular;

impl<B: Backend + LinalgBackend> Backward<B, 2> for SolveTriangular {
    /// (A, X, upper, left, unit_diagonal)
    type State = (Inner<B>, Inner<B>, bool, bool, bool);

    fn backward(self, ops: Ops<Self::State, 2>, grads: &mut Gradients, _: &mut Checkpointer) {
        let g = grads.consume::<B>(&ops.node);
        let [pa, pb] = ops.parents;
        let (a, x, upper, left, unit) = ops.state;
        let a_shape = a.shape();
        let gb = B::solve_triangular(tr::<B>(a), g, !upper, left, unit);
        if let Some(pa) = pa {
            let ga = if left {
                mm::<B>(gb.clone(), tr::<B>(x))
            } else {
                mm::<B>(tr::<B>(x), gb.clone())
            };
            let tri = match (upper, unit) {
                (true, false) => Tri::Upper(0),
                (true, true) => Tri::Upper(1),
                (false, false) => Tri::Lower(0),
                (false, true) => Tri::Lower(-1),
            };
            let ga = keep::<B>(B::float_neg(ga), tri);
            grads.register::<B>(pa.id, unbroadcast::<B>(ga, &a_shape));
        }
        if let Some(pb) = pb {
            grads.register::<B>(pb.id, gb);
        }
    }
}

/// L̄ = −C·L (−L·C for U), C symmetric, kept in the factor's triangle.
fn factor_grad<B: Backend>(c: Inner<B>, l: Inner<B>, upper: bool) -> Inner<B> {
    let gl = if upper { mm::<B>(l, c) } else { mm::<B>(c, l) };
    keep::<B>(B::float_neg(gl), triangle(upper))
}

#[derive(Debug)]
struct CholeskySolve;

impl<B: Backend + LinalgBackend> Backward<B, 2> for CholeskySolve {
    /// (L, X, upper)
    type State = (Inner<B>, Inner<B>, bool);

    fn backward(self, ops: Ops<Self::State, 2>, grads: &mut Gradients, _: &mut Checkpointer) {
        let g = grads.consume::<B>(&ops.node);
        let [pb, pl] = ops.parents;
        let (l, x, upper) = ops.state;
        let gb = B::cholesky_solve(g, l.clone(), upper);
        if let Some(pl) = pl {
            let c = mm::<B>(gb.clone(), tr::<B>(x));
            let c = B::float_add(c.clone(), tr::<B>(c));
            grads.register::<B>(pl.id, factor_grad::<B>(c, l, upper));
        }
        if let Some(pb) = pb {
            grads.register::<B>(pb.id, gb);
        }
    }
}

#[derive(Debug)]
struct CholeskyInverse;

impl<B: Backend + LinalgBackend> Backward<B, 1> for CholeskyInverse {
    /// (L, W = (L·Lᵀ)⁻¹, upper)
    type State = (Inner<B>, Inner<B>, bool);

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _: &mut Checkpointer) {
        let g = grads.consume::<B>(&ops.node);
        if let [Some(parent)] = ops.parents {
            let (l, w, upper) = ops.state;
            let c = B::float_add(g.clone(), tr::<B>(g));
            let c = mm::<B>(w.clone(), mm::<B>(c, w));
            grads.register::<B>(parent.id, factor_grad::<B>(c, l, upper));
        }
    }
}

/// Q and R of `a` as two graph nodes (see the module docs).
fn qr_nodes<B: Backend + LinalgBackend, C: CheckpointStrategy>(
    a: Tracked<B, C>,
    q: Inner<B>,
    r: Inner<B>,
) -> (Tracked<B, C>, Tracked<B, C>) {
    let state = (q.clone(), r.clone());
    let q = match QrQ.prepare::<C>([a.node()]).compute_bound().stateful() {
        OpsKind::Tracked(prep) => prep.finish(state.clone(), q),
        OpsKind::UnTracked(prep) => prep.finish(q),
    };
    let r = match QrR.prepare::<C>([a.node()]).compute_bound().stateful() {
        OpsKind::Tracked(prep) => prep.finish(state, r),
        OpsKind::UnTracked(prep) => prep.finish(r),
    };
    (q, r)
}

impl<B: Backend + LinalgBackend, C: CheckpointStrategy> LinalgBackend for Autodiff<B, C> {
    fn geqrf(a: FloatTensor<Self>) -> (FloatTensor<Self>, FloatTensor<Self>) {
        let (h, tau) = B::geqrf(Self::inner(a));
        (Self::from_inner(h), Self::from_inner(tau))
    }

    fn householder_product(h: FloatTensor<Self>, tau: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::from_inner(B::householder_product(Self::inner(h), Self::inner(tau)))
    }

    fn apply_q(
        h: FloatTensor<Self>,
        tau: FloatTensor<Self>,
        c: FloatTensor<Self>,
        left: bool,
        transpose: bool,
    ) -> FloatTensor<Self> {
        let (h, tau, c) = (Self::inner(h), Self::inner(tau), Self::inner(c));
        Self::from_inner(B::apply_q(h, tau, c, left, transpose))
    }

    fn qr(a: FloatTensor<Self>, complete: bool) -> (FloatTensor<Self>, FloatTensor<Self>) {
        let (q, r) = B::qr(a.primitive().clone(), complete);
        let shape = a.shape();
        let rank = shape.num_dims();
        if complete && shape[rank - 2] > shape[rank - 1] {
            // Not differentiable (Q's last m − n columns are not unique).
            return (Self::from_inner(q), Self::from_inner(r));
        }
        qr_nodes::<B, C>(a, q, r)
    }

    fn qr_r(a: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::from_inner(B::qr_r(Self::inner(a)))
    }

    fn tsqr(a: FloatTensor<Self>) -> (FloatTensor<Self>, FloatTensor<Self>) {
        let (q, r) = B::tsqr(a.primitive().clone());
        qr_nodes::<B, C>(a, q, r)
    }

    fn tsqr_r(a: FloatTensor<Self>) -> FloatTensor<Self> {
        Self::from_inner(B::tsqr_r(Self::inner(a)))
    }

    fn cholesky_ex(
        a: FloatTensor<Self>,
        upper: bool,
        tf32: bool,
    ) -> (FloatTensor<Self>, IntTensor<Self>) {
        let (l, info) = B::cholesky_ex(a.primitive().clone(), upper, tf32);
        let l = match Cholesky.prepare::<C>([a.node()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => prep.finish((l.clone(), upper), l),
            OpsKind::UnTracked(prep) => prep.finish(l),
        };
        (l, info)
    }

    fn solve_triangular(
        a: FloatTensor<Self>,
        b: FloatTensor<Self>,
        upper: bool,
        left: bool,
        unit_diagonal: bool,
    ) -> FloatTensor<Self> {
        let (ap, bp) = (a.primitive().clone(), b.primitive().clone());
        let x = B::solve_triangular(ap.clone(), bp, upper, left, unit_diagonal);
        match SolveTriangular
            .prepare::<C>([a.node(), b.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => prep.finish((ap, x.clone(), upper, left, unit_diagonal), x),
            OpsKind::UnTracked(prep) => prep.finish(x),
        }
    }

    fn cholesky_solve(
        b: FloatTensor<Self>,
        l: FloatTensor<Self>,
        upper: bool,
    ) -> FloatTensor<Self> {
        let lp = l.primitive().clone();
        let x = B::cholesky_solve(b.primitive().clone(), lp.clone(), upper);
        match CholeskySolve
            .prepare::<C>([b.node(), l.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => prep.finish((lp, x.clone(), upper), x),
            OpsKind::UnTracked(prep) => prep.finish(x),
        }
    }

    fn cholesky_inverse(l: FloatTensor<Self>, upper: bool) -> FloatTensor<Self> {
        let lp = l.primitive().clone();
        let w = B::cholesky_inverse(lp.clone(), upper);
        match CholeskyInverse
            .prepare::<C>([l.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(prep) => prep.finish((lp, w.clone(), upper), w),
            OpsKind::UnTracked(prep) => prep.finish(w),
        }
    }
}
