//! Host (f64) implementations of every op: the fallback for backends without CubeCL kernels
//! (Flex), and nothing else. One matrix at a time, row-major; the callers loop over the batch.
//!
//! Conventions match the kernels and torch.linalg: geqrf stores R on and above the diagonal and
//! the Householder vectors below it (leading 1 implicit), `H_j = I − τ_j·v_j·v_jᵀ` as LAPACK's
//! `dlarfg` builds it (β = −sign(α)·‖x‖, τ = 0 when x is already zero below the diagonal), and
//! Q = H_1⋯H_k. Cholesky reads only the selected triangle; a pivot that is not > 0 (NaN
//! included) stops the factorization and sets `info` to its 1-based order.

/// Householder QR of one m×n matrix: (H, τ) in LAPACK's compact form.
pub fn geqrf(a: &[f64], m: usize, n: usize) -> (Vec<f64>, Vec<f64>) {
    let k = m.min(n);
    let mut h = a.to_vec();
    let mut tau = vec![0.0; k];
    for j in 0..k {
        let alpha = h[j * n + j];
        let xnorm = (j + 1..m).map(|i| h[i * n + j].powi(2)).sum::<f64>().sqrt();
        if xnorm == 0.0 {
            continue;
        }
        let beta = -alpha.signum() * alpha.hypot(xnorm);
        tau[j] = (beta - alpha) / beta;
        let scale = 1.0 / (alpha - beta);
        for i in j + 1..m {
            h[i * n + j] *= scale;
        }
        h[j * n + j] = beta;
        // Trailing columns: C ← (I − τ v vᵀ) C with v = [1; h[j+1.., j]].
        for c in j + 1..n {
            let dot = h[j * n + c] + (j + 1..m).map(|i| h[i * n + j] * h[i * n + c]).sum::<f64>();
            let s = tau[j] * dot;
            h[j * n + c] -= s;
            for i in j + 1..m {
                h[i * n + c] -= s * h[i * n + j];
            }
        }
    }
    (h, tau)
}

/// Reflector j of an m×n (H, τ) applied to the column vector `x` (length m), in place.
fn reflect(h: &[f64], n: usize, m: usize, j: usize, tau: f64, x: &mut [f64], stride: usize) {
    if tau == 0.0 {
        return;
    }
    let dot = x[j * stride]
        + (j + 1..m)
            .map(|i| h[i * n + j] * x[i * stride])
            .sum::<f64>();
    let s = tau * dot;
    x[j * stride] -= s;
    for i in j + 1..m {
        x[i * stride] -= s * h[i * n + j];
    }
}

/// C ← op(Q)·C (`left`) or C·op(Q), op = transpose or not, Q = H_1⋯H_k from an m×n (H, τ);
/// C is `rows × cols` (rows = m when `left`, cols = m otherwise).
#[allow(clippy::too_many_arguments)]
pub fn ormqr(
    h: &[f64],
    tau: &[f64],
    m: usize,
    n: usize,
    c: &mut [f64],
    rows: usize,
    cols: usize,
    left: bool,
    transpose: bool,
) {
    let k = tau.len();
    // Qᵀ·C and C·Q apply H_1 first; Q·C and C·Qᵀ apply H_k first.
    let forward = left == transpose;
    for step in 0..k {
        let j = if forward { step } else { k - 1 - step };
        if left {
            for col in 0..cols {
                reflect(h, n, m, j, tau[j], &mut c[col..], cols);
            }
        } else {
            for row in 0..rows {
                reflect(h, n, m, j, tau[j], &mut c[row * cols..(row + 1) * cols], 1);
            }
        }
    }
}

/// The first `ncols` columns of Q = H_1⋯H_k (m × ncols).
pub fn orgqr(h: &[f64], tau: &[f64], m: usize, n: usize, ncols: usize) -> Vec<f64> {
    let mut q = vec![0.0; m * ncols];
    for i in 0..m.min(ncols) {
        q[i * ncols + i] = 1.0;
    }
    ormqr(h, tau, m, n, &mut q, m, ncols, true, false);
    q
}

/// QR of one m×n matrix: Q (m × q_cols) when `want_q`, and R (r_rows × n), where
/// `complete` makes Q square (q_cols = r_rows = m) and otherwise q_cols = r_rows = min(m, n).
pub fn qr(a: &[f64], m: usize, n: usize, complete: bool, want_q: bool) -> (Vec<f64>, Vec<f64>) {
    let (h, tau) = geqrf(a, m, n);
    let rows = if complete { m } else { m.min(n) };
    let mut r = vec![0.0; rows * n];
    for i in 0..rows.min(m) {
        for j in i..n {
            r[i * n + j] = h[i * n + j];
        }
    }
    let q = if want_q {
        orgqr(&h, &tau, m, n, rows)
    } else {
        Vec::new()
    };
    (q, r)
}

/// Cholesky of one n×n matrix from its lower (or, `upper`, its upper) triangle: the factor
/// (the other triangle exactly zero) and `info`.
pub fn cholesky(a: &[f64], n: usize, upper: bool) -> (Vec<f64>, i32) {
    // Work on the lower triangle of A (Aᵀ's for `upper`).
    let at = |i: usize, j: usize| if upper { a[j * n + i] } else { a[i * n + j] };
    let mut l = vec![0.0f64; n * n];
    let mut info = 0;
    'outer: for j in 0..n {
        let d = at(j, j) - (0..j).map(|p| l[j * n + p].powi(2)).sum::<f64>();
        // NaN fails this test too.
        if d.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            info = j as i32 + 1;
            break 'outer;
        }
        let d = d.sqrt();
        l[j * n + j] = d;
        for i in j + 1..n {
            let s = at(i, j) - (0..j).map(|p| l[i * n + p] * l[j * n + p]).sum::<f64>();
            l[i * n + j] = s / d;
        }
    }
    if info != 0 {
        // torch leaves a failed factor unspecified; ours is the finished columns, then zeros.
        let done = info as usize - 1;
        for i in 0..n {
            for j in done..n {
                l[i * n + j] = 0.0;
            }
        }
    }
    if upper {
        transpose_square(&mut l, n);
    }
    (l, info)
}

fn transpose_square(x: &mut [f64], n: usize) {
    for i in 0..n {
        for j in i + 1..n {
            x.swap(i * n + j, j * n + i);
        }
    }
}

/// Solve op(A)·X = B in place for triangular n×n A (`a(i, j)` reads it), B n×k row-major;
/// `lower` says which triangle of op(A) holds the matrix.
fn solve_left(
    a: impl Fn(usize, usize) -> f64,
    lower: bool,
    unit: bool,
    b: &mut [f64],
    n: usize,
    k: usize,
) {
    let order: Vec<usize> = if lower {
        (0..n).collect()
    } else {
        (0..n).rev().collect()
    };
    for (pos, &i) in order.iter().enumerate() {
        for &p in &order[..pos] {
            let aip = a(i, p);
            if aip != 0.0 {
                for c in 0..k {
                    b[i * k + c] -= aip * b[p * k + c];
                }
            }
        }
        if !unit {
            let d = a(i, i);
            for c in 0..k {
                b[i * k + c] /= d;
            }
        }
    }
}

/// torch.linalg.solve_triangular for one matrix: A·X = B (`left`, B n×k) or X·A = B (B k×n).
pub fn solve_triangular(
    a: &[f64],
    b: &[f64],
    n: usize,
    k: usize,
    upper: bool,
    left: bool,
    unit: bool,
) -> Vec<f64> {
    // Only the selected triangle is read.
    let tri = |i: usize, j: usize| {
        if (upper && j >= i) || (!upper && j <= i) {
            a[i * n + j]
        } else {
            0.0
        }
    };
    if left {
        let mut x = b.to_vec();
        solve_left(tri, !upper, unit, &mut x, n, k);
        x
    } else {
        // X·A = B ⇔ Aᵀ·Xᵀ = Bᵀ, Aᵀ lower when A is upper.
        let mut xt = transpose(b, k, n);
        solve_left(|i, j| tri(j, i), upper, unit, &mut xt, n, k);
        transpose(&xt, n, k)
    }
}

/// Row-major r×c → c×r.
pub fn transpose(x: &[f64], r: usize, c: usize) -> Vec<f64> {
    let mut t = vec![0.0; r * c];
    for i in 0..r {
        for j in 0..c {
            t[j * r + i] = x[i * c + j];
        }
    }
    t
}

/// X = A⁻¹·B for A = L·Lᵀ (lower factor) or Uᵀ·U (`upper`); B n×k.
pub fn cholesky_solve(l: &[f64], b: &[f64], n: usize, k: usize, upper: bool) -> Vec<f64> {
    if upper {
        // Uᵀ·Y = B, U·X = Y.
        let ut: Vec<f64> = transpose(l, n, n);
        let y = solve_triangular(&ut, b, n, k, false, true, false);
        solve_triangular(l, &y, n, k, true, true, false)
    } else {
        let lt: Vec<f64> = transpose(l, n, n);
        let y = solve_triangular(l, b, n, k, false, true, false);
        solve_triangular(&lt, &y, n, k, true, true, false)
    }
}

/// (L·Lᵀ)⁻¹ (or (Uᵀ·U)⁻¹) from the factor.
pub fn cholesky_inverse(l: &[f64], n: usize, upper: bool) -> Vec<f64> {
    let mut eye = vec![0.0; n * n];
    for i in 0..n {
        eye[i * n + i] = 1.0;
    }
    cholesky_solve(l, &eye, n, n, upper)
}
