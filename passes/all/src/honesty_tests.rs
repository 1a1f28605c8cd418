//! Every registered pass reports `changed` honestly: on a set of inputs, a run says it changed
//! the IR exactly when the printed IR differs, and a second run changes nothing and says so.

use crate::all_passes;
use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{Attribute, Context, DialectDef, FoldResult, OpId, OpInfo, OpTraits};
use qd_pass::PassManager;

/// Ops for the inputs, in the generic form (so no custom syntax is needed).
fn dialect() -> DialectDef {
    let mut d = DialectDef::new("t");
    d.ops = vec![
        OpInfo::new("t.const", "").traits(OpTraits::PURE | OpTraits::CONSTANT_LIKE),
        OpInfo::new("t.add", "")
            .traits(OpTraits::PURE | OpTraits::COMMUTATIVE)
            .fold(fold_add),
        OpInfo::new("t.kernel", "").traits(
            OpTraits::SYMBOL
                | OpTraits::ISOLATED_FROM_ABOVE
                | OpTraits::NO_TERMINATOR
                | OpTraits::SINGLE_BLOCK,
        ),
        OpInfo::new("t.if", "")
            .traits(OpTraits::NO_TERMINATOR | OpTraits::SINGLE_BLOCK | OpTraits::RECURSIVE_EFFECTS),
        OpInfo::new("t.store", ""),
    ];
    d.materialize_constant = Some(|ctx, value, ty, loc| {
        Some(
            qd_ir::OperationState::new("t.const", loc)
                .results(&[ty])
                .prop(ctx, "value", value),
        )
    });
    d
}

/// `x + 0 -> x`, and constant + constant.
fn fold_add(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let int = |a: Option<Attribute>| a.and_then(|a| ctx.attr_data(a).as_int());
    match (int(c[0]), int(c[1])) {
        (Some(a), Some(b)) => {
            let ty = ctx.value_type(ctx.result(op, 0));
            Some(vec![FoldResult::Attr(ctx.integer_attr(a + b, ty))])
        }
        (_, Some(0)) => Some(vec![FoldResult::Value(ctx.operand(op, 0))]),
        _ => None,
    }
}

const INPUTS: &[&str] = &[
    // Nothing to do for anyone.
    r#""t.kernel"() <{sym_name = "k"}> ({
    ^bb0(%a: i32):
      "t.store"(%a) : (i32) -> ()
    }) : () -> ()"#,
    // Duplicates, dead ops, foldable adds, a dead private symbol.
    r#""t.kernel"() <{sym_name = "k"}> ({
    ^bb0(%a: i32, %c: i1):
      %0 = "t.const"() <{value = 0 : i32}> : () -> i32
      %1 = "t.const"() <{value = 2 : i32}> : () -> i32
      %2 = "t.add"(%a, %0) : (i32, i32) -> i32
      %3 = "t.add"(%0, %a) : (i32, i32) -> i32
      %4 = "t.add"(%1, %1) : (i32, i32) -> i32
      %5 = "t.add"(%a, %a) : (i32, i32) -> i32
      "t.if"(%c) ({
        %6 = "t.add"(%a, %1) : (i32, i32) -> i32
        %7 = "t.add"(%1, %a) : (i32, i32) -> i32
        "t.store"(%6, %7) : (i32, i32) -> ()
      }) : (i1) -> ()
      "t.store"(%2, %3, %4) : (i32, i32, i32) -> ()
    }) : () -> ()
    "t.kernel"() <{sym_name = "dead", sym_visibility = "private"}> ({
    }) : () -> ()"#,
    // Unregistered ops only: nobody may touch them.
    r#"%0 = "u.op"() : () -> i32
    %1 = "u.op"() : () -> i32
    "u.sink"(%0) : (i32) -> ()"#,
    // A differentiable kernel (reverse-mode-ad builds its gradient kernel, once).
    r#"qd.field @x : !qd.field<4xf32> {needs_grad}
    qd.field @y : !qd.field<f32> {needs_grad}
    qd.kernel @k() {
      qd.struct_for (%i) in @x {
        %a = qd.load @x[%i] : f32
        %s = math.sin %a : f32
        %c = arith.constant 2.0 : f32
        %d = arith.constant 2.0 : f32
        %m = arith.mulf %c, %d : f32
        %p = arith.mulf %s, %m : f32
        qd.atomic_add %p, @y[] : f32
      }
    }"#,
    // Element accesses of a local array for element-access-ad to address.
    r#"qd.kernel @locals(%i: i32) {
      %arr = qd.alloca : !qd.ptr<!qd.array<4xf32>>
      %c1 = arith.constant 1 : i32
      %p = qd.elem_ptr %arr[%c1] : !qd.ptr<!qd.array<4xf32>>
      %v = qd.local_load %p : !qd.ptr<f32>
      %q = qd.elem_ptr %arr[%i] : !qd.ptr<!qd.array<4xf32>>
      qd.local_store %v, %q : !qd.ptr<f32>
    }"#,
    // An adstack (with the stable id convert-qd-to-lowered needs) for determine-ad-stack-size to size.
    r#"qd.kernel @stacks() {
      %s = adstack.alloca : f32 {id = 0}
      %c = arith.constant 1.0 : f32
      adstack.push %s, %c : f32
    }"#,
    // Two stacks for minimize-tape: %e's primal is never read in reverse (elided), %k's is (kept).
    r#"qd.kernel @tapes(%v: f32) {
      %e = adstack.alloca : f32 {id = 0}
      %k = adstack.alloca : f32 {id = 1}
      adstack.push %e, %v : f32
      adstack.push %k, %v : f32
      %a = adstack.load_top_adj %e : f32
      %p = adstack.load_top %k : f32
      %m = arith.mulf %a, %p : f32
      adstack.acc_adjoint %k, %m : f32
      adstack.pop %e : f32
      adstack.pop %k : f32
    }"#,
    // An ndarray chain for fuse-elementwise to fuse into a kernel.
    r#"func.func @chain(%x: !ndarray.array<4xf32>) -> !ndarray.array<4xf32> {
      %a = ndarray.exp %x : !ndarray.array<4xf32>
      %b = ndarray.neg %a : !ndarray.array<4xf32>
      func.return %b : !ndarray.array<4xf32>
    }"#,
    // A symbolic adstack bound for simplify-size-expr to simplify.
    r#"qd.field @n : !qd.field<i32>
    qd.kernel @bounds(%v: f32) {
      %s = adstack.alloca : f32 {id = 0, size_expr = #adstack.size<6 * max(6 - v0 for v0 in range(0, 6)) + max(v0 for v0 in range(0, @n[]:i32))>}
      adstack.push %s, %v : f32
    }"#,
];

/// A context with every qd dialect and the test dialect.
fn context() -> Context {
    let mut ctx = Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx.register_dialect(dialect());
    ctx
}

fn print(ctx: &Context, op: OpId) -> String {
    print_op(
        ctx,
        op,
        &PrintOptions {
            generic: true,
            debug_info: false,
        },
    )
}

#[test]
fn every_pass_reports_changed_honestly() {
    let reg = all_passes();
    for info in reg.iter() {
        for (i, input) in INPUTS.iter().enumerate() {
            let mut ctx = context();
            ctx.allow_unregistered = true;
            let module = parse_source(&mut ctx, input, "input.mlir")
                .unwrap_or_else(|| panic!("input {i}: {:?}", ctx.diagnostics()));
            let mut pm = PassManager::new("builtin.module");
            pm.add_pass_by_name(&reg, info.name).unwrap();
            for run in 0..2 {
                let before = print(&ctx, module);
                let changed = pm.run(&mut ctx, module).unwrap_or_else(|_| {
                    panic!("{} on input {i}: {:?}", info.name, ctx.diagnostics())
                });
                let after = print(&ctx, module);
                assert_eq!(
                    changed,
                    before != after,
                    "{} on input {i}, run {run}: changed={changed}\nbefore:\n{before}\nafter:\n{after}",
                    info.name
                );
                if run == 1 {
                    assert!(!changed, "{} is not idempotent on input {i}", info.name);
                }
            }
        }
    }
}

#[test]
fn the_inputs_exercise_every_pass() {
    // Guards the test above against vacuity: every pass has something to do on some input (the
    // generic passes on input 1, reverse-mode-ad on the kernel of input 3).
    let reg = all_passes();
    for info in reg.iter() {
        let changed_some = INPUTS.iter().any(|input| {
            let mut ctx = context();
            ctx.allow_unregistered = true;
            let module = parse_source(&mut ctx, input, "input.mlir").unwrap();
            let mut pm = PassManager::new("builtin.module");
            pm.add_pass_by_name(&reg, info.name).unwrap();
            pm.run(&mut ctx, module) == Ok(true)
        });
        assert!(changed_some, "{} changes none of the inputs", info.name);
    }
    // The generic passes all change input 1.
    for name in ["canonicalize", "cse", "dce", "symbol-dce"] {
        let mut ctx = context();
        let module = parse_source(&mut ctx, INPUTS[1], "input.mlir").unwrap();
        let mut pm = PassManager::new("builtin.module");
        pm.add_pass_by_name(&reg, name).unwrap();
        assert_eq!(pm.run(&mut ctx, module), Ok(true), "{name}");
    }
}
