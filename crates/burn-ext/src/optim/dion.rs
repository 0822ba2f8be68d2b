//! Dion: orthonormalized low-rank updates by power iteration with error feedback (Ahn et al. 2025).
//!
//! For a matrix parameter X `[m, n]` with gradient G, momentum buffer M (zero at first) and right
//! factor Q `[n, r]` (random normal at first), r = ⌈`rank_fraction`·min(m, n)⌉, per step:
//! - B = M + G; P = orthonormalize(B Q) `[m, r]`; R = Bᵀ P `[n, r]`;
//! - M ← B − (1 − μ) P Rᵀ (error feedback: what the rank-r update did not take stays in M);
//! - Q̂ = R with unit columns; X ← X(1 − lr·λ) − lr·s·P Q̂ᵀ; Q ← Q̂ (a column of R that is zero —
//!   no gradient energy in that direction — keeps its previous Q column, so the iteration cannot
//!   collapse to Q = 0 and the update in that direction is zero).
//!
//! s = √(d_out / d_in) = √(n / m) for Burn's `Linear` layout `[d_in, d_out]` (Dion's √(m/n) for
//! torch's `[out, in]`): the update's spectral norm scaled to the layer's fan-out/fan-in ratio.
use super::{Orthonormalize, adam_step, matrix_dims};
use burn::config::Config;
use burn::optim::{LearningRate, Optimizer, RecordState, StateSink, StateSource};
use burn::tensor::{Device, Distribution, Tensor};
use burn_pack::Scalar;

/// Configuration of [`Dion`].
#[derive(Config, Debug)]
pub struct DionConfig {
    /// μ: the share of the captured low-rank component that is removed from the buffer is 1 − μ.
    #[config(default = 0.95)]
    pub momentum: f32,
    /// r / min(m, n), rounded up, at least 1 and at most 1.
    #[config(default = 0.25)]
    pub rank_fraction: f64,
    /// Decoupled weight decay λ.
    #[config(default = 0.01)]
    pub weight_decay: f32,
    /// Added to the column norms of R.
    #[config(default = 1e-8)]
    pub epsilon: f32,
    /// How B Q is orthonormalized.
    #[config(default = "Orthonormalize::Qr")]
    pub orthonormalize: Orthonormalize,
    /// Adam's β₂ for a rank-1 parameter (β₁ is `momentum`).
    #[config(default = 0.95)]
    pub beta2: f32,
}

impl DionConfig {
    /// The optimizer, for [`ModuleOptimizer::with_group`](burn::optim::ModuleOptimizer::with_group)
    /// or `ModuleOptimizer::from`.
    pub fn build(&self) -> Dion {
        Dion {
            config: self.clone(),
        }
    }
}

/// Dion (module docs). Implements [`Optimizer`]; state [`DionState`].
#[derive(Clone, Debug)]
pub struct Dion {
    config: DionConfig,
}

/// Per-parameter state of [`Dion`].
#[derive(Clone)]
pub struct DionState<const D: usize> {
    /// Steps taken.
    pub step: usize,
    /// M, the error-feedback momentum (Adam's first moment for a rank-1 parameter).
    pub momentum: Tensor<D>,
    /// Q `[n, r]`, the right factor (matrices only).
    pub q: Option<Tensor<2>>,
    /// Adam's second moment (rank-1 parameters only).
    pub exp_avg_sq: Option<Tensor<D>>,
}

impl<const D: usize> RecordState for DionState<D> {
    fn state_flatten(&self, prefix: &str, out: &mut StateSink) {
        out.push_scalar(prefix, "step", Scalar::UInt(self.step as u64));
        out.push_tensor(prefix, "momentum", self.momentum.to_data());
        if let Some(q) = &self.q {
            out.push_tensor(prefix, "q", q.to_data());
        }
        if let Some(v) = &self.exp_avg_sq {
            out.push_tensor(prefix, "exp_avg_sq", v.to_data());
        }
    }

    fn state_unflatten(prefix: &str, src: &mut StateSource, device: &Device) -> Option<Self> {
        let step = match src.take_scalar(prefix, "step")? {
            Scalar::UInt(s) => s as usize,
            _ => return None,
        };
        Some(Self {
            step,
            momentum: Tensor::from_data(src.take_tensor(prefix, "momentum")?, device),
            q: src
                .take_tensor(prefix, "q")
                .map(|d| Tensor::from_data(d, device)),
            exp_avg_sq: src
                .take_tensor(prefix, "exp_avg_sq")
                .map(|d| Tensor::from_data(d, device)),
        })
    }
}

impl Dion {
    /// r for an `[m, n]` matrix.
    pub fn rank(&self, m: usize, n: usize) -> usize {
        let k = m.min(n);
        let r = (self.config.rank_fraction * k as f64).ceil() as usize;
        r.clamp(1, k.max(1))
    }
}

impl Optimizer for Dion {
    type State<const D: usize> = DionState<D>;

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        tensor: Tensor<D>,
        grad: Tensor<D>,
        state: Option<Self::State<D>>,
    ) -> (Tensor<D>, Option<Self::State<D>>) {
        let c = &self.config;
        let dims = tensor.dims();
        let Some([m, n]) = matrix_dims(&dims).filter(|[m, n]| m * n > 0) else {
            let mut s = state.unwrap_or_else(|| DionState {
                step: 0,
                momentum: grad.zeros_like(),
                q: None,
                exp_avg_sq: None,
            });
            s.step += 1;
            let v = s.exp_avg_sq.take().unwrap_or_else(|| grad.zeros_like());
            let (tensor, exp_avg, exp_avg_sq) = adam_step(
                tensor,
                grad,
                s.momentum,
                v,
                s.step,
                (c.momentum, c.beta2, c.epsilon),
                lr,
                c.weight_decay,
            );
            s.momentum = exp_avg;
            s.exp_avg_sq = Some(exp_avg_sq);
            return (tensor, Some(s));
        };
        let r = self.rank(m, n);
        let device = tensor.device();
        let mut s = state.unwrap_or_else(|| DionState {
            step: 0,
            momentum: grad.zeros_like(),
            q: None,
            exp_avg_sq: None,
        });
        let q_prev =
            s.q.take()
                .unwrap_or_else(|| Tensor::random([n, r], Distribution::Normal(0.0, 1.0), &device));
        s.step += 1;

        let b = s.momentum.reshape([m, n]) + grad.reshape([m, n]);
        let p = c.orthonormalize.apply(b.clone().matmul(q_prev.clone()));
        let r_fac = b.clone().transpose().matmul(p.clone());
        let momentum = b - p.clone().matmul(r_fac.clone().transpose()) * (1.0 - c.momentum);
        let norms = r_fac.clone().powi_scalar(2).sum_dim(0).sqrt();
        let q_hat = r_fac / (norms.clone() + c.epsilon);
        let empty = norms.lower_equal_elem(f32::MIN_POSITIVE).expand([n, r]);
        s.q = Some(q_hat.clone().mask_where(empty, q_prev));
        s.momentum = momentum.reshape(dims);

        let scale = (n as f64 / m as f64).sqrt();
        let update = p.matmul(q_hat.transpose()).reshape(dims);
        let tensor = tensor * (1.0 - lr * c.weight_decay as f64) - update * (lr * scale);
        (tensor, Some(s))
    }

    fn to_device<const D: usize>(mut s: Self::State<D>, device: &Device) -> Self::State<D> {
        s.momentum = s.momentum.to_device(device);
        s.q = s.q.map(|t| t.to_device(device));
        s.exp_avg_sq = s.exp_avg_sq.map(|t| t.to_device(device));
        s
    }
}
