//! `--optim`: one optimizer step on a single weight matrix through the Burn API on the default
//! device — AdamW and burn's Muon (baselines), our SOAP (a step without and with the eigenbasis
//! refresh) and our Dion (QR, Cholesky-QR2) — and the time of the orthonormalizations alone, on
//! the same inputs. `--optim-linalg` times instead the SOAP refresh and the Dion step with
//! burn-linalg's `qr` in place of ours (one run each: they take seconds).
//! Medians of synchronised wall times (ms).
use crate::burn::median_ms;
use burn::optim::{AdamWConfig, MuonConfig, Optimizer};
use burn::tensor::{Device, Distribution, Tensor};
use burn_ext::optim::{DionConfig, Orthonormalize, SoapConfig, SoapState};
use std::time::Instant;

/// One synchronised run, no warm-up (for burn-linalg at sizes where a run takes seconds; its
/// kernels were compiled by a small call before).
fn once_ms<T>(device: &Device, f: impl FnOnce() -> T) -> f64 {
    device.sync().expect("sync");
    let s = Instant::now();
    let out = f();
    device.sync().expect("sync");
    drop(out);
    s.elapsed().as_secs_f64() * 1e3
}

fn step_ms<O: Optimizer>(
    device: &Device,
    samples: usize,
    optim: &O,
    w: &Tensor<2>,
    g: &Tensor<2>,
    state: Option<O::State<2>>,
) -> f64 {
    let run = || optim.step(1e-3, w.clone(), g.clone(), state.clone());
    if samples == 0 {
        once_ms(device, run)
    } else {
        median_ms(device, samples, run)
    }
}

/// A state after one (initialising) step.
fn warm<O: Optimizer>(optim: &O, w: &Tensor<2>, g: &Tensor<2>) -> O::State<2> {
    optim
        .step(1e-3, w.clone(), g.clone(), None)
        .1
        .expect("state")
}

/// SOAP's state with both factors from this gradient and identity bases (its first step
/// would run `init_iterations` refreshes; the steps timed here do not depend on the basis).
fn soap_state(g: &Tensor<2>, max_dim: usize) -> SoapState<2> {
    let [m, n] = g.dims();
    let device = g.device();
    let side = |k: usize, f: Tensor<2>| (k <= max_dim).then_some(f);
    SoapState {
        step: 1,
        exp_avg: g.zeros_like(),
        exp_avg_sq: g.zeros_like(),
        left: side(m, g.clone().matmul(g.clone().transpose())),
        right: side(n, g.clone().transpose().matmul(g.clone())),
        q_left: side(m, Tensor::eye(m, &device)),
        q_right: side(n, Tensor::eye(n, &device)),
    }
}

/// max |PᵀP − I| in f64 over the first and last 32 columns of the row-major m×r matrix P.
fn orthogonality(p: &[f32], m: usize, r: usize) -> f64 {
    let cols: Vec<usize> = (0..r.min(32))
        .chain(r.saturating_sub(32).max(32)..r)
        .collect();
    let mut worst = 0f64;
    for &j in &cols {
        for &k in &cols {
            let g: f64 = (0..m)
                .map(|i| p[i * r + j] as f64 * p[i * r + k] as f64)
                .sum();
            worst = worst.max((g - if j == k { 1.0 } else { 0.0 }).abs());
        }
    }
    worst
}

pub fn optim_bench(samples: usize, shapes: &[(usize, usize)], linalg: bool) {
    let device = Device::default();
    println!("optimizer step on one weight, {device:?}; median ms of synchronised runs");
    println!(
        "{:<11} {:<34} {:>11} {:>14} {:>7}",
        "weight", "step", "ms", "ortho ms", "share"
    );
    let row = |shape: &str, what: &str, ms: f64, ortho: Option<f64>| match ortho {
        Some(o) => println!(
            "{shape:<11} {what:<34} {ms:>11.2} {o:>14.2} {:>6.0}%",
            100.0 * o / ms
        ),
        None => println!("{shape:<11} {what:<34} {ms:>11.2} {:>14} {:>7}", "", ""),
    };
    if linalg {
        // Compile burn-linalg's kernels on a small matrix first.
        let a = Tensor::<2>::random([256, 256], Distribution::Normal(0.0, 1.0), &device);
        let _ = burn::linalg::qr(a, true).0.into_data();
    }
    for &(m, n) in shapes {
        let shape = format!("{m}x{n}");
        let w = Tensor::<2>::random([m, n], Distribution::Normal(0.0, 0.02), &device);
        let g = Tensor::<2>::random([m, n], Distribution::Normal(0.0, 1.0), &device);

        if !linalg {
            let adamw = AdamWConfig::new().build();
            let st = warm(&adamw, &w, &g);
            row(
                &shape,
                "adamw",
                step_ms(&device, samples, &adamw, &w, &g, Some(st)),
                None,
            );
            let muon = MuonConfig::new().build();
            let st = warm(&muon, &w, &g);
            let t = step_ms(&device, samples, &muon, &w, &g, Some(st));
            row(&shape, "muon (burn, Newton-Schulz)", t, None);
        }

        // SOAP: sides up to the default max_precond_dim (10000), then both sides.
        for max_dim in [10000, 16384] {
            if max_dim > 10000 && m.max(n) <= 10000 {
                continue;
            }
            let tag = if max_dim > 10000 { " [both sides]" } else { "" };
            let state = soap_state(&g, max_dim);
            let plain = SoapConfig::new()
                .with_max_precond_dim(max_dim)
                .with_precondition_frequency(usize::MAX)
                .build();
            let t_plain = step_ms(&device, samples.max(1), &plain, &w, &g, Some(state.clone()));
            if !linalg {
                row(&shape, &format!("soap, no refresh{tag}"), t_plain, None);
            }
            if linalg && max_dim > 10000 {
                continue;
            }
            let orthos = if linalg {
                vec![("burn-linalg qr", Orthonormalize::BurnLinalgQr, 0)]
            } else {
                vec![("qr (ours)", Orthonormalize::Qr, samples.min(5))]
            };
            for (label, o, s) in orthos {
                let refresh = SoapConfig::new()
                    .with_max_precond_dim(max_dim)
                    .with_precondition_frequency(1)
                    .with_orthonormalize(o)
                    .build();
                let t = step_ms(&device, s, &refresh, &w, &g, Some(state.clone()));
                // The refresh's orthonormalizations alone, on the same L·Q and R·Q.
                let mut ortho = 0.0;
                for f in [&state.left, &state.right].into_iter().flatten() {
                    let lq = f.clone().matmul(Tensor::eye(f.dims()[0], &device));
                    ortho += if s == 0 {
                        once_ms(&device, || o.apply(lq.clone()))
                    } else {
                        median_ms(&device, s, || o.apply(lq.clone()))
                    };
                }
                row(
                    &shape,
                    &format!("soap refresh, {label}{tag}"),
                    t,
                    Some(ortho),
                );
                let amortized = (9.0 * t_plain + t) / 10.0;
                row(
                    &shape,
                    &format!("soap every 10, {label}{tag}"),
                    amortized,
                    Some(ortho / 10.0),
                );
            }
        }

        // Dion, rank 1/4 of min(m, n).
        let orthos = if linalg {
            vec![("burn-linalg qr", Orthonormalize::BurnLinalgQr, 0)]
        } else {
            vec![
                ("qr (ours)", Orthonormalize::Qr, samples),
                ("cholesky-qr2 (ours)", Orthonormalize::CholeskyQr2, samples),
            ]
        };
        for (label, o, s) in orthos {
            let dion = DionConfig::new().with_orthonormalize(o).build();
            let st = warm(&dion, &w, &g);
            let t = step_ms(&device, s, &dion, &w, &g, Some(st.clone()));
            let p = g.clone().matmul(st.q.clone().expect("q"));
            let ortho = if s == 0 {
                once_ms(&device, || o.apply(p.clone()))
            } else {
                median_ms(&device, s, || o.apply(p.clone()))
            };
            let q = o.apply(p);
            let r = q.dims()[1];
            let orth = orthogonality(&q.to_data().iter::<f32>().collect::<Vec<_>>(), m, r);
            row(&shape, &format!("dion r={r}, {label}"), t, Some(ortho));
            println!(
                "{:<11}   max|PᵀP − I| of that P (f64, first and last 32 columns): {orth:.2e}",
                ""
            );
        }
    }
}
