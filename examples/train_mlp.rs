//! Trains one MLP with AdamW, burn's Muon, our SOAP and our Dion (QR and Cholesky-QR2
//! orthonormalization) for the same steps, from the same initial weights, on the same batches,
//! on the default device (CUDA when built with `cuda` and present, else CubeCL's CPU runtime).
//!
//! The task: regression onto a fixed random teacher network whose inputs have graded scales
//! (κ of the input covariance = `--kappa`²), generated here — no download. Biases go to AdamW
//! through a parameter group ([`burn_ext::optim::matrix_params`] of the hidden layers) for Muon,
//! SOAP and Dion, with the first and last layers (as Muon's and Dion's authors advise).
//! Writes `losses.csv` (optimizer, step, train loss, eval loss) and `losses.svg` to `--out`,
//! prints a progress bar and a summary table.
//!
//! cargo run --release --example train_mlp -- [--steps 400] [--seed 1] [--out train_out]
//!     [--width 256] [--batch 256] [--kappa 100] [--only soap,dion-qr] [--lr soap=3e-3,muon=0.02]
//!     [--lr-scale 1]
use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer, MuonConfig};
use burn::tensor::activation::{relu, tanh};
use burn::tensor::{Device, Int, Tensor, TensorData};
use burn_ext::optim::{DionConfig, Orthonormalize, SoapConfig, matrix_params};
use linalg_common::rng::uniform_vec;
use plotters::prelude::*;
use qrchol::cli::Args;
use std::io::Write;
use std::time::Instant;

const USAGE: &str = "train_mlp [--steps 400] [--seed 1] [--out train_out] [--width 256] \
                     [--batch 256] [--kappa 100] [--only adamw,muon,soap,dion-qr,dion-cholqr] \
                     [--lr NAME=LR,...] [--lr-scale 1]";
const IN: usize = 32;
const OUT: usize = 8;
const TRAIN: usize = 8192;
const EVAL: usize = 2048;

/// input → hidden[0] → hidden[1] → head, ReLU between. The matrix optimizers take the hidden
/// weights (as Muon and Dion recommend: first and last layers stay on AdamW).
#[derive(Module, Debug)]
struct Mlp {
    input: Linear,
    hidden: Vec<Linear>,
    head: Linear,
}

impl Mlp {
    fn new(width: usize, device: &Device) -> Self {
        Self {
            input: LinearConfig::new(IN, width).init(device),
            hidden: (0..2)
                .map(|_| LinearConfig::new(width, width).init(device))
                .collect(),
            head: LinearConfig::new(width, OUT).init(device),
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let mut h = relu(self.input.forward(x));
        for layer in &self.hidden {
            h = relu(layer.forward(h));
        }
        self.head.forward(h)
    }
}

/// Inputs with column scales from 1 down to 1/κ, targets from a random two-layer teacher.
fn dataset(rows: usize, kappa: f32, seed: u64, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let scales: Vec<f32> = (0..IN)
        .map(|j| kappa.powf(-(j as f32) / (IN - 1) as f32))
        .collect();
    let mut x = uniform_vec(seed, rows * IN);
    for (i, v) in x.iter_mut().enumerate() {
        *v *= 1.7 * scales[i % IN];
    }
    let x = Tensor::<2>::from_data(TensorData::new(x, [rows, IN]), device);
    let teacher = |s, r, c| {
        let w: Vec<f32> = uniform_vec(s, r * c).iter().map(|v| v * 3.0).collect();
        Tensor::<2>::from_data(TensorData::new(w, [r, c]), device)
    };
    // The teacher sees every input direction at the same strength: small inputs matter.
    let scale = Tensor::<2>::from_data(
        TensorData::new(scales.iter().map(|s| 1.0 / s).collect::<Vec<_>>(), [IN, 1]),
        device,
    );
    let w1 = teacher(1000, IN, 64) * scale / (IN as f32).sqrt();
    let w2 = teacher(1001, 64, OUT) / 8.0;
    let y = tanh(x.clone().matmul(w1)).matmul(w2);
    (x, y)
}

fn optimizer(name: &str, model: &Mlp) -> (ModuleOptimizer, f64) {
    let adamw = || AdamWConfig::new().with_weight_decay(0.01).build();
    let group = matrix_params(&model.hidden);
    match name {
        "adamw" => (ModuleOptimizer::from(adamw()), 3e-3),
        "muon" => (
            ModuleOptimizer::from(adamw()).with_group(group, MuonConfig::new().build(), None),
            0.02,
        ),
        "soap" => (
            ModuleOptimizer::from(adamw()).with_group(group, SoapConfig::new().build(), None),
            3e-3,
        ),
        "dion-qr" => (
            ModuleOptimizer::from(adamw()).with_group(group, DionConfig::new().build(), None),
            0.02,
        ),
        "dion-cholqr" => (
            ModuleOptimizer::from(adamw()).with_group(
                group,
                DionConfig::new()
                    .with_orthonormalize(Orthonormalize::CholeskyQr2)
                    .build(),
                None,
            ),
            0.02,
        ),
        other => panic!("unknown optimizer {other}; {USAGE}"),
    }
}

fn mse(pred: Tensor<2>, y: Tensor<2>) -> Tensor<1> {
    (pred - y).powi_scalar(2).mean()
}

struct Run {
    name: String,
    lr: f64,
    train: Vec<f32>,
    eval: Vec<(usize, f32)>,
    ms_per_step: f64,
}

fn progress(name: &str, step: usize, steps: usize, loss: Option<f32>) {
    let width = 30;
    let done = width * step / steps;
    let loss = loss.map_or(String::new(), |l| format!(" loss {l:.4e}"));
    eprint!(
        "\r{name:<12} [{}{}] {step:>5}/{steps}{loss}   ",
        "#".repeat(done),
        ".".repeat(width - done)
    );
    let _ = std::io::stderr().flush();
}

fn main() {
    let args = Args::parse(USAGE);
    let steps = args.num("steps", 400usize);
    let seed = args.num("seed", 1u64);
    let width = args.num("width", 256usize);
    let batch = args.num("batch", 256usize);
    let kappa = args.num("kappa", 100f32);
    let out = std::path::PathBuf::from(args.get("out").unwrap_or("train_out"));
    let names: Vec<String> = args
        .get("only")
        .unwrap_or("adamw,muon,soap,dion-qr,dion-cholqr")
        .split(',')
        .map(str::to_string)
        .collect();
    let lr_scale = args.num("lr-scale", 1f64);
    let lr_override: Vec<(String, f64)> = args
        .get("lr")
        .unwrap_or("")
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (name, lr) = s.split_once('=').expect("--lr NAME=LR,...");
            (name.to_string(), lr.parse().expect("a learning rate"))
        })
        .collect();
    std::fs::create_dir_all(&out).expect("create the output folder");

    let device = Device::default().autodiff();
    device.seed(seed);
    println!(
        "train_mlp on {device:?}: MLP {IN}→{width}→{width}→{width}→{OUT}, {steps} steps of batch {batch}, \
         inputs graded to κ = {kappa}, seed {seed}"
    );
    let (x, y) = dataset(TRAIN, kappa, seed, &device);
    let (xe, ye) = dataset(EVAL, kappa, seed + 7, &device);
    let (xe, ye) = (xe.inner(), ye.inner());
    let init = Mlp::new(width, &device);
    // One batch order for all: a fresh random permutation per epoch.
    let order: Vec<i64> = (0..steps * batch / TRAIN + 1)
        .flat_map(|epoch| {
            let keys = uniform_vec(seed * 7919 + epoch as u64, TRAIN);
            let mut idx: Vec<usize> = (0..TRAIN).collect();
            idx.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
            idx.into_iter().map(|i| i as i64)
        })
        .collect();

    let mut runs = Vec::new();
    for name in &names {
        // Warm-up on a copy (JIT compilation and matmul autotuning are not timed): 11 steps,
        // past SOAP's first refresh.
        let (mut optim, _) = optimizer(name, &init);
        let mut warm = init.clone();
        for step in 0..11 {
            let rows = &order[step * batch..(step + 1) * batch];
            let idx = Tensor::<1, Int>::from_data(TensorData::new(rows.to_vec(), [batch]), &device);
            let loss = mse(
                warm.forward(x.clone().select(0, idx.clone())),
                y.clone().select(0, idx),
            );
            let grads = GradientsParams::from_grads(loss.backward(), &warm);
            warm = optim.step(1e-4, warm, grads);
        }
        let _ = mse(warm.valid().forward(xe.clone()), ye.clone()).into_scalar::<f32>();
        let (mut optim, lr) = optimizer(name, &init);
        let lr = lr_override
            .iter()
            .find(|(n, _)| n == name)
            .map_or(lr, |(_, lr)| *lr)
            * lr_scale;
        let mut model = init.clone();
        let mut losses = Vec::with_capacity(steps);
        let mut eval = Vec::new();
        let mut eval_time = 0.0;
        device.sync().expect("sync");
        let start = Instant::now();
        for step in 0..steps {
            let idx = Tensor::<1, Int>::from_data(
                TensorData::new(order[step * batch..(step + 1) * batch].to_vec(), [batch]),
                &device,
            );
            let loss = mse(
                model.forward(x.clone().select(0, idx.clone())),
                y.clone().select(0, idx),
            );
            losses.push(loss.clone().inner());
            let grads = GradientsParams::from_grads(loss.backward(), &model);
            model = optim.step(lr, model, grads);
            if step % 25 == 24 || step + 1 == steps {
                let t = Instant::now();
                let e = mse(model.valid().forward(xe.clone()), ye.clone()).into_scalar::<f32>();
                eval.push((step + 1, e));
                progress(name, step + 1, steps, Some(e));
                eval_time += t.elapsed().as_secs_f64();
            }
        }
        device.sync().expect("sync");
        let secs = start.elapsed().as_secs_f64() - eval_time;
        eprintln!();
        let train: Vec<f32> = Tensor::cat(losses, 0).into_data().iter::<f32>().collect();
        runs.push(Run {
            name: name.clone(),
            lr,
            train,
            eval,
            ms_per_step: secs * 1e3 / steps as f64,
        });
    }

    let mut csv = String::from("optimizer,step,train_loss,eval_loss\n");
    for r in &runs {
        for (i, l) in r.train.iter().enumerate() {
            let e = r
                .eval
                .iter()
                .find(|(s, _)| *s == i + 1)
                .map(|(_, e)| e.to_string());
            csv += &format!("{},{},{},{}\n", r.name, i + 1, l, e.unwrap_or_default());
        }
    }
    std::fs::write(out.join("losses.csv"), csv).expect("write losses.csv");
    plot(&runs, &out.join("losses.svg"), steps);

    println!(
        "\n{:<12} {:>9} {:>15} {:>14} {:>14} {:>10} {:>6}",
        "optimizer", "lr", "train (last 25)", "eval @100", "eval final", "ms/step", "NaN"
    );
    for r in &runs {
        let tail = &r.train[r.train.len().saturating_sub(25)..];
        let mean = tail.iter().sum::<f32>() / tail.len() as f32;
        let at100 = r
            .eval
            .iter()
            .find(|(s, _)| *s == 100)
            .map_or(f32::NAN, |e| e.1);
        let last = r.eval.last().map_or(f32::NAN, |e| e.1);
        let nan = r.train.iter().any(|v| !v.is_finite()) || !last.is_finite();
        println!(
            "{:<12} {:>9.1e} {:>15.4e} {:>14.4e} {:>14.4e} {:>10.2} {:>6}",
            r.name,
            r.lr,
            mean,
            at100,
            last,
            r.ms_per_step,
            if nan { "yes" } else { "no" }
        );
    }
    println!("wrote {}/losses.csv and losses.svg", out.display());
}

/// Eval loss (markers) and a 25-step moving average of the train loss, log scale.
fn plot(runs: &[Run], path: &std::path::Path, steps: usize) {
    let smooth = |v: &[f32]| -> Vec<(usize, f32)> {
        (0..v.len())
            .map(|i| {
                let w = &v[i.saturating_sub(24)..=i];
                (i + 1, w.iter().sum::<f32>() / w.len() as f32)
            })
            .collect()
    };
    let finite = runs
        .iter()
        .flat_map(|r| r.train.iter().copied())
        .filter(|v| v.is_finite() && *v > 0.0);
    let (lo, hi) = finite.fold((f32::MAX, f32::MIN), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        return;
    }
    let root = SVGBackend::new(path, (960, 600)).into_drawing_area();
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "MLP regression: training loss (25-step mean)",
                ("sans-serif", 22),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0..steps, (lo * 0.8..hi * 1.2).log_scale())?;
        chart.configure_mesh().x_desc("step").y_desc("MSE").draw()?;
        for (i, r) in runs.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(smooth(&r.train), color.stroke_width(2)))?
                .label(r.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    if let Err(e) = draw() {
        eprintln!("plot: {e}");
    }
}
