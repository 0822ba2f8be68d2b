//! Gradients through autodiff (our analytic backward passes) against central finite
//! differences of the host f64 implementation (`burn_ext::host`), on each device under test.
//! Loss = Σ W ⊙ outputs with fixed random weights W.
use burn::tensor::{Device, Tensor, TensorData};
use burn_ext::{QrMode, host};
use linalg_common::matgen::spd_from_factor;
use linalg_common::rng::uniform_vec;

fn devices() -> Vec<(&'static str, Device)> {
    vec![
        ("default", Device::default().autodiff()),
        ("flex", Device::flex().autodiff()),
    ]
}

fn upload<const D: usize>(data: &[f32], shape: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::from_data(TensorData::new(data.to_vec(), shape), device)
}

fn read<const D: usize>(t: Tensor<D>) -> Vec<f64> {
    t.into_data().iter::<f64>().collect()
}

fn dot(w: &[f32], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| *a as f64 * b).sum()
}

/// Central differences of `f` at `x` along each coordinate in `coords` (a coordinate is a set
/// of indices perturbed together), compared with Σ of `grad` over that set.
fn check(what: &str, x: &[f32], grad: &[f64], coords: &[Vec<usize>], f: impl Fn(&[f64]) -> f64) {
    let h = 1e-6;
    let x64: Vec<f64> = x.iter().map(|&v| v as f64).collect();
    let mut worst = 0f64;
    let mut scale = 1e-3f64;
    for set in coords {
        let (mut p, mut m) = (x64.clone(), x64.clone());
        for &i in set {
            p[i] += h;
            m[i] -= h;
        }
        let fd = (f(&p) - f(&m)) / (2.0 * h);
        let an: f64 = set.iter().map(|&i| grad[i]).sum();
        worst = worst.max((fd - an).abs());
        scale = scale.max(fd.abs());
    }
    assert!(
        worst <= 2e-3 * scale,
        "{what}: |fd − autodiff| = {worst:.3e} (scale {scale:.3e})"
    );
}

fn singles(len: usize) -> Vec<Vec<usize>> {
    (0..len).map(|i| vec![i]).collect()
}

/// A well-conditioned random m×n matrix (entries in [−1, 1] plus a diagonal shift).
fn matrix(m: usize, n: usize, seed: u64) -> Vec<f32> {
    let mut a = uniform_vec(seed, m * n);
    for i in 0..m.min(n) {
        a[i * n + i] += 2.0;
    }
    a
}

#[test]
fn qr_gradients() {
    for (name, dev) in devices() {
        for &(b, m, n) in &[(1, 7, 4), (1, 4, 7), (2, 6, 3), (1, 5, 5)] {
            let k = m.min(n);
            let a = (0..b)
                .flat_map(|i| matrix(m, n, 3 + i as u64))
                .collect::<Vec<_>>();
            let (wq, wr) = (uniform_vec(91, b * m * k), uniform_vec(92, b * k * n));
            let ta = upload(&a, [b, m, n], &dev).require_grad();
            let (q, r) = burn_ext::qr(ta.clone(), QrMode::Reduced).unwrap();
            let r_dev = read(r.clone());
            let loss =
                (q * upload(&wq, [b, m, k], &dev)).sum() + (r * upload(&wr, [b, k, n], &dev)).sum();
            let grads = loss.backward();
            let g = read(ta.grad(&grads).expect("a gradient"));
            // The device's sign convention (TSQR's may differ from LAPACK's), held fixed.
            let signs: Vec<f64> = (0..b)
                .flat_map(|i| {
                    let a64: Vec<f64> = a[i * m * n..][..m * n].iter().map(|&v| v as f64).collect();
                    let (_, rh) = host::qr(&a64, m, n, false, true);
                    (0..k)
                        .map(|j| (rh[j * n + j] * r_dev[i * k * n + j * n + j]).signum())
                        .collect::<Vec<_>>()
                })
                .collect();
            let f = |x: &[f64]| {
                (0..b)
                    .map(|i| {
                        let (mut q, mut r) = host::qr(&x[i * m * n..][..m * n], m, n, false, true);
                        for j in 0..k {
                            let s = signs[i * k + j];
                            (0..m).for_each(|row| q[row * k + j] *= s);
                            (0..n).for_each(|c| r[j * n + c] *= s);
                        }
                        dot(&wq[i * m * k..][..m * k], &q) + dot(&wr[i * k * n..][..k * n], &r)
                    })
                    .sum()
            };
            check(
                &format!("{name} qr {b}x{m}x{n}"),
                &a,
                &g,
                &singles(a.len()),
                f,
            );
        }
        // Complete mode of a wide matrix is the reduced one: differentiable too.
        let (m, n) = (3, 5);
        let a = matrix(m, n, 4);
        let (wq, wr) = (uniform_vec(5, m * m), uniform_vec(6, m * n));
        let ta = upload(&a, [m, n], &dev).require_grad();
        let (q, r) = burn_ext::qr(ta.clone(), QrMode::Complete).unwrap();
        let loss = (q * upload(&wq, [m, m], &dev)).sum() + (r * upload(&wr, [m, n], &dev)).sum();
        let g = read(ta.grad(&loss.backward()).unwrap());
        let f = |x: &[f64]| {
            let (q, r) = host::qr(x, m, n, true, true);
            dot(&wq, &q) + dot(&wr, &r)
        };
        check(
            &format!("{name} qr complete wide"),
            &a,
            &g,
            &singles(a.len()),
            f,
        );
    }
}

#[test]
fn tsqr_gradient() {
    for (name, dev) in devices() {
        let (m, n) = (40, 3);
        let a = matrix(m, n, 8);
        let (wq, wr) = (uniform_vec(1, m * n), uniform_vec(2, n * n));
        let ta = upload(&a, [m, n], &dev).require_grad();
        let (q, r) = burn_ext::tsqr(ta.clone()).unwrap();
        let r_dev = read(r.clone());
        let loss = (q * upload(&wq, [m, n], &dev)).sum() + (r * upload(&wr, [n, n], &dev)).sum();
        let g = read(ta.grad(&loss.backward()).unwrap());
        let a64: Vec<f64> = a.iter().map(|&v| v as f64).collect();
        let (_, rh) = host::qr(&a64, m, n, false, true);
        let signs: Vec<f64> = (0..n)
            .map(|j| (rh[j * n + j] * r_dev[j * n + j]).signum())
            .collect();
        let f = |x: &[f64]| {
            let (mut q, mut r) = host::qr(x, m, n, false, true);
            for j in 0..n {
                (0..m).for_each(|row| q[row * n + j] *= signs[j]);
                (0..n).for_each(|c| r[j * n + c] *= signs[j]);
            }
            dot(&wq, &q) + dot(&wr, &r)
        };
        check(&format!("{name} tsqr"), &a, &g, &singles(a.len()), f);
    }
}

/// Symmetric perturbations: (i, j) and (j, i) together.
fn symmetric_pairs(n: usize) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for i in 0..n {
        for j in 0..=i {
            v.push(if i == j {
                vec![i * n + i]
            } else {
                vec![i * n + j, j * n + i]
            });
        }
    }
    v
}

#[test]
fn cholesky_gradient() {
    for (name, dev) in devices() {
        let n = 6;
        for upper in [false, true] {
            let (a, _) = spd_from_factor(n, 10.0, 3);
            let w = uniform_vec(4, 2 * n * n);
            let (a1, _) = spd_from_factor(n, 100.0, 4);
            let a2 = [a, a1].concat();
            let ta = upload(&a2, [2, n, n], &dev).require_grad();
            let (l, _) = burn_ext::cholesky_ex(ta.clone(), upper).unwrap();
            let loss = (l * upload(&w, [2, n, n], &dev)).sum();
            let g = read(ta.grad(&loss.backward()).unwrap());
            for i in 0..2 {
                let f = |x: &[f64]| dot(&w[i * n * n..][..n * n], &host::cholesky(x, n, upper).0);
                check(
                    &format!("{name} cholesky upper={upper} matrix {i}"),
                    &a2[i * n * n..][..n * n],
                    &g[i * n * n..][..n * n],
                    &symmetric_pairs(n),
                    f,
                );
            }
        }
    }
}

/// Indices of an n×n triangle (strict when `unit`).
fn triangle(n: usize, upper: bool, unit: bool) -> Vec<Vec<usize>> {
    let mut v = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let on = if upper {
                j > i || (j == i && !unit)
            } else {
                j < i || (j == i && !unit)
            };
            if on {
                v.push(vec![i * n + j]);
            }
        }
    }
    v
}

fn factor(n: usize, seed: u64, upper: bool) -> Vec<f32> {
    let u = uniform_vec(seed, n * n);
    (0..n * n)
        .map(|x| {
            let (i, j) = (x / n, x % n);
            if i == j {
                2.0 + u[x].abs()
            } else if (j > i) == upper {
                u[x] * 0.5
            } else {
                0.0
            }
        })
        .collect()
}

#[test]
fn solve_triangular_gradients() {
    let (n, k) = (5, 3);
    for (name, dev) in devices() {
        for upper in [false, true] {
            for left in [true, false] {
                for unit in [false, true] {
                    let a = factor(n, 10, upper);
                    let b = uniform_vec(11, n * k);
                    let bshape = if left { [n, k] } else { [k, n] };
                    let w = uniform_vec(12, n * k);
                    let (ta, tb) = (
                        upload(&a, [n, n], &dev).require_grad(),
                        upload(&b, bshape, &dev).require_grad(),
                    );
                    let x = burn_ext::solve_triangular(ta.clone(), tb.clone(), upper, left, unit)
                        .unwrap();
                    let grads = (x * upload(&w, bshape, &dev)).sum().backward();
                    let (ga, gb) = (
                        read(ta.grad(&grads).unwrap()),
                        read(tb.grad(&grads).unwrap()),
                    );
                    let what = format!("{name} solve upper={upper} left={left} unit={unit}");
                    let a64: Vec<f64> = a.iter().map(|&v| v as f64).collect();
                    let b64: Vec<f64> = b.iter().map(|&v| v as f64).collect();
                    check(
                        &format!("{what} dA"),
                        &a,
                        &ga,
                        &triangle(n, upper, unit),
                        |x| {
                            dot(
                                &w,
                                &host::solve_triangular(x, &b64, n, k, upper, left, unit),
                            )
                        },
                    );
                    check(&format!("{what} dB"), &b, &gb, &singles(n * k), |x| {
                        dot(
                            &w,
                            &host::solve_triangular(&a64, x, n, k, upper, left, unit),
                        )
                    });
                    // Entries that are never read get no gradient.
                    let outside: Vec<usize> = (0..n * n)
                        .filter(|p| !triangle(n, upper, unit).iter().any(|s| s[0] == *p))
                        .collect();
                    assert!(
                        outside.iter().all(|&p| ga[p] == 0.0),
                        "{what}: gradient outside the triangle"
                    );
                }
            }
        }
        // Batched: one A broadcast over three B; dA sums over the batch.
        let a = factor(n, 20, false);
        let b = uniform_vec(21, 3 * n * k);
        let w = uniform_vec(22, 3 * n * k);
        let ta = upload(&a, [1, n, n], &dev).require_grad();
        let x =
            burn_ext::solve_triangular(ta.clone(), upload(&b, [3, n, k], &dev), false, true, false)
                .unwrap();
        let ga = read(
            ta.grad(&(x * upload(&w, [3, n, k], &dev)).sum().backward())
                .unwrap(),
        );
        let b64: Vec<f64> = b.iter().map(|&v| v as f64).collect();
        check(
            &format!("{name} batched solve dA"),
            &a,
            &ga,
            &triangle(n, false, false),
            |x| {
                (0..3)
                    .map(|i| {
                        dot(
                            &w[i * n * k..][..n * k],
                            &host::solve_triangular(
                                x,
                                &b64[i * n * k..][..n * k],
                                n,
                                k,
                                false,
                                true,
                                false,
                            ),
                        )
                    })
                    .sum()
            },
        );
    }
}

#[test]
fn cholesky_solve_and_inverse_gradients() {
    let (n, k) = (5, 2);
    for (name, dev) in devices() {
        for upper in [false, true] {
            let l = factor(n, 30, upper);
            let b = uniform_vec(31, n * k);
            let w = uniform_vec(32, n * k);
            let (tl, tb) = (
                upload(&l, [n, n], &dev).require_grad(),
                upload(&b, [n, k], &dev).require_grad(),
            );
            let x = burn_ext::cholesky_solve(tb.clone(), tl.clone(), upper).unwrap();
            let grads = (x * upload(&w, [n, k], &dev)).sum().backward();
            let (gl, gb) = (
                read(tl.grad(&grads).unwrap()),
                read(tb.grad(&grads).unwrap()),
            );
            let l64: Vec<f64> = l.iter().map(|&v| v as f64).collect();
            let b64: Vec<f64> = b.iter().map(|&v| v as f64).collect();
            let what = format!("{name} cholesky_solve upper={upper}");
            check(
                &format!("{what} dL"),
                &l,
                &gl,
                &triangle(n, upper, false),
                |x| dot(&w, &host::cholesky_solve(x, &b64, n, k, upper)),
            );
            check(&format!("{what} dB"), &b, &gb, &singles(n * k), |x| {
                dot(&w, &host::cholesky_solve(&l64, x, n, k, upper))
            });

            let wi = uniform_vec(33, n * n);
            let tl = upload(&l, [n, n], &dev).require_grad();
            let inv = burn_ext::cholesky_inverse(tl.clone(), upper).unwrap();
            let gl = read(
                tl.grad(&(inv * upload(&wi, [n, n], &dev)).sum().backward())
                    .unwrap(),
            );
            check(
                &format!("{name} cholesky_inverse upper={upper}"),
                &l,
                &gl,
                &triangle(n, upper, false),
                |x| dot(&wi, &host::cholesky_inverse(x, n, upper)),
            );
        }
    }
}
