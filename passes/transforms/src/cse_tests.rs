use super::*;
use crate::test_dialect::{names, setup, B};
use qd_ir::OperationState;

fn cse(ctx: &mut Context, op: OpId) -> bool {
    CsePass::default().run(ctx, op).unwrap().changed
}

/// Two fresh i32 values (results of side-effecting ops, so nothing removes them).
fn inputs(b: &mut B) -> (Value, Value) {
    (b.val("t.effect", &[]), b.val("t.effect", &[]))
}

#[test]
fn duplicates_are_replaced_by_the_first() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, y) = inputs(&mut b);
    let s1 = b.val("t.add", &[x, y]);
    let s2 = b.val("t.add", &[x, y]);
    let user = b.op("t.effect", &[s1, s2], &[]);
    let mut pass = CsePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(ctx.operand_vec(user), [s1, s1]);
    assert!(!ctx.is_alive(ctx.defining_op(s2).unwrap()));
    assert_eq!(pass.statistics()[0].value, 1);
    // A second run finds nothing and says so.
    assert!(!pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(pass.statistics()[0].value, 1);
}

#[test]
fn commutative_operands_match_in_any_order() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, y) = inputs(&mut b);
    let a1 = b.val("t.add", &[x, y]);
    let a2 = b.val("t.add", &[y, x]);
    let d1 = b.val("t.sub", &[x, y]);
    let d2 = b.val("t.sub", &[y, x]);
    let user = b.op("t.effect", &[a1, a2, d1, d2], &[]);
    assert!(cse(&mut ctx, m));
    assert_eq!(ctx.operand_vec(user), [a1, a1, d1, d2]);
}

#[test]
fn attributes_properties_and_types_must_match() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let c1 = b.konst(1);
    let c2 = b.konst(2);
    let c1_again = b.konst(1);
    let i64t = b.ctx.i64_type();
    let one64 = b.ctx.integer_attr(1, i64t);
    let st = OperationState::new("t.const", b.loc)
        .results(&[i64t])
        .prop(b.ctx, "value", one64);
    let c64 = b.push(st);
    let c64 = b.ctx.result(c64, 0);
    let t = b.i32();
    let one = b.ctx.integer_attr(1, t);
    let tag = b.ctx.unit_attr();
    let st = OperationState::new("t.const", b.loc)
        .results(&[t])
        .prop(b.ctx, "value", one)
        .attr(b.ctx, "tag", tag);
    let tagged = b.push(st);
    let tagged = b.ctx.result(tagged, 0);
    let user = b.op("t.effect", &[c1, c2, c1_again, c64, tagged], &[]);
    assert!(cse(&mut ctx, m));
    assert_eq!(ctx.operand_vec(user), [c1, c2, c1, c64, tagged]);
}

#[test]
fn ops_with_effects_or_unregistered_are_kept() {
    let (mut ctx, m, body) = setup();
    ctx.allow_unregistered = true;
    let mut b = B::new(&mut ctx, body);
    let (x, _) = inputs(&mut b);
    let e1 = b.val("t.effect", &[x]);
    let e2 = b.val("t.effect", &[x]);
    let r1 = b.val("t.read", &[x]);
    let r2 = b.val("t.read", &[x]);
    let u1 = b.val("test.pure", &[x]);
    let u2 = b.val("test.pure", &[x]);
    let user = b.op("t.effect", &[e1, e2, r1, r2, u1, u2], &[]);
    assert!(!cse(&mut ctx, m));
    assert_eq!(ctx.operand_vec(user), [e1, e2, r1, r2, u1, u2]);
}

#[test]
fn nested_regions_see_outer_ops_but_not_the_reverse() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, y) = inputs(&mut b);
    let outer = b.val("t.add", &[x, y]);
    let (_, inner_block) = b.region_op("t.scope", &[]);
    let (_, later_block) = b.region_op("t.scope", &[]);
    let mut ib = B::new(&mut ctx, inner_block);
    let inner = ib.val("t.add", &[x, y]);
    let only_inner = ib.val("t.sub", &[x, y]);
    let inner_user = ib.op("t.effect", &[inner, only_inner], &[]);
    // A sibling region does not see the first region's ops.
    let mut lb = B::new(&mut ctx, later_block);
    let sibling = lb.val("t.sub", &[x, y]);
    let sibling_user = lb.op("t.effect", &[sibling], &[]);
    // After the region op, the inner ops are out of scope too.
    let mut b = B::new(&mut ctx, body);
    let after = b.val("t.sub", &[x, y]);
    let after_user = b.op("t.effect", &[outer, after], &[]);
    assert!(cse(&mut ctx, m));
    assert_eq!(ctx.operand_vec(inner_user), [outer, only_inner]);
    assert_eq!(ctx.operand_vec(sibling_user), [sibling]);
    assert_eq!(ctx.operand_vec(after_user), [outer, after]);
}

/// A lookup goes out to the scope of the block defining the op's newest operand and no further:
/// two levels down, an op is still found in the scope that defines its operand, and in the
/// scope around it for an operand from there.
#[test]
fn lookups_reach_the_scope_defining_the_newest_operand() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, _) = inputs(&mut b);
    let top = b.val("t.neg", &[x]);
    let (_, mid) = b.region_op("t.scope", &[]);
    let mut mb = B::new(&mut ctx, mid);
    let y = mb.val("t.effect", &[]);
    let known = mb.val("t.add", &[x, y]);
    let (_, inner) = mb.region_op("t.scope", &[]);
    let mut ib = B::new(&mut ctx, inner);
    let again = ib.val("t.add", &[y, x]);
    let top_again = ib.val("t.neg", &[x]);
    let user = ib.op("t.effect", &[again, top_again, known, top], &[]);
    assert!(cse(&mut ctx, m));
    assert_eq!(ctx.operand_vec(user), [known, top, known, top]);
}

#[test]
fn isolated_regions_start_empty() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let c = b.konst(7);
    b.op("t.effect", &[c], &[]);
    let (_, iso) = b.region_op("t.isolated", &[]);
    let mut ib = B::new(&mut ctx, iso);
    let c_in = ib.konst(7);
    let c_in2 = ib.konst(7);
    let user = ib.op("t.effect", &[c_in, c_in2], &[]);
    assert!(cse(&mut ctx, m));
    // Deduplicated inside, but not replaced by the outer constant.
    assert_eq!(ctx.operand_vec(user), [c_in, c_in]);
}

#[test]
fn blocks_inherit_from_their_dominators_only() {
    // bb0: %a = 1; cond_br %c, bb1, bb2
    // bb1: %b = 1; %f = 2; br bb3      bb2: %d = 1; br bb3
    // bb3: %e = 1; %g = 2; return
    let (mut ctx, m, body) = setup();
    let i1 = ctx.i1_type();
    let loc = ctx.unknown_loc();
    let mut b = B::new(&mut ctx, body);
    let (f, r) = b.symbol("t.func", "f", None);
    let _ = f;
    let bb: Vec<BlockId> = (0..4)
        .map(|i| {
            let args: Vec<_> = if i == 0 { vec![(i1, loc)] } else { vec![] };
            let blk = ctx.create_block(&args);
            ctx.append_block(r, blk);
            blk
        })
        .collect();
    let cond = ctx.block_arg(bb[0], 0);
    let mut b0 = B::new(&mut ctx, bb[0]);
    let a = b0.konst(1);
    b0.push(
        OperationState::new("t.cond_br", loc)
            .operands(&[cond])
            .successor(bb[1])
            .successor(bb[2]),
    );
    let mut b1 = B::new(&mut ctx, bb[1]);
    let bv = b1.konst(1);
    let fv = b1.konst(2);
    let u1 = b1.op("t.effect", &[bv, fv], &[]);
    b1.push(OperationState::new("t.br", loc).successor(bb[3]));
    let mut b2 = B::new(&mut ctx, bb[2]);
    let d = b2.konst(1);
    let u2 = b2.op("t.effect", &[d], &[]);
    b2.push(OperationState::new("t.br", loc).successor(bb[3]));
    let mut b3 = B::new(&mut ctx, bb[3]);
    let e = b3.konst(1);
    let g = b3.konst(2);
    let u3 = b3.op("t.effect", &[a, e, g], &[]);
    b3.op("t.return", &[], &[]);
    assert!(cse(&mut ctx, m));
    assert_eq!(ctx.operand_vec(u1), [a, fv]);
    assert_eq!(ctx.operand_vec(u2), [a]);
    assert_eq!(ctx.operand_vec(u3), [a, a, g]);
}

#[test]
fn trivially_dead_ops_are_erased_and_terminators_kept() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, y) = inputs(&mut b);
    b.val("t.add", &[x, y]);
    let (_, inner) = b.region_op("t.scope", &[]);
    let mut ib = B::new(&mut ctx, inner);
    ib.op("t.effect", &[], &[]);
    ib.op("t.return", &[], &[]);
    let mut pass = CsePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(names(&ctx, body), ["t.effect", "t.effect", "t.scope"]);
    assert_eq!(names(&ctx, inner), ["t.effect", "t.return"]);
    assert_eq!(pass.statistics()[1].value, 1);
}

#[test]
fn the_kept_op_takes_a_known_location() {
    let (mut ctx, m, body) = setup();
    let known = ctx.file_loc("f.mlir", 3, 5);
    let mut b = B::new(&mut ctx, body);
    let c1 = b.konst(1);
    b.loc = known;
    let c2 = b.konst(1);
    b.op("t.effect", &[c1, c2], &[]);
    assert!(cse(&mut ctx, m));
    assert_eq!(ctx.loc(ctx.defining_op(c1).unwrap()), known);
}

#[test]
fn graph_regions_do_not_fold_an_op_into_its_own_user() {
    // In a graph region: %a = add %b, %x ; %b = add %b, %x -> same key, but %a uses %b.
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, _) = inputs(&mut b);
    let a = b.val("t.add", &[x, x]);
    let bv = b.val("t.add", &[x, x]);
    let a_op = ctx.defining_op(a).unwrap();
    let b_op = ctx.defining_op(bv).unwrap();
    ctx.set_operands(a_op, &[bv, x]);
    ctx.set_operands(b_op, &[bv, x]);
    let mut b = B::new(&mut ctx, body);
    b.op("t.effect", &[a, bv], &[]);
    assert!(!cse(&mut ctx, m));
    assert!(ctx.is_alive(b_op));
}

#[test]
fn ops_whose_keys_hash_alike_are_told_apart() {
    // Hash collisions cannot be forced through the pass (the hasher is random): a scope is fed
    // three ops under one hash, two of them interchangeable, and each lookup must compare.
    let (mut ctx, _m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, y) = inputs(&mut b);
    let add = b.val("t.add", &[x, y]);
    let sub = b.val("t.sub", &[x, y]);
    let add2 = b.val("t.add", &[y, x]);
    let sub2 = b.val("t.sub", &[x, y]);
    let mul = b.val("t.mul", &[x, y]);
    let op = |v: Value| ctx.defining_op(v).unwrap();
    let mut d = Driver {
        scopes: vec![Scope {
            known: Some(KnownOps::new(4)),
            ..Scope::default()
        }],
        hot: FastSet::default(),
        bufs: (Vec::new(), Vec::new()),
        spare: Vec::new(),
        order: Vec::new(),
        num_cse: 0,
        num_dce: 0,
    };
    let at = |hash: u64| Probe {
        hash,
        anchor_block: None,
        local: Some(3),
        hashed: None,
    };
    d.insert(&ctx, op(add), &at(7));
    d.insert(&ctx, op(sub), &at(7));
    assert_eq!(d.lookup(&ctx, op(add2), &at(7)), Some(op(add)));
    assert_eq!(d.lookup(&ctx, op(sub2), &at(7)), Some(op(sub)));
    assert_eq!(d.lookup(&ctx, op(mul), &at(7)), None);
    assert_eq!(d.lookup(&ctx, op(sub2), &at(8)), None);
}

/// Ops are placed by their newest operand until it has more than `CROWDED` users, then by their
/// hash: an op placed before its operand got more users (here when `%a2` is replaced by `%a`) is
/// still found after.
#[test]
fn duplicates_are_found_after_their_operand_gains_users() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let (x, _) = inputs(&mut b);
    let cs: Vec<Value> = (0..CROWDED as i64).map(|k| b.konst(k)).collect();
    let a = b.val("t.neg", &[x]);
    let a2 = b.val("t.neg", &[x]);
    // A few users of %a, placed by %a; then the users of %a2, which become %a's.
    let first: Vec<Value> = cs[..4].iter().map(|&c| b.val("t.add", &[a, c])).collect();
    let again: Vec<Value> = cs.iter().map(|&c| b.val("t.add", &[a2, c])).collect();
    let mut all = first.clone();
    all.extend(&again);
    let user = b.op("t.effect", &all, &[]);
    let mut pass = CsePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    let mut want = first.clone();
    want.extend(&first);
    want.extend(&again[4..]);
    assert_eq!(ctx.operand_vec(user), want);
    // %a2 and the four users of it that repeat users of %a.
    assert_eq!(pass.statistics()[0].value, 5);
}

/// Many different ops whose newest operand is one value (the loop variable after hoisted
/// constants) are told apart and their duplicates found: such an operand is hot from the start.
#[test]
fn many_users_of_one_operand_are_told_apart() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let cs: Vec<Value> = (0..200).map(|k| b.konst(k)).collect();
    let (x, _) = inputs(&mut b);
    let first: Vec<Value> = cs.iter().map(|&c| b.val("t.add", &[c, x])).collect();
    let again: Vec<Value> = cs.iter().rev().map(|&c| b.val("t.add", &[x, c])).collect();
    let mut all = first.clone();
    all.extend(&again);
    let user = b.op("t.effect", &all, &[]);
    let mut pass = CsePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    let mut want = first.clone();
    want.extend(first.iter().rev());
    assert_eq!(ctx.operand_vec(user), want);
    assert_eq!(pass.statistics()[0].value, 200);
}
