//! Gradients of fused kernels (the runtime's reverse-mode-ad) against central finite differences
//! in f64 and against the interpreter; a primitive with its own backward.

use super::common::*;
use qd_jit::{jit_compile, maximum, register_primitive, select, Jit, Tensor};
use qd_runtime::{DType, Ndarray};
use std::sync::Arc;

/// Central differences of sum(seed * f(inputs)) for every input element.
fn fd(f: &mut qd_jit::JitFn, inputs: &[Ndarray], seeds: &[Ndarray], h: f64) -> Vec<Vec<f64>> {
    let eval = |f: &mut qd_jit::JitFn, ins: Vec<Ndarray>| -> f64 {
        let outs = f.call(ins).unwrap();
        outs.iter()
            .zip(seeds)
            .map(|(o, s)| {
                o.to_f64_vec()
                    .iter()
                    .zip(s.to_f64_vec())
                    .map(|(a, b)| a * b)
                    .sum::<f64>()
            })
            .sum()
    };
    let mut grads = Vec::new();
    for k in 0..inputs.len() {
        let base = inputs[k].to_f64_vec();
        let mut g = Vec::new();
        for i in 0..base.len() {
            let mut at = |d: f64| {
                let mut v = base.clone();
                v[i] += d;
                let mut ins = inputs.to_vec();
                ins[k] = arr(DType::F64, inputs[k].shape(), &v);
                eval(f, ins)
            };
            g.push((at(h) - at(-h)) / (2.0 * h));
        }
        grads.push(g);
    }
    grads
}

fn check<const N: usize, R: qd_jit::Outputs>(
    f: impl Fn([Tensor; N]) -> R + Clone + 'static,
    inputs: Vec<Ndarray>,
    tol: f64,
) {
    let mut interp = jit_compile(Jit::new("interp").unwrap(), f.clone());
    let outs = interp.call(inputs.clone()).unwrap();
    let seeds: Vec<Ndarray> = outs
        .iter()
        .enumerate()
        .map(|(k, o)| rand(DType::F64, o.shape(), 100 + k as u64))
        .collect();
    let (_, grads) = interp.call_with_grad(inputs.clone(), &seeds).unwrap();
    let want = fd(&mut interp, &inputs, &seeds, 1e-6);
    for (k, (g, w)) in grads.iter().zip(&want).enumerate() {
        close(
            &g.to_f64_vec(),
            w,
            tol,
            &format!("d input {k} (interp vs fd)"),
        );
    }
    // The compiled devices agree with the interpreter.
    for dev in ["interp-lowered", "cpu"] {
        let mut d = jit_compile(Jit::new(dev).unwrap(), f.clone());
        let (_, g2) = d.call_with_grad(inputs.clone(), &seeds).unwrap();
        for (k, (a, b)) in g2.iter().zip(&grads).enumerate() {
            close(
                &a.to_f64_vec(),
                &b.to_f64_vec(),
                1e-9,
                &format!("d input {k} ({dev} vs interp)"),
            );
        }
    }
}

#[test]
fn a_broadcast_chain_gradient_matches_finite_differences() {
    check(
        |[x, w, b]: [Tensor; 3]| (x * w + b).tanh() * x.sigmoid(),
        vec![
            rand(DType::F64, &[3, 4], 1),
            rand(DType::F64, &[1, 4], 2),
            rand(DType::F64, &[3, 1], 3),
        ],
        1e-6,
    );
}

#[test]
fn a_chain_ending_in_reductions_differentiates() {
    check(
        |[x, y]: [Tensor; 2]| {
            let d = (x - y).exp() + maximum(x, y) * 0.5;
            vec![d.sum(), d.mean_axis(1), (x * x).sqrt().sum_axis(0)]
        },
        vec![rand(DType::F64, &[5, 7], 4), rand(DType::F64, &[5, 7], 5)],
        1e-6,
    );
}

#[test]
fn where_and_max_reduction_differentiate() {
    check(
        |[x]: [Tensor; 1]| {
            let m = x.gt(0.0);
            let y = select(m, x.log().abs() + 1.0, -x * 3.0);
            vec![y.max(), y.pow(2.0).sum()]
        },
        vec![rand(DType::F64, &[64], 6)],
        1e-5,
    );
}

#[test]
fn a_registered_primitive_fuses_and_its_backward_is_used() {
    // softplus(x) = log(1 + exp(x)); forward only: reverse-mode-ad derives the backward.
    register_primitive(
        "softplus_t",
        1,
        Arc::new(|b, v, loc| {
            use qd_arith::{build_binary, build_constant_float, build_unary};
            let ty = b.ctx.value_type(v[0]);
            let one = build_constant_float(b, 1.0, ty, loc);
            let e = build_unary(b, "math.exp", v[0], loc);
            let s = build_binary(b, "arith.addf", one, e, loc);
            build_unary(b, "math.log", s, loc)
        }),
        None,
        true,
    )
    .unwrap();
    check(
        |[x]: [Tensor; 1]| qd_jit::trace::apply("softplus_t", &[x.into_operand()]) * x,
        vec![rand(DType::F64, &[9], 7)],
        1e-6,
    );
    // A straight-through "round": forward rounds, the hand-written backward passes the adjoint
    // through (the derivative of round is 0, so only the custom rule gives 1).
    register_primitive(
        "ste_round_t",
        1,
        Arc::new(|b, v, loc| qd_arith::build_unary(b, "math.roundeven", v[0], loc)),
        Some(Arc::new(|_b, a, _loc| vec![Some(a.result_adjoint)])),
        true,
    )
    .unwrap();
    for dev in ["interp", "cpu"] {
        let mut f = jit_compile(Jit::new(dev).unwrap(), |[x]: [Tensor; 1]| {
            qd_jit::trace::apply("ste_round_t", &[x.into_operand()]) * 2.0
        });
        let x = arr(DType::F64, &[4], &[0.4, 1.6, -2.2, 3.5]);
        let seed = arr(DType::F64, &[4], &[1.0, 2.0, 3.0, 4.0]);
        let (out, g) = f.call_with_grad(vec![x], &[seed]).unwrap();
        close(&out[0].to_f64_vec(), &[0.0, 4.0, -4.0, 8.0], 0.0, dev);
        close(&g[0].to_f64_vec(), &[2.0, 4.0, 6.0, 8.0], 0.0, dev);
    }
}

#[test]
fn adjoints_a_thread_owns_are_accumulated_without_atomics() {
    let mut g = qd_jit::Graph::new();
    let x = g.input(&[4, 8], DType::F64);
    let w = g.input(&[8], DType::F64);
    let y = g.apply("mul", &[x.into(), w.into()]);
    let t = g.apply("tanh", &[y.into()]);
    g.output(t);
    let mut jit = Jit::new("interp").unwrap();
    let e = jit.compile(&g).unwrap();
    let ctx = e.program.context();
    let count = |name: &str| {
        ctx.walk_pre_order(e.program.module())
            .into_iter()
            .filter(|&o| ctx.name(o) == name)
            .count()
    };
    // x's adjoint (one element per thread) is a plain load/add/store; w's (broadcast: shared by
    // the rows) stays an atomic accumulation.
    assert_eq!(count("ad.acc_ndarray_adjoint"), 1);
    let xs = rand(DType::F64, &[4, 8], 1);
    let ws = rand(DType::F64, &[8], 2);
    let seed = rand(DType::F64, &[4, 8], 3);
    let (_, grads) = e
        .run_with_grad(vec![xs.clone(), ws.clone()], std::slice::from_ref(&seed))
        .unwrap();
    let (xv, wv, sv) = (xs.to_f64_vec(), ws.to_f64_vec(), seed.to_f64_vec());
    let dt = |i: usize| sv[i] * (1.0 - (xv[i] * wv[i % 8]).tanh().powi(2));
    let dx: Vec<f64> = (0..32).map(|i| dt(i) * wv[i % 8]).collect();
    let dw: Vec<f64> = (0..8)
        .map(|j| (0..4).map(|r| dt(r * 8 + j) * xv[r * 8 + j]).sum())
        .collect();
    close(&grads[0].to_f64_vec(), &dx, 1e-12, "dx");
    close(&grads[1].to_f64_vec(), &dw, 1e-12, "dw");
}

#[test]
fn the_gradient_of_a_partial_kernel_does_not_replay_its_forward_loop() {
    let mut g = qd_jit::Graph::new();
    let x = g.input(&[1000], DType::F64);
    let e = g.apply("exp", &[x.into()]);
    let s = g.reduce(qd_jit::Reduce::Sum, e, None);
    g.output(s);
    let mut jit = Jit::new("interp").unwrap();
    let ex = jit.compile(&g).unwrap();
    let ctx = ex.program.context();
    let grad = qd_ad::find_reverse(ctx, ex.program.module(), &ex.plan.steps[0].kernel)
        .and_then(|r| r.gradient(ctx))
        .unwrap();
    let loops = ctx
        .walk_pre_order(grad.0)
        .into_iter()
        .filter(|&o| ctx.name(o) == "qd.range_for")
        .count();
    // The parallel loop and the reverse sweep; the replayed accumulation loop is gone.
    assert_eq!(loops, 2);
    let xs = rand(DType::F64, &[1000], 5);
    let (_, grads) = ex
        .run_with_grad(vec![xs.clone()], &[arr(DType::F64, &[], &[2.0])])
        .unwrap();
    let want: Vec<f64> = xs.to_f64_vec().iter().map(|v| 2.0 * v.exp()).collect();
    close(&grads[0].to_f64_vec(), &want, 1e-12, "d sum(exp x)");
}
