//! Host helpers: arrays, a deterministic generator, comparisons.

use qd_runtime::{DType, Ndarray};

/// Deterministic values in [lo, hi).
pub fn values(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

pub fn arr(dtype: DType, shape: &[usize], v: &[f64]) -> Ndarray {
    Ndarray::from_f64(dtype, shape, v).unwrap()
}

pub fn rand(dtype: DType, shape: &[usize], seed: u64) -> Ndarray {
    let n = shape.iter().product();
    arr(dtype, shape, &values(n, seed, -1.5, 1.5))
}

pub fn close(a: &[f64], b: &[f64], tol: f64, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: lengths");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let scale = 1.0f64.max(x.abs()).max(y.abs());
        assert!(
            (x - y).abs() <= tol * scale,
            "{what}[{i}]: {x} vs {y} (tol {tol})"
        );
    }
}
