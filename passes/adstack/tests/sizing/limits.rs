//! Inputs at the limits: long use-def chains and deep nests give errors or bounds, never a
//! crash (the test threads have small stacks).

use super::common::*;
use qd_adstack_passes::DetermineAdStackSize;
use qd_pass::Pass;
use std::fmt::Write;

/// A kernel whose trip count is `n + 1 + 1 + ...` (`links` additions).
fn chain(links: usize) -> String {
    let mut s = String::from(
        "qd.field @n : !qd.field<i32>\nqd.kernel @k(%v: f32) {\n%c0 = arith.constant 0 : i32\n\
         %c1 = arith.constant 1 : i32\n%s = adstack.alloca : f32\n%x0 = qd.load @n[] : i32\n",
    );
    for i in 0..links {
        writeln!(s, "%x{} = arith.addi %x{i}, %c1 : i32", i + 1).unwrap();
    }
    writeln!(s, "qd.range_for %i = %c0 to %x{links} : i32 {{").unwrap();
    s.push_str("adstack.push %s, %v : f32\n}\n}\n");
    s
}

#[test]
fn a_long_chain_is_an_error_not_a_crash() {
    let (mut ctx, m) = parse(&chain(2000));
    assert!(DetermineAdStackSize::new(None).run(&mut ctx, m).is_err());
    let msg = &ctx.diagnostics()[0].message;
    assert!(msg.contains("too long"), "{msg}");
}

#[test]
fn a_moderate_chain_is_sized() {
    let (mut ctx, m) = parse(&chain(100));
    size(&mut ctx, m);
    let b = bounds(&ctx, m, "k");
    assert_eq!(b[0].1.to_string(), "@n[]:i32 + 100 - 0");
}

#[test]
fn deep_nests_run_out_of_variables_with_an_error() {
    // 60 nested loops, each bounded by the one around it: more than the 48 loop variables.
    let mut s = String::from(
        "qd.kernel @k(%v: f32) {\n%c0 = arith.constant 0 : i32\n%c2 = arith.constant 2 : i32\n\
         %s = adstack.alloca : f32\nqd.range_for %i0 = %c0 to %c2 : i32 {\n",
    );
    for d in 1..60 {
        writeln!(s, "qd.range_for %i{d} = %c0 to %i{} : i32 {{", d - 1).unwrap();
    }
    s.push_str("adstack.push %s, %v : f32\n");
    s.push_str(&"}\n".repeat(60));
    s.push_str("}\n");
    let (mut ctx, m) = parse(&s);
    assert!(DetermineAdStackSize::new(None).run(&mut ctx, m).is_err());
    let msg = &ctx.diagnostics()[0].message;
    assert!(msg.contains("nest"), "{msg}");
}
