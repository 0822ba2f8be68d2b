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
