//! Unit tests of the analyses: activity, stacked locals, jump numbering, the global data access
//! rules (no false alarms on valid kernels), kernel selection.

use crate::activity::Activity;
use crate::field_set::FieldSet;
use crate::stacks::stacked_locals;
use crate::structure::{groups, kernel_ops, Group, Jumps};
use qd_frontend::{KernelOp, LocalLoadOp};
use qd_ir::text::parse_source;
use qd_ir::{Context, OpId, Value};
use std::collections::HashSet;

fn parse(src: &str) -> (Context, OpId) {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_math::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_ad::dialect());
    ctx.register_dialect(qd_adstack::dialect());
    let m = parse_source(&mut ctx, src, "t.mlir").expect("parses");
    qd_ir::verifier::verify(&ctx, m).expect("verifies");
    (ctx, m)
}

fn kernel(ctx: &Context, m: OpId, name: &str) -> KernelOp {
    ctx.walk_pre_order(m)
        .into_iter()
        .find_map(|o| KernelOp::from_op(ctx, o).filter(|k| k.name(ctx) == name))
        .expect("kernel")
}

/// The result of the op whose `name` attribute... ops are found by their result's position.
fn results_of(ctx: &Context, k: KernelOp, op_name: &str) -> Vec<Value> {
    kernel_ops(ctx, k)
        .into_iter()
        .filter(|&o| ctx.name(o) == op_name)
        .flat_map(|o| ctx.results(o).to_vec())
        .collect()
}

const FIELDS: &str = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @c : !qd.field<4xf32>
qd.field @y : !qd.field<4xf32> {needs_grad}
"#;

fn needs_grad(ctx: &Context) -> FieldSet {
    FieldSet::new(ctx, ["x", "y"])
}

#[test]
fn activity_needs_a_differentiable_input_and_output() {
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %b = qd.load @c[%i] : f32
    %s = math.sin %a : f32
    %t = math.cos %b : f32
    %u = math.exp %a : f32
    %q = arith.fptosi %a : f32 to i32
    %r = arith.sitofp %q : i32 to f32
    %m = arith.mulf %s, %t : f32
    %m2 = arith.addf %m, %r : f32
    qd.store %m2, @y[%i] : f32
    qd.store %u, @c[%i] : f32
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    let k = kernel(&ctx, m, "k");
    let act = Activity::compute(
        &ctx,
        &kernel_ops(&ctx, k),
        &needs_grad(&ctx),
        &HashSet::new(),
    );
    let load = results_of(&ctx, k, "qd.load");
    let (a, b) = (load[0], load[1]);
    assert!(act.is_active(a));
    assert!(!act.is_active(b), "@c has no gradient");
    let sin = results_of(&ctx, k, "math.sin")[0];
    let cos = results_of(&ctx, k, "math.cos")[0];
    let exp = results_of(&ctx, k, "math.exp")[0];
    let sitofp = results_of(&ctx, k, "arith.sitofp")[0];
    assert!(act.is_active(sin));
    assert!(!act.is_active(cos), "depends on no differentiable input");
    assert!(!act.is_active(exp), "influences no differentiable output");
    assert!(!act.is_active(sitofp), "an integer cast stops the gradient");
}

#[test]
fn activity_flows_through_locals_around_loops() {
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    %q = qd.alloca : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %o = qd.local_load %p : !qd.ptr<f32>
      qd.store %o, @y[%i] : f32
      %a = qd.load @x[%i] : f32
      qd.local_store %a, %p : !qd.ptr<f32>
      %w = qd.local_load %q : !qd.ptr<f32>
      qd.local_store %w, %q : !qd.ptr<f32>
    }
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    let k = kernel(&ctx, m, "k");
    let act = Activity::compute(
        &ctx,
        &kernel_ops(&ctx, k),
        &needs_grad(&ctx),
        &HashSet::new(),
    );
    let allocas: Vec<OpId> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| ctx.name(o) == "qd.alloca")
        .collect();
    // %p carries x[i] to the next iteration's store into y: active through the back edge.
    assert!(act.is_active_mem(allocas[0]));
    assert!(!act.is_active_mem(allocas[1]));
    let loads: Vec<OpId> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| LocalLoadOp::from_op(&ctx, o).is_some())
        .collect();
    assert!(act.is_active(ctx.result(loads[0], 0)));
    assert!(!act.is_active(ctx.result(loads[1], 0)));
}

const LOCALS: &str = r#"
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %rec = qd.alloca : !qd.ptr<f32>
    %acc = qd.alloca : !qd.ptr<f32>
    %sub = qd.alloca : !qd.ptr<f32>
    %lin = qd.alloca : !qd.ptr<f32>
    %once = qd.alloca : !qd.ptr<f32>
    %int = qd.alloca : !qd.ptr<i32>
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %rec : !qd.ptr<f32>
    qd.local_store %a, %lin : !qd.ptr<f32>
    qd.local_store %a, %once : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %r = qd.local_load %rec : !qd.ptr<f32>
      %r2 = math.sin %r : f32
      qd.local_store %r2, %rec : !qd.ptr<f32>
      %e = math.cos %a : f32
      %s = qd.local_load %acc : !qd.ptr<f32>
      %s2 = arith.addf %e, %s : f32
      qd.local_store %s2, %acc : !qd.ptr<f32>
      %u = qd.local_load %sub : !qd.ptr<f32>
      %u2 = arith.subf %e, %u : f32
      qd.local_store %u2, %sub : !qd.ptr<f32>
      %l = qd.local_load %lin : !qd.ptr<f32>
      %k = arith.constant 0.5 : f32
      %l2 = arith.mulf %l, %k : f32
      qd.local_store %l2, %lin : !qd.ptr<f32>
      %o = qd.local_load %once : !qd.ptr<f32>
      qd.atomic_add %o, @y[%i] : f32
      %t = qd.local_load %int : !qd.ptr<i32>
      %c1 = arith.constant 1 : i32
      %t2 = arith.muli %t, %c1 : i32
      qd.local_store %t2, %int : !qd.ptr<i32>
    }
    %f1 = qd.local_load %rec : !qd.ptr<f32>
    %f2 = qd.local_load %acc : !qd.ptr<f32>
    %f3 = qd.local_load %sub : !qd.ptr<f32>
    %f4 = qd.local_load %lin : !qd.ptr<f32>
    %g1 = arith.addf %f1, %f2 : f32
    %g2 = arith.addf %g1, %f3 : f32
    %g3 = arith.addf %g2, %f4 : f32
    qd.atomic_add %g3, @y[%i] : f32
  }
}
"#;

#[test]
fn recurrences_become_stacks_and_accumulators_do_not() {
    let (ctx, m) = parse(&format!("{FIELDS}{LOCALS}"));
    let k = kernel(&ctx, m, "k");
    let act = Activity::compute(
        &ctx,
        &kernel_ops(&ctx, k),
        &needs_grad(&ctx),
        &HashSet::new(),
    );
    let stacked = stacked_locals(&ctx, &kernel_ops(&ctx, k), &act);
    let allocas: Vec<OpId> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| ctx.name(o) == "qd.alloca")
        .collect();
    let names = ["rec", "acc", "sub", "lin", "once", "int"];
    let got: Vec<&str> = allocas
        .iter()
        .zip(names)
        .filter(|(a, _)| stacked.contains(**a))
        .map(|(_, n)| n)
        .collect();
    // rec: non-linear recurrence; lin: a linear recurrence is still a recurrence (the adjoint
    // of each iteration goes through the stack); acc (s = e + s) is an accumulator; sub
    // (s = e - s) is not of the form s - e, so it is a recurrence; once is only read in the
    // loop; int is an integer local.
    assert_eq!(got, ["rec", "sub", "lin"]);
}

/// `outside_parallel` (one walk down) holds exactly the ops `parallel_ancestor` (a walk up per
/// op) finds no parallel loop for: top-level statements and what serial loops and ifs at the
/// top level hold, not the parallel loops nor anything in them.
#[test]
fn ops_outside_parallel_loops_are_those_without_a_parallel_ancestor() {
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k(%n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  qd.if %c {
    %a = arith.constant 1 : i32
  }
  qd.struct_for (%i) in @x {
    qd.range_for %j = %c0 to %n : i32 {
      %b = arith.constant 2 : i32
    }
  }
  %w = qd.alloca : !qd.ptr<i32>
  qd.while {
    %v = qd.local_load %w : !qd.ptr<i32>
    %t = arith.cmpi slt, %v, %n : i32
    qd.condition %t
  } do {
    %d = arith.constant 3 : i32
    qd.local_store %d, %w : !qd.ptr<i32>
  }
  qd.range_for %p = %c0 to %n : i32 {
    qd.range_for %q = %c0 to %n : i32 {
      %e = arith.constant 4 : i32
    }
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    let k = kernel(&ctx, m, "k");
    let outside = crate::structure::outside_parallel(&ctx, k);
    let ops = kernel_ops(&ctx, k);
    let mut counts = (0, 0);
    for &o in &ops {
        let want = crate::structure::parallel_ancestor(&ctx, o).is_none();
        assert_eq!(outside.contains(o), want, "{}", ctx.name(o));
        if want {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }
    // Outside: c0, the if and a, the alloca, the while and its 5 ops; inside: the two
    // top-level loops and the 4 ops they hold.
    assert_eq!(counts, (10, 6));
}

#[test]
fn jumps_are_numbered_in_program_order() {
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k(%n: i32, %c: i1, %d: i1) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %a = arith.constant 1 : i32
      qd.if %c {
        qd.continue
      }
      %b = arith.constant 2 : i32
      qd.if %d {
        %e = arith.constant 3 : i32
        qd.if %c {
          qd.break
        }
        %f = arith.constant 4 : i32
      }
      %g = arith.constant 5 : i32
      qd.range_for %t = %c0 to %n : i32 {
        qd.if %c {
          qd.break
        }
      }
    }
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    let k = kernel(&ctx, m, "k");
    let j = Jumps::analyze(&ctx, &kernel_ops(&ctx, k));
    let consts: Vec<OpId> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| ctx.name(o) == "arith.constant")
        .collect();
    // c0 (outside), a, b, e, f, g.
    let before: Vec<u32> = consts.iter().map(|&o| j.before(o)).collect();
    assert_eq!(before, [0, 0, 1, 1, 2, 2]);
    let loops: Vec<OpId> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| ctx.name(o) == "qd.range_for")
        .collect();
    let outer = j.of_loop(loops[0]).unwrap();
    assert_eq!(
        (outer.breaks.len(), outer.continues.len(), outer.guarded),
        (1, 1, true)
    );
    // The inner loop's break is its own; nothing follows it.
    let inner = j.of_loop(loops[1]).unwrap();
    assert_eq!((inner.breaks.len(), inner.guarded), (1, false));
}

#[test]
fn valid_kernels_pass_the_global_data_access_rules() {
    for name in [
        "control_flow.mlir",
        "dynamic_loop.mlir",
        "local_array.mlir",
        "ndarray_bound.mlir",
        "triangular.mlir",
    ] {
        let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(path).unwrap();
        let (ctx, m) = parse(&src);
        let k = kernel(&ctx, m, "compute");
        let ng = FieldSet::new(&ctx, ["x", "y"]);
        let act = Activity::compute(&ctx, &kernel_ops(&ctx, k), &ng, &HashSet::new());
        assert!(
            crate::global_rules::check(&ctx, k, &kernel_ops(&ctx, k)).is_empty(),
            "{name}"
        );
        assert!(
            crate::access_rule::check(&ctx, k, &kernel_ops(&ctx, k), &act).is_empty(),
            "{name}"
        );
    }
    // Stores writing elements again (the last write wins), and a store followed by atomic adds.
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %p = %c0 to %c4 : i32 {
    qd.range_for %r = %c0 to %c4 : i32 {
      qd.range_for %j = %c0 to %c4 : i32 {
        %a = qd.load @x[%j] : f32
        %c1 = arith.constant 1 : i32
        %jj = arith.addi %j, %c1 : i32
        %k = arith.remsi %jj, %c4 : i32
        qd.store %a, @y[%k] : f32
      }
      qd.range_for %j = %c0 to %r : i32 {
        %a = qd.load @x[%j] : f32
        qd.store %a, @y[%j] : f32
      }
    }
  }
}
qd.kernel @k2() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    qd.store %a, @y[%i] : f32
    qd.atomic_add %a, @y[%i] : f32
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    for name in ["k", "k2"] {
        let k = kernel(&ctx, m, name);
        let act = Activity::compute(
            &ctx,
            &kernel_ops(&ctx, k),
            &needs_grad(&ctx),
            &HashSet::new(),
        );
        assert!(
            crate::global_rules::check(&ctx, k, &kernel_ops(&ctx, k)).is_empty(),
            "{name}"
        );
        assert!(
            crate::access_rule::check(&ctx, k, &kernel_ops(&ctx, k), &act).is_empty(),
            "{name}"
        );
    }
}

#[test]
fn groups_split_parallel_loops_from_loose_statements() {
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  qd.struct_for (%i) in @x {
  }
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  qd.range_for %j = %c1 to %c2 : i32 {
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    let k = kernel(&ctx, m, "k");
    let g = groups(&ctx, k.body(&ctx).unwrap());
    let shape: Vec<String> = g
        .iter()
        .map(|g| match g {
            Group::Parallel(op) => ctx.name(*op).to_string(),
            Group::Loose(ops) => format!("loose {}", ops.len()),
        })
        .collect();
    assert_eq!(
        shape,
        ["loose 1", "qd.struct_for", "loose 2", "qd.range_for"]
    );
}

#[test]
fn dependence_test_decides_same_elements() {
    use crate::dependence::{may_meet, Affine, Rel, Var};
    let src = r#"
qd.field @x : !qd.field<16xf32> {needs_grad}
qd.field @p : !qd.field<16xi32>
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %t = arith.constant true
  qd.if %t {
    qd.range_for %i = %c0 to %c3 : i32 {
      %n = arith.addi %i, %c1 : i32
      %d = arith.muli %i, %c2 : i32
      %e = arith.addi %d, %c1 : i32
      %j = qd.load @p[%i] : i32
      %a = qd.load @x[%i] : f32
      %b = qd.load @x[%n] : f32
      %f = qd.load @x[%d] : f32
      %g = qd.load @x[%e] : f32
      %h = qd.load @x[%j] : f32
      %k = qd.load @x[%c5] : f32
    }
  }
}
"#;
    let (ctx, m) = parse(src);
    let k = kernel(&ctx, m, "k");
    let forms: Vec<Vec<Affine>> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| ctx.name(o) == "qd.load" && qd_frontend::LoadOp(o).field_name(&ctx) == "x")
        .map(|o| vec![Affine::of(&ctx, ctx.operand(o, 0))])
        .collect();
    let [i, n, d, e, j, c5] = &forms[..] else {
        panic!("six loads of x")
    };
    let later = |_: Var| Rel::Later;
    let same = |_: Var| Rel::Same;
    let free = |_: Var| Rel::Free;
    // x[i+1] written in a later iteration than x[i] is read: never the same element...
    assert!(!may_meet(&ctx, n, i, &later));
    // ...but x[i] written later than x[i+1] is read: the next iteration.
    assert!(may_meet(&ctx, i, n, &later));
    // In the same iteration only equal offsets meet.
    assert!(!may_meet(&ctx, n, i, &same));
    assert!(may_meet(&ctx, i, i, &same));
    // 2i and 2i+1 never meet, whatever the iterations (GCD).
    assert!(!may_meet(&ctx, d, e, &free));
    // i in [0, 2] never reaches 5 (the loop's constant bounds); a loaded index may.
    assert!(!may_meet(&ctx, i, c5, &free));
    assert!(may_meet(&ctx, j, c5, &free));
    // Two threads' (or iterations') x[i]: distinct when the variables differ.
    assert!(!may_meet(&ctx, i, i, &|_| Rel::Differs));
}

/// The needs_grad set answers for field accesses by their `field` references.
#[test]
fn field_set_answers_for_accesses() {
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %b = qd.load @c[%i] : f32
    qd.store %a, @y[%i] : f32
    qd.atomic_add %b, @c[%i] : f32
  }
}
"#
    );
    let (ctx, m) = parse(&src);
    let k = kernel(&ctx, m, "k");
    let ng = needs_grad(&ctx);
    let answers: Vec<(&str, bool)> = kernel_ops(&ctx, k)
        .into_iter()
        .filter(|&o| ctx.prop(o, "field").is_some() && ctx.name(o) != "qd.struct_for")
        .map(|o| (ctx.name(o), ng.has_field_of(&ctx, o)))
        .collect();
    assert_eq!(
        answers,
        [
            ("qd.load", true),
            ("qd.load", false),
            ("qd.store", true),
            ("qd.atomic_add", false)
        ]
    );
    // An op without a `field` reference names no field.
    assert!(!ng.has_field_of(&ctx, k.0));
}

/// The module's needs_grad fields, read off its symbol table: a redefinition counts too (the
/// pass may see IR that was not verified), a field of another block or a plain field does not.
#[test]
fn field_set_of_a_module() {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_frontend::dialect());
    let src = format!(
        "{FIELDS}{}",
        r#"
qd.field @c : !qd.field<4xf32> {needs_grad}
qd.field @d : !qd.field<4xf32>
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @c[%i] : f32
    %b = qd.load @d[%i] : f32
    qd.store %a, @y[%i] : f32
  }
}
"#
    );
    let m = parse_source(&mut ctx, &src, "t.mlir").expect("parses");
    let body = ctx.entry_block(ctx.region(m, 0)).unwrap();
    let table = qd_ir::symbol_table::SymbolTable::new(&ctx, m);
    let s = FieldSet::of_module(&ctx, &table, body);
    for (name, needs) in [
        ("x", true),
        ("y", true),
        ("c", true),
        ("d", false),
        ("k", false),
    ] {
        let id = ctx.lookup_ident(name);
        assert_eq!(id.is_some_and(|id| s.contains_ident(id)), needs, "@{name}");
    }
    let other = ctx.create_block(&[]);
    assert!(
        !FieldSet::of_module(&ctx, &table, other).contains_ident(ctx.lookup_ident("x").unwrap())
    );
}
