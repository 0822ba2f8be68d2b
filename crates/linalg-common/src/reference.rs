//! f64 host references and the numerical gates.
//!
//! All matrices are row-major; a batch is `batch` matrices one after another. The gates are
//! those of GPU MODE qr_v2, in the 1-norm (largest column sum of absolute values), computed in
//! f64 from the f32 results:
//! ‖QᵀQ − I‖₁ ≤ 100·n·ε and ‖A − QR‖₁ ≤ 20·n·ε·‖A‖₁, with ε = f32::EPSILON.

/// C = A·B for row-major A (m×k) and B (k×n).
pub fn matmul(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        let ci = &mut c[i * n..(i + 1) * n];
        for p in 0..k {
            let aip = a[i * k + p];
            if aip != 0.0 {
                let bp = &b[p * n..(p + 1) * n];
                for (cij, bpj) in ci.iter_mut().zip(bp) {
                    *cij += aip * bpj;
                }
            }
        }
    }
    c
}

/// The 1-norm of a row-major m×n matrix: the largest column sum of absolute values.
pub fn norm1(a: &[f64], m: usize, n: usize) -> f64 {
    let mut col = vec![0.0f64; n];
    for i in 0..m {
        for j in 0..n {
            col[j] += a[i * n + j].abs();
        }
    }
    col.into_iter().fold(0.0, max_nan)
}

/// max(a, b), NaN if either is (f32 or f64): a residual, norm or largest error over a NaN
/// entry must not pass a gate (`f64::max` returns the other operand).
pub fn max_nan<T: PartialOrd + Copy>(a: T, b: T) -> T {
    match a.partial_cmp(&b) {
        // Unordered: one is NaN, the one not ordered with itself.
        None if a.partial_cmp(&a).is_none() => a,
        None => b,
        Some(std::cmp::Ordering::Less) => b,
        _ => a,
    }
}

/// Householder QR in f64 of a row-major m×n matrix (any m, n): returns the thin Q
/// (m×k, k = min(m, n)) and R (k×n). Used to build orthogonal test matrices and as an
/// independent reference.
pub fn householder_qr(a: &[f64], m: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    let mut w = a.to_vec();
    let mut vs: Vec<(Vec<f64>, f64)> = Vec::with_capacity(k);
    for c in 0..k {
        let norm = (c..m).map(|i| w[i * n + c].powi(2)).sum::<f64>().sqrt();
        let mut v: Vec<f64> = (c..m).map(|i| w[i * n + c]).collect();
        if norm == 0.0 {
            vs.push((v, 0.0));
            continue;
        }
        let alpha = if v[0] >= 0.0 { -norm } else { norm };
        v[0] -= alpha;
        let vnorm2: f64 = v.iter().map(|x| x * x).sum();
        let beta = 2.0 / vnorm2;
        for j in c..n {
            let dot: f64 = (c..m).map(|i| v[i - c] * w[i * n + j]).sum();
            for i in c..m {
                w[i * n + j] -= beta * dot * v[i - c];
            }
        }
        vs.push((v, beta));
    }
    let mut r = vec![0.0; k * n];
    for i in 0..k {
        for j in i..n {
            r[i * n + j] = w[i * n + j];
        }
    }
    // Q = H0 H1 … H(k-1) [I; 0]
    let mut q = vec![0.0; m * k];
    for i in 0..k {
        q[i * k + i] = 1.0;
    }
    for c in (0..k).rev() {
        let (v, beta) = &vs[c];
        if *beta == 0.0 {
            continue;
        }
        for j in 0..k {
            let dot: f64 = (c..m).map(|i| v[i - c] * q[i * k + j]).sum();
            for i in c..m {
                q[i * k + j] -= beta * dot * v[i - c];
            }
        }
    }
    (q, r)
}

/// Residuals of one QR factorization, measured in f64.
#[derive(Clone, Copy, Debug)]
pub struct QrCheck {
    /// ‖QᵀQ − I‖₁ (0 when Q was not given).
    pub orth: f64,
    /// ‖A − QR‖₁ / ‖A‖₁ (absolute ‖A − QR‖₁ when ‖A‖₁ = 0); NaN when Q was not given.
    pub resid: f64,
    /// |‖RᵀR − AᵀA‖₁| / ‖A‖₁²: the R-only check (R is determined up to row signs).
    pub gram: f64,
    /// Largest |entry| strictly below R's diagonal (must be exactly 0).
    pub r_lower: f64,
    /// All of Q and R finite.
    pub finite: bool,
}

pub fn f32_eps() -> f64 {
    f32::EPSILON as f64
}

/// The qr_v2 orthogonality bound 100·n·ε.
pub fn orth_bound(n: usize) -> f64 {
    100.0 * n as f64 * f32_eps()
}

/// The qr_v2 relative residual bound 20·n·ε.
pub fn resid_bound(n: usize) -> f64 {
    20.0 * n as f64 * f32_eps()
}

impl QrCheck {
    /// Whether both qr_v2 gates hold, R is exactly upper-triangular and everything is finite.
    pub fn passes(&self, n: usize) -> bool {
        self.finite
            && self.r_lower == 0.0
            && self.orth <= orth_bound(n)
            && (self.resid.is_nan() || self.resid <= resid_bound(n))
    }
}

/// Check one m×n factorization A ≈ QR (Q m×n, R n×n, row-major f32).
pub fn check_qr(a: &[f32], q: Option<&[f32]>, r: &[f32], m: usize, n: usize) -> QrCheck {
    let a64: Vec<f64> = a.iter().map(|&x| x as f64).collect();
    let r64: Vec<f64> = r.iter().map(|&x| x as f64).collect();
    let anorm = norm1(&a64, m, n);
    let mut finite = r.iter().all(|x| x.is_finite());
    let mut r_lower = 0.0f64;
    for i in 0..n {
        for j in 0..i {
            r_lower = r_lower.max(r64[i * n + j].abs());
        }
    }
    // Gram check: RᵀR vs AᵀA.
    let mut ata = vec![0.0; n * n];
    for i in 0..m {
        let row = &a64[i * n..(i + 1) * n];
        for p in 0..n {
            for s in 0..n {
                ata[p * n + s] += row[p] * row[s];
            }
        }
    }
    let mut rtr = vec![0.0; n * n];
    for i in 0..n {
        for p in 0..n {
            for s in 0..n {
                rtr[p * n + s] += r64[i * n + p] * r64[i * n + s];
            }
        }
    }
    let diff: Vec<f64> = ata.iter().zip(&rtr).map(|(x, y)| x - y).collect();
    let gram = norm1(&diff, n, n) / (anorm * anorm).max(f64::MIN_POSITIVE);
    let (orth, resid) = match q {
        None => (0.0, f64::NAN),
        Some(q) => {
            finite &= q.iter().all(|x| x.is_finite());
            let q64: Vec<f64> = q.iter().map(|&x| x as f64).collect();
            let mut qtq = vec![0.0; n * n];
            for i in 0..m {
                let row = &q64[i * n..(i + 1) * n];
                for p in 0..n {
                    if row[p] != 0.0 {
                        for s in 0..n {
                            qtq[p * n + s] += row[p] * row[s];
                        }
                    }
                }
            }
            for p in 0..n {
                qtq[p * n + p] -= 1.0;
            }
            let orth = norm1(&qtq, n, n);
            let qr = matmul(&q64, &r64, m, n, n);
            let d: Vec<f64> = a64.iter().zip(&qr).map(|(x, y)| x - y).collect();
            let e = norm1(&d, m, n);
            let resid = if anorm > 0.0 { e / anorm } else { e };
            (orth, resid)
        }
    };
    QrCheck {
        orth,
        resid,
        gram,
        r_lower,
        finite,
    }
}

/// The worst of [`check_qr`] over the first `count` matrices of a batch (Q, when given, and R
/// laid out one matrix after another): (worst ‖QᵀQ − I‖₁, worst relative residual — the Gram
/// check where there is no Q —, whether every one passes).
pub fn check_qr_batch(
    a: &[f32],
    q: Option<&[f32]>,
    r: &[f32],
    count: usize,
    m: usize,
    n: usize,
) -> (f64, f64, bool) {
    let (mut orth, mut resid, mut ok) = (0.0f64, 0.0f64, true);
    for b in 0..count {
        let qb = q.map(|q| &q[b * m * n..(b + 1) * m * n]);
        let c = check_qr(
            &a[b * m * n..(b + 1) * m * n],
            qb,
            &r[b * n * n..(b + 1) * n * n],
            m,
            n,
        );
        orth = orth.max(c.orth);
        resid = resid.max(if c.resid.is_nan() { c.gram } else { c.resid });
        ok &= c.passes(n);
    }
    (orth, resid, ok)
}

/// The Cholesky gate: ‖A − L·Lᵀ‖₁ ≤ 20·n·ε·‖A‖₁ (relative form returned by
/// [`cholesky_residual`]).
pub fn cholesky_bound(n: usize) -> f64 {
    20.0 * n.max(1) as f64 * f32_eps()
}

/// ‖A − G·Gᵀ‖₁ / ‖A‖₁ in f64, where G = L (lower factor) or Uᵀ (`upper`), for one n×n
/// matrix. Only A's selected triangle is read (mirrored), so a poisoned other triangle is
/// harmless. Returns `(relative residual, other triangle of the factor exactly zero, finite)`.
pub fn cholesky_residual(a: &[f32], l: &[f32], n: usize, upper: bool) -> (f64, bool, bool) {
    let at = |i: usize, j: usize| -> f64 {
        let (r, c) = if (j <= i) != upper { (i, j) } else { (j, i) };
        a[r * n + c] as f64
    };
    // G[i][k] (lower).
    let g = |i: usize, k: usize| -> f64 {
        if upper {
            l[k * n + i] as f64
        } else {
            l[i * n + k] as f64
        }
    };
    let mut zero = true;
    let mut finite = true;
    for i in 0..n {
        for j in 0..n {
            let v = l[i * n + j];
            finite &= v.is_finite();
            let other = if upper { j < i } else { j > i };
            if other && v != 0.0 {
                zero = false;
            }
        }
    }
    let mut diff = vec![0.0f64; n * n];
    let mut full = vec![0.0f64; n * n];
    for i in 0..n {
        for j in 0..=i {
            let mut s = 0.0;
            for k in 0..=j {
                s += g(i, k) * g(j, k);
            }
            let d = at(i, j) - s;
            diff[i * n + j] = d;
            diff[j * n + i] = d;
            full[i * n + j] = at(i, j);
            full[j * n + i] = at(i, j);
        }
    }
    let na = norm1(&full, n, n).max(f64::MIN_POSITIVE);
    (norm1(&diff, n, n) / na, zero, finite)
}

/// [`cholesky_residual`] restricted to the columns `cols` of A − L·Lᵀ (lower factor L): the
/// largest of their 1-norms over ‖A‖₁ (exact). A lower bound of the full residual that costs
/// O(n²) per column, for matrices too large for the O(n³) check.
pub fn cholesky_residual_columns(a: &[f32], l: &[f32], n: usize, cols: &[usize]) -> f64 {
    let mut na = 0.0f64;
    for j in 0..n {
        let s: f64 = (0..n).map(|i| (a[i * n + j] as f64).abs()).sum();
        na = max_nan(na, s);
    }
    let mut worst = 0.0f64;
    for &j in cols {
        let mut s = 0.0f64;
        for i in 0..n {
            let kmax = i.min(j);
            let p: f64 = (0..=kmax)
                .map(|k| l[i * n + k] as f64 * l[j * n + k] as f64)
                .sum();
            s += (a[i * n + j] as f64 - p).abs();
        }
        worst = max_nan(worst, s);
    }
    worst / na.max(f64::MIN_POSITIVE)
}

/// Q = H_1⋯H_k·I (m × ncols) in f64 from one matrix's LAPACK (H, τ) form: H row-major m × n
/// with the reflectors below the diagonal (leading 1 implicit), k = τ.len().
pub fn q_from_reflectors(h: &[f32], tau: &[f32], m: usize, n: usize, ncols: usize) -> Vec<f64> {
    let mut q = vec![0.0f64; m * ncols];
    for i in 0..m.min(ncols) {
        q[i * ncols + i] = 1.0;
    }
    for j in (0..tau.len()).rev() {
        let t = tau[j] as f64;
        let v: Vec<f64> = (j..m)
            .map(|i| if i == j { 1.0 } else { h[i * n + j] as f64 })
            .collect();
        for c in 0..ncols {
            let d: f64 = (j..m).map(|i| v[i - j] * q[i * ncols + c]).sum();
            for i in j..m {
                q[i * ncols + c] -= t * d * v[i - j];
            }
        }
    }
    q
}
