//! How a backward prepares adjoint buffers (qd_fusion::overwrite): the gradient of a one-kernel
//! plan writes the adjoints of the inputs only it reads instead of accumulating into zeroed
//! buffers, and leaves the seeded output adjoints alone; broadcast inputs and plans of several
//! kernels keep zeroed, accumulated adjoints. Every backward gives fresh gradients.

use super::common::*;
use qd_jit::{Executable, Graph, Jit, Operand};
use qd_runtime::{DType, Ndarray};

/// sigmoid(relu(x * w + 0.5) - x * 0.25), the bench's chain.
fn chain(shape_x: &[usize], shape_w: &[usize], dtype: DType) -> Graph {
    let mut g = Graph::new();
    let x = g.input(shape_x, dtype);
    let w = g.input(shape_w, dtype);
    let a = g.apply("mul", &[x.into(), w.into()]);
    let b = g.apply("add", &[a.into(), Operand::Scalar(0.5)]);
    let c = g.apply("relu", &[b.into()]);
    let d = g.apply("mul", &[x.into(), Operand::Scalar(0.25)]);
    let e = g.apply("sub", &[c.into(), d.into()]);
    let f = g.apply("sigmoid", &[e.into()]);
    g.output(f);
    g
}

/// The ops named `name` in the gradient kernels of `e`.
fn grad_ops(e: &Executable, name: &str) -> usize {
    let ctx = e.program.context();
    e.plan
        .steps
        .iter()
        .filter_map(|s| qd_ad::find_reverse(ctx, e.program.module(), &s.kernel))
        .filter_map(|r| r.gradient(ctx))
        .map(|g| {
            ctx.walk_pre_order(g.0)
                .into_iter()
                .filter(|&o| ctx.name(o) == name)
                .count()
        })
        .sum()
}

/// Forward, then backward with `seeds`, then the inputs' gradients, on one binding.
fn grads(e: &mut Executable, b: &mut qd_jit::Binding, seeds: &[Ndarray]) -> Vec<Vec<f64>> {
    e.forward(b).unwrap();
    e.backward(b, seeds).unwrap();
    (0..e.plan.num_inputs)
        .map(|i| e.grad(b, i).unwrap().to_f64_vec())
        .collect()
}

fn bits(v: &[Vec<f64>]) -> Vec<Vec<u64>> {
    v.iter()
        .map(|g| g.iter().map(|x| x.to_bits()).collect())
        .collect()
}

#[test]
fn a_fused_chain_overwrites_its_input_adjoints_and_reads_its_seed_only() {
    let g = chain(&[64], &[64], DType::F64);
    let mut jit = Jit::new("interp").unwrap();
    let e = jit.compile(&g).unwrap();
    assert_eq!(e.plan.steps.len(), 1);
    // x, w: written in full by the gradient; y: seeded, and only read (seeds can be bound).
    assert_eq!(e.written_in_full, vec![true, true, true]);
    assert!(e.seeds_bound);
    assert_eq!(grad_ops(e, "ad.acc_ndarray_adjoint"), 0);
    // Stores: dx and dw once each; the seed's reset is gone.
    assert_eq!(grad_ops(e, "qd.ndarray_store"), 2);
    let ctx = e.program.context();
    let r = qd_ad::find_reverse(ctx, e.program.module(), &e.plan.steps[0].kernel).unwrap();
    let grad = r.gradient(ctx).unwrap();
    let dy = grad.args(ctx)[5];
    assert!(ctx.users(dy).all(|u| ctx.name(u) == "qd.ndarray_load"));
}

#[test]
fn overwritten_gradients_match_finite_differences_and_every_device() {
    // f64: against central differences; each device against the interpreter.
    let n = 37;
    let x = rand(DType::F64, &[n], 1);
    let w = rand(DType::F64, &[n], 2);
    let seed = rand(DType::F64, &[n], 3);
    let g = chain(&[n], &[n], DType::F64);
    let mut interp = Jit::new("interp").unwrap();
    let e = interp.compile(&g).unwrap();
    let (_, want) = e
        .run_with_grad(vec![x.clone(), w.clone()], std::slice::from_ref(&seed))
        .unwrap();
    let (xv, wv, sv) = (x.to_f64_vec(), w.to_f64_vec(), seed.to_f64_vec());
    let f = |x: f64, w: f64| 1.0 / (1.0 + (-((x * w + 0.5).max(0.0) - x * 0.25)).exp());
    let h = 1e-6;
    let dx: Vec<f64> = (0..n)
        .map(|i| sv[i] * (f(xv[i] + h, wv[i]) - f(xv[i] - h, wv[i])) / (2.0 * h))
        .collect();
    let dw: Vec<f64> = (0..n)
        .map(|i| sv[i] * (f(xv[i], wv[i] + h) - f(xv[i], wv[i] - h)) / (2.0 * h))
        .collect();
    close(&want[0].to_f64_vec(), &dx, 1e-7, "dx (interp vs fd)");
    close(&want[1].to_f64_vec(), &dw, 1e-7, "dw (interp vs fd)");
    for dev in ["interp-lowered", "cpu"] {
        let mut jit = Jit::new(dev).unwrap();
        let e = jit.compile(&g).unwrap();
        assert_eq!(e.written_in_full, vec![true, true, true], "{dev}");
        let (_, got) = e
            .run_with_grad(vec![x.clone(), w.clone()], std::slice::from_ref(&seed))
            .unwrap();
        for (k, (a, b)) in got.iter().zip(&want).enumerate() {
            close(
                &a.to_f64_vec(),
                &b.to_f64_vec(),
                1e-12,
                &format!("d input {k} ({dev} vs interp)"),
            );
        }
    }
}

#[test]
fn repeated_backwards_give_fresh_gradients() {
    // f32 on the cpu device (vector groups and a partial group: 16 lanes do not divide 1000).
    let n = 1000;
    for (dev, fuse) in [("cpu", true), ("cpu", false), ("interp", true)] {
        let g = chain(&[n], &[n], DType::F32);
        let mut jit = Jit::new(dev).unwrap();
        if !fuse {
            jit = jit.unfused();
        }
        let e = jit.compile(&g).unwrap();
        let (x, w) = (rand(DType::F32, &[n], 1), rand(DType::F32, &[n], 2));
        let (s1, s2) = (rand(DType::F32, &[n], 3), rand(DType::F32, &[n], 4));
        let fresh = |s: &Ndarray| {
            let mut jit = Jit::new(dev).unwrap();
            if !fuse {
                jit = jit.unfused();
            }
            let e = jit.compile(&g).unwrap();
            let (_, gs) = e
                .run_with_grad(vec![x.clone(), w.clone()], std::slice::from_ref(s))
                .unwrap();
            bits(&gs.iter().map(|a| a.to_f64_vec()).collect::<Vec<_>>())
        };
        let mut b = e.bind(vec![x.clone(), w.clone()]).unwrap();
        let one = std::slice::from_ref(&s1);
        let first = bits(&grads(e, &mut b, one));
        assert_eq!(first, fresh(&s1), "{dev} fused={fuse}: first call");
        // Again, with another seed in between: nothing of the previous call leaks.
        assert_eq!(bits(&grads(e, &mut b, one)), first, "{dev} fused={fuse}");
        let other = bits(&grads(e, &mut b, std::slice::from_ref(&s2)));
        assert_eq!(other, fresh(&s2), "{dev} fused={fuse}: another seed");
        assert_eq!(bits(&grads(e, &mut b, one)), first, "{dev} fused={fuse}");
        e.release(b);
    }
}

#[test]
fn broadcast_inputs_keep_zeroed_accumulated_adjoints() {
    // x (B, F) is read at the loop's own index and overwritten; w (1, F) and b (B, 1) are read
    // by many iterations and accumulate.
    let (rows, cols) = (6, 5);
    let mut g = Graph::new();
    let x = g.input(&[rows, cols], DType::F64);
    let w = g.input(&[1, cols], DType::F64);
    let bias = g.input(&[rows, 1], DType::F64);
    let a = g.apply("mul", &[x.into(), w.into()]);
    let c = g.apply("add", &[a.into(), bias.into()]);
    let t = g.apply("tanh", &[c.into()]);
    g.output(t);
    let xs = rand(DType::F64, &[rows, cols], 1);
    let ws = rand(DType::F64, &[1, cols], 2);
    let bs = rand(DType::F64, &[rows, 1], 3);
    let seed = rand(DType::F64, &[rows, cols], 4);
    let (xv, wv, bv, sv) = (
        xs.to_f64_vec(),
        ws.to_f64_vec(),
        bs.to_f64_vec(),
        seed.to_f64_vec(),
    );
    let dt = |r: usize, c: usize| {
        let i = r * cols + c;
        sv[i] * (1.0 - (xv[i] * wv[c] + bv[r]).tanh().powi(2))
    };
    let dx: Vec<f64> = (0..rows * cols)
        .map(|i| dt(i / cols, i % cols) * wv[i % cols])
        .collect();
    let dw: Vec<f64> = (0..cols)
        .map(|c| (0..rows).map(|r| dt(r, c) * xv[r * cols + c]).sum())
        .collect();
    let db: Vec<f64> = (0..rows)
        .map(|r| (0..cols).map(|c| dt(r, c)).sum())
        .collect();
    for dev in ["interp", "cpu"] {
        let mut jit = Jit::new(dev).unwrap();
        let e = jit.compile(&g).unwrap();
        assert_eq!(e.written_in_full, vec![true, false, false, true], "{dev}");
        let mut b = e.bind(vec![xs.clone(), ws.clone(), bs.clone()]).unwrap();
        // Twice: the accumulated adjoints are zeroed again before the second call.
        for _ in 0..2 {
            let got = grads(e, &mut b, std::slice::from_ref(&seed));
            close(&got[0], &dx, 1e-12, &format!("dx ({dev})"));
            close(&got[1], &dw, 1e-12, &format!("dw ({dev})"));
            close(&got[2], &db, 1e-12, &format!("db ({dev})"));
        }
        e.release(b);
    }
}

#[test]
fn a_plan_of_several_kernels_keeps_zeroed_accumulated_adjoints() {
    let g = chain(&[16], &[16], DType::F64);
    let mut jit = Jit::new("interp").unwrap().unfused();
    let e = jit.compile(&g).unwrap();
    assert_eq!(e.plan.steps.len(), 6);
    // Only the seeded output is written in full; every gradient accumulates.
    let out = e.plan.outputs[0];
    let want: Vec<bool> = (0..e.plan.slots.len()).map(|s| s == out).collect();
    assert_eq!(e.written_in_full, want);
    assert!(!e.seeds_bound);
    assert!(grad_ops(e, "ad.acc_ndarray_adjoint") + grad_ops(e, "arith.addf") >= 8);
    let mut fused = Jit::new("interp").unwrap();
    let (x, w, s) = (
        rand(DType::F64, &[16], 1),
        rand(DType::F64, &[16], 2),
        rand(DType::F64, &[16], 3),
    );
    let (_, a) = e
        .run_with_grad(vec![x.clone(), w.clone()], std::slice::from_ref(&s))
        .unwrap();
    let (_, b) = fused
        .compile(&g)
        .unwrap()
        .run_with_grad(vec![x, w], std::slice::from_ref(&s))
        .unwrap();
    for (k, (a, b)) in a.iter().zip(&b).enumerate() {
        close(&a.to_f64_vec(), &b.to_f64_vec(), 1e-12, &format!("d{k}"));
    }
}

#[test]
fn an_input_returned_or_an_output_returned_twice_sums_its_seeds() {
    // y = x * w returned twice, and x itself returned: dx = (s1 + s2) * w + s3, dw = (s1 + s2) * x.
    let n = 20;
    let mut g = Graph::new();
    let x = g.input(&[n], DType::F64);
    let w = g.input(&[n], DType::F64);
    let y = g.apply("mul", &[x.into(), w.into()]);
    g.output(y);
    g.output(y);
    g.output(x);
    let (xs, ws) = (rand(DType::F64, &[n], 1), rand(DType::F64, &[n], 2));
    let seeds: Vec<Ndarray> = (0..3).map(|k| rand(DType::F64, &[n], 10 + k)).collect();
    let s: Vec<Vec<f64>> = seeds.iter().map(|a| a.to_f64_vec()).collect();
    let (xv, wv) = (xs.to_f64_vec(), ws.to_f64_vec());
    let dx: Vec<f64> = (0..n)
        .map(|i| (s[0][i] + s[1][i]) * wv[i] + s[2][i])
        .collect();
    let dw: Vec<f64> = (0..n).map(|i| (s[0][i] + s[1][i]) * xv[i]).collect();
    for dev in ["interp", "cpu"] {
        let mut jit = Jit::new(dev).unwrap();
        let e = jit.compile(&g).unwrap();
        let mut b = e.bind(vec![xs.clone(), ws.clone()]).unwrap();
        for _ in 0..2 {
            let got = grads(e, &mut b, &seeds);
            close(&got[0], &dx, 1e-12, &format!("dx ({dev})"));
            close(&got[1], &dw, 1e-12, &format!("dw ({dev})"));
        }
        e.release(b);
    }
}

/// A kernel `y[i] = x[i] * x[i]` over `[0, 8)` and a gradient as reverse-mode-ad makes it
/// (`dx`: %arg2, `dy`: %arg3), with `body` as the gradient loop's body.
fn module_with_gradient(body: &str) -> String {
    format!(
        "module {{
  qd.kernel @k(%arg0: !qd.ndarray<?xf64>, %arg1: !qd.ndarray<?xf64>) {{
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    qd.range_for %i = %c0 to %c8 : i32 {{
      %0 = qd.ndarray_load %arg0[%i] : !qd.ndarray<?xf64>
      %1 = arith.mulf %0, %0 : f64
      qd.ndarray_store %1, %arg1[%i] : !qd.ndarray<?xf64>
    }}
  }}
  qd.kernel @k_grad(%arg0: !qd.ndarray<?xf64>, %arg1: !qd.ndarray<?xf64>, %arg2: !qd.ndarray<?xf64>, %arg3: !qd.ndarray<?xf64>) {{
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    %z = arith.constant 0.000000e+00 : f64
    qd.range_for %i = %c0 to %c8 : i32 {{
{body}
    }}
  }}
  ad.reverse @k -> @k_grad {{active = [true, true]}}
}}"
    )
}

/// The gradient's standard body: read and reset dy[i], accumulate 2 x dy into dx[i].
const BODY: &str = "      %0 = qd.ndarray_load %arg0[%i] : !qd.ndarray<?xf64>
      %1 = qd.ndarray_load %arg3[%i] : !qd.ndarray<?xf64>
      qd.ndarray_store %z, %arg3[%i] : !qd.ndarray<?xf64>
      %2 = arith.mulf %1, %0 : f64
      %3 = arith.addf %2, %2 : f64
      ad.acc_ndarray_adjoint %3, %arg2[%i] : !qd.ndarray<?xf64>";

/// Runs `qd_fusion::overwrite_adjoints` on `body` with x's adjoint the sole writer's and y's dead
/// after, both arrays of `len`; what became of (dx, dy), and the gradient's text.
fn rewrite(body: &str, len: u64) -> (Vec<qd_fusion::AdjointWrite>, String) {
    use qd_fusion::AdjointUse;
    let mut ctx = qd_dialects::context();
    let m = qd_ir::text::parse_source(&mut ctx, &module_with_gradient(body), "t.mlir")
        .expect("the test module parses");
    qd_ir::verifier::verify(&ctx, m).expect("the test module verifies");
    let uses = [
        AdjointUse {
            len: Some(len),
            sole_writer: true,
            dead_after: false,
        },
        AdjointUse {
            len: Some(len),
            sole_writer: false,
            dead_after: true,
        },
    ];
    let w = qd_fusion::overwrite_adjoints(&mut ctx, m, "k", &uses);
    qd_ir::verifier::verify(&ctx, m).expect("the rewritten module verifies");
    let text = qd_ir::text::print_op(&ctx, m, &qd_ir::text::PrintOptions::default());
    let grad = text[text.find("@k_grad").expect("the gradient is printed")..].to_string();
    (w, grad)
}

/// The resets of dy (%arg3) in a gradient's text.
fn resets(grad: &str) -> usize {
    grad.lines()
        .filter(|l| l.contains("qd.ndarray_store") && l.contains("%arg3["))
        .count()
}

#[test]
fn the_rewrite_proves_each_condition_on_the_gradient() {
    use qd_fusion::AdjointWrite::{Overwritten, ReadOnly, Unchanged};
    let (w, text) = rewrite(BODY, 8);
    assert_eq!(w, vec![Overwritten, ReadOnly], "{text}");
    assert!(!text.contains("ad.acc_ndarray_adjoint"), "{text}");
    assert_eq!(resets(&text), 0, "{text}");
    // dx[i] = 0.0 + v: the sum the accumulation made into a zeroed buffer.
    assert!(text.contains("%4 = arith.addf %cst_0, %3"), "{text}");
    assert!(text.contains("qd.ndarray_store %4, %arg2[%arg4]"), "{text}");
    // The array is longer than the loop: elements past 8 would keep stale values.
    assert_eq!(rewrite(BODY, 9).0, vec![Unchanged, ReadOnly]);
    // The accumulation under a condition, at another index, or twice.
    let guarded = BODY.replace(
        "      ad.acc_ndarray_adjoint %3, %arg2[%i] : !qd.ndarray<?xf64>",
        "      %c = arith.cmpf ogt, %0, %z : f64
      qd.if %c {
        ad.acc_ndarray_adjoint %3, %arg2[%i] : !qd.ndarray<?xf64>
      }",
    );
    assert_eq!(rewrite(&guarded, 8).0[0], Unchanged);
    let shifted = BODY.replace("%arg2[%i]", "%arg2[%c0]");
    assert_eq!(rewrite(&shifted, 8).0[0], Unchanged);
    let twice = format!("{BODY}\n      ad.acc_ndarray_adjoint %2, %arg2[%i] : !qd.ndarray<?xf64>");
    assert_eq!(rewrite(&twice, 8).0[0], Unchanged);
    // dy read again after its reset: the reset is seen, and stays.
    let reread = format!("{BODY}\n      %4 = qd.ndarray_load %arg3[%i] : !qd.ndarray<?xf64>");
    let (w, text) = rewrite(&reread, 8);
    assert_eq!(w[1], Unchanged);
    assert_eq!(resets(&text), 1, "{text}");
    // A reset to something other than zero is not a reset.
    let nonzero = BODY.replace("qd.ndarray_store %z, %arg3", "qd.ndarray_store %0, %arg3");
    assert_eq!(rewrite(&nonzero, 8).0[1], Unchanged);
}

#[test]
fn the_rewrite_needs_one_parallel_loop_and_the_callers_word() {
    use qd_fusion::AdjointUse;
    use qd_fusion::AdjointWrite::Unchanged;
    // A second top-level loop: its iterations could touch the same elements again.
    let two = format!(
        "{BODY}\n    }}\n    qd.range_for %j = %c0 to %c8 : i32 {{\n      %9 = qd.ndarray_load %arg0[%j] : !qd.ndarray<?xf64>"
    );
    assert_eq!(rewrite(&two, 8).0, vec![Unchanged, Unchanged]);
    // Without the caller's word nothing changes.
    let mut ctx = qd_dialects::context();
    let m = qd_ir::text::parse_source(&mut ctx, &module_with_gradient(BODY), "t.mlir").unwrap();
    let uses = [AdjointUse {
        len: Some(8),
        ..AdjointUse::default()
    }; 2];
    let w = qd_fusion::overwrite_adjoints(&mut ctx, m, "k", &uses);
    assert_eq!(w, vec![Unchanged, Unchanged]);
    let text = qd_ir::text::print_op(&ctx, m, &qd_ir::text::PrintOptions::default());
    assert!(text.contains("ad.acc_ndarray_adjoint"), "{text}");
    assert_eq!(resets(&text), 1, "{text}");
}

#[test]
fn seeds_set_once_are_bound_in_a_fused_chain_and_copied_otherwise() {
    let n = 300;
    for (dev, fuse) in [("interp", true), ("cpu", true), ("cpu", false)] {
        let g = chain(&[n], &[n], DType::F32);
        let mut jit = Jit::new(dev).unwrap();
        if !fuse {
            jit = jit.unfused();
        }
        let e = jit.compile(&g).unwrap();
        assert_eq!(e.seeds_bound, fuse, "{dev}");
        let (x, w) = (rand(DType::F32, &[n], 1), rand(DType::F32, &[n], 2));
        let (s1, s2) = (rand(DType::F32, &[n], 3), rand(DType::F32, &[n], 4));
        let mut b = e.bind(vec![x, w]).unwrap();
        let err = e.backward_seeded(&mut b).unwrap_err();
        assert!(err.contains("set_seeds"), "{err}");
        let with = |e: &mut Executable, b: &mut qd_jit::Binding, s: &Ndarray| {
            bits(&grads(e, b, std::slice::from_ref(s)))
        };
        let seeded = |e: &mut Executable, b: &mut qd_jit::Binding| {
            e.forward(b).unwrap();
            e.backward_seeded(b).unwrap();
            let g: Vec<Vec<f64>> = (0..2).map(|i| e.grad(b, i).unwrap().to_f64_vec()).collect();
            bits(&g)
        };
        let (g1, g2) = (with(e, &mut b, &s1), with(e, &mut b, &s2));
        assert_ne!(g1, g2);
        e.set_seeds(&mut b, std::slice::from_ref(&s1)).unwrap();
        assert_eq!(seeded(e, &mut b), g1, "{dev} fused={fuse}");
        assert_eq!(seeded(e, &mut b), g1, "{dev} fused={fuse}: again");
        // A backward with its own seeds leaves the set ones alone.
        assert_eq!(with(e, &mut b, &s2), g2);
        assert_eq!(seeded(e, &mut b), g1, "{dev} fused={fuse}: after backward");
        e.set_seeds(&mut b, std::slice::from_ref(&s2)).unwrap();
        assert_eq!(seeded(e, &mut b), g2, "{dev} fused={fuse}: new seeds");
        assert!(e.set_seeds(&mut b, &[]).is_err());
        e.release(b);
    }
}
