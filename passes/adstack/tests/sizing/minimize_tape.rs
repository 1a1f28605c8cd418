//! minimize-tape on the examples and on two kernels that show what the reverse pass stores: every
//! gradient is bit for bit the one of the unminimized gradient kernel, an elided stack holds no
//! entry whatever its capacity, a kept stack still overflows one entry short of its exact bound
//! (the hidden-size check), a cheap chain is recomputed rather than taped, and a load of a local
//! the kernel changes is taped on a stack of its own.

use super::common::*;
use super::examples::{cases, Case};
use qd_adstack::size_expr::SizeExpr;
use qd_adstack::{AllocaOp, ALLOCA_OP, SIZE_EXPR};
use qd_adstack_passes::MinimizeTapePass;
use qd_ir::{Context, OpId};
use qd_pass::Pass;

/// The example differentiated (and minimized when `minimize`), then sized.
fn gradient(src: &str, minimize: bool) -> (Context, OpId) {
    let (mut ctx, m) = parse(src);
    let mut ad = qd_autodiff::reverse_mode_ad_pass_info()
        .create_default()
        .expect("reverse-mode-ad");
    assert!(ad.run(&mut ctx, m).is_ok(), "{:?}", ctx.diagnostics());
    if minimize {
        assert!(MinimizeTapePass::default().run(&mut ctx, m).is_ok());
        qd_ir::verifier::verify(&ctx, m).expect("the minimized module verifies");
    }
    size(&mut ctx, m);
    (ctx, m)
}

/// The allocas of the module and whether each was elided.
fn elided(ctx: &Context, m: OpId) -> Vec<bool> {
    ctx.walk_pre_order(m)
        .into_iter()
        .filter(|&o| ctx.name(o) == ALLOCA_OP)
        .map(|o| AllocaOp(o).is_primal_elided(ctx))
        .collect()
}

/// Runs the case's kernel and gradient with every kept stack given `capacity` entries (None:
/// each its evaluated bound); the gradients of the `.grad` fields, or the overflow messages.
fn grads(
    case: &Case,
    ctx: Context,
    m: OpId,
    capacity: Option<u64>,
) -> Result<Vec<u64>, Vec<String>> {
    let mut p = program_with_capacity(ctx, m, capacity);
    for (f, v) in &case.fields {
        p.write_f64(f, v).unwrap();
    }
    let (fwd, grad) = (case.args)(&mut p);
    launch(&mut p, "compute", &fwd).expect("the forward kernel runs");
    p.write_f64("y.grad", &[1.0]).unwrap();
    launch(&mut p, "compute_grad", &grad)?;
    Ok(p.read_f64("x.grad")
        .unwrap()
        .iter()
        .map(|g| g.to_bits())
        .collect())
}

#[test]
fn minimizing_changes_no_gradient_and_elided_stacks_need_no_capacity() {
    let mut elided_somewhere = false;
    for case in cases() {
        let src = example(case.file);
        let (ctx, m) = gradient(&src, false);
        let want = grads(&case, ctx, m, None).unwrap_or_else(|e| panic!("{}: {e:?}", case.file));
        let (ctx, m) = gradient(&src, true);
        let marks = elided(&ctx, m);
        let got = grads(&case, ctx, m, None).unwrap_or_else(|e| panic!("{}: {e:?}", case.file));
        assert_eq!(got, want, "{}", case.file);
        if marks.iter().all(|&e| e) {
            // Every stack elided: a capacity of one entry (below any push count) still runs.
            elided_somewhere = true;
            let (ctx, m) = gradient(&src, true);
            let tiny = grads(&case, ctx, m, Some(1));
            assert_eq!(tiny, Ok(want), "{}", case.file);
        }
    }
    assert!(elided_somewhere, "no example has an elided stack");
}

#[test]
fn kept_stacks_overflow_one_entry_short_of_their_exact_bound() {
    // The examples whose bound is exact (triangular's is an over-approximation).
    let mut checked = 0;
    for case in cases().into_iter().filter(|c| c.file != "triangular.mlir") {
        let src = example(case.file);
        let (ctx, m) = gradient(&src, true);
        let kept: Vec<SizeExpr> = ctx
            .walk_pre_order(m)
            .into_iter()
            .filter(|&o| ctx.name(o) == ALLOCA_OP && !AllocaOp(o).is_primal_elided(&ctx))
            .map(|o| {
                let a = ctx.prop(o, SIZE_EXPR).expect("a kept stack is sized");
                SizeExpr::from_attr(&ctx, a).unwrap().clone()
            })
            .collect();
        if kept.is_empty() {
            eprintln!(
                "{}: skipped, every stack is elided (depth 0: there is no depth - 1)",
                case.file
            );
            continue;
        }
        assert_eq!(kept.len(), 1, "{}: one kept stack", case.file);
        let depth = kept[0].eval_capacity(&case.data).unwrap();
        assert!(depth > 0, "{}", case.file);
        let short = grads(&case, ctx, m, Some(depth - 1));
        let msgs = short.expect_err(&format!("{}: depth - 1 must overflow", case.file));
        assert!(msgs.iter().all(|m| m.contains("overflow")), "{msgs:?}");
        let (ctx, m) = gradient(&src, true);
        assert!(grads(&case, ctx, m, Some(depth)).is_ok(), "{}", case.file);
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} kept stacks checked");
}

/// v = v * sin(x*x + 1) for n steps, x read from a field the kernel does not write.
const CHAIN: &str = "
qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @compute() {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %v = qd.alloca : !qd.ptr<f32>
    qd.local_store %x_i, %v : !qd.ptr<f32>
    %one = arith.constant 1.0 : f32
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %a = qd.local_load %v : !qd.ptr<f32>
      %xx = qd.load @x[%i] : f32
      %sq = arith.mulf %xx, %xx : f32
      %t = arith.addf %sq, %one : f32
      %s = math.sin %t : f32
      %m = arith.mulf %a, %s : f32
      qd.local_store %m, %v : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}
";

/// v = v * w, w = w + 1 for n steps: w is a local the kernel changes, its loads must be taped.
const WRITTEN: &str = "
qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @compute() {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %v = qd.alloca : !qd.ptr<f32>
    qd.local_store %x_i, %v : !qd.ptr<f32>
    %w = qd.alloca : !qd.ptr<f32>
    %one = arith.constant 1.0 : f32
    qd.local_store %one, %w : !qd.ptr<f32>
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %a = qd.local_load %v : !qd.ptr<f32>
      %b = qd.local_load %w : !qd.ptr<f32>
      %m = arith.mulf %a, %b : f32
      qd.local_store %m, %v : !qd.ptr<f32>
      %b2 = arith.addf %b, %one : f32
      qd.local_store %b2, %w : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}
";

/// x.grad of `src` with n steps, x = xs, y.grad = 1, through the runtime's own pipeline (the
/// module has no gradient: the program makes it with reverse-mode-ad and minimize-tape).
fn runtime_grad(src: &str, n: f64, xs: &[f64]) -> (Vec<f64>, Vec<bool>) {
    let (ctx, m) = parse(src);
    let mut p = program_with_capacity(ctx, m, None);
    p.write_f64("n", &[n]).unwrap();
    p.write_f64("x", xs).unwrap();
    launch(&mut p, "compute", &[]).unwrap();
    p.write_f64("y.grad", &[1.0; 3]).unwrap();
    let g = p.gradient("compute").unwrap();
    p.launch_grad(&g, &[]).unwrap();
    p.sync().unwrap();
    let k = qd_runtime::pipeline::find_kernel(p.context(), p.module(), "compute_grad").unwrap();
    let marks = elided(p.context(), k.0);
    (p.read_f64("x.grad").unwrap(), marks)
}

#[test]
fn a_cheap_chain_is_recomputed_and_a_changed_local_is_taped() {
    let xs = [0.3, -0.7, 1.1];
    let n = 4.0;
    // y = x sin(x^2 + 1)^n: only v's stack (its primal is read: d(a s)/ds = a); t and sin(t)
    // are recomputed from x in reverse.
    let (g, marks) = runtime_grad(CHAIN, n, &xs);
    assert_eq!(marks, [false], "one stack, kept");
    for (i, &x) in xs.iter().enumerate() {
        let (t, s) = (x * x + 1.0, (x * x + 1.0_f64).sin());
        let want = s.powf(n) + x * n * s.powf(n - 1.0) * t.cos() * 2.0 * x;
        assert!(
            (g[i] - want).abs() <= 1e-4 * want.abs(),
            "{} vs {want}",
            g[i]
        );
    }
    // y = x n!: w's loads are taped (a stack of their own, kept: the reverse pass reads them);
    // v's stack is elided (d(a b)/da = b needs no a).
    let (g, marks) = runtime_grad(WRITTEN, n, &xs);
    assert_eq!(marks, [true, false], "v's stack elided, w's tape kept");
    assert!(g.iter().all(|&d| d == 24.0), "{g:?}");
}
