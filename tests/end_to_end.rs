//! End to end through the root crate: pick the default device the way the binaries do (CUDA
//! when linked and present, else the CPU runtime), factor, check against f64 gates.
use qrchol::linalg_common::device::{default_device, device_kind, named_device};
use qrchol::linalg_common::matgen::{MatrixClass, generate};
use qrchol::linalg_common::reference::check_qr;
use qrchol::qr_kernels::tsqr::{TsqrError, TsqrMode, TsqrParams, tsqr_host};

#[test]
fn default_device_factors_a_batch() {
    let device = default_device().expect("a runtime");
    eprintln!("default device: {} ({device:?})", device_kind(&device));
    let client = device.client();
    let (batch, m, n) = (3, 3001, 20);
    let a: Vec<f32> = (0..batch)
        .flat_map(|b| generate(MatrixClass::Conditioned { kappa: 1e4 }, m, n, 40 + b as u64))
        .collect();
    let out = tsqr_host(
        &client,
        &a,
        &[batch, m, n],
        TsqrMode::Reduced,
        &TsqrParams::default(),
    )
    .unwrap();
    let q = out.q.as_ref().unwrap();
    for b in 0..batch {
        let c = check_qr(
            &a[b * m * n..][..m * n],
            Some(&q[b * m * n..][..m * n]),
            &out.r[b * n * n..][..n * n],
            m,
            n,
        );
        assert!(c.passes(n), "batch {b}: {c:?}");
    }
}

#[test]
fn unknown_device_names_are_errors() {
    assert!(named_device("tpu").is_err());
    assert!(named_device("cuda:x").is_err());
    // A shape error surfaces before any device work.
    let client = default_device().unwrap().client();
    let err = tsqr_host(
        &client,
        &[0.0; 6],
        &[2, 3],
        TsqrMode::R,
        &TsqrParams::default(),
    )
    .unwrap_err();
    assert!(matches!(err, TsqrError::WideMatrix { m: 2, n: 3 }));
}

#[test]
fn default_device_cholesky_and_solve() {
    use cubecl::prelude::*;
    use qrchol::cholesky_kernels::{CholeskyParams, MatrixRef, cholesky_solve, potrf};
    use qrchol::linalg_common::matgen::spd_from_factor;
    use qrchol::linalg_common::reference::{cholesky_bound, cholesky_residual};
    let client = default_device().expect("a runtime").client();
    let (batch, n, k) = (2, 150, 3);
    let a: Vec<f32> = (0..batch)
        .flat_map(|b| spd_from_factor(n, 1e3, 60 + b as u64).0)
        .collect();
    let ha = client.create_from_slice(f32::as_bytes(&a));
    let am = MatrixRef::dense(&ha, batch, n, n);
    let p = CholeskyParams::default();
    let out = potrf(&client, am, false, &p).unwrap();
    let lh = out.l.clone();
    let host = out.read(&client).unwrap();
    assert_eq!(host.info, vec![0, 0]);
    for b in 0..batch {
        let s = b * n * n..(b + 1) * n * n;
        let (r, zero, finite) = cholesky_residual(&a[s.clone()], &host.l[s], n, false);
        assert!(
            zero && finite && r <= cholesky_bound(n),
            "matrix {b}: {r:e}"
        );
    }
    // Solve A·X = B with B = A·X_true for a known X_true.
    let xt = qrchol::linalg_common::rng::uniform_vec(5, batch * n * k);
    let mut bvec = vec![0.0f32; batch * n * k];
    for b in 0..batch {
        for i in 0..n {
            for j in 0..k {
                bvec[b * n * k + i * k + j] = (0..n)
                    .map(|p| a[b * n * n + i * n + p] as f64 * xt[b * n * k + p * k + j] as f64)
                    .sum::<f64>() as f32;
            }
        }
    }
    let hb = client.create_from_slice(f32::as_bytes(&bvec));
    let bm = MatrixRef::dense(&hb, batch, n, k);
    let lm = MatrixRef { handle: &lh, ..am };
    let x = cholesky_solve(&client, bm, lm, false, &p)
        .unwrap()
        .read(&client)
        .unwrap();
    let err =
        x.x.iter()
            .zip(&xt)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0f32, qrchol::linalg_common::reference::max_nan);
    assert!(err < 1e-2, "max |X − X_true| = {err:e}");
}

#[test]
fn default_device_blocked_qr() {
    use qrchol::qr_kernels::{QrMode, QrParams, qr_host};
    let device = default_device().expect("a runtime");
    let client = device.client();
    // n > 128: the blocked geqrf path (several panels), then householder_product.
    let (batch, m, n) = (2, 200, 150);
    let a: Vec<f32> = (0..batch)
        .flat_map(|b| {
            generate(
                MatrixClass::GradedColumns { kappa: 1e5 },
                m,
                n,
                70 + b as u64,
            )
        })
        .collect();
    let out = qr_host(
        &client,
        &a,
        &[batch, m, n],
        QrMode::Reduced,
        &QrParams::default(),
    )
    .unwrap();
    assert!(!out.tsqr);
    let q = out.q.as_ref().unwrap();
    for b in 0..batch {
        let c = check_qr(
            &a[b * m * n..][..m * n],
            Some(&q[b * m * n..][..m * n]),
            &out.r[b * n * n..][..n * n],
            m,
            n,
        );
        assert!(c.passes(n), "matrix {b}: {c:?}");
    }
}
