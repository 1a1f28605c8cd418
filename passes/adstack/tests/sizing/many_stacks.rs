//! Many stacks in one kernel, their ops interleaved: sizing and minimize-tape share one index of
//! the kernel for all stacks and visit only each stack's own ops, so a stack among many must
//! get what it gets alone.

use super::common::*;
use qd_adstack::{AllocaOp, ALLOCA_OP, SIZE_EXPR};
use qd_adstack_passes::minimize_tape::elidable;
use qd_adstack_passes::MinimizeTapePass;
use qd_ir::text::attr_to_string;
use qd_ir::{Context, OpId};
use qd_pass::Pass;

/// Stack kinds: (declarations before the bodies, the body), for stack `k`. Every kind's pushes
/// have no pop in a loop that a jump could skip, so jumps elsewhere in the kernel do not change
/// its bound (see `size_expr_capture`: pops are not counted in a block with a jump).
fn kind(k: usize, which: usize) -> (String, String) {
    let decl = format!("  %s{k} = adstack.alloca : f32\n");
    let body = match which {
        // Straight-line pushes and pops (phase 1).
        0 => format!(
            "  adstack.push %s{k}, %v : f32\n  adstack.push %s{k}, %v : f32\n  \
             adstack.pop %s{k} : f32\n  adstack.push %s{k}, %v : f32\n"
        ),
        // Branches (phase 1: the max).
        1 => format!(
            "  qd.if %c {{\n    adstack.push %s{k}, %v : f32\n    adstack.push %s{k}, %v : f32\n  \
             }} else {{\n    adstack.push %s{k}, %v : f32\n  }}\n"
        ),
        // A loop that only pushes (phase 2: the trip count).
        2 => format!("  qd.range_for %i{k} = %c0 to %n : i32 {{\n    adstack.push %s{k}, %v : f32\n  }}\n"),
        // A triangular nest (phase 2: a sum over the outer index).
        3 => format!(
            "  qd.range_for %i{k} = %c0 to %n : i32 {{\n    \
             qd.range_for %j{k} = %c0 to %i{k} : i32 {{\n      adstack.push %s{k}, %v : f32\n    \
             }}\n  }}\n"
        ),
        // A balanced loop with a break that skips the pop, in a serial loop of its own with the
        // alloca (phase 1).
        _ => {
            return (
                String::new(),
                format!(
                    "  qd.range_for %t{k} = %c0 to %c1 : i32 {{\n    %s{k} = adstack.alloca : f32\n    \
                     qd.range_for %i{k} = %c0 to %n : i32 {{\n      adstack.push %s{k}, %v : f32\n      \
                     qd.if %c {{\n        qd.break\n      }}\n      adstack.pop %s{k} : f32\n    }}\n    \
                     adstack.push %s{k}, %v : f32\n    adstack.push %s{k}, %v : f32\n  }}\n"
                ),
            )
        }
    };
    (decl, body)
}

const KINDS: usize = 5;

/// A kernel of the stacks `(k, kind)`: every declaration first, then the bodies in order.
fn kernel(name: &str, stacks: &[(usize, usize)]) -> String {
    let mut decls = String::new();
    let mut bodies = String::new();
    for &(k, which) in stacks {
        let (d, b) = kind(k, which);
        decls += &d;
        bodies += &b;
    }
    format!(
        "qd.field @nf : !qd.field<i32>\nqd.kernel @{name}(%c: i1, %v: f32) {{\n  \
         %c0 = arith.constant 0 : i32\n  %c1 = arith.constant 1 : i32\n  \
         %n = qd.load @nf[] : i32\n{decls}{bodies}}}\n"
    )
}

/// The `size_expr` of every alloca, in pre-order.
fn sizes(ctx: &Context, m: OpId) -> Vec<String> {
    ctx.walk_pre_order(m)
        .into_iter()
        .filter(|&o| ctx.name(o) == ALLOCA_OP)
        .map(|o| attr_to_string(ctx, ctx.prop(o, SIZE_EXPR).expect("sized")))
        .collect()
}

#[test]
fn a_stack_among_many_is_sized_as_alone() {
    // 60 stacks, the kinds interleaved; the pre-order of the allocas is the order of `stacks`
    // for kinds 0-3 (declared first), then the kind-4 ones (declared in their bodies).
    let stacks: Vec<(usize, usize)> = (0..60).map(|k| (k, (k * 7) % KINDS)).collect();
    let (mut ctx, m) = parse(&kernel("k", &stacks));
    size(&mut ctx, m);
    let together = sizes(&ctx, m);
    let mut order: Vec<&(usize, usize)> = stacks.iter().filter(|s| s.1 != 4).collect();
    order.extend(stacks.iter().filter(|s| s.1 == 4));
    assert_eq!(together.len(), stacks.len());
    for (got, &&(k, which)) in together.iter().zip(&order) {
        let (mut ctx, m) = parse(&kernel("k", &[(k, which)]));
        size(&mut ctx, m);
        let alone = sizes(&ctx, m);
        assert_eq!(got, &alone[0], "stack {k} of kind {which}");
    }
    // The bounds of the kinds (straight line and branches: 2; the break: 3), so that a kind
    // that sized nothing would not pass unnoticed.
    let mut kinds = together.clone();
    kinds.sort();
    kinds.dedup();
    assert_eq!(
        kinds,
        [
            "#adstack.size<2>",
            "#adstack.size<3>",
            "#adstack.size<@nf[]:i32 - 0>",
            "#adstack.size<sum(v0 for v0 in range(0, @nf[]:i32))>"
        ]
    );
}

#[test]
fn minimize_tape_elides_among_many_what_it_elides_alone() {
    // Stack k: pushed and read before its adjoint ops (elidable), or, every third one, pushed
    // and popped in the same loop (kept).
    let n = 45;
    let mut src = String::from(
        "qd.kernel @k(%v: f32) {\n  %c0 = arith.constant 0 : i32\n  %c4 = arith.constant 4 : i32\n",
    );
    for k in 0..n {
        src += &format!("  %s{k} = adstack.alloca : f32 {{max_size = 8}}\n");
    }
    for k in 0..n {
        src += &if k % 3 == 2 {
            format!(
                "  qd.range_for %i{k} = %c0 to %c4 : i32 {{\n    adstack.push %s{k}, %v : f32\n    \
                 adstack.pop %s{k} : f32\n  }}\n"
            )
        } else {
            format!("  adstack.push %s{k}, %v : f32\n  %t{k} = adstack.load_top %s{k} : f32\n")
        };
    }
    for k in (0..n).filter(|k| k % 3 != 2) {
        src += &format!(
            "  adstack.acc_adjoint %s{k}, %t{k} : f32\n  %a{k} = adstack.load_top_adj %s{k} : f32\n  \
             adstack.pop %s{k} : f32\n"
        );
    }
    src += "}\n";
    let (ctx0, m0) = parse(&src);
    let allocas: Vec<OpId> = ctx0
        .walk_pre_order(m0)
        .into_iter()
        .filter(|&o| ctx0.name(o) == ALLOCA_OP)
        .collect();
    // Each stack judged alone, on the module before any is elided.
    let alone: Vec<bool> = allocas
        .iter()
        .map(|&a| elidable(&ctx0, a).is_some())
        .collect();
    let want: Vec<bool> = (0..n).map(|k| k % 3 != 2).collect();
    assert_eq!(alone, want);
    let (mut ctx, m) = parse(&src);
    assert!(MinimizeTapePass::default().run(&mut ctx, m).is_ok());
    qd_ir::verifier::verify(&ctx, m).expect("the minimized module verifies");
    let got: Vec<bool> = ctx
        .walk_pre_order(m)
        .into_iter()
        .filter(|&o| ctx.name(o) == ALLOCA_OP)
        .map(|o| AllocaOp(o).is_primal_elided(&ctx))
        .collect();
    assert_eq!(got, want);
}
