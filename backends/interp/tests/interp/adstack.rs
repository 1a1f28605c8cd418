//! Semantics of every adstack op on the interpreter: push/pop/load_top, clamping at 0, the zeroed
//! adjoint of a pushed entry, adjoint accumulation, empty reads, the per-thread reset of the
//! alloca, capacities (max_size, the forced ad_stack_size, unbounded growth) and overflow
//! reporting and reset; stacks found by their ids, not by the order of their allocas.

use super::common::*;
use qd_interp::InterpOptions;
use qd_runtime::{Arg, ProgramConfig, RuntimeErrorKind, Scalar};

fn forced(src: &str, n: usize) -> qd_runtime::Program {
    let config = ProgramConfig {
        ad_stack_size: Some(n),
        ..ProgramConfig::default()
    };
    program_config(src, InterpOptions::default(), config)
}

const LIFO: &str = r#"
qd.field @r : !qd.field<8xf32>
qd.kernel @k() {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %c3 = arith.constant 3.0 : f32
  %s = adstack.alloca : f32 {max_size = 3}
  %e = adstack.load_top %s : f32
  qd.store %e, @r[%i0] : f32
  adstack.push %s, %c1 : f32
  adstack.push %s, %c2 : f32
  adstack.push %s, %c3 : f32
  %t3 = adstack.load_top %s : f32
  qd.store %t3, @r[%i1] : f32
  adstack.pop %s : f32
  %t2 = adstack.load_top %s : f32
  qd.store %t2, @r[%i2] : f32
  adstack.pop %s : f32
  adstack.pop %s : f32
  %t0 = adstack.load_top %s : f32
  qd.store %t0, @r[%i3] : f32
  adstack.pop %s : f32
  adstack.pop %s : f32
  adstack.push %s, %c3 : f32
  %t = adstack.load_top %s : f32
  qd.store %t, @r[%i4] : f32
  adstack.push %s, %c2 : f32
  adstack.pop %s : f32
  %u = adstack.load_top %s : f32
  qd.store %u, @r[%i5] : f32
}
"#;

/// `@r[%iN]`: the text uses %i0..%i7 for the constant indices 0..7.
fn with_indices(src: &str) -> String {
    let consts: String = (0..8)
        .map(|i| format!("  %i{i} = arith.constant {i} : i32\n"))
        .collect();
    src.replacen(
        "qd.kernel @k() {\n",
        &format!("qd.kernel @k() {{\n{consts}"),
        1,
    )
}

#[test]
fn push_pop_and_load_top_are_lifo_and_clamp_at_zero() {
    let mut p = program(&with_indices(LIFO));
    run_ok(&mut p, "k", &[]);
    // Empty read: entry 0, zero-initialised; 3 on top; 2 after a pop; entry 0 (holding 1) after
    // popping to empty; pops past empty stay at 0, so the next push is entry 0 again.
    assert_eq!(
        p.read_f64("r").unwrap(),
        vec![0.0, 3.0, 2.0, 1.0, 3.0, 3.0, 0.0, 0.0]
    );
}

const ADJOINTS: &str = r#"
qd.field @r : !qd.field<8xf64>
qd.kernel @k() {
  %a = arith.constant 1.5 : f64
  %b = arith.constant 0.25 : f64
  %s = adstack.alloca : f64 {max_size = 4}
  %e = adstack.load_top_adj %s : f64
  qd.store %e, @r[%i0] : f64
  adstack.acc_adjoint %s, %a : f64
  %e2 = adstack.load_top_adj %s : f64
  qd.store %e2, @r[%i1] : f64
  adstack.push %s, %a : f64
  %z = adstack.load_top_adj %s : f64
  qd.store %z, @r[%i2] : f64
  adstack.acc_adjoint %s, %a : f64
  adstack.acc_adjoint %s, %b : f64
  %g = adstack.load_top_adj %s : f64
  qd.store %g, @r[%i3] : f64
  adstack.push %s, %b : f64
  %z2 = adstack.load_top_adj %s : f64
  qd.store %z2, @r[%i4] : f64
  adstack.pop %s : f64
  %g2 = adstack.load_top_adj %s : f64
  qd.store %g2, @r[%i5] : f64
  %p = adstack.load_top %s : f64
  qd.store %p, @r[%i6] : f64
  adstack.pop %s : f64
  adstack.push %s, %b : f64
  %z3 = adstack.load_top_adj %s : f64
  qd.store %z3, @r[%i7] : f64
}
"#;

#[test]
fn adjoints_accumulate_on_the_top_entry_and_push_zeroes_them() {
    let mut p = program(&with_indices(ADJOINTS));
    run_ok(&mut p, "k", &[]);
    assert_eq!(
        p.read_f64("r").unwrap(),
        // empty: 0; accumulating into an empty stack's entry 0; a push zeroes the new entry's
        // adjoint; 1.5 + 0.25 in f64; a second push starts at 0; after its pop the first
        // entry's adjoint is intact; its primal too; re-pushing entry 0 zeroes it again.
        vec![0.0, 1.5, 0.0, 1.75, 0.0, 1.75, 1.5, 0.0]
    );
}

#[test]
fn f32_adjoints_accumulate_in_f32() {
    let src = r#"
qd.field @r : !qd.field<f32>
qd.kernel @k() {
  %big = arith.constant 16777216.0 : f32
  %one = arith.constant 1.0 : f32
  %s = adstack.alloca : f32 {max_size = 1}
  adstack.push %s, %one : f32
  adstack.acc_adjoint %s, %big : f32
  adstack.acc_adjoint %s, %one : f32
  %g = adstack.load_top_adj %s : f32
  qd.store %g, @r[] : f32
}
"#;
    let mut p = program(src);
    run_ok(&mut p, "k", &[]);
    // 2^24 + 1 rounds to 2^24 in f32.
    assert_eq!(p.read_f64("r").unwrap(), vec![16777216.0]);
}

#[test]
fn integer_and_bool_stacks_hold_primals() {
    let src = r#"
qd.field @r : !qd.field<2xi32>
qd.field @b : !qd.field<i1>
qd.kernel @k() {
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %m = arith.constant -7 : i32
  %t = arith.constant true
  %f = arith.constant false
  %s = adstack.alloca : i32 {max_size = 2}
  adstack.push %s, %m : i32
  adstack.push %s, %i1 : i32
  adstack.pop %s : i32
  %v = adstack.load_top %s : i32
  qd.store %v, @r[%i0] : i32
  %bs = adstack.alloca : i1
  adstack.push %bs, %t : i1
  adstack.push %bs, %f : i1
  adstack.pop %bs : i1
  %bv = adstack.load_top %bs : i1
  qd.store %bv, @b[] : i1
}
"#;
    let mut p = program(src);
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.field("r").unwrap().as_i32().unwrap(), &[-7, 0]);
    assert_eq!(p.field("b").unwrap().as_bool().unwrap(), &[true]);
}

/// Each thread pushes i + 1 values on a stack of capacity 4: the alloca, executed by every
/// thread, empties it, so no thread overflows; each thread's top is its own last push.
const PER_THREAD: &str = r#"
qd.field @r : !qd.field<4xi32>
qd.kernel @k() {
  qd.struct_for (%i) in @r {
    %s = adstack.alloca : i32 {max_size = 4}
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %n = arith.addi %i, %c1 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %v = arith.muli %j, %n : i32
      adstack.push %s, %v : i32
    }
    %t = adstack.load_top %s : i32
    qd.store %t, @r[%i] : i32
  }
}
"#;

#[test]
fn each_execution_of_the_alloca_empties_the_stack() {
    for seed in [None, Some(3)] {
        let mut p = program_with(PER_THREAD, InterpOptions { shuffle_seed: seed });
        run_ok(&mut p, "k", &[]);
        // Thread i's last push is i * (i + 1).
        assert_eq!(p.field("r").unwrap().as_i32().unwrap(), &[0, 2, 6, 12]);
    }
}

/// Pushes `@n` values 1, 2, ... on a stack of max_size 2, then reads the top.
const BOUNDED: &str = r#"
qd.field @n : !qd.field<i32>
qd.field @r : !qd.field<f32>
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %n = qd.load @n[] : i32
  %s = adstack.alloca : f32 {max_size = 2}
  qd.range_for %j = %c0 to %n : i32 {
    %c1 = arith.constant 1 : i32
    %j1 = arith.addi %j, %c1 : i32
    %v = arith.sitofp %j1 : i32 to f32
    adstack.push %s, %v : f32
  }
  %t = adstack.load_top %s : f32
  qd.store %t, @r[] : f32
}
"#;

#[test]
fn a_push_past_capacity_writes_nothing_and_sync_reports_it_once() {
    let mut p = program(BOUNDED);
    p.write_f64("n", &[5.0]).unwrap();
    let e = run_err(&mut p, "k", &[]);
    assert_eq!(e.kind, RuntimeErrorKind::AdstackOverflow);
    assert_eq!(e.kernel, "k");
    // The stack's alloca is on line 7 of the source (its op name at column 8).
    assert_eq!(e.position, Some(("test.mlir".to_string(), 7, 8)));
    assert_eq!(
        e.message,
        "adstack overflow in kernel 'k': stack at test.mlir:7:8 exceeded its capacity of 2"
    );
    // The launch ran to its end: the third to fifth pushes wrote nothing.
    assert_eq!(p.read_f64("r").unwrap(), vec![2.0]);
    // The flag was reset: a later sync and a later launch within capacity are clean.
    assert!(p.sync().is_ok());
    p.write_f64("n", &[2.0]).unwrap();
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("r").unwrap(), vec![2.0]);
}

/// Two stacks known by their ids: `@big` (id 1, capacity 3) and `@small` (id 0, capacity 1), in
/// the order given; each gets two pushes, so only `@small` overflows.
fn two_ids(big_first: bool) -> String {
    let big = "%big = adstack.alloca : f32 {id = 1, max_size = 3}";
    let small = "%small = adstack.alloca : f32 {id = 0, max_size = 1}";
    let (a, b) = if big_first {
        (big, small)
    } else {
        (small, big)
    };
    format!(
        "qd.kernel @k(%v: f32) {{
  {a}
  {b}
  adstack.push %big, %v : f32
  adstack.push %big, %v : f32
  adstack.push %small, %v : f32
  adstack.push %small, %v : f32
}}
"
    )
}

#[test]
fn stacks_are_found_by_id_whatever_the_order_of_their_allocas() {
    for (big_first, small_line) in [(true, 3), (false, 2)] {
        let mut p = program(&two_ids(big_first));
        let e = run_err(&mut p, "k", &[Arg::Scalar(Scalar::F32(1.0))]);
        assert_eq!(e.kind, RuntimeErrorKind::AdstackOverflow);
        assert_eq!(
            e.message,
            format!(
                "adstack overflow in kernel 'k': stack at test.mlir:{small_line}:12 exceeded its \
                 capacity of 1"
            )
        );
        // Peaks by ascending id: @small (id 0) held 1 but needed 2 (the overflowed push
        // counts), @big (id 1) held 2.
        let k = p.kernel("k").unwrap();
        assert_eq!(p.adstack_peaks(k), Some(vec![2, 2]));
    }
}

#[test]
fn one_overflow_is_reported_per_sync_even_over_several_launches() {
    let mut p = program(BOUNDED);
    p.write_f64("n", &[3.0]).unwrap();
    let k = p.kernel("k").unwrap();
    p.launch(k, &[]).unwrap();
    p.launch(k, &[]).unwrap();
    let errs = p.sync().unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(p.sync().is_ok());
}

#[test]
fn the_forced_ad_stack_size_overrides_max_size() {
    // Smaller than max_size: overflows at 1.
    let mut p = forced(BOUNDED, 1);
    p.write_f64("n", &[2.0]).unwrap();
    let e = run_err(&mut p, "k", &[]);
    assert!(
        e.message.ends_with("exceeded its capacity of 1"),
        "{}",
        e.message
    );
    assert_eq!(p.read_f64("r").unwrap(), vec![1.0]);
    // Larger than max_size: 5 pushes fit.
    let mut p = forced(BOUNDED, 5);
    p.write_f64("n", &[5.0]).unwrap();
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("r").unwrap(), vec![5.0]);
    // A capacity of 0 takes nothing: reads see the zeroed entry 0.
    let mut p = forced(BOUNDED, 0);
    p.write_f64("n", &[1.0]).unwrap();
    let e = run_err(&mut p, "k", &[]);
    assert!(
        e.message.ends_with("exceeded its capacity of 0"),
        "{}",
        e.message
    );
    assert_eq!(p.read_f64("r").unwrap(), vec![0.0]);
}

#[test]
fn a_stack_without_a_bound_is_sized_by_the_analysis_at_compile_time() {
    // No max_size, no size_expr: the runtime sizes it as determine-ad-stack-size would, n
    // pushes per launch, and the launch gets exactly that depth.
    let src = BOUNDED.replace(" {max_size = 2}", "");
    let mut p = program(&src);
    p.write_f64("n", &[10000.0]).unwrap();
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("r").unwrap(), vec![10000.0]);
    let k = p.kernel("k").unwrap();
    let plan = p.last_adstack_plan(k).unwrap();
    assert_eq!(plan.stacks.len(), 1);
    assert!(plan.stacks[0].inferred);
    assert_eq!(plan.stacks[0].depth, 10000);
    assert_eq!(p.adstack_peaks(k), Some(vec![10000]));
}

#[test]
fn a_stack_the_analysis_cannot_bound_is_a_compile_error_unless_forced() {
    // The trip count of this while loop depends on a float: no SizeExpr can bound it.
    let src = r#"
qd.field @r : !qd.field<f32>
qd.kernel @k() {
  %s = adstack.alloca : f32
  %one = arith.constant 1.0 : f32
  qd.while {
    %v = qd.load @r[] : f32
    %go = arith.cmpf olt, %v, %one : f32
    qd.condition %go
  } do {
    %v = qd.load @r[] : f32
    adstack.push %s, %v : f32
    %h = arith.constant 0.5 : f32
    %w = arith.addf %v, %h : f32
    qd.store %w, @r[] : f32
  }
}
"#;
    let mut p = program(src);
    let e = p.kernel("k").unwrap_err();
    let d = &e.diagnostics()[0];
    assert!(
        d.message.starts_with(
            "kernel @k: this adstack has neither max_size nor size_expr, and the sizing \
             analysis cannot bound it: "
        ) && d.message.ends_with(
            "; size it with determine-ad-stack-size or force a capacity with ad_stack_size \
             (qd-run --ad-stack-size N)"
        ),
        "{}",
        d.message
    );
    assert_eq!(p.context().file_line_col(d.loc).map(|l| l.1), Some(4));
    // Forced: no bound needed; r goes 0, 0.5, 1 in two iterations, which fit in 2 entries.
    let mut p = forced(src, 2);
    run_ok(&mut p, "k", &[]);
    assert_eq!(p.read_f64("r").unwrap(), vec![1.0]);
}

#[test]
fn unverified_ops_on_non_stacks_are_compile_errors() {
    let src = r#"
qd.kernel @k(%v: f32) {
  "adstack.push"(%v, %v) : (f32, f32) -> ()
}
"#;
    let config = ProgramConfig {
        verify: false,
        ..ProgramConfig::default()
    };
    let mut p = program_config(src, InterpOptions::default(), config);
    let e = p.kernel("k").unwrap_err();
    assert!(
        e.to_string()
            .contains("'adstack.push' expects an !adstack.stack operand"),
        "{e}"
    );
}
