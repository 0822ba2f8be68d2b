//! Optimizers built on our QR, Cholesky and triangular solve, for Burn's `ModuleOptimizer`.
//!
//! - [`Soap`] ([`SoapConfig`]): Adam in the eigenbasis of Shampoo's Kronecker factors
//!   L = EMA(G Gᵀ), R = EMA(Gᵀ G), the bases refreshed every `precondition_frequency` steps by
//!   one step of orthogonal iteration, `Q ← qr(L·Q).Q` (Vyas et al. 2024, "SOAP").
//! - [`Dion`] ([`DionConfig`]): orthonormalized low-rank updates by one power-iteration step per
//!   step with error feedback (Ahn et al. 2025, "Dion"); the m×r factor is orthonormalized by our
//!   QR (TSQR where the shape is tall-skinny) or by shifted Cholesky-QR2 on our Cholesky and
//!   triangular solve ([`Orthonormalize`]).
//!
//! Both implement burn-optim's [`Optimizer`](burn::optim::Optimizer) trait, so a
//! [`ModuleOptimizer`](burn::optim::ModuleOptimizer) drives them and their state is saved and
//! loaded with its burnpack records. They are meant for matrix parameters (rank ≥ 2; a rank-k
//! tensor `[d0, d1, …]` is treated as the matrix `[d0, d1·…]`). Biases and norms belong to AdamW
//! through a parameter group — [`matrix_params`] selects the matrices:
//!
//! ```
//! use burn::module::{Module, ParamGroup};
//! use burn::nn::{Linear, LinearConfig};
//! use burn::optim::{AdamWConfig, ModuleOptimizer};
//! use burn::tensor::Device;
//! use burn_ext::optim::{SoapConfig, matrix_params};
//! let device = Device::default().autodiff();
//! let layer: Linear = LinearConfig::new(16, 8).init(&device);
//! let optim = ModuleOptimizer::from(AdamWConfig::new().build())
//!     .with_group(matrix_params(&layer), SoapConfig::new().build(), None);
//! ```
//!
//! A rank-1 parameter that reaches them anyway is updated by Adam with the optimizer's betas,
//! so nothing panics. No step reads a tensor back to the host: the refresh schedule is a host
//! counter in the state, Cholesky's `info` is not read (the shift keeps the Gram matrix positive
//! definite), and bad values propagate as they would through Adam.
mod dion;
mod soap;

pub use dion::{Dion, DionConfig, DionState};
pub use soap::{Soap, SoapConfig, SoapState};

use crate::QrMode;
use burn::module::{Module, ModuleVisitor, Param, ParamGroup, ParamId};
use burn::tensor::{DType, FloatDType, Tensor};
use serde::{Deserialize, Serialize};

/// How a matrix with more rows than columns (or as many) is given orthonormal columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Orthonormalize {
    /// Householder QR, [`crate::qr`] (reduced): TSQR for tall-skinny shapes, blocked `geqrf`
    /// otherwise. Exact orthonormality, also for rank-deficient input.
    #[default]
    Qr,
    /// Shifted Cholesky-QR2: twice `W = PᵀP + sI`, `U = chol(W)`, `P ← P U⁻¹` on
    /// [`crate::cholesky_ex`] and [`crate::solve_triangular`]. The shift s = (m + r)·u·‖W‖∞
    /// (u = f32 unit roundoff, ‖W‖∞ ≥ ‖W‖₂) keeps W numerically positive definite, so a
    /// rank-deficient P gives no NaN; its columns are orthonormal to about (m + r)·u, and
    /// directions where P has no energy stay near zero instead of being filled in.
    CholeskyQr2,
    /// burn-linalg's `qr` (Householder from Burn tensor ops): the in-framework alternative,
    /// for comparison.
    BurnLinalgQr,
}

impl Orthonormalize {
    /// Orthonormal columns spanning `p`'s range, `[m, r]` with m ≥ r.
    pub fn apply(self, p: Tensor<2>) -> Tensor<2> {
        let dtype = p.dtype();
        // Our kernels are f32; an f64 model gets its basis in f32 (it is a preconditioner).
        let p = if dtype == DType::F64 {
            p.cast(FloatDType::F32)
        } else {
            p
        };
        let q = match self {
            Self::Qr => qr_q(p),
            Self::CholeskyQr2 => cholesky_qr2(p),
            Self::BurnLinalgQr => burn::linalg::qr(p, true).0,
        };
        if dtype == DType::F64 {
            q.cast(dtype)
        } else {
            q
        }
    }
}

/// Q of the reduced QR. Our op validates on the host; what it refuses (a matrix past the 32-bit
/// index range) goes to burn-linalg instead of failing the step.
fn qr_q(p: Tensor<2>) -> Tensor<2> {
    match crate::qr(p.clone(), QrMode::Reduced) {
        Ok((q, _)) => q,
        Err(_) => burn::linalg::qr(p, true).0,
    }
}

fn cholesky_qr2(p: Tensor<2>) -> Tensor<2> {
    let [m, r] = p.dims();
    let device = p.device();
    let shift = (m + r) as f32 * f32::EPSILON / 2.0;
    let eye = Tensor::<2>::eye(r, &device);
    let mut p = p;
    for _ in 0..2 {
        let w = p.clone().transpose().matmul(p.clone());
        // ‖W‖∞ on the device, as a [1, 1] tensor: no host read.
        let norm = w.clone().abs().sum_dim(1).max().reshape([1, 1]);
        let w = w + eye.clone() * (norm * shift + f32::MIN_POSITIVE.sqrt());
        let solved = crate::cholesky_ex(w, true)
            .and_then(|(u, _info)| crate::solve_triangular(u, p.clone(), true, false, false));
        p = match solved {
            Ok(x) => x,
            // Only a matrix past the kernels' index range lands here.
            Err(_) => return qr_q(p),
        };
    }
    p
}

/// The parameter group of a module's float parameters of rank ≥ 2 (the matrices [`Soap`] and
/// [`Dion`] are for); give the rest (biases, norms) to AdamW.
pub fn matrix_params<M: Module>(module: &M) -> ParamGroup {
    #[derive(Default)]
    struct Matrices(Vec<ParamId>);
    impl ModuleVisitor for Matrices {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            if D >= 2 {
                self.0.push(param.id);
            }
        }
    }
    let mut visitor = Matrices::default();
    module.visit(&mut visitor);
    ParamGroup::from_ids(visitor.0)
}

/// `[d0, d1·…]`: how a parameter of rank ≥ 2 is seen as a matrix.
fn matrix_dims(dims: &[usize]) -> Option<[usize; 2]> {
    (dims.len() >= 2).then(|| [dims[0], dims[1..].iter().product()])
}

/// One Adam step for a parameter that is not a matrix: (param, exp_avg, exp_avg_sq).
#[allow(clippy::too_many_arguments)]
fn adam_step<const D: usize>(
    param: Tensor<D>,
    grad: Tensor<D>,
    exp_avg: Tensor<D>,
    exp_avg_sq: Tensor<D>,
    step: usize,
    (beta1, beta2, eps): (f32, f32, f32),
    lr: f64,
    weight_decay: f32,
) -> (Tensor<D>, Tensor<D>, Tensor<D>) {
    let exp_avg = exp_avg * beta1 + grad.clone() * (1.0 - beta1);
    let exp_avg_sq = exp_avg_sq * beta2 + grad.powi_scalar(2) * (1.0 - beta2);
    let (bc1, bc2) = bias_corrections(beta1, beta2, step);
    let update = (exp_avg.clone() / bc1) / ((exp_avg_sq.clone() / bc2).sqrt() + eps);
    let param = param * (1.0 - lr * weight_decay as f64) - update * lr;
    (param, exp_avg, exp_avg_sq)
}

fn bias_corrections(beta1: f32, beta2: f32, step: usize) -> (f64, f64) {
    let t = step as i32;
    (1.0 - (beta1 as f64).powi(t), 1.0 - (beta2 as f64).powi(t))
}
