//! Input generators shared by the benchmarks.

pub mod element_ad;

use std::fmt::Write;

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

#[cfg(test)]
mod tests {
    #[test]
    fn generator_makes_valid_ir() {
        let text = super::arith_chain_module(200);
        let mut ctx = qd_ir::Context::new();
        qd_dialects::register_all_dialects(&mut ctx);
        ctx.allow_unregistered = true;
        let m = qd_ir::text::parse_source(&mut ctx, &text, "gen.mlir").expect("parses");
        assert!(qd_ir::verifier::verify(&ctx, m).is_ok());
        assert_eq!(ctx.walk_pre_order(m).len(), 200 + 3);
    }
}
