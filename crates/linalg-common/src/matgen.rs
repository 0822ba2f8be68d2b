//! Test matrices by class, drawn from a seeded [`Stream`].
use crate::reference::{householder_qr, matmul};
use crate::rng::Stream;

/// A class of test matrix (m×n, row-major, f32).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MatrixClass {
    /// Independent standard normal entries.
    Dense,
    /// U·diag(σ)·Vᵀ with σ graded geometrically from 1 down to 1/κ.
    Conditioned { kappa: f64 },
    /// Dense with column j scaled by κ^(−j/(n−1)).
    GradedColumns { kappa: f64 },
    /// Product of m×rank and rank×n normal factors.
    RankDeficient { rank: usize },
    /// Singular values in two tight clusters (1 and 1e-3, relative spread 1e-6).
    Clustered,
    /// Dense, with every `every`-th column (starting at column `first`) exactly zero.
    ZeroColumns { first: usize, every: usize },
}

fn normal_matrix(s: &mut Stream, m: usize, n: usize) -> Vec<f64> {
    (0..m * n).map(|_| s.normal()).collect()
}

fn with_singular_values(s: &mut Stream, m: usize, n: usize, sigma: &[f64]) -> Vec<f64> {
    let k = m.min(n);
    let (u, _) = householder_qr(&normal_matrix(s, m, k), m, k); // m×k
    let (v, _) = householder_qr(&normal_matrix(s, n, k), n, k); // n×k
    let mut us = u;
    for i in 0..m {
        for j in 0..k {
            us[i * k + j] *= sigma[j];
        }
    }
    let vt: Vec<f64> = (0..k * n).map(|idx| v[(idx % n) * k + idx / n]).collect();
    matmul(&us, &vt, m, k, n)
}

/// Draw an m×n matrix of `class` from `seed`.
pub fn generate(class: MatrixClass, m: usize, n: usize, seed: u64) -> Vec<f32> {
    let mut s = Stream::new(seed);
    let k = m.min(n);
    let a: Vec<f64> = match class {
        MatrixClass::Dense => normal_matrix(&mut s, m, n),
        MatrixClass::Conditioned { kappa } => {
            let sigma: Vec<f64> = (0..k)
                .map(|j| {
                    if k == 1 {
                        1.0
                    } else {
                        kappa.powf(-(j as f64) / (k - 1) as f64)
                    }
                })
                .collect();
            with_singular_values(&mut s, m, n, &sigma)
        }
        MatrixClass::GradedColumns { kappa } => {
            let mut a = normal_matrix(&mut s, m, n);
            for i in 0..m {
                for j in 0..n {
                    let d = if n == 1 {
                        1.0
                    } else {
                        kappa.powf(-(j as f64) / (n - 1) as f64)
                    };
                    a[i * n + j] *= d;
                }
            }
            a
        }
        MatrixClass::RankDeficient { rank } => {
            let x = normal_matrix(&mut s, m, rank);
            let y = normal_matrix(&mut s, rank, n);
            matmul(&x, &y, m, rank, n)
        }
        MatrixClass::Clustered => {
            let sigma: Vec<f64> = (0..k)
                .map(|j| {
                    let base = if j < k.div_ceil(2) { 1.0 } else { 1e-3 };
                    base * (1.0 + 1e-6 * j as f64)
                })
                .collect();
            with_singular_values(&mut s, m, n, &sigma)
        }
        MatrixClass::ZeroColumns { first, every } => {
            let mut a = normal_matrix(&mut s, m, n);
            for j in (first..n).step_by(every.max(1)) {
                for i in 0..m {
                    a[i * n + j] = 0.0;
                }
            }
            a
        }
    };
    a.into_iter().map(|x| x as f32).collect()
}

/// An SPD n×n matrix A = L·Lᵀ built in f64 from a known lower factor L, returned as f32 values
/// `(A, L)`. Column j of L is scaled by κ^(−j/(2(n−1))), so cond(A) grows to about κ; the
/// diagonal of L is kept away from zero (1 + |z|), the rest is z/√n.
pub fn spd_from_factor(n: usize, kappa: f64, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let mut s = Stream::new(seed);
    let mut l = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let z = s.normal();
            l[i * n + j] = if i == j {
                1.0 + z.abs()
            } else {
                z / (n as f64).sqrt()
            };
        }
    }
    if n > 1 {
        for j in 0..n {
            let g = kappa.powf(-(j as f64) / (2.0 * (n - 1) as f64));
            for i in j..n {
                l[i * n + j] *= g;
            }
        }
    }
    let mut a = vec![0.0f32; n * n];
    for i in 0..n {
        for j in 0..=i {
            let v: f64 = (0..=j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            a[i * n + j] = v as f32;
            a[j * n + i] = v as f32;
        }
    }
    (a, l.into_iter().map(|x| x as f32).collect())
}

/// `batch` symmetric, diagonally dominant (hence SPD, κ below about 3) n×n matrices drawn from
/// `uniform_vec(seed, batch·n·n)` = u: `A[b][i][j] = u[b][min(i,j)][max(i,j)]` off the
/// diagonal, `A[b][i][i] = n`. `scripts/torch_anchor.py` rebuilds the same matrices on the GPU.
pub fn spd_dominant(seed: u64, batch: usize, n: usize) -> Vec<f32> {
    let mut a = crate::rng::uniform_vec(seed, batch * n * n);
    for b in 0..batch {
        let m = &mut a[b * n * n..(b + 1) * n * n];
        for i in 0..n {
            m[i * n + i] = n as f32;
            for j in 0..i {
                m[i * n + j] = m[j * n + i];
            }
        }
    }
    a
}
