use super::*;
use crate::builder::OperationState;
use crate::verifier::test_dialect::{self as td, op, region_op};

/// A `test.func` whose body has `n` blocks (the entry first); returns the func and the blocks.
fn cfg(ctx: &mut Context, n: usize) -> (OpId, Vec<BlockId>) {
    let (_, body) = td::module(ctx);
    let (f, entry) = td::func(ctx, body, "f", 1, 2);
    let region = ctx.region(f, 0);
    let mut blocks = vec![entry];
    for _ in 1..n {
        let b = ctx.create_block(&[]);
        ctx.append_block(region, b);
        blocks.push(b);
    }
    (f, blocks)
}

/// Ends `from` with a `test.br` to `to`.
fn br(ctx: &mut Context, from: BlockId, to: &[BlockId]) -> OpId {
    let l = td::loc(ctx, 9);
    let mut st = OperationState::new("test.br", l);
    st.successors = to.to_vec();
    let o = ctx.create_op(st);
    ctx.append_op(from, o);
    o
}

fn ret(ctx: &mut Context, b: BlockId) -> OpId {
    op(ctx, b, "test.ret", &[], 0, 9)
}

#[test]
fn diamond() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 4);
    br(&mut ctx, b[0], &[b[1], b[2]]);
    br(&mut ctx, b[1], &[b[3]]);
    br(&mut ctx, b[2], &[b[3]]);
    ret(&mut ctx, b[3]);
    let dom = DominanceInfo::new(&ctx, ctx.region(f, 0));
    assert_eq!(dom.entry(), Some(b[0]));
    assert_eq!(dom.idom(b[0]), None);
    assert_eq!(dom.idom(b[1]), Some(b[0]));
    assert_eq!(dom.idom(b[2]), Some(b[0]));
    assert_eq!(dom.idom(b[3]), Some(b[0]));
    assert_eq!(dom.children(b[0]), &[b[1], b[2], b[3]]);
    assert!(dom.children(b[1]).is_empty());
    for &x in &b {
        assert!(dom.block_dominates(b[0], x));
        assert!(dom.block_dominates(x, x));
        assert!(!dom.block_properly_dominates(x, x));
        assert!(dom.is_reachable(x));
    }
    assert!(!dom.block_dominates(b[1], b[3]));
    assert!(!dom.block_dominates(b[2], b[3]));
    assert!(!dom.block_dominates(b[3], b[0]));
    assert_eq!(dom.reverse_post_order()[0], b[0]);
    assert_eq!(*dom.reverse_post_order().last().unwrap(), b[3]);
}

#[test]
fn loop_with_exit() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 4);
    br(&mut ctx, b[0], &[b[1]]);
    br(&mut ctx, b[1], &[b[2], b[3]]);
    br(&mut ctx, b[2], &[b[1]]);
    ret(&mut ctx, b[3]);
    let dom = DominanceInfo::new(&ctx, ctx.region(f, 0));
    assert_eq!(dom.idom(b[1]), Some(b[0]));
    assert_eq!(dom.idom(b[2]), Some(b[1]));
    assert_eq!(dom.idom(b[3]), Some(b[1]));
    assert!(dom.block_dominates(b[1], b[2]));
    assert!(dom.block_dominates(b[1], b[3]));
    assert!(!dom.block_dominates(b[2], b[1]));
    assert!(!dom.block_dominates(b[2], b[3]));
    assert_eq!(dom.children(b[1]), &[b[2], b[3]]);
    let rpo = dom.reverse_post_order();
    assert_eq!(rpo.len(), 4);
    assert_eq!(&rpo[..2], &[b[0], b[1]]);
}

#[test]
fn irreducible_cycle() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 3);
    br(&mut ctx, b[0], &[b[1], b[2]]);
    br(&mut ctx, b[1], &[b[2]]);
    br(&mut ctx, b[2], &[b[1]]);
    let dom = DominanceInfo::new(&ctx, ctx.region(f, 0));
    assert_eq!(dom.idom(b[1]), Some(b[0]));
    assert_eq!(dom.idom(b[2]), Some(b[0]));
    assert!(!dom.block_dominates(b[1], b[2]));
    assert!(!dom.block_dominates(b[2], b[1]));
}

#[test]
fn unreachable_blocks() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 4);
    br(&mut ctx, b[0], &[b[1]]);
    ret(&mut ctx, b[1]);
    // b2 is unreachable and branches into reachable code; b3 is empty and unreachable.
    br(&mut ctx, b[2], &[b[1]]);
    let dom = DominanceInfo::new(&ctx, ctx.region(f, 0));
    assert!(dom.is_reachable(b[0]) && dom.is_reachable(b[1]));
    assert!(!dom.is_reachable(b[2]) && !dom.is_reachable(b[3]));
    // The unreachable predecessor does not spoil b1's dominator.
    assert_eq!(dom.idom(b[1]), Some(b[0]));
    assert_eq!(dom.idom(b[2]), None);
    assert!(dom.children(b[2]).is_empty());
    // Everything dominates an unreachable block; it dominates nothing reachable.
    assert!(dom.block_dominates(b[1], b[2]));
    assert!(dom.block_dominates(b[3], b[2]));
    assert!(!dom.block_dominates(b[2], b[1]));
    assert_eq!(dom.reverse_post_order(), &[b[0], b[1]]);
    // Blocks of another region are not dominated.
    let (g, gb) = cfg(&mut ctx, 1);
    let _ = g;
    assert!(!dom.block_dominates(b[0], gb[0]));
    assert!(!dom.is_reachable(gb[0]));
    assert!(dom.children(gb[0]).is_empty());
}

#[test]
fn empty_region() {
    let mut ctx = td::ctx();
    let r = ctx.create_region();
    let dom = DominanceInfo::new(&ctx, r);
    assert_eq!(dom.entry(), None);
    assert!(dom.reverse_post_order().is_empty());
}

#[test]
fn ops_in_one_block() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 1);
    let arg = ctx.block_arg(b[0], 0);
    let a = op(&mut ctx, b[0], "test.pure", &[arg], 1, 3);
    let av = ctx.result(a, 0);
    let c = op(&mut ctx, b[0], "test.pure", &[av], 1, 4);
    let cv = ctx.result(c, 0);
    let r = ret(&mut ctx, b[0]);
    let mut dom = DomCache::new();
    assert!(value_dominates_op(&ctx, &mut dom, arg, a));
    assert!(value_dominates_op(&ctx, &mut dom, av, c));
    assert!(value_dominates_op(&ctx, &mut dom, av, r));
    assert!(!value_dominates_op(&ctx, &mut dom, cv, a));
    assert!(
        !value_dominates_op(&ctx, &mut dom, av, a),
        "an op does not dominate itself"
    );
    assert!(dom.is_before_in_block(&ctx, a, c));
    assert!(!dom.is_before_in_block(&ctx, c, a));
    assert!(!dom.is_before_in_block(&ctx, a, f), "different blocks");
    assert!(dom.op_properly_dominates(&ctx, a, r));
    assert!(!dom.op_properly_dominates(&ctx, r, a));
    assert!(!dom.op_properly_dominates(&ctx, a, a));
    assert!(dom.is_reachable(&ctx, b[0]));
}

#[test]
fn across_blocks() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 4);
    let x = op(&mut ctx, b[0], "test.pure", &[], 1, 3);
    let xv = ctx.result(x, 0);
    br(&mut ctx, b[0], &[b[1], b[2]]);
    let i32 = ctx.i32_type();
    let l = td::loc(&mut ctx, 5);
    let b1arg = ctx.add_block_arg(b[1], i32, l);
    let y = op(&mut ctx, b[1], "test.pure", &[], 1, 6);
    let yv = ctx.result(y, 0);
    let br1 = br(&mut ctx, b[1], &[b[3]]);
    br(&mut ctx, b[2], &[b[3]]);
    let u = op(&mut ctx, b[3], "test.pure", &[], 0, 7);
    ret(&mut ctx, b[3]);
    let u1 = op(&mut ctx, b[1], "test.pure", &[], 0, 8);
    ctx.move_op_before(u1, br1);
    let mut dom = DomCache::new();
    assert!(value_dominates_op(&ctx, &mut dom, xv, u));
    assert!(!value_dominates_op(&ctx, &mut dom, yv, u));
    assert!(!value_dominates_op(&ctx, &mut dom, b1arg, u));
    assert!(value_dominates_op(&ctx, &mut dom, b1arg, u1));
    assert!(value_dominates_op(&ctx, &mut dom, b1arg, y));
    assert!(dom.block_dominates(&ctx, b[0], b[3]));
    assert!(!dom.block_dominates(&ctx, b[1], b[3]));
    assert_eq!(dom.tree(&ctx, ctx.region(f, 0)).idom(b[3]), Some(b[0]));
}

#[test]
fn nested_regions() {
    let mut ctx = td::ctx();
    let (f, b) = cfg(&mut ctx, 1);
    let arg = ctx.block_arg(b[0], 0);
    let x = op(&mut ctx, b[0], "test.pure", &[], 1, 3);
    let xv = ctx.result(x, 0);
    // test.region { ^bb0(%inner): test.pure(%x, %arg); test.yield }
    let (outer, inner_b) = region_op(&mut ctx, b[0], "test.region", &[], 1, 4);
    let inner_arg = ctx.block_arg(inner_b, 0);
    let nested = op(&mut ctx, inner_b, "test.pure", &[], 1, 5);
    let nv = ctx.result(nested, 0);
    op(&mut ctx, inner_b, "test.yield", &[], 0, 6);
    let later = op(&mut ctx, b[0], "test.pure", &[], 1, 7);
    let lv = ctx.result(later, 0);
    let (_, sib_b) = region_op(&mut ctx, b[0], "test.region", &[], 0, 8);
    let sib = op(&mut ctx, sib_b, "test.pure", &[], 0, 9);
    ret(&mut ctx, b[0]);
    let mut dom = DomCache::new();
    assert!(
        value_dominates_op(&ctx, &mut dom, xv, nested),
        "defined before the parent op"
    );
    assert!(
        value_dominates_op(&ctx, &mut dom, arg, nested),
        "entry argument of the function"
    );
    assert!(value_dominates_op(&ctx, &mut dom, inner_arg, nested));
    assert!(
        !value_dominates_op(&ctx, &mut dom, lv, nested),
        "defined after the parent op"
    );
    assert!(
        !value_dominates_op(&ctx, &mut dom, nv, later),
        "not in scope outside its region"
    );
    assert!(
        !value_dominates_op(&ctx, &mut dom, nv, sib),
        "sibling region"
    );
    assert!(!value_dominates_op(&ctx, &mut dom, inner_arg, sib));
    // A result is not visible inside its own op's regions.
    let r = ctx.create_region();
    let rb = ctx.create_block(&[]);
    ctx.append_block(r, rb);
    let l = td::loc(&mut ctx, 10);
    let i32 = ctx.i32_type();
    let own = ctx.create_op(
        OperationState::new("test.region", l)
            .results(&[i32])
            .region(r),
    );
    ctx.insert_op_before(later, own);
    let ov = ctx.result(own, 0);
    let user = op(&mut ctx, rb, "test.pure", &[ov], 0, 11);
    dom.clear();
    assert!(!value_dominates_op(&ctx, &mut dom, ov, user));
    assert!(
        dom.op_properly_dominates(&ctx, own, user),
        "an op encloses its nested ops"
    );
    assert!(dom.op_properly_dominates(&ctx, x, nested));
    assert!(!dom.op_properly_dominates(&ctx, later, nested));
    assert!(region_is_proper_ancestor(
        &ctx,
        ctx.region(f, 0),
        ctx.region(outer, 0)
    ));
    assert!(!region_is_proper_ancestor(
        &ctx,
        ctx.region(outer, 0),
        ctx.region(f, 0)
    ));
    assert_eq!(
        ancestor_in_region(&ctx, nested, ctx.region(f, 0)),
        Some(outer)
    );
    assert_eq!(ancestor_in_block(&ctx, nested, b[0]), Some(outer));
    assert_eq!(ancestor_in_block(&ctx, later, inner_b), None);
}

#[test]
fn graph_regions() {
    let mut ctx = td::ctx();
    let (_, b) = cfg(&mut ctx, 1);
    let (g, gb) = region_op(&mut ctx, b[0], "test.graph", &[], 0, 3);
    let user = op(&mut ctx, gb, "test.pure", &[], 1, 4);
    let def = op(&mut ctx, gb, "test.pure", &[], 1, 5);
    let dv = ctx.result(def, 0);
    let uv = ctx.result(user, 0);
    let mut dom = DomCache::new();
    assert!(is_graph_region(&ctx, ctx.region(g, 0)));
    assert!(
        value_dominates_op(&ctx, &mut dom, dv, user),
        "use before def in a graph region"
    );
    assert!(
        value_dominates_op(&ctx, &mut dom, dv, def),
        "self-use in a graph region"
    );
    // Out of scope is still out of scope.
    let after = op(&mut ctx, b[0], "test.pure", &[], 0, 6);
    assert!(!value_dominates_op(&ctx, &mut dom, uv, after));
    // Unregistered parents make graph regions.
    let (u, ub) = region_op(&mut ctx, b[0], "other.op", &[], 0, 7);
    assert!(is_graph_region(&ctx, ctx.region(u, 0)));
    let a = op(&mut ctx, ub, "test.pure", &[], 1, 8);
    let bb = op(&mut ctx, ub, "test.pure", &[], 1, 9);
    let bv = ctx.result(bb, 0);
    assert!(value_dominates_op(&ctx, &mut dom, bv, a));
    // A CFG region nested in a graph region: the use is lifted to the graph region.
    let (_, cb) = region_op(&mut ctx, gb, "test.region", &[], 0, 10);
    ctx.move_op_before(ctx.last_op(gb).unwrap(), user);
    let nested = op(&mut ctx, cb, "test.pure", &[], 0, 11);
    let late = op(&mut ctx, gb, "test.pure", &[], 1, 12);
    let late_v = ctx.result(late, 0);
    assert!(value_dominates_op(&ctx, &mut dom, late_v, nested));
    assert!(!is_graph_region(
        &ctx,
        ctx.region(ctx.parent_op(nested).unwrap(), 0)
    ));
}

#[test]
fn detached_values() {
    let mut ctx = td::ctx();
    let i32 = ctx.i32_type();
    let l = td::loc(&mut ctx, 1);
    // A block outside any region.
    let b = ctx.create_block(&[(i32, l)]);
    let arg = ctx.block_arg(b, 0);
    let a = op(&mut ctx, b, "test.pure", &[arg], 1, 2);
    let av = ctx.result(a, 0);
    let c = op(&mut ctx, b, "test.pure", &[av], 0, 3);
    let mut dom = DomCache::new();
    assert!(value_dominates_op(&ctx, &mut dom, arg, a));
    assert!(value_dominates_op(&ctx, &mut dom, av, c));
    assert!(!value_dominates_op(&ctx, &mut dom, av, a));
    assert!(!dom.is_reachable(&ctx, b));
    // The result of a detached op dominates nothing.
    let d = ctx.create_op(OperationState::new("test.pure", l).results(&[i32]));
    let dv = ctx.result(d, 0);
    assert!(!value_dominates_op(&ctx, &mut dom, dv, c));
    assert!(!dom.op_properly_dominates(&ctx, d, c));
}

#[test]
fn deep_cfg_does_not_overflow() {
    let mut ctx = td::ctx();
    let n = 20_000;
    let (f, b) = cfg(&mut ctx, n);
    for i in 0..n - 1 {
        br(&mut ctx, b[i], &[b[i + 1]]);
    }
    ret(&mut ctx, b[n - 1]);
    let dom = DominanceInfo::new(&ctx, ctx.region(f, 0));
    assert_eq!(dom.idom(b[n - 1]), Some(b[n - 2]));
    assert!(dom.block_dominates(b[0], b[n - 1]));
    assert!(dom.block_dominates(b[n / 2], b[n - 1]));
    assert!(!dom.block_dominates(b[n - 1], b[n / 2]));
}
