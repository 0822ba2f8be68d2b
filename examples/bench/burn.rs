//! `--burn-compare`: QR through the Burn API on the default device, ours (`burn_ext::qr`)
//! against burn-linalg's `qr` (Householder from Burn tensor ops, the in-framework
//! alternative), on the same inputs; medians of synchronised wall times and the ratio, plus
//! max|QR − A| / max|A| of both.
use burn::tensor::{Device, Tensor, TensorData};
use linalg_common::rng::uniform_vec;
use std::time::Instant;

/// Median of `samples` synchronised runs of `f` (ms) after one warm-up run.
pub(crate) fn median_ms<T>(device: &Device, samples: usize, mut f: impl FnMut() -> T) -> f64 {
    drop(f()); // warm-up: JIT, autotune
    device.sync().expect("sync");
    let mut t: Vec<f64> = (0..samples.max(1))
        .map(|_| {
            let s = Instant::now();
            let out = f();
            device.sync().expect("sync");
            let e = s.elapsed().as_secs_f64() * 1e3;
            drop(out);
            e
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn rel_resid(q: Tensor<3>, r: Tensor<3>, a: &Tensor<3>) -> f32 {
    let d = (q.matmul(r) - a.clone()).abs().max().into_scalar::<f32>();
    d / a.clone().abs().max().into_scalar::<f32>()
}

pub fn burn_compare(samples: usize) {
    let device = Device::default();
    println!("QR (reduced) through the Burn API on {device:?}");
    println!(
        "{:<18} {:>12} {:>15} {:>9} {:>11} {:>11}",
        "shape", "burn-ext ms", "burn-linalg ms", "ratio", "resid ours", "resid b-l"
    );
    for &(b, m, n) in &[
        (1usize, 64usize, 64usize),
        (1, 256, 256),
        (1, 512, 512),
        (8, 512, 512),
        (1, 4096, 64),
    ] {
        let a = Tensor::<3>::from_data(
            TensorData::new(uniform_vec(3, b * m * n), [b, m, n]),
            &device,
        );
        let ours = median_ms(&device, samples, || {
            burn_ext::qr(a.clone(), burn_ext::QrMode::Reduced).expect("qr")
        });
        let theirs = median_ms(&device, samples.min(5), || {
            burn::linalg::qr(a.clone(), true)
        });
        let (q, r) = burn_ext::qr(a.clone(), burn_ext::QrMode::Reduced).expect("qr");
        let (q2, r2) = burn::linalg::qr(a.clone(), true);
        println!(
            "{:<18} {:>12.3} {:>15.3} {:>8.1}x {:>11.2e} {:>11.2e}",
            format!("{b}x{m}x{n}"),
            ours,
            theirs,
            theirs / ours,
            rel_resid(q, r, &a),
            rel_resid(q2, r2, &a)
        );
    }
}
