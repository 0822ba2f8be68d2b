//! Every op through the public Burn API, on each device under test: the default device (CUDA
//! when built with `cuda`, else CubeCL's CPU runtime; Fusion on) and Flex (the host fallback).
//! Checked in f64 on the host against the qr_v2 / Cholesky gates, against each other, against
//! burn-linalg's QR, and with strided, sliced, permuted, half-precision and empty inputs.
use burn::tensor::{DType, Device, FloatDType, Int, Tensor, TensorData};
use burn_ext::{LinalgError, MatmulPrecision, QrMode, Side};
use linalg_common::matgen::{MatrixClass, generate, spd_from_factor};
use linalg_common::reference::{
    cholesky_bound, matmul, norm1, orth_bound, q_from_reflectors, resid_bound,
};
use linalg_common::rng::uniform_vec;

fn devices() -> Vec<(&'static str, Device)> {
    vec![("default", Device::default()), ("flex", Device::flex())]
}

fn upload<const D: usize>(data: &[f32], shape: [usize; D], device: &Device) -> Tensor<D> {
    Tensor::from_data(TensorData::new(data.to_vec(), shape), device)
}

fn read<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().iter::<f32>().collect()
}

fn f64s(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&v| v as f64).collect()
}

/// `batch` matrices of `class`, one seed each.
fn batch_of(class: MatrixClass, batch: usize, m: usize, n: usize, seed: u64) -> Vec<f32> {
    (0..batch)
        .flat_map(|b| generate(class, m, n, seed + b as u64))
        .collect()
}

/// ‖QᵀQ − I‖₁ (Q m×k) and ‖A − Q·R‖₁/‖A‖₁ (R k×n) for one matrix, and whether R is upper
/// triangular; all in f64.
fn factor_errors(
    a: &[f32],
    q: &[f32],
    r: &[f32],
    m: usize,
    n: usize,
    k: usize,
) -> (f64, f64, bool) {
    let (a, q, r) = (f64s(a), f64s(q), f64s(r));
    let qt: Vec<f64> = (0..k * m).map(|x| q[(x % m) * k + x / m]).collect();
    let mut qtq = matmul(&qt, &q, k, m, k);
    for i in 0..k {
        qtq[i * k + i] -= 1.0;
    }
    let qr = matmul(&q, &r, m, k, n);
    let d: Vec<f64> = a.iter().zip(&qr).map(|(x, y)| x - y).collect();
    let an = norm1(&a, m, n).max(f64::MIN_POSITIVE);
    let upper = (0..k).all(|i| (0..n.min(i)).all(|j| r[i * n + j] == 0.0));
    (norm1(&qtq, k, k), norm1(&d, m, n) / an, upper)
}

#[test]
fn qr_all_modes() {
    for (name, dev) in devices() {
        for &(b, m, n) in &[
            (3, 40, 12),
            (2, 12, 40),
            (1, 130, 97),
            (2, 9, 9),
            (1, 7, 1),
            (2, 1, 6),
        ] {
            let a = batch_of(MatrixClass::Dense, b, m, n, 11 + m as u64);
            let k = m.min(n);
            let ta = upload(&a, [b, m, n], &dev);
            let (q, r) = burn_ext::qr(ta.clone(), QrMode::Reduced).unwrap();
            assert_eq!((q.dims(), r.dims()), ([b, m, k], [b, k, n]));
            let (q, r) = (read(q), read(r));
            for i in 0..b {
                let (orth, resid, upper) = factor_errors(
                    &a[i * m * n..][..m * n],
                    &q[i * m * k..][..m * k],
                    &r[i * k * n..][..k * n],
                    m,
                    n,
                    k,
                );
                assert!(
                    upper && orth <= orth_bound(k) && resid <= resid_bound(n),
                    "{name} reduced {b}x{m}x{n}: {orth:.2e} {resid:.2e}"
                );
            }
            let (qc, rc) = burn_ext::qr(ta.clone(), QrMode::Complete).unwrap();
            assert_eq!((qc.dims(), rc.dims()), ([b, m, m], [b, m, n]));
            let (qc, rc) = (read(qc), read(rc));
            for i in 0..b {
                let (orth, resid, upper) = factor_errors(
                    &a[i * m * n..][..m * n],
                    &qc[i * m * m..][..m * m],
                    &rc[i * m * n..][..m * n],
                    m,
                    n,
                    m,
                );
                assert!(
                    upper && orth <= orth_bound(m) && resid <= resid_bound(n),
                    "{name} complete {b}x{m}x{n}: {orth:.2e} {resid:.2e}"
                );
            }
            // Mode r: the same R up to row signs; Q empty.
            let (q0, r0) = burn_ext::qr(ta, QrMode::R).unwrap();
            assert_eq!((q0.dims(), r0.dims()), ([b, m, 0], [b, k, n]));
            let r0 = read(r0);
            let scale = a.iter().fold(0f32, |s, x| s.max(x.abs())) * (m as f32);
            for (x, y) in r0.iter().zip(&r) {
                assert!(
                    (x.abs() - y.abs()).abs() <= 1e-4 * scale,
                    "{name} mode r {b}x{m}x{n}: {x} vs {y}"
                );
            }
        }
    }
}

#[test]
fn tsqr_and_r_only() {
    for (name, dev) in devices() {
        for &(b, m, n) in &[(2, 300, 16), (1, 64, 64), (3, 33, 1)] {
            let a = batch_of(MatrixClass::GradedColumns { kappa: 1e5 }, b, m, n, 5);
            let ta = upload(&a, [b, m, n], &dev);
            let (q, r) = burn_ext::tsqr(ta.clone()).unwrap();
            let (q, r) = (read(q), read(r));
            for i in 0..b {
                let (orth, resid, upper) = factor_errors(
                    &a[i * m * n..][..m * n],
                    &q[i * m * n..][..m * n],
                    &r[i * n * n..][..n * n],
                    m,
                    n,
                    n,
                );
                assert!(
                    upper && orth <= orth_bound(n) && resid <= resid_bound(n),
                    "{name} tsqr {b}x{m}x{n}: {orth:.2e} {resid:.2e}"
                );
            }
            let r_only = read(burn_ext::tsqr_r(ta).unwrap());
            let scale = a.iter().fold(0f32, |s, x| s.max(x.abs())) * (m as f32);
            for (x, y) in r_only.iter().zip(&r) {
                assert!(
                    (x.abs() - y.abs()).abs() <= 1e-4 * scale,
                    "{name} tsqr_r {b}x{m}x{n}"
                );
            }
        }
        let wide = upload(&uniform_vec(1, 12), [3, 4], &dev);
        assert!(matches!(
            burn_ext::tsqr(wide),
            Err(LinalgError::Unsupported { .. })
        ));
    }
}

#[test]
fn geqrf_householder_product_apply_q() {
    let mut per_device = Vec::new();
    for (name, dev) in devices() {
        let mut outs = Vec::new();
        for &(b, m, n) in &[(2, 9, 6), (1, 6, 9), (3, 40, 33), (2, 70, 70)] {
            let a = batch_of(MatrixClass::Conditioned { kappa: 1e4 }, b, m, n, 21);
            let k = m.min(n);
            let (h, tau) = burn_ext::geqrf::<3, 2>(upload(&a, [b, m, n], &dev)).unwrap();
            assert_eq!((h.dims(), tau.dims()), ([b, m, n], [b, k]));
            let (hv, tv) = (read(h.clone()), read(tau.clone()));
            // An independent host Q from (H, τ) must rebuild A with triu(H).
            let mut q_host = Vec::new();
            for i in 0..b {
                let hi = &hv[i * m * n..][..m * n];
                let q = q_from_reflectors(hi, &tv[i * k..][..k], m, n, k);
                let qf: Vec<f32> = q.iter().map(|&x| x as f32).collect();
                let r: Vec<f32> = (0..k * n)
                    .map(|x| if x % n >= x / n { hi[x] } else { 0.0 })
                    .collect();
                let (orth, resid, _) = factor_errors(&a[i * m * n..][..m * n], &qf, &r, m, n, k);
                assert!(
                    orth <= orth_bound(k) && resid <= resid_bound(n),
                    "{name} geqrf {b}x{m}x{n}: {orth:.2e} {resid:.2e}"
                );
                q_host.extend(q);
            }
            if m >= n {
                let q = read(burn_ext::householder_product(h.clone(), tau.clone()).unwrap());
                let err = q
                    .iter()
                    .zip(&q_host)
                    .fold(0f64, |e, (x, y)| e.max((*x as f64 - y).abs()));
                assert!(
                    err <= 1e-5,
                    "{name} householder_product {b}x{m}x{n}: {err:.2e}"
                );
            }
            // apply_q on both sides, both ways, against the host's square Q.
            let p = 5;
            for (side, cshape) in [(Side::Left, [b, m, p]), (Side::Right, [b, p, m])] {
                let c = uniform_vec(3, b * m * p);
                for transpose in [false, true] {
                    let out = read(
                        burn_ext::apply_q(
                            h.clone(),
                            tau.clone(),
                            upload(&c, cshape, &dev),
                            side,
                            transpose,
                        )
                        .unwrap(),
                    );
                    for i in 0..b {
                        let qsq = q_from_reflectors(
                            &hv[i * m * n..][..m * n],
                            &tv[i * k..][..k],
                            m,
                            n,
                            m,
                        );
                        let q = if transpose {
                            (0..m * m).map(|x| qsq[(x % m) * m + x / m]).collect()
                        } else {
                            qsq
                        };
                        let ci = f64s(&c[i * m * p..][..m * p]);
                        let want = if side == Side::Left {
                            matmul(&q, &ci, m, m, p)
                        } else {
                            matmul(&ci, &q, p, m, m)
                        };
                        let err = want
                            .iter()
                            .zip(&out[i * m * p..])
                            .fold(0f64, |e, (x, y)| e.max((x - *y as f64).abs()));
                        assert!(
                            err <= 1e-5 * m as f64,
                            "{name} apply_q {side:?} t={transpose} {b}x{m}x{n}: {err:.2e}"
                        );
                    }
                }
            }
            outs.push((hv, tv));
        }
        per_device.push(outs);
    }
    // The CubeCL kernels and the f64 host fallback agree (same LAPACK conventions).
    for ((h0, t0), (h1, t1)) in per_device[0].iter().zip(&per_device[1]) {
        let dh = h0
            .iter()
            .zip(h1)
            .fold(0f32, |e, (x, y)| e.max((x - y).abs()));
        let dt = t0
            .iter()
            .zip(t1)
            .fold(0f32, |e, (x, y)| e.max((x - y).abs()));
        assert!(
            dh <= 1e-3 && dt <= 1e-3,
            "kernel vs fallback: H {dh:.2e} tau {dt:.2e}"
        );
    }
}

/// Lower-triangular `n×n` factors, well conditioned, with NaN in the strict upper triangle.
fn poisoned_factor(n: usize, seed: u64, upper: bool, unit: bool) -> Vec<f32> {
    let u = uniform_vec(seed, n * n);
    let mut l = vec![f32::NAN; n * n];
    for i in 0..n {
        for j in 0..=i {
            l[i * n + j] = if i == j {
                if unit {
                    f32::NAN
                } else {
                    2.0 + u[i * n + j].abs()
                }
            } else {
                u[i * n + j] / (n as f32).sqrt()
            };
        }
    }
    if upper {
        (0..n * n).map(|x| l[(x % n) * n + x / n]).collect()
    } else {
        l
    }
}

#[test]
fn cholesky_info_and_gates() {
    let n = 70;
    for (name, dev) in devices() {
        for upper in [false, true] {
            // Matrix 0 SPD (κ 1e6), 1 indefinite at pivot 5, 2 NaN at (10, 3), 3 SPD.
            let mut a = Vec::new();
            for (i, seed) in [1u64, 2, 3, 4].iter().enumerate() {
                let (mut ai, _) = spd_from_factor(n, if i == 0 { 1e6 } else { 10.0 }, *seed);
                if i == 1 {
                    ai[4 * n + 4] = -1.0;
                }
                if i == 2 {
                    ai[10 * n + 3] = f32::NAN;
                    ai[3 * n + 10] = f32::NAN;
                }
                // The triangle that is not read: NaN.
                for r in 0..n {
                    for c in 0..n {
                        if (upper && c < r) || (!upper && c > r) {
                            ai[r * n + c] = f32::NAN;
                        }
                    }
                }
                a.push(ai);
            }
            let flat: Vec<f32> = a.concat();
            let (l, info) =
                burn_ext::cholesky_ex(upload(&flat, [2, 2, n, n], &dev), upper).unwrap();
            assert_eq!(l.dims(), [2, 2, n, n]);
            let info: Vec<i64> = info.into_data().iter::<i64>().collect();
            assert_eq!(info, vec![0, 5, 11, 0], "{name} upper={upper}");
            let l = read(l);
            for i in [0, 3] {
                let li = &l[i * n * n..][..n * n];
                let full: Vec<f32> = (0..n * n)
                    .map(|x| {
                        let (r, c) = (x / n, x % n);
                        let (r, c) = if (upper && c < r) || (!upper && c > r) {
                            (c, r)
                        } else {
                            (r, c)
                        };
                        a[i][r * n + c]
                    })
                    .collect();
                let (res, zero_other, finite) =
                    linalg_common::reference::cholesky_residual(&full, li, n, upper);
                assert!(
                    finite && zero_other && res <= cholesky_bound(n),
                    "{name} upper={upper} matrix {i}: {res:.2e}"
                );
            }
            let err = burn_ext::cholesky(upload(&flat, [4, n, n], &dev), upper).unwrap_err();
            assert_eq!(err, LinalgError::NotPositiveDefinite { batch: 1, order: 5 });
        }
    }
}

/// `cholesky_ex_with`: both precisions meet the gate, with the same `info` (TF32 updates
/// only where the device has tensor cores for them; the host fallback computes in f32).
#[test]
fn cholesky_matmul_precision() {
    let n = 300;
    for (name, dev) in devices() {
        let (a, _) = spd_from_factor(n, 1e3, 17);
        let mut bad = a.clone();
        bad[7 * n + 7] = -1.0;
        let flat = [a.clone(), bad].concat();
        for precision in [MatmulPrecision::Highest, MatmulPrecision::High] {
            let (l, info) =
                burn_ext::cholesky_ex_with(upload(&flat, [2, n, n], &dev), false, precision)
                    .unwrap();
            let info: Vec<i64> = info.into_data().iter::<i64>().collect();
            assert_eq!(info, vec![0, 8], "{name} {precision:?}");
            let l = read(l);
            let (res, zero_other, finite) =
                linalg_common::reference::cholesky_residual(&a, &l[..n * n], n, false);
            assert!(
                finite && zero_other && res <= cholesky_bound(n),
                "{name} {precision:?}: {res:.2e}"
            );
        }
    }
}

#[test]
fn triangular_and_cholesky_solves() {
    let (n, k) = (37, 5);
    for (name, dev) in devices() {
        for upper in [false, true] {
            for left in [true, false] {
                for unit in [false, true] {
                    let a: Vec<f32> = (0..2)
                        .flat_map(|s| poisoned_factor(n, 40 + s, upper, unit))
                        .collect();
                    let bshape = if left { [2, n, k] } else { [2, k, n] };
                    let b = uniform_vec(7, 2 * n * k);
                    let x = read(
                        burn_ext::solve_triangular(
                            upload(&a, [2, n, n], &dev),
                            upload(&b, bshape, &dev),
                            upper,
                            left,
                            unit,
                        )
                        .unwrap(),
                    );
                    for i in 0..2 {
                        let t: Vec<f64> = (0..n * n)
                            .map(|p| {
                                let (r, c) = (p / n, p % n);
                                if r == c && unit {
                                    1.0
                                } else if (upper && c >= r) || (!upper && c <= r) {
                                    a[i * n * n + p] as f64
                                } else {
                                    0.0
                                }
                            })
                            .collect();
                        let xi = f64s(&x[i * n * k..][..n * k]);
                        let ax = if left {
                            matmul(&t, &xi, n, n, k)
                        } else {
                            matmul(&xi, &t, k, n, n)
                        };
                        let bi = f64s(&b[i * n * k..][..n * k]);
                        let err = ax
                            .iter()
                            .zip(&bi)
                            .fold(0f64, |e, (x, y)| e.max((x - y).abs()));
                        assert!(
                            err <= 1e-4,
                            "{name} solve upper={upper} left={left} unit={unit}: {err:.2e}"
                        );
                    }
                }
            }
        }
        // One A for a batch of B (batch dims of A all 1).
        let a = poisoned_factor(n, 9, false, false);
        let b = uniform_vec(8, 3 * n * k);
        let x = read(
            burn_ext::solve_triangular(
                upload(&a, [1, n, n], &dev),
                upload(&b, [3, n, k], &dev),
                false,
                true,
                false,
            )
            .unwrap(),
        );
        for i in 0..3 {
            let xi = read(
                burn_ext::solve_triangular(
                    upload(&a, [n, n], &dev),
                    upload(&b[i * n * k..][..n * k], [n, k], &dev),
                    false,
                    true,
                    false,
                )
                .unwrap(),
            );
            let d = xi
                .iter()
                .zip(&x[i * n * k..])
                .fold(0f32, |e, (p, q)| e.max((p - q).abs()));
            assert!(d <= 1e-6, "{name} broadcast A: {d:.2e}");
        }
        // Cholesky solve and inverse from our factor.
        for upper in [false, true] {
            let (a, _) = spd_from_factor(n, 1e3, 77);
            let f = burn_ext::cholesky(upload(&a, [n, n], &dev), upper).unwrap();
            let b = uniform_vec(12, n * k);
            let x = f64s(&read(
                burn_ext::cholesky_solve(upload(&b, [n, k], &dev), f.clone(), upper).unwrap(),
            ));
            let ax = matmul(&f64s(&a), &x, n, n, k);
            let err = ax
                .iter()
                .zip(&b)
                .fold(0f64, |e, (p, q)| e.max((p - *q as f64).abs()));
            assert!(
                err <= 1e-3,
                "{name} cholesky_solve upper={upper}: {err:.2e}"
            );
            let w = f64s(&read(burn_ext::cholesky_inverse(f, upper).unwrap()));
            let mut aw = matmul(&f64s(&a), &w, n, n, n);
            for i in 0..n {
                aw[i * n + i] -= 1.0;
            }
            let err = norm1(&aw, n, n);
            assert!(
                err <= 1e-2,
                "{name} cholesky_inverse upper={upper}: {err:.2e}"
            );
        }
    }
}

#[test]
fn strided_sliced_and_permuted_inputs() {
    for (name, dev) in devices() {
        let (b, m, n) = (3, 50, 20);
        let a = batch_of(MatrixClass::Dense, b, m, n, 3);
        let dense = upload(&a, [b, m, n], &dev);
        let want_geqrf = read(burn_ext::geqrf::<3, 2>(dense.clone()).unwrap().0);
        let want_r = read(burn_ext::qr(dense.clone(), QrMode::Reduced).unwrap().1);
        let close = |x: &[f32], y: &[f32], what: &str| {
            let d = x.iter().zip(y).fold(0f32, |e, (p, q)| e.max((p - q).abs()));
            assert!(d <= 1e-4, "{name} {what}: {d:.2e}");
        };
        // Transposed storage: the kernels read the strides in place.
        let t = upload(&read(dense.clone().swap_dims(1, 2)), [b, n, m], &dev).swap_dims(1, 2);
        close(
            &read(burn_ext::geqrf::<3, 2>(t.clone()).unwrap().0),
            &want_geqrf,
            "transposed geqrf",
        );
        close(
            &read(burn_ext::qr(t, QrMode::Reduced).unwrap().1),
            &want_r,
            "transposed qr",
        );
        // A slice of a bigger tensor (an offset into its buffer).
        let big = Tensor::<3>::zeros([b + 1, m + 4, n + 3], &dev)
            .slice_assign([1..b + 1, 2..m + 2, 1..n + 1], dense.clone());
        let s = big.slice([1..b + 1, 2..m + 2, 1..n + 1]);
        close(
            &read(burn_ext::geqrf::<3, 2>(s.clone()).unwrap().0),
            &want_geqrf,
            "sliced geqrf",
        );
        close(
            &read(burn_ext::qr(s, QrMode::Reduced).unwrap().1),
            &want_r,
            "sliced qr",
        );
        // Permuted leading dims that do not collapse to one batch stride.
        let other = batch_of(MatrixClass::Dense, b, m, n, 99);
        let four = upload(&[a.clone(), other].concat(), [2, b, m, n], &dev).swap_dims(0, 1);
        let r4 = read(burn_ext::geqrf::<4, 3>(four).unwrap().0);
        let first: Vec<f32> = (0..b)
            .flat_map(|i| r4[2 * i * m * n..][..m * n].to_vec())
            .collect();
        close(&first, &want_geqrf, "permuted geqrf");
        // Cholesky and a solve on a transposed (upper-stored) view.
        let (spd, _) = spd_from_factor(40, 100.0, 5);
        let sp = upload(&spd, [40, 40], &dev);
        let l = read(burn_ext::cholesky(sp.clone(), false).unwrap());
        let u_t = read(
            burn_ext::cholesky(sp.clone().transpose(), true)
                .unwrap()
                .transpose(),
        );
        close(&l, &u_t, "cholesky of a transposed view");
    }
}

#[test]
fn half_precision_and_dtypes() {
    for (name, dev) in devices() {
        let (m, n) = (24, 6);
        let a = generate(MatrixClass::Dense, m, n, 1);
        let a16 = upload(&a, [m, n], &dev).cast(FloatDType::F16);
        let (q, r) = burn_ext::qr(a16.clone(), QrMode::Reduced).unwrap();
        assert_eq!((q.dtype(), r.dtype()), (DType::F16, DType::F16), "{name}");
        let back = read(q.cast(FloatDType::F32).matmul(r.cast(FloatDType::F32)));
        let a_rounded = read(a16.cast(FloatDType::F32));
        let d = back
            .iter()
            .zip(&a_rounded)
            .fold(0f32, |e, (p, q)| e.max((p - q).abs()));
        assert!(d <= 2e-2, "{name} f16 qr: {d:.2e}");
        let a64 = upload(&a, [m, n], &dev).cast(FloatDType::F64);
        if a64.dtype() == DType::F64 {
            assert!(matches!(
                burn_ext::qr(a64, QrMode::Reduced),
                Err(LinalgError::UnsupportedDType { .. })
            ));
        }
    }
}

#[test]
fn errors_and_empty_shapes() {
    for (name, dev) in devices() {
        let v = upload(&uniform_vec(1, 12), [12], &dev);
        assert!(
            matches!(
                burn_ext::qr(v, QrMode::Reduced),
                Err(LinalgError::RankTooSmall { rank: 1, .. })
            ),
            "{name}"
        );
        let rect = upload(&uniform_vec(1, 12), [3, 4], &dev);
        assert!(matches!(
            burn_ext::cholesky_ex(rect.clone(), false),
            Err(LinalgError::NotSquare { .. })
        ));
        let sq = upload(&uniform_vec(2, 9), [3, 3], &dev);
        assert!(matches!(
            burn_ext::solve_triangular(sq.clone(), rect.clone(), false, false, false),
            Err(LinalgError::ShapeMismatch { .. })
        ));
        assert!(matches!(
            burn_ext::cholesky_solve(rect.clone().transpose(), sq.clone(), false),
            Err(LinalgError::ShapeMismatch { .. })
        ));
        assert!(matches!(
            burn_ext::geqrf::<2, 2>(rect.clone()),
            Err(LinalgError::ShapeMismatch { .. })
        ));
        let b3 = upload(&uniform_vec(3, 2 * 9), [2, 3, 3], &dev);
        let b4 = upload(&uniform_vec(3, 3 * 3 * 2), [3, 3, 2], &dev);
        assert!(matches!(
            burn_ext::cholesky_solve(b4, b3, false),
            Err(LinalgError::ShapeMismatch { .. })
        ));
        let (h, tau) = burn_ext::geqrf::<2, 1>(rect.clone()).unwrap();
        assert!(matches!(
            burn_ext::apply_q(h, tau, rect.clone().transpose(), Side::Left, false),
            Err(LinalgError::ShapeMismatch { .. })
        ));
        // Gradients where there is no derivative.
        let ad = dev.clone().autodiff();
        let tracked = upload(&uniform_vec(4, 12), [4, 3], &ad).require_grad();
        assert!(matches!(
            burn_ext::qr(tracked.clone(), QrMode::R),
            Err(LinalgError::NotDifferentiable { .. })
        ));
        assert!(matches!(
            burn_ext::qr(tracked.clone(), QrMode::Complete),
            Err(LinalgError::NotDifferentiable { .. })
        ));
        assert!(matches!(
            burn_ext::geqrf::<2, 1>(tracked),
            Err(LinalgError::NotDifferentiable { .. })
        ));
        // Empty dims: empty factors; the complete Q of an m×0 matrix is the identity.
        let e = Tensor::<3>::zeros([2, 4, 0], &dev);
        let (q, r) = burn_ext::qr(e.clone(), QrMode::Complete).unwrap();
        assert_eq!((q.dims(), r.dims()), ([2, 4, 4], [2, 4, 0]));
        let eye: Vec<f32> = (0..32)
            .map(|x| if (x % 16) % 5 == 0 { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(read(q), eye, "{name}");
        let (q, r) = burn_ext::qr(e, QrMode::Reduced).unwrap();
        assert_eq!((q.dims(), r.dims()), ([2, 4, 0], [2, 0, 0]));
        let (l, info) = burn_ext::cholesky_ex(Tensor::<3>::zeros([3, 0, 0], &dev), false).unwrap();
        assert_eq!((l.dims(), info.dims()), ([3, 0, 0], [3]));
        let (_, info) = burn_ext::cholesky_ex(Tensor::<3>::zeros([0, 2, 2], &dev), false).unwrap();
        assert_eq!(info.dims(), [0]);
        let (h, tau) = burn_ext::geqrf::<3, 2>(Tensor::<3>::zeros([0, 3, 2], &dev)).unwrap();
        assert_eq!((h.dims(), tau.dims()), ([0, 3, 2], [0, 2]));
    }
}

#[test]
fn matches_burn_linalg_qr() {
    for (name, dev) in devices() {
        let (b, m, n) = (2, 30, 10);
        let a = batch_of(MatrixClass::Dense, b, m, n, 8);
        let ta = upload(&a, [b, m, n], &dev);
        let (q, r) = burn_ext::qr(ta.clone(), QrMode::Reduced).unwrap();
        let (q2, r2) = burn::linalg::qr(ta, true);
        let (q, r, q2, r2) = (read(q), read(r), read(q2), read(r2));
        // Column j of Q and row j of R agree up to one sign per j. burn-linalg multiplies with
        // Burn's matmul, TF32 on CUDA (relative error ~3e-4): the tolerance allows for that.
        let rmax = r.iter().fold(0f32, |s, x| s.max(x.abs()));
        for i in 0..b {
            for j in 0..n {
                let s = if r[i * n * n + j * n + j] * r2[i * n * n + j * n + j] < 0.0 {
                    -1.0
                } else {
                    1.0
                };
                let dq = (0..m).fold(0f32, |e, row| {
                    e.max((q[i * m * n + row * n + j] - s * q2[i * m * n + row * n + j]).abs())
                });
                let dr = (j..n).fold(0f32, |e, c| {
                    e.max((r[i * n * n + j * n + c] - s * r2[i * n * n + j * n + c]).abs())
                });
                assert!(
                    dq <= 2e-3 && dr <= 2e-3 * rmax,
                    "{name} vs burn-linalg: column {j}: {dq:.2e} {dr:.2e}"
                );
            }
        }
    }
}

#[test]
fn info_is_an_int_tensor_on_the_device() {
    for (name, dev) in devices() {
        let (a, _) = spd_from_factor(8, 10.0, 1);
        let (_, info) = burn_ext::cholesky_ex(upload(&a, [8, 8], &dev), false).unwrap();
        // Usable by further device ops without a host round trip.
        let failed: Tensor<1, Int> = info.clone().greater_elem(0).int();
        assert_eq!(failed.sum().into_scalar::<i64>(), 0, "{name}");
        assert_eq!(info.device(), dev, "{name}");
    }
}
