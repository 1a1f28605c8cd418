//! The precheck that lets the pass lower a kernel in place (no copy): which kernels it accepts,
//! that a kernel it accepts lowers exactly as on a copy, and that a module with an accepted
//! kernel and a failing one is left as it was.

use super::parse;
use crate::precheck::lowering_cannot_fail;
use crate::{lower_kernel, ConvertQdToLowered, LoweringOptions};
use qd_ir::text::{print_op, PrintOptions};
use qd_ir::{Context, OpId};
use qd_pass::Pass;

const FIELDS: &str = "
qd.field @x : !qd.field<4x2xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @n : !qd.field<4xi32>
";

/// A module of `FIELDS` and `kernel`.
fn module(kernel: &str) -> String {
    format!("{FIELDS}{kernel}")
}

/// The module's kernels, in order.
fn kernels(ctx: &Context, m: OpId) -> Vec<OpId> {
    super::ops_named(ctx, m, qd_frontend::KERNEL_OP)
}

const SAFE: &str = r#"
qd.kernel @k(%s: f32, %j: i32) {
  qd.struct_for (%i, %k) in @x {
    %v = qd.load @x[%i, %k] : f32
    %w = arith.mulf %v, %s : f32
    %e = math.sin %w : f32
    qd.store %e, @y[%i] : f32
    %o = qd.atomic_add %e, @y[%j] : f32
    %g = ad.load_field_adjoint @y[%i] : f32
    ad.acc_field_adjoint %g, @x[%i, %k] : f32
    ad.store_field_adjoint %o, @y[%i] : f32
    %m = qd.atomic_max %j, @n[%i] : i32
  }
  qd.struct_for (%i) in @y {
    %c = arith.constant 2 : i32
    %v = qd.load @n[%c] : i32
    qd.store %v, @n[%i] : i32
  }
}
"#;

/// Serial range loops nested in a parallel loop, with locals and adstacks (a gradient kernel's
/// shape), using values of the blocks around them.
const SAFE_NESTED: &str = r#"
qd.kernel @k(%s: f32) {
  qd.struct_for (%i, %k) in @x {
    %c0 = arith.constant 0 : i32
    %c2 = arith.constant 2 : i32
    %v = qd.load @x[%i, %k] : f32
    %l = qd.alloca : !qd.ptr<f32>
    qd.local_store %v, %l : !qd.ptr<f32>
    %st = adstack.alloca : f32 {id = 0, max_size = 4}
    %sn = adstack.alloca : i32 {id = 1, max_size = 4}
    qd.range_for %j = %c0 to %c2 : i32 {
      %a = qd.local_load %l : !qd.ptr<f32>
      adstack.push %st, %a : f32
      adstack.push %sn, %j : i32
      qd.range_for %q = %c0 to %j : i32 {
        %t = adstack.load_top %st : f32
        %m = arith.mulf %t, %s : f32
        qd.local_store %m, %l : !qd.ptr<f32>
        adstack.acc_adjoint %st, %m : f32
        %g = adstack.load_top_adj %st : f32
        qd.atomic_add %g, @y[%i] : f32
        %n = adstack.load_top %sn : i32
        qd.store %n, @n[%q] : i32
        adstack.pop %sn : i32
      }
      adstack.pop %st : f32
    }
    %r = qd.local_load %l : !qd.ptr<f32>
    ad.acc_field_adjoint %r, @x[%i, %k] : f32
  }
}
"#;

#[test]
fn kernels_of_loops_over_field_accesses_locals_and_stacks_are_accepted() {
    for src in [SAFE, SAFE_NESTED] {
        let (ctx, m) = parse(&module(src));
        assert_eq!(
            kernels(&ctx, m)
                .iter()
                .map(|&k| lowering_cannot_fail(&ctx, k))
                .collect::<Vec<_>>(),
            vec![true],
            "{src}"
        );
    }
}

#[test]
fn a_kernel_lowered_in_place_is_the_one_lowered_on_a_copy() {
    for src in [SAFE, SAFE_NESTED] {
        lowered_in_place_as_on_a_copy(&module(src));
    }
}

fn lowered_in_place_as_on_a_copy(src: &str) {
    let (mut ctx, m) = parse(src);
    let mut pass = ConvertQdToLowered::default();
    assert_eq!(pass.run(&mut ctx, m).map(|o| o.changed), Ok(true));
    qd_ir::verifier::verify(&ctx, m).unwrap();
    let in_place = print_op(&ctx, m, &PrintOptions::default());

    let (mut ctx, m) = parse(src);
    let k = kernels(&ctx, m)[0];
    lower_kernel(&mut ctx, k, LoweringOptions::default()).unwrap();
    ctx.erase_op(k);
    let on_copy = print_op(&ctx, m, &PrintOptions::default());
    assert_eq!(in_place, on_copy);
    assert!(in_place.contains("lowered.kernel @k"), "{in_place}");
    assert!(!in_place.contains("qd.load"), "{in_place}");
}

#[test]
fn kernels_that_might_fail_are_not_accepted() {
    let unsure = [
        // Serial top-level code (values may be spilled between tasks).
        "qd.kernel @k() {\n  %c = arith.constant 1 : i32\n}\n",
        // A stack without an id (the facts' error).
        "qd.kernel @k(%v: f32) {\n  qd.struct_for (%i) in @y {\n    \
         %s = adstack.alloca : f32 {max_size = 1}\n    adstack.push %s, %v : f32\n  }\n}\n",
        // Two stacks of one id, in two loops (the facts' error).
        "qd.kernel @k(%v: f32) {\n  qd.struct_for (%i) in @y {\n    \
         %s = adstack.alloca : f32 {id = 0, max_size = 1}\n  }\n  \
         qd.struct_for (%i) in @y {\n    %t = adstack.alloca : f32 {id = 0, max_size = 1}\n  }\n}\n",
        // A stack from outside the loop (serial code: spilled, which fails for a stack).
        "qd.kernel @k(%v: f32) {\n  %s = adstack.alloca : f32 {id = 0, max_size = 1}\n  \
         qd.struct_for (%i) in @y {\n    adstack.push %s, %v : f32\n  }\n}\n",
        // A nested region (jumps, locals, control flow are left to the copy path).
        "qd.kernel @k(%c: i1) {\n  qd.struct_for (%i) in @y {\n    qd.if %c {\n      \
         %v = qd.load @y[%i] : f32\n    }\n  }\n}\n",
        // A jump out of a nested range loop (structurize rewrites it).
        "qd.kernel @k() {\n  qd.struct_for (%i) in @y {\n    %a = arith.constant 0 : i32\n    \
         %b = arith.constant 4 : i32\n    qd.range_for %j = %a to %b : i32 {\n      \
         qd.break\n    }\n  }\n}\n",
        // A legal op on pointers to locals (the driver's casts would stay).
        "qd.kernel @k(%c: i1) {\n  qd.struct_for (%i) in @y {\n    \
         %a = qd.alloca : !qd.ptr<f32>\n    %b = qd.alloca : !qd.ptr<f32>\n    \
         %p = arith.select %c, %a, %b : !qd.ptr<f32>\n    %v = qd.local_load %p : !qd.ptr<f32>\n  }\n}\n",
        // A range loop, whose bounds partition and outline read.
        "qd.kernel @k() {\n  %a = arith.constant 0 : i32\n  %b = arith.constant 4 : i32\n  \
         qd.range_for %i = %a to %b : i32 {\n    %v = qd.load @y[%i] : f32\n  }\n}\n",
        // An ndarray argument.
        "qd.kernel @k(%a: !qd.ndarray<?xf32>) {\n  qd.struct_for (%i) in @y {\n    \
         %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>\n  }\n}\n",
    ];
    for src in unsure {
        let (ctx, m) = parse(&module(src));
        let k = kernels(&ctx, m)[0];
        assert!(!lowering_cannot_fail(&ctx, k), "accepted:\n{src}");
    }
}

#[test]
fn an_accepted_kernel_is_left_as_it_was_when_another_fails() {
    // @good is lowered in place only after @bad (on a copy) succeeds; @bad fails, so @good is
    // never touched.
    let src = module(
        r#"
qd.kernel @good() {
  qd.struct_for (%i) in @y {
    %v = qd.load @y[%i] : f32
    qd.store %v, @y[%i] : f32
  }
}
qd.kernel @bad(%v: f32) {
  %s = adstack.alloca : f32 {max_size = 1}
  adstack.push %s, %v : f32
}
"#,
    );
    let (mut ctx, m) = parse(&src);
    let ks = kernels(&ctx, m);
    assert!(lowering_cannot_fail(&ctx, ks[0]));
    assert!(!lowering_cannot_fail(&ctx, ks[1]));
    let before = print_op(&ctx, m, &PrintOptions::default());
    let mut pass = ConvertQdToLowered::default();
    assert!(pass.run(&mut ctx, m).is_err());
    let d = ctx.take_diagnostics();
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].message.contains("has no 'id' property"), "{d:?}");
    assert_eq!(print_op(&ctx, m, &PrintOptions::default()), before);
}

#[test]
fn the_adjoint_of_an_integer_stack_is_not_accepted() {
    // The verifier refuses it; the stack pattern fails on it (unverified IR).
    let src = module(
        "qd.kernel @k() {\n  qd.struct_for (%i) in @y {\n    \
         %s = adstack.alloca : i32 {id = 0, max_size = 1}\n    \
         %g = adstack.load_top_adj %s : i32\n  }\n}\n",
    );
    let mut ctx = qd_dialects::context();
    let m = qd_ir::text::parse_source(&mut ctx, &src, "t.mlir").expect("parses");
    assert!(qd_ir::verifier::verify(&ctx, m).is_err());
    let k = kernels(&ctx, m)[0];
    assert!(!lowering_cannot_fail(&ctx, k));
    assert!(lower_kernel(&mut ctx, k, LoweringOptions::default()).is_err());
}
