//! Input generators shared by the benchmarks, and the parsing they all start from.

pub mod bandwidth;
pub mod element_ad;
pub mod pass_scaling;

use qd_ir::{Context, OpId};
use std::fmt::Write;

/// A context with every dialect registered that accepts the generators' unregistered ops.
pub fn context() -> Context {
    let mut ctx = Context::new();
    qd_dialects::register_all_dialects(&mut ctx);
    ctx.allow_unregistered = true;
    ctx
}

/// Parses and verifies generated IR; panics on failure (a generator bug).
pub fn parse(text: &str) -> (Context, OpId) {
    let mut ctx = context();
    let m = qd_ir::text::parse_source(&mut ctx, text, "bench.mlir").expect("generated IR parses");
    qd_ir::verifier::verify(&ctx, m).expect("generated IR verifies");
    (ctx, m)
}

/// Runs a textual pipeline (e.g. `builtin.module(cse)`) on the module; panics on failure.
pub fn run_pipeline(ctx: &mut Context, m: OpId, pipeline: &str) {
    let reg = qd_passes::all_passes();
    let mut pm = qd_pass::PassManager::parse(&reg, pipeline).expect("a valid pipeline");
    pm.run(ctx, m).expect("the pipeline succeeds");
}

/// A module of about `n` arith ops in a chain of 10-op groups. Each group has a duplicate
/// expression (work for cse), a constant sub-expression (work for canonicalize) and an identity
/// (`x + 0`); the last value feeds an unregistered sink so that nothing is dead.
pub fn arith_chain_module(n: usize) -> String {
    let mut s = String::with_capacity(n * 48);
    s.push_str("module {\n  %x0 = \"bench.source\"() : () -> i32\n");
    let groups = n / 10;
    for g in 0..groups {
        let (x, y) = (format!("%x{g}"), format!("%x{}", g + 1));
        let _ = write!(
            s,
            "  %a{g} = arith.constant {c} : i32\n\
             \x20 %b{g} = arith.constant 3 : i32\n\
             \x20 %k{g} = arith.muli %a{g}, %b{g} : i32\n\
             \x20 %p{g} = arith.addi {x}, %k{g} : i32\n\
             \x20 %q{g} = arith.addi {x}, %k{g} : i32\n\
             \x20 %r{g} = arith.muli %p{g}, %q{g} : i32\n\
             \x20 %z{g} = arith.constant 0 : i32\n\
             \x20 %s{g} = arith.addi %r{g}, %z{g} : i32\n\
             \x20 %t{g} = arith.xori %s{g}, {x} : i32\n\
             \x20 {y} = arith.subi %t{g}, %p{g} : i32\n",
            c = g % 7 + 1
        );
    }
    let _ = writeln!(s, "  \"bench.sink\"(%x{groups}) : (i32) -> ()\n}}");
    s
}

/// One kernel of the adstack generators: a stack pushed once, then `loops` loops of `@n`
/// iterations, each pushing once and running an inner loop of 4 iterations that pushes and pops.
fn adstack_kernel(s: &mut String, k: usize, loops: usize) {
    let _ = writeln!(
        s,
        "  qd.kernel @k{k}(%v: f32) {{\n\
         \x20   %s = adstack.alloca : f32\n\
         \x20   %c0 = arith.constant 0 : i32\n\
         \x20   %c4 = arith.constant 4 : i32\n\
         \x20   %n = qd.load @n[] : i32\n\
         \x20   adstack.push %s, %v : f32"
    );
    for l in 0..loops {
        let _ = writeln!(
            s,
            "    qd.range_for %i{l} = %c0 to %n : i32 {{\n\
             \x20     adstack.push %s, %v : f32\n\
             \x20     qd.range_for %j{l} = %c0 to %c4 : i32 {{\n\
             \x20       adstack.push %s, %v : f32\n\
             \x20       adstack.pop %s : f32\n\
             \x20     }}\n\
             \x20   }}"
        );
    }
    s.push_str("  }\n");
}

/// Ops of one generator loop (two range_for, three stack ops), and of a kernel's fixed part
/// (the kernel, alloca, two constants, load, push).
const LOOP_OPS: usize = 5;
const KERNEL_OPS: usize = 6;

/// A module of about `n` ops for determine-ad-stack-size: kernels of 6 loops each (36 ops), as
/// many as fit; the work per kernel is fixed, so the pass should scale linearly.
pub fn adstack_kernels_module(n: usize) -> String {
    let per_kernel = KERNEL_OPS + 6 * LOOP_OPS;
    let mut s = String::with_capacity(n * 40);
    s.push_str("module {\n  qd.field @n : !qd.field<i32>\n");
    for k in 0..(n / per_kernel).max(1) {
        adstack_kernel(&mut s, k, 6);
    }
    s.push_str("}\n");
    s
}

/// A module of about `n` ops in one kernel: one stack through `n / 5` sequential loops, so the
/// bound is a sum that grows with the kernel.
pub fn adstack_one_kernel_module(n: usize) -> String {
    let mut s = String::with_capacity(n * 40);
    s.push_str("module {\n  qd.field @n : !qd.field<i32>\n");
    adstack_kernel(&mut s, 0, (n.saturating_sub(KERNEL_OPS) / LOOP_OPS).max(1));
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_makes_valid_ir() {
        let (ctx, m) = parse(&arith_chain_module(200));
        assert_eq!(ctx.walk_pre_order(m).len(), 200 + 3);
    }

    /// The adstack generators make about `n` ops that determine-ad-stack-size sizes.
    #[test]
    fn adstack_generators_make_n_sized_ops() {
        for (text, n) in [
            (adstack_kernels_module(1000), 1000),
            (adstack_one_kernel_module(1000), 1000),
        ] {
            let (mut ctx, m) = parse(&text);
            let ops = ctx.walk_pre_order(m).len();
            assert!(ops.abs_diff(n) < 40, "{ops} ops for {n}");
            run_pipeline(&mut ctx, m, "builtin.module(determine-ad-stack-size)");
            let allocas: Vec<_> = ctx
                .walk_pre_order(m)
                .into_iter()
                .filter(|&o| ctx.name(o) == qd_adstack::ALLOCA_OP)
                .collect();
            assert!(!allocas.is_empty());
            for a in allocas {
                assert!(
                    ctx.prop(a, qd_adstack::SIZE_EXPR).is_some(),
                    "unsized stack"
                );
            }
        }
    }
}
