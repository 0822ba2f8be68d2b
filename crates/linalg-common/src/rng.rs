//! A counter-based generator: value `i` of stream `seed` is a pure function of `(seed, i)`
//! (SplitMix64 finaliser), so the same matrices can be drawn in Python (see
//! `examples/bench/torch_anchor.py`) and in any order or in parallel.

/// SplitMix64 finaliser of `seed * GOLDEN + i`.
#[inline]
pub fn mix(seed: u64, i: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i.wrapping_mul(0xBF58_476D_1CE4_E5B9))
        .wrapping_add(0x94D0_49BB_1331_11EB);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Uniform in [-1, 1) with 24 random bits: exactly representable in f32.
#[inline]
pub fn uniform_pm1(seed: u64, i: u64) -> f32 {
    let bits = (mix(seed, i) >> 40) as u32; // 24 bits
    (bits as f32) * (2.0 / 16_777_216.0) - 1.0
}

/// `len` uniform values in [-1, 1) of stream `seed`.
pub fn uniform_vec(seed: u64, len: usize) -> Vec<f32> {
    (0..len as u64).map(|i| uniform_pm1(seed, i)).collect()
}

/// A sequential generator over the same stream, for host-side test matrices.
#[derive(Clone, Debug)]
pub struct Stream {
    seed: u64,
    next: u64,
}

impl Stream {
    pub fn new(seed: u64) -> Self {
        Self { seed, next: 0 }
    }
    /// Uniform in [0, 1) with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        let v = mix(self.seed, self.next);
        self.next += 1;
        (v >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(f64::MIN_POSITIVE);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}
