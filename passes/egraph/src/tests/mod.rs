use crate::simplify::{simplify, Limits};
use qd_adstack::size_expr::SizeExpr;

fn p(s: &str) -> SizeExpr {
    SizeExpr::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn explore() {
    for s in [
        "(@m[]:i32 - 0) * max(1 + v1 for v1 in range(0, @m[]:i32))",
        "max(v0 for v0 in range(0, @m[]:i32))",
        "max(@n[]:i32 - v0 for v0 in range(0, @n[]:i32))",
        "6 * max(2 + (@n[]:i32 - v1) for v1 in range(0, 6))",
        "max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))",
        "3 * max(@starts[v1 + 1]:i32 - @starts[v1]:i32 for v1 in range(0, 3))",
        "max((arg1[v0]:i32 - arg0[v0]:i32) * max(arg3[v1]:i32 - arg2[v1]:i32 for v1 in range(arg0[v0]:i32, arg1[v0]:i32)) for v0 in range(0, arg0.shape[0]))",
        "max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 2))",
        "max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0])) - max(arg1[v0]:i32 for v0 in range(0, arg1.shape[0]))",
        "max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 4))",
        "max(6 - v0 for v0 in range(0, 6))",
        "6 * max(6 - v0 for v0 in range(0, 6))",
        "(@a[]:i32 - @b[]:i32) + @b[]:i32",
        "(2 + @x[]:i32) + 3",
        "1 + 2 + @n[]:ui8 * 0",
        "max(@n[]:i32, @n[]:i32) + min(@k[]:i32, max(@k[]:i32, 4))",
    ] {
        let e = p(s);
        let r = simplify(&e, Limits::default());
        eprintln!("{s}\n   => {}   (fused {}, hits {}, nodes {})", r.expr, r.fused, r.limit_hits, r.egraph_nodes);
    }
}

#[test]
fn explore_iters() {
    use crate::analysis::SizeAnalysis;
    use crate::lang::{to_rec_expr, Sz};
    let e = p("max(v0 for v0 in range(0, @m[]:i32))");
    let (rec, _) = to_rec_expr(&e);
    let mut rules = crate::rules::algebraic_rules();
    rules.extend(crate::range::range_rules());
    let r = egg::Runner::<Sz, SizeAnalysis, ()>::new(SizeAnalysis::new(&e))
        .with_iter_limit(16)
        .with_node_limit(4096)
        .with_expr(&rec)
        .run(&rules);
    for it in &r.iterations {
        eprintln!("nodes {} classes {} applied {:?}", it.egraph_nodes, it.egraph_classes, it.applied);
    }
}
