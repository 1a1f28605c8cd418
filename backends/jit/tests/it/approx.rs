//! `Jit::approx_functions` on the cpu device: f32 exp within `qd_llvm::AFN_MAX_ULP` of the exact
//! value, the flag reaching the kernels (some results differ from the 0.5-ulp ones), its own
//! cache entries, and the fused chain's gradient against central differences in f64.

use super::common::*;
use qd_jit::{jit_compile, Jit, Tensor};
use qd_runtime::DType;

/// ulps of f32 between `got` and the exact `want` (the f32 spacing at `want`, subnormals'
/// below 2^-126).
fn ulps(got: f64, want: f64) -> f64 {
    let e = ((want.abs().to_bits() >> 52) as i32 - 1023).max(-126);
    (got - want).abs() / 2f64.powi(e - 23)
}

#[test]
fn approximate_exp_is_within_its_bound_and_cached_apart() {
    // Every 997th f32 from -104 to 89: subnormal results, and results up to FLT_MAX.
    let (lo, hi) = ((-104.0f32).to_bits(), 88.7f32.to_bits());
    let xs: Vec<f64> = (0..hi)
        .step_by(997)
        .chain((0x8000_0000..lo).step_by(997))
        .map(|b| f64::from(f32::from_bits(b)))
        .collect();
    let n = xs.len();
    let input = || vec![arr(DType::F32, &[n], &xs)];
    let mut approx = jit_compile(
        Jit::new("cpu").unwrap().approx_functions(),
        |[x]: [Tensor; 1]| x.exp(),
    );
    let mut exact = jit_compile(Jit::new("cpu").unwrap(), |[x]: [Tensor; 1]| x.exp());
    let a = approx.call(input()).unwrap()[0].to_f64_vec();
    let e = exact.call(input()).unwrap()[0].to_f64_vec();
    let (mut worst, mut worst_exact, mut differ) = (0f64, 0f64, 0);
    for i in 0..n {
        let want = xs[i].exp();
        worst = worst.max(ulps(a[i], want));
        worst_exact = worst_exact.max(ulps(e[i], want));
        differ += usize::from(a[i] != e[i]);
    }
    assert!(worst <= qd_llvm::AFN_MAX_ULP, "afn exp: {worst} ulp");
    assert!(worst_exact <= 0.501, "exp: {worst_exact} ulp");
    // The flag reaches the kernel: some approximate results (about 0.5 %) are not the exact ones.
    assert!(differ > n / 1000, "only {differ} of {n} results differ");
    let sig = vec![(vec![n], DType::F32)];
    assert!(approx
        .executable(&sig)
        .unwrap()
        .ir
        .contains("fastmath<afn>"));
    assert!(!exact.executable(&sig).unwrap().ir.contains("afn"));
    // The option is part of the cache key: the same graph has two entries.
    let mut trace = qd_jit::Graph::new();
    let x = trace.input(&[n], DType::F32);
    let y = trace.apply("exp", &[x.into()]);
    trace.output(y);
    let plain = Jit::new("cpu").unwrap();
    let afn = Jit::new("cpu").unwrap().approx_functions();
    assert_ne!(plain.key_of(&trace).unwrap(), afn.key_of(&trace).unwrap());
}

/// The bench's chain, sigmoid(relu(x * w + 0.5) - x * 0.25), in f32 with approximate functions:
/// its gradient against central differences of the chain in f64.
#[test]
fn the_approximate_chain_gradient_matches_finite_differences() {
    let n = 512;
    let xs = values(n, 7, -3.0, 3.0);
    let ws = values(n, 8, -3.0, 3.0);
    let mut f = jit_compile(
        Jit::new("cpu").unwrap().approx_functions(),
        |[x, w]: [Tensor; 2]| ((x * w + 0.5).relu() - x * 0.25).sigmoid(),
    );
    let inputs = vec![arr(DType::F32, &[n], &xs), arr(DType::F32, &[n], &ws)];
    let seeds = vec![arr(DType::F32, &[n], &vec![1.0; n])];
    let (_, grads) = f.call_with_grad(inputs, &seeds).unwrap();
    let chain = |x: f64, w: f64| 1.0 / (1.0 + (-((x * w + 0.5).max(0.0) - x * 0.25)).exp());
    let h = 1e-6;
    let (dx, dw) = (grads[0].to_f64_vec(), grads[1].to_f64_vec());
    // The inputs the kernel saw (rounded to f32).
    let r = |v: f64| f64::from(v as f32);
    let mut fd_x = Vec::new();
    let mut fd_w = Vec::new();
    for i in 0..n {
        let (x, w) = (r(xs[i]), r(ws[i]));
        fd_x.push((chain(x + h, w) - chain(x - h, w)) / (2.0 * h));
        fd_w.push((chain(x, w + h) - chain(x, w - h)) / (2.0 * h));
    }
    // f32 arithmetic: about 1e-7 relative per op; the kink of relu is avoided by the data being
    // away from it in all but a few elements, whose differences are skipped.
    let away = |i: usize| (r(xs[i]) * r(ws[i]) + 0.5).abs() > 1e-3;
    let keep = |v: &[f64]| -> Vec<f64> { (0..n).filter(|&i| away(i)).map(|i| v[i]).collect() };
    close(&keep(&dx), &keep(&fd_x), 1e-5, "d x (afn vs fd)");
    close(&keep(&dw), &keep(&fd_w), 1e-5, "d w (afn vs fd)");
}
