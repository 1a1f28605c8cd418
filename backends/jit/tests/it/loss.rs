//! The detection-loss pattern: matched in a traced loss, rewritten into partial, reduce and
//! analytic-backward kernels, and numerically the unfused chain (forward and gradients), on the
//! interpreter and the cpu; a loss that differs from the pattern is left to generic fusion.

use super::common::*;
use qd_jit::losses::{detection_loss, detection_loss_t};
use qd_jit::{jit_compile, Graph, Jit, Tensor};
use qd_runtime::{DType, Ndarray};

fn inputs(dtype: DType, shape: &[usize]) -> Vec<Ndarray> {
    let n: usize = shape.iter().product();
    let p = values(n, 1, -3.0, 3.0);
    // Targets near the predictions for some elements, so both smooth-L1 branches run.
    let t: Vec<f64> = values(n, 2, -1.5, 1.5)
        .iter()
        .zip(&p)
        .enumerate()
        .map(|(i, (t, p))| if i % 3 == 0 { p + 0.3 * t } else { *t })
        .collect();
    vec![
        arr(dtype, shape, &p),
        arr(dtype, shape, &t),
        arr(dtype, shape, &values(n, 3, 0.0, 2.0)),
        arr(dtype, shape, &values(n, 4, 0.0, 2.0)),
    ]
}

fn graph(shape: &[usize], dtype: DType) -> Graph {
    let mut g = Graph::new();
    let v: Vec<_> = (0..4).map(|_| g.input(shape, dtype)).collect();
    let l = detection_loss(&mut g, v[0], v[1], v[2], v[3]);
    g.output(l);
    g
}

#[test]
fn the_pattern_fuses_the_loss_and_agrees_with_the_unfused_chain() {
    let shape = [37, 29];
    let g = graph(&shape, DType::F64);
    let seed = [arr(DType::F64, &[], &[1.5])];
    let mut reference = Jit::new("interp").unwrap().unfused();
    let e = reference.compile(&g).unwrap();
    assert!(!e.ir.contains("detection_loss"));
    let (want, want_g) = e.run_with_grad(inputs(DType::F64, &shape), &seed).unwrap();
    for dev in ["interp", "cpu"] {
        let mut jit = Jit::new(dev).unwrap();
        let e = jit.compile(&g).unwrap();
        assert!(e.ir.contains("\"detection_loss\""), "{}", e.ir);
        // The partial kernel (each input read once) and the reduce kernel.
        assert_eq!(e.plan.steps.len(), 2, "{}", e.ir);
        let (out, grads) = e.run_with_grad(inputs(DType::F64, &shape), &seed).unwrap();
        close(&out[0].to_f64_vec(), &want[0].to_f64_vec(), 1e-12, dev);
        for (k, (a, b)) in grads.iter().zip(&want_g).enumerate() {
            close(
                &a.to_f64_vec(),
                &b.to_f64_vec(),
                1e-10,
                &format!("{dev} d input {k}"),
            );
        }
    }
    // f32 on the cpu: the same within f32 rounding.
    let g32 = graph(&shape, DType::F32);
    let seed32 = [arr(DType::F32, &[], &[1.0])];
    let mut u = Jit::new("cpu").unwrap().unfused();
    let (a, ag) = u
        .compile(&g32)
        .unwrap()
        .run_with_grad(inputs(DType::F32, &shape), &seed32)
        .unwrap();
    let mut f = Jit::new("cpu").unwrap();
    let (b, bg) = f
        .compile(&g32)
        .unwrap()
        .run_with_grad(inputs(DType::F32, &shape), &seed32)
        .unwrap();
    close(&a[0].to_f64_vec(), &b[0].to_f64_vec(), 1e-4, "f32 loss");
    for (x, y) in ag.iter().zip(&bg) {
        close(&x.to_f64_vec(), &y.to_f64_vec(), 1e-5, "f32 grads");
    }
}

#[test]
fn the_analytic_backward_matches_finite_differences() {
    let shape = [12];
    let mut f = jit_compile(
        Jit::new("interp").unwrap(),
        |[p, t, hw, rw]: [Tensor; 4]| detection_loss_t(p, t, hw, rw),
    );
    let ins = inputs(DType::F64, &shape);
    let seed = [arr(DType::F64, &[], &[1.0])];
    let (_, grads) = f.call_with_grad(ins.clone(), &seed).unwrap();
    let sig: Vec<_> = ins
        .iter()
        .map(|a| (a.shape().to_vec(), a.dtype()))
        .collect();
    assert!(f
        .executable(&sig)
        .unwrap()
        .ir
        .contains("\"detection_loss\""));
    let h = 1e-6;
    for k in 0..4 {
        let base = ins[k].to_f64_vec();
        let fd: Vec<f64> = (0..base.len())
            .map(|i| {
                let mut at = |d: f64| {
                    let mut v = base.clone();
                    v[i] += d;
                    let mut x = ins.clone();
                    x[k] = arr(DType::F64, &shape, &v);
                    f.call(x).unwrap()[0].to_f64_vec()[0]
                };
                (at(h) - at(-h)) / (2.0 * h)
            })
            .collect();
        close(&grads[k].to_f64_vec(), &fd, 1e-6, &format!("d input {k}"));
    }
}

#[test]
fn a_loss_that_differs_from_the_pattern_is_fused_generically() {
    // smooth-L1 with beta 2 is not the pattern: no primitive, still the right values.
    let mut f = jit_compile(Jit::new("interp").unwrap(), |[p, t]: [Tensor; 2]| {
        let d = p - t;
        let ad = d.abs();
        qd_jit::select(ad.lt(2.0), d * d * 0.25, ad - 1.0).sum()
    });
    let ins = inputs(DType::F64, &[50]);
    let out = f.call(ins[..2].to_vec()).unwrap();
    let sig: Vec<_> = ins[..2]
        .iter()
        .map(|a| (a.shape().to_vec(), a.dtype()))
        .collect();
    assert!(!f.executable(&sig).unwrap().ir.contains("detection_loss"));
    let (p, t) = (ins[0].to_f64_vec(), ins[1].to_f64_vec());
    let want: f64 = p
        .iter()
        .zip(&t)
        .map(|(a, b)| {
            let d = a - b;
            if d.abs() < 2.0 {
                d * d * 0.25
            } else {
                d.abs() - 1.0
            }
        })
        .sum();
    close(&out[0].to_f64_vec(), &[want], 1e-12, "beta 2");
}

/// The f32 pattern computes log(1 + exp(-|p|)) with an f32 log1p (patterns/log1p.rs): each
/// element's bce, read as the heat weight's gradient (seed 1, t = 0: relu(p) + softplus(-|p|)),
/// within 2 ulps of f32 of the value in f64, on the cpu and the interpreter, for p from -30 to
/// 30 (both branches of the log1p's reduction, and e near 0 and 1).
#[test]
fn the_f32_softplus_is_within_two_ulps() {
    let n = 6001;
    let p: Vec<f64> = (0..n)
        .map(|i| f64::from((-30.0 + 60.0 * i as f64 / (n - 1) as f64) as f32))
        .collect();
    let g = graph(&[n], DType::F32);
    for dev in ["cpu", "interp"] {
        let mut jit = Jit::new(dev).unwrap();
        let e = jit.compile(&g).unwrap();
        assert!(e.ir.contains("\"detection_loss\""));
        let ins = vec![
            arr(DType::F32, &[n], &p),
            arr(DType::F32, &[n], &vec![0.0; n]),
            arr(DType::F32, &[n], &vec![1.0; n]),
            arr(DType::F32, &[n], &vec![1.0; n]),
        ];
        let (_, grads) = e
            .run_with_grad(ins, &[arr(DType::F32, &[], &[1.0])])
            .unwrap();
        let bce = grads[2].to_f64_vec();
        for (i, (&x, &got)) in p.iter().zip(&bce).enumerate() {
            let want = x.max(0.0) + (-x.abs()).exp().ln_1p();
            let ulp = 2f64.powi(((want.to_bits() >> 52) as i32 - 1023).max(-126) - 23);
            assert!(
                (got - want).abs() <= 2.0 * ulp,
                "{dev}: bce({x}) [{i}] = {got}, want {want}"
            );
        }
    }
}

/// Full reductions through the partial kernel's tiles: 8200 elements (32 lanes, the last
/// iteration guarded) and 70001 (a tail in the last tile), in f64 on the cpu and the
/// interpreter, against the host's sum.
#[test]
fn tiled_partial_sums_match_the_host() {
    for n in [8200usize, 70001] {
        let xs = values(n, 9, -2.0, 2.0);
        let want: f64 = xs.iter().map(|x| x.exp()).sum();
        let mut g = Graph::new();
        let x = g.input(&[n], DType::F64);
        let e = g.apply("exp", &[x.into()]);
        let s = g.reduce(qd_jit::Reduce::Sum, e, None);
        g.output(s);
        for dev in ["cpu", "interp"] {
            let mut jit = Jit::new(dev).unwrap();
            let out = jit
                .compile(&g)
                .unwrap()
                .run(vec![arr(DType::F64, &[n], &xs)])
                .unwrap();
            close(
                &out[0].to_f64_vec(),
                &[want],
                1e-12,
                &format!("{dev} n {n}"),
            );
        }
    }
}
