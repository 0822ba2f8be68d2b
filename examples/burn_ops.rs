//! The Burn ops in ordinary Burn code, on the default device (CUDA when built with `cuda` and
//! present, else CubeCL's CPU runtime; Fusion on), with and without autodiff: QR of a batch,
//! a batched Cholesky with its `info`, a solve, and a gradient through QR and Cholesky, each
//! checked on the host.
//!
//! cargo run --release --example burn_ops -- [--m 256] [--n 32] [--batch 8] [--device flex]
use burn::tensor::{Device, Distribution, Tensor};
use burn_ext::QrMode;
use qrchol::cli::Args;

const USAGE: &str = "burn_ops [--m 256] [--n 32] [--batch 8] [--device default|flex]";

fn max_abs<const D: usize>(t: Tensor<D>) -> f32 {
    t.abs().max().into_scalar::<f32>()
}

fn main() -> Result<(), burn_ext::LinalgError> {
    let args = Args::parse(USAGE);
    let (m, n, batch) = (
        args.num("m", 256usize),
        args.num("n", 32usize),
        args.num("batch", 8usize),
    );
    let device = match args.get("device") {
        Some("flex") => Device::flex(),
        _ => Device::default(),
    };
    println!("burn-ext ops on {device:?}: batch {batch} of {m}×{n}");
    println!("(the checks below multiply with Burn's matmul: TF32 on CUDA, so ~1e-3 there)");

    // QR (TSQR for this tall-skinny shape) and the qr_v2 checks.
    let x = Tensor::<3>::random([batch, m, n], Distribution::Normal(0.0, 1.0), &device);
    let (q, r) = burn_ext::qr(x.clone(), QrMode::Reduced)?;
    let eye = Tensor::<2>::eye(n, &device).unsqueeze::<3>();
    let orth = max_abs(q.clone().swap_dims(1, 2).matmul(q.clone()) - eye.clone());
    let resid = max_abs(q.matmul(r.clone()) - x.clone()) / max_abs(x.clone());
    println!("qr:          max|QᵀQ − I| = {orth:.2e}, max|QR − A| / max|A| = {resid:.2e}");

    // Cholesky of the Gram matrices, one made indefinite: info says which, without a sync.
    let gram = x.clone().swap_dims(1, 2).matmul(x.clone()) + eye.clone() * 1e-3;
    let mask = Tensor::<3>::ones([batch, n, n], &device).slice_fill([1..2, 3..4, 3..4], -1e6);
    let gram_bad = gram.clone() * mask;
    let (l, info) = burn_ext::cholesky_ex(gram_bad, false)?;
    let info: Vec<i64> = info.into_data().iter::<i64>().collect();
    println!("cholesky_ex: info = {info:?} (matrix 1 fails at pivot 4)");
    drop(l);
    let l = burn_ext::cholesky(gram.clone(), false)?;
    let resid =
        max_abs(l.clone().matmul(l.clone().swap_dims(1, 2)) - gram.clone()) / max_abs(gram.clone());
    println!("cholesky:    max|LLᵀ − A| / max|A| = {resid:.2e}");
    let b = Tensor::<3>::random([batch, n, 4], Distribution::Normal(0.0, 1.0), &device);
    let sol = burn_ext::cholesky_solve(b.clone(), l, false)?;
    let resid = max_abs(gram.matmul(sol) - b.clone()) / max_abs(b);
    println!("solve:       max|AX − B| / max|B| = {resid:.2e}");

    // Autodiff: d/dX of ‖R‖² + trace-like loss through Cholesky, analytic backward passes.
    let ad = device.autodiff();
    let xa = Tensor::<3>::random([batch, m, n], Distribution::Normal(0.0, 1.0), &ad).require_grad();
    let (_, r) = burn_ext::qr(xa.clone(), QrMode::Reduced)?;
    let g =
        xa.clone().swap_dims(1, 2).matmul(xa.clone()) + Tensor::<2>::eye(n, &ad).unsqueeze::<3>();
    let (l, _) = burn_ext::cholesky_ex(g, false)?;
    let loss = r.powi_scalar(2).sum() + l.sum();
    let grads = loss.backward();
    let gx = xa.grad(&grads).expect("a gradient");
    // ‖R‖_F² = ‖X‖_F², so its gradient is 2X: the QR part checks itself.
    println!(
        "autodiff:    gradient {:?}, finite = {}",
        gx.dims(),
        gx.clone().is_finite().all().into_scalar::<bool>()
    );
    Ok(())
}
