//! Forward results of fused programs against host references, broadcasting, reductions, the
//! cache, the unfused baseline, errors.

use super::common::*;
use qd_jit::{jit_compile, maximum, select, Graph, Jit, Operand, Reduce};
use qd_runtime::DType;

fn host_chain(x: &[f64], w: &[f64], b: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    // y = relu(x * w + b) with x (rows, cols), w (1, cols), b (rows, 1)
    let mut y = vec![0.0; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let v = x[r * cols + c] * w[c] + b[r];
            y[r * cols + c] = v.max(0.0);
        }
    }
    y
}

#[test]
fn a_broadcast_chain_matches_the_host_on_the_interpreter() {
    let mut f = jit_compile(Jit::new("interp").unwrap(), |[x, w, b]| (x * w + b).relu());
    let (rows, cols) = (3, 5);
    let x = rand(DType::F64, &[rows, cols], 1);
    let w = rand(DType::F64, &[1, cols], 2);
    let b = rand(DType::F64, &[rows, 1], 3);
    let want = host_chain(
        &x.to_f64_vec(),
        &w.to_f64_vec(),
        &b.to_f64_vec(),
        rows,
        cols,
    );
    let out = f.call(vec![x.clone(), w.clone(), b.clone()]).unwrap();
    assert_eq!(out[0].shape(), &[rows, cols]);
    close(&out[0].to_f64_vec(), &want, 1e-12, "y");
    // Same shapes: a hit; new shapes: a miss.
    f.call(vec![x, w, b]).unwrap();
    assert_eq!((f.stats().misses, f.stats().hits), (1, 1));
    let x2 = rand(DType::F64, &[2, cols], 4);
    let b2 = rand(DType::F64, &[2, 1], 5);
    f.call(vec![x2, rand(DType::F64, &[1, cols], 6), b2])
        .unwrap();
    assert_eq!((f.stats().misses, f.stats().hits), (2, 1));
    assert!(f.stats().compile_time.as_nanos() > 0);
}

#[test]
fn the_fused_chain_is_one_kernel_and_the_unfused_one_per_op() {
    let mut g = Graph::new();
    let x = g.input(&[4, 8], DType::F32);
    let w = g.input(&[8], DType::F32);
    let a = g.apply("mul", &[x.into(), w.into()]);
    let b = g.apply("add", &[a.into(), Operand::Scalar(1.0)]);
    let c = g.apply("tanh", &[b.into()]);
    let s = g.reduce(Reduce::Sum, c, None);
    g.output(c);
    g.output(s);
    let mut fused = Jit::new("interp").unwrap();
    let e = fused.compile(&g).unwrap();
    // One elementwise+partial kernel, one reduce kernel.
    assert_eq!(e.plan.steps.len(), 2, "{}", e.ir);
    let xs = rand(DType::F32, &[4, 8], 7);
    let ws = rand(DType::F32, &[8], 8);
    let out_f = e.run(vec![xs.clone(), ws.clone()]).unwrap();
    let mut unfused = Jit::new("interp").unwrap().unfused();
    let e = unfused.compile(&g).unwrap();
    assert_eq!(e.plan.steps.len(), 5, "{}", e.ir);
    let out_u = e.run(vec![xs.clone(), ws.clone()]).unwrap();
    close(&out_f[0].to_f64_vec(), &out_u[0].to_f64_vec(), 1e-6, "c");
    close(&out_f[1].to_f64_vec(), &out_u[1].to_f64_vec(), 1e-5, "sum");
    let (x, w) = (xs.to_f64_vec(), ws.to_f64_vec());
    let want: f64 = (0..32).map(|i| ((x[i] * w[i % 8]) + 1.0).tanh()).sum();
    close(&out_f[1].to_f64_vec(), &[want], 1e-5, "sum vs host");
}

/// The options are part of the cache key: a JIT that cached the fused graph and is then made
/// unfused compiles the graph again instead of returning the fused executable.
#[test]
fn options_changed_after_a_compile_compile_again() {
    let mut g = Graph::new();
    let x = g.input(&[16], DType::F32);
    let a = g.apply("mul", &[x.into(), Operand::Scalar(2.0)]);
    let b = g.apply("add", &[a.into(), Operand::Scalar(1.0)]);
    g.output(b);
    let mut jit = Jit::new("interp").unwrap();
    assert_eq!(jit.compile(&g).unwrap().plan.steps.len(), 1);
    let mut jit = jit.unfused();
    assert_eq!(jit.compile(&g).unwrap().plan.steps.len(), 2);
    assert_eq!((jit.stats.misses, jit.stats.hits), (2, 0));
    let mut jit = jit.approx_functions();
    jit.compile(&g).unwrap();
    assert_eq!((jit.stats.misses, jit.stats.hits), (3, 0));
}

#[test]
fn reductions_over_one_axis_and_every_axis() {
    let mut f = jit_compile(Jit::new("interp").unwrap(), |[x]| {
        let e = x.exp();
        vec![
            e.sum_axis(0),
            e.mean_axis(1),
            e.max_axis(1),
            e.max(),
            e.mean(),
        ]
    });
    let (r, c) = (37, 300);
    let x = rand(DType::F64, &[r, c], 9);
    let xv: Vec<f64> = x.to_f64_vec().iter().map(|v| v.exp()).collect();
    let out = f.call(vec![x]).unwrap();
    let col_sum: Vec<f64> = (0..c)
        .map(|j| (0..r).map(|i| xv[i * c + j]).sum())
        .collect();
    let row_mean: Vec<f64> = (0..r)
        .map(|i| (0..c).map(|j| xv[i * c + j]).sum::<f64>() / c as f64)
        .collect();
    let row_max: Vec<f64> = (0..r)
        .map(|i| {
            (0..c)
                .map(|j| xv[i * c + j])
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    close(&out[0].to_f64_vec(), &col_sum, 1e-12, "sum axis 0");
    close(&out[1].to_f64_vec(), &row_mean, 1e-12, "mean axis 1");
    close(&out[2].to_f64_vec(), &row_max, 0.0, "max axis 1");
    let all_max = xv.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    close(&out[3].to_f64_vec(), &[all_max], 0.0, "max");
    close(
        &out[4].to_f64_vec(),
        &[xv.iter().sum::<f64>() / xv.len() as f64],
        1e-12,
        "mean",
    );
}

#[test]
fn where_comparisons_and_scalars_on_either_side() {
    let mut f = jit_compile(Jit::new("interp").unwrap(), |[x, y]| {
        let m = x.lt(y);
        let a = select(m, 2.0 - x, maximum(y, 0.25) / x);
        (a, 1.0 / (y * y + 1.0))
    });
    let x = rand(DType::F64, &[6, 4], 10);
    let y = rand(DType::F64, &[4], 11);
    let (xv, yv) = (x.to_f64_vec(), y.to_f64_vec());
    let out = f.call(vec![x, y]).unwrap();
    let want: Vec<f64> = (0..24)
        .map(|i| {
            let (a, b) = (xv[i], yv[i % 4]);
            if a < b {
                2.0 - a
            } else {
                b.max(0.25) / a
            }
        })
        .collect();
    close(&out[0].to_f64_vec(), &want, 1e-12, "where");
    let want2: Vec<f64> = yv.iter().map(|b| 1.0 / (b * b + 1.0)).collect();
    close(&out[1].to_f64_vec(), &want2, 1e-12, "scalar lhs");
}

#[test]
fn bad_shapes_and_dtypes_are_errors_not_panics() {
    let mut f = jit_compile(Jit::new("interp").unwrap(), |[x, y]| x + y);
    let e = f
        .call(vec![
            rand(DType::F32, &[4, 3], 1),
            rand(DType::F32, &[5], 2),
        ])
        .unwrap_err();
    assert!(e.contains("do not broadcast (axis 1: 3 vs 5)"), "{e}");
    let e = f
        .call(vec![rand(DType::F32, &[3], 1), rand(DType::F64, &[3], 2)])
        .unwrap_err();
    assert!(e.contains("dtypes"), "{e}");
    let e = f.call(vec![rand(DType::F32, &[3], 1)]).unwrap_err();
    assert!(e.contains("expects 2 inputs"), "{e}");
    assert!(Jit::new("no-such-device").is_err());
}

#[test]
fn an_op_without_a_fusible_rule_ends_the_chain_and_runs_alone() {
    qd_jit::register_primitive(
        "cube_not_fusible_t",
        1,
        std::sync::Arc::new(|b, v, loc| {
            let sq = qd_arith::build_binary(b, "arith.mulf", v[0], v[0], loc);
            qd_arith::build_binary(b, "arith.mulf", sq, v[0], loc)
        }),
        None,
        false,
    )
    .unwrap();
    let mut f = jit_compile(Jit::new("interp").unwrap(), |[x]| {
        let a = x * 2.0 - 0.5;
        let c = qd_jit::trace::apply("cube_not_fusible_t", &[a.into_operand()]);
        (c + 1.0).tanh() * x
    });
    let x = rand(DType::F64, &[40], 12);
    let xv = x.to_f64_vec();
    let (out, g) = f
        .call_with_grad(vec![x.clone()], &[arr(DType::F64, &[40], &[1.0; 40])])
        .unwrap();
    let sig = vec![(vec![40usize], DType::F64)];
    // mul+sub | cube | add+tanh+mul: three kernels.
    assert_eq!(f.executable(&sig).unwrap().plan.steps.len(), 3);
    let want: Vec<f64> = xv
        .iter()
        .map(|&x| ((2.0 * x - 0.5).powi(3) + 1.0).tanh() * x)
        .collect();
    close(&out[0].to_f64_vec(), &want, 1e-12, "y");
    let dwant: Vec<f64> = xv
        .iter()
        .map(|&x| {
            let a = 2.0 * x - 0.5;
            let t = (a.powi(3) + 1.0).tanh();
            t + x * (1.0 - t * t) * 3.0 * a * a * 2.0
        })
        .collect();
    close(&g[0].to_f64_vec(), &dwant, 1e-10, "dy/dx");
}

#[test]
fn comparison_outputs_come_back_as_booleans() {
    let mut f = jit_compile(Jit::new("cpu").unwrap(), |[x]| (x.gt(0.0), x * 2.0));
    let x = arr(DType::F32, &[4], &[-1.0, 0.5, 0.0, 2.0]);
    let out = f.call(vec![x]).unwrap();
    assert_eq!(out[0].dtype(), DType::I1);
    assert_eq!(out[0].to_f64_vec(), vec![0.0, 1.0, 0.0, 1.0]);
    // Unfused, the comparison is a stored intermediate (as i32) that the select reads back.
    let mut g = Graph::new();
    let x = g.input(&[4], DType::F32);
    let m = g.apply("lt", &[x.into(), Operand::Scalar(0.25)]);
    let s = g.apply("select", &[m.into(), x.into(), Operand::Scalar(9.0)]);
    g.output(s);
    let mut u = Jit::new("interp").unwrap().unfused();
    let e = u.compile(&g).unwrap();
    assert_eq!(e.plan.steps.len(), 2);
    let out = e
        .run(vec![arr(DType::F32, &[4], &[-1.0, 0.5, 0.0, 2.0])])
        .unwrap();
    assert_eq!(out[0].to_f64_vec(), vec![-1.0, 9.0, 0.0, 9.0]);
}

#[test]
fn the_jit_macro_takes_one_parameter_per_input() {
    let mut f = qd_jit::jit!(Jit::new("interp").unwrap(), |x, w, b| (x * w + b).relu());
    let out = f
        .call(vec![
            arr(DType::F64, &[3], &[1.0, -2.0, 3.0]),
            arr(DType::F64, &[3], &[2.0, 2.0, -1.0]),
            arr(DType::F64, &[1], &[0.5]),
        ])
        .unwrap();
    assert_eq!(out[0].to_f64_vec(), vec![2.5, 0.0, 0.0]);
}
