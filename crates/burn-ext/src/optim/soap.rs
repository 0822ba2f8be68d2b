//! SOAP: Adam in the eigenbasis of Shampoo's preconditioner (Vyas et al. 2024).
//!
//! For a matrix parameter W `[m, n]` with gradient G, per step t:
//! - first step: L = G Gᵀ, R = Gᵀ G; Q_L, Q_R from `init_iterations` steps of orthogonal iteration
//!   from the identity (`Q ← qr(L·Q).Q`); no parameter update (as the reference implementation);
//! - then: G' = Q_Lᵀ G Q_R; m ← β₁m + (1−β₁)G (kept in the original basis);
//!   v ← β₂v + (1−β₂)G'² (kept in the eigenbasis);
//!   W ← W − lr·√(1−β₂ᵗ)/(1−β₁ᵗ) · Q_L [(Q_Lᵀ m Q_R) / (√v + ε)] Q_Rᵀ − lr·λ·W;
//!   L ← β_s L + (1−β_s) G Gᵀ, R likewise; every `precondition_frequency` steps
//!   Q_L ← qr(L Q_L).Q, Q_R ← qr(R Q_R).Q.
//!
//! A side longer than `max_precond_dim` keeps the identity basis (no factor is stored for it).
//! Orthogonal iteration keeps its columns ordered by decreasing eigenvalue, so `v` stays aligned
//! with the basis without the reference's sort (which would read eigenvalues back to the host).
use super::{Orthonormalize, adam_step, bias_corrections, matrix_dims};
use burn::config::Config;
use burn::optim::{LearningRate, Optimizer, RecordState, StateSink, StateSource};
use burn::tensor::{Device, Tensor};
use burn_pack::Scalar;

/// Configuration of [`Soap`]; defaults are the reference implementation's.
#[derive(Config, Debug)]
pub struct SoapConfig {
    /// β₁ of Adam (first moment).
    #[config(default = 0.95)]
    pub beta1: f32,
    /// β₂ of Adam (second moment, in the eigenbasis).
    #[config(default = 0.95)]
    pub beta2: f32,
    /// EMA factor of the Kronecker factors L and R.
    #[config(default = 0.95)]
    pub shampoo_beta: f32,
    /// Added to √v.
    #[config(default = 1e-8)]
    pub epsilon: f32,
    /// Decoupled weight decay λ.
    #[config(default = 0.01)]
    pub weight_decay: f32,
    /// Steps between eigenbasis refreshes.
    #[config(default = 10)]
    pub precondition_frequency: usize,
    /// A side longer than this keeps the identity basis.
    #[config(default = 10000)]
    pub max_precond_dim: usize,
    /// Orthogonal-iteration steps for the first basis.
    #[config(default = 5)]
    pub init_iterations: usize,
    /// How `L·Q` is orthonormalized.
    #[config(default = "Orthonormalize::Qr")]
    pub orthonormalize: Orthonormalize,
}

impl SoapConfig {
    /// The optimizer, for [`ModuleOptimizer::with_group`](burn::optim::ModuleOptimizer::with_group)
    /// or `ModuleOptimizer::from`.
    pub fn build(&self) -> Soap {
        Soap {
            config: self.clone(),
        }
    }
}

/// SOAP (module docs). Implements [`Optimizer`]; state [`SoapState`].
#[derive(Clone, Debug)]
pub struct Soap {
    config: SoapConfig,
}

/// Per-parameter state of [`Soap`].
#[derive(Clone)]
pub struct SoapState<const D: usize> {
    /// Adam steps taken (the initialising step is not counted).
    pub step: usize,
    /// First moment, original basis.
    pub exp_avg: Tensor<D>,
    /// Second moment, eigenbasis (original basis for a rank-1 parameter).
    pub exp_avg_sq: Tensor<D>,
    /// L = EMA(G Gᵀ) `[m, m]`, absent when m > `max_precond_dim` or for rank 1.
    pub left: Option<Tensor<2>>,
    /// R = EMA(Gᵀ G) `[n, n]`, absent when n > `max_precond_dim` or for rank 1.
    pub right: Option<Tensor<2>>,
    /// Eigenbasis of L.
    pub q_left: Option<Tensor<2>>,
    /// Eigenbasis of R.
    pub q_right: Option<Tensor<2>>,
}

impl<const D: usize> RecordState for SoapState<D> {
    fn state_flatten(&self, prefix: &str, out: &mut StateSink) {
        out.push_scalar(prefix, "step", Scalar::UInt(self.step as u64));
        out.push_tensor(prefix, "exp_avg", self.exp_avg.to_data());
        out.push_tensor(prefix, "exp_avg_sq", self.exp_avg_sq.to_data());
        for (leaf, t) in [
            ("left", &self.left),
            ("right", &self.right),
            ("q_left", &self.q_left),
            ("q_right", &self.q_right),
        ] {
            if let Some(t) = t {
                out.push_tensor(prefix, leaf, t.to_data());
            }
        }
    }

    fn state_unflatten(prefix: &str, src: &mut StateSource, device: &Device) -> Option<Self> {
        let step = match src.take_scalar(prefix, "step")? {
            Scalar::UInt(s) => s as usize,
            _ => return None,
        };
        let mut matrix = |leaf| {
            src.take_tensor(prefix, leaf)
                .map(|d| Tensor::<2>::from_data(d, device))
        };
        let (left, right, q_left, q_right) = (
            matrix("left"),
            matrix("right"),
            matrix("q_left"),
            matrix("q_right"),
        );
        Some(Self {
            step,
            exp_avg: Tensor::from_data(src.take_tensor(prefix, "exp_avg")?, device),
            exp_avg_sq: Tensor::from_data(src.take_tensor(prefix, "exp_avg_sq")?, device),
            left,
            right,
            q_left,
            q_right,
        })
    }
}

/// Q_Lᵀ X Q_R (a missing side is the identity).
fn project(x: Tensor<2>, ql: &Option<Tensor<2>>, qr: &Option<Tensor<2>>) -> Tensor<2> {
    let x = match ql {
        Some(q) => q.clone().transpose().matmul(x),
        None => x,
    };
    match qr {
        Some(q) => x.matmul(q.clone()),
        None => x,
    }
}

/// Q_L X Q_Rᵀ.
fn project_back(x: Tensor<2>, ql: &Option<Tensor<2>>, qr: &Option<Tensor<2>>) -> Tensor<2> {
    let x = match ql {
        Some(q) => q.clone().matmul(x),
        None => x,
    };
    match qr {
        Some(q) => x.matmul(q.clone().transpose()),
        None => x,
    }
}

impl Soap {
    fn refresh(&self, factor: &Tensor<2>, q: Tensor<2>) -> Tensor<2> {
        self.config.orthonormalize.apply(factor.clone().matmul(q))
    }

    /// G Gᵀ and Gᵀ G where the side is preconditioned.
    fn outer(&self, g: &Tensor<2>) -> (Option<Tensor<2>>, Option<Tensor<2>>) {
        let [m, n] = g.dims();
        let max = self.config.max_precond_dim;
        (
            (m <= max).then(|| g.clone().matmul(g.clone().transpose())),
            (n <= max).then(|| g.clone().transpose().matmul(g.clone())),
        )
    }

    fn init<const D: usize>(&self, grad: Tensor<D>, [m, n]: [usize; 2]) -> SoapState<D> {
        let g = grad.clone().reshape([m, n]);
        let (left, right) = self.outer(&g);
        let device = g.device();
        let basis = |factor: &Option<Tensor<2>>, k| {
            factor.as_ref().map(|f| {
                let mut q = Tensor::<2>::eye(k, &device);
                for _ in 0..self.config.init_iterations.max(1) {
                    q = self.refresh(f, q);
                }
                q
            })
        };
        let (q_left, q_right) = (basis(&left, m), basis(&right, n));
        SoapState {
            step: 0,
            exp_avg: grad.zeros_like(),
            exp_avg_sq: grad.zeros_like(),
            left,
            right,
            q_left,
            q_right,
        }
    }
}

impl Optimizer for Soap {
    type State<const D: usize> = SoapState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<Self::State<D>>,
    ) -> (Tensor<D>, Option<Self::State<D>>) {
        let c = &self.config;
        let Some([m, n]) = matrix_dims(&tensor.dims()) else {
            let mut s = state.unwrap_or_else(|| SoapState {
                step: 0,
                exp_avg: grad.zeros_like(),
                exp_avg_sq: grad.zeros_like(),
                left: None,
                right: None,
                q_left: None,
                q_right: None,
            });
            s.step += 1;
            let (tensor, exp_avg, exp_avg_sq) = adam_step(
                tensor,
                grad,
                s.exp_avg,
                s.exp_avg_sq,
                s.step,
                (c.beta1, c.beta2, c.epsilon),
                lr,
                c.weight_decay,
            );
            s.exp_avg = exp_avg;
            s.exp_avg_sq = exp_avg_sq;
            return (tensor, Some(s));
        };
        let Some(mut s) = state else {
            return (tensor, Some(self.init(grad, [m, n])));
        };
        let dims = tensor.dims();
        s.step += 1;
        let g = grad.reshape([m, n]);
        let g_rot = project(g.clone(), &s.q_left, &s.q_right);
        let exp_avg = s.exp_avg.reshape([m, n]) * c.beta1 + g.clone() * (1.0 - c.beta1);
        let exp_avg_sq =
            s.exp_avg_sq.reshape([m, n]) * c.beta2 + g_rot.powi_scalar(2) * (1.0 - c.beta2);
        let (bc1, bc2) = bias_corrections(c.beta1, c.beta2, s.step);
        let step_size = lr * bc2.sqrt() / bc1;
        let rotated = project(exp_avg.clone(), &s.q_left, &s.q_right)
            / (exp_avg_sq.clone().sqrt() + c.epsilon);
        let update = project_back(rotated, &s.q_left, &s.q_right).reshape(dims);
        let tensor = tensor * (1.0 - lr * c.weight_decay as f64) - update * step_size;

        let (gl, gr) = self.outer(&g);
        let ema = |f: Option<Tensor<2>>, o: Option<Tensor<2>>| match (f, o) {
            (Some(f), Some(o)) => Some(f * c.shampoo_beta + o * (1.0 - c.shampoo_beta)),
            _ => None,
        };
        s.left = ema(s.left, gl);
        s.right = ema(s.right, gr);
        if s.step % c.precondition_frequency.max(1) == 0 {
            s.q_left = match (&s.left, s.q_left) {
                (Some(l), Some(q)) => Some(self.refresh(l, q)),
                (_, q) => q,
            };
            s.q_right = match (&s.right, s.q_right) {
                (Some(r), Some(q)) => Some(self.refresh(r, q)),
                (_, q) => q,
            };
        }
        s.exp_avg = exp_avg.reshape(dims);
        s.exp_avg_sq = exp_avg_sq.reshape(dims);
        (tensor, Some(s))
    }

    fn to_device<const D: usize>(mut s: Self::State<D>, device: &Device) -> Self::State<D> {
        let move_opt = |t: Option<Tensor<2>>| t.map(|t| t.to_device(device));
        s.exp_avg = s.exp_avg.to_device(device);
        s.exp_avg_sq = s.exp_avg_sq.to_device(device);
        s.left = move_opt(s.left);
        s.right = move_opt(s.right);
        s.q_left = move_opt(s.q_left);
        s.q_right = move_opt(s.q_right);
        s
    }
}
