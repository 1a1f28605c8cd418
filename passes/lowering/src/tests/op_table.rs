//! `OpTable` answers as a hash map would, whether its ops are compact (a dense span) or spread
//! out, and for ops outside the span it was made for.

use super::parse;
use crate::op_table::OpTable;
use qd_ir::fast_hash::FastMap;
use qd_ir::OpId;

/// Inserts `(op, k)` for every k-th op of `ins` and checks every op of `all` against a map.
fn check(ops_made_for: &[OpId], ins: &[OpId], all: &[OpId]) {
    let mut t = OpTable::for_ops(ops_made_for);
    let mut m = FastMap::default();
    for (k, &o) in ins.iter().enumerate() {
        t.insert(o, k);
        m.insert(o, k);
    }
    // A second value for an op replaces the first.
    if let Some(&o) = ins.first() {
        t.insert(o, 1000);
        m.insert(o, 1000);
    }
    for &o in all {
        assert_eq!(t.get(o), m.get(&o).copied(), "op {}", o.index());
    }
}

#[test]
fn answers_as_a_map_dense_spread_and_outside_the_span() {
    let mut src = String::from("qd.field @x : !qd.field<4xf32>\n");
    for k in 0..3 {
        src.push_str(&format!(
            "qd.kernel @k{k}() {{\n  qd.struct_for (%i) in @x {{\n"
        ));
        // 400 ops a kernel: the module spans more than a dense table of two ops may.
        for j in 0..400 {
            src.push_str(&format!("    %v{j} = qd.load @x[%i] : f32\n"));
        }
        src.push_str("  }\n}\n");
    }
    let (ctx, m) = parse(&src);
    let all = ctx.walk_pre_order(m);
    let kernels = super::ops_named(&ctx, m, qd_frontend::KERNEL_OP);
    let k0 = ctx.walk_pre_order(kernels[0]);
    // Compact: one kernel's ops, every other one inserted; the other kernels' ops are asked for.
    let evens: Vec<OpId> = k0.iter().copied().step_by(2).collect();
    check(&k0, &evens, &all);
    // Ops outside the span inserted too (they go to the map).
    let k2 = ctx.walk_pre_order(kernels[2]);
    let mixed: Vec<OpId> = evens.iter().chain(&k2).copied().collect();
    check(&k0, &mixed, &all);
    // Spread out: the first and last op of the module only, so no dense span.
    let lo = *all.iter().min_by_key(|o| o.index()).unwrap();
    let hi = *all.iter().max_by_key(|o| o.index()).unwrap();
    let ends = [lo, hi];
    assert!(hi.index() - lo.index() > 2 * 4 + 1024);
    check(&ends[..1], &all, &all);
    check(&[], &all, &all);
    check(&ends, &ends, &all);
}
