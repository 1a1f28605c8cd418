use super::*;
use crate::verifier::test_dialect::{self as td, constant, func, op, region_op};
use crate::verifier::verify;
use RewriteEvent::*;

/// module { test.func @f(%a) { ... } }: returns (module, entry, %a).
fn setup(ctx: &mut Context) -> (OpId, BlockId, Value) {
    let (m, body) = td::module(ctx);
    let (_, entry) = func(ctx, body, "f", 1, 2);
    let a = ctx.block_arg(entry, 0);
    (m, entry, a)
}

fn state(ctx: &mut Context, name: &str, operands: &[Value], n: usize) -> OperationState {
    let i32 = ctx.i32_type();
    let l = td::loc(ctx, 20);
    OperationState::new(name, l)
        .operands(operands)
        .results(&vec![i32; n])
}

#[test]
fn creation_and_builder_insertion_are_reported() {
    let mut ctx = td::ctx();
    let (m, entry, a) = setup(&mut ctx);
    let ret = op(&mut ctx, entry, "test.ret", &[], 0, 3);
    let (s1, s2, s3) = (
        state(&mut ctx, "test.pure", &[a], 1),
        state(&mut ctx, "test.pure", &[a], 1),
        state(&mut ctx, "test.effect", &[], 0),
    );
    let mut rec = RecordingListener::default();
    let mut rw = Rewriter::with_listener(&mut ctx, &mut rec);
    let p = rw.create_before(ret, s1);
    let q = rw.create_after(p, s2);
    let mut b = rw.builder(InsertPoint::Before(ret));
    let e = b.insert(s3);
    // A detached op is not in the IR yet: nothing to report.
    let l = td::loc(b.ctx, 21);
    let d =
        Builder::new(b.ctx, InsertPoint::Detached).insert(OperationState::new("test.effect", l));
    assert_eq!(rw.ctx().parent_block(d), None);
    rw.insert_op(d, InsertPoint::AtStart(entry));
    assert_eq!(
        rec.events,
        [Inserted(p), Inserted(q), Inserted(e), Inserted(d)]
    );
    assert_eq!(ctx.block_op_vec(entry), [d, p, q, e, ret]);
    assert_eq!(verify(&ctx, m), Ok(()));
}

#[test]
fn in_place_changes_are_reported_modified() {
    let mut ctx = td::ctx();
    let (_, entry, a) = setup(&mut ctx);
    let c = constant(&mut ctx, entry, 1, 3);
    let p = op(&mut ctx, entry, "test.pure", &[a, a], 1, 4);
    let mut rec = RecordingListener::default();
    let mut rw = Rewriter::with_listener(&mut ctx, &mut rec);
    let u = rw.intern(|ctx| ctx.unit_attr());
    rw.set_operand(p, 0, c);
    rw.set_operands(p, &[c]);
    rw.set_prop(p, "x", u);
    rw.set_attr(p, "y", u);
    assert_eq!(rw.remove_prop(p, "x"), Some(u));
    assert_eq!(
        rw.remove_prop(p, "x"),
        None,
        "nothing removed, nothing reported"
    );
    assert_eq!(rw.remove_attr(p, "y"), Some(u));
    let l = rw.intern(|ctx| td::loc(ctx, 9));
    rw.set_loc(p, l);
    let n = rw.modify_op_in_place(p, |ctx| {
        ctx.append_operand(p, a);
        ctx.num_operands(p)
    });
    assert_eq!(n, 2);
    rw.modified(p);
    assert_eq!(rec.events, vec![Modified(p); 9]);
    assert_eq!(ctx.operand_vec(p), [c, a]);
    assert_eq!(ctx.loc(p), l);
}

#[test]
fn replace_and_erase_report_before_the_change() {
    /// Checks that a replaced or erased op is still readable when it is reported.
    #[derive(Default)]
    struct Checking(RecordingListener, Vec<String>);
    impl Listener for Checking {
        fn notify_op_inserted(&mut self, ctx: &Context, op: OpId) {
            self.0.notify_op_inserted(ctx, op)
        }
        fn notify_op_modified(&mut self, ctx: &Context, op: OpId) {
            self.0.notify_op_modified(ctx, op)
        }
        fn notify_op_replaced(&mut self, ctx: &Context, op: OpId, new: &[Value]) {
            assert!(ctx.is_alive(op));
            self.0.notify_op_replaced(ctx, op, new)
        }
        fn notify_op_erased(&mut self, ctx: &Context, op: OpId) {
            assert!(ctx.is_alive(op));
            self.1.push(ctx.name(op).to_string());
            self.0.notify_op_erased(ctx, op)
        }
    }
    let mut ctx = td::ctx();
    let (m, entry, a) = setup(&mut ctx);
    let (r, rb) = region_op(&mut ctx, entry, "test.pure_region", &[], 0, 3);
    let inner = op(&mut ctx, rb, "test.pure", &[a], 1, 4);
    let y = op(&mut ctx, rb, "test.yield", &[], 0, 5);
    let p = op(&mut ctx, entry, "test.pure", &[a], 1, 6);
    let pv = ctx.result(p, 0);
    let u1 = op(&mut ctx, entry, "test.effect", &[pv], 0, 7);
    let u2 = op(&mut ctx, entry, "test.effect", &[pv, pv], 0, 8);
    let ret = op(&mut ctx, entry, "test.ret", &[], 0, 9);
    let st = state(&mut ctx, "test.neg", &[a], 1);
    let mut l = Checking::default();
    let mut rw = Rewriter::with_listener(&mut ctx, &mut l);
    let n = rw.replace_op_with_new(p, st);
    let nv = rw.ctx().result(n, 0);
    rw.erase_op(r);
    assert_eq!(
        l.0.events,
        [
            Inserted(n),
            Replaced(p, vec![nv]),
            Modified(u1),
            Modified(u2),
            Modified(u2),
            Erased(p),
            // Nested ops first.
            Erased(inner),
            Erased(y),
            Erased(r),
        ]
    );
    assert_eq!(
        l.1,
        ["test.pure", "test.pure", "test.yield", "test.pure_region"]
    );
    assert_eq!(ctx.block_op_vec(entry), [n, u1, u2, ret]);
    assert_eq!(ctx.operand_vec(u2), [nv, nv]);
    assert_eq!(verify(&ctx, m), Ok(()));
}

#[test]
fn uses_replaced_where_a_predicate_holds() {
    let mut ctx = td::ctx();
    let (_, entry, a) = setup(&mut ctx);
    let c = constant(&mut ctx, entry, 1, 3);
    let u1 = op(&mut ctx, entry, "test.effect", &[a], 0, 4);
    let u2 = op(&mut ctx, entry, "test.pure", &[a], 1, 5);
    let mut rec = RecordingListener::default();
    let mut rw = Rewriter::with_listener(&mut ctx, &mut rec);
    rw.replace_uses_where(a, c, |ctx, u| ctx.name(u.op) == "test.pure");
    rw.replace_all_uses_with(a, a);
    assert_eq!(rec.events, [Modified(u2)]);
    assert_eq!(ctx.operand(u1, 0), a);
    assert_eq!(ctx.operand(u2, 0), c);
}

#[test]
fn clone_reports_every_nested_op_and_block() {
    let mut ctx = td::ctx();
    let (m, entry, a) = setup(&mut ctx);
    let (r, rb) = region_op(&mut ctx, entry, "test.region", &[], 1, 3);
    let x = ctx.block_arg(rb, 0);
    op(&mut ctx, rb, "test.effect", &[x, a], 0, 4);
    op(&mut ctx, rb, "test.yield", &[], 0, 5);
    let ret = op(&mut ctx, entry, "test.ret", &[], 0, 6);
    let mut rec = RecordingListener::default();
    let mut map = IRMapping::new();
    let n =
        Rewriter::with_listener(&mut ctx, &mut rec).clone_op(r, InsertPoint::Before(ret), &mut map);
    let nb = ctx.entry_block(ctx.region(n, 0)).unwrap();
    let inner = ctx.block_op_vec(nb);
    assert_eq!(
        rec.events,
        [
            Inserted(n),
            BlockInserted(nb),
            Inserted(inner[0]),
            Inserted(inner[1])
        ]
    );
    assert_eq!(ctx.operand_vec(inner[0]), [ctx.block_arg(nb, 0), a]);
    assert_eq!(verify(&ctx, m), Ok(()));
}

#[test]
fn blocks_and_regions_move_with_notifications() {
    let mut ctx = td::ctx();
    let (m, entry, a) = setup(&mut ctx);
    // test.region { ^0: yield } and a detached region of two blocks to inline before ^0.
    let (r, rb) = region_op(&mut ctx, entry, "test.region", &[], 0, 3);
    op(&mut ctx, rb, "test.yield", &[], 0, 4);
    let ret = op(&mut ctx, entry, "test.ret", &[], 0, 5);
    let src = ctx.create_region();
    let i32 = ctx.i32_type();
    let l = td::loc(&mut ctx, 6);
    let mut rec = RecordingListener::default();
    let mut rw = Rewriter::with_listener(&mut ctx, &mut rec);
    let b1 = rw.create_block(src, &[]);
    let b2 = rw.create_block(src, &[(i32, l)]);
    let region = rw.ctx().region(r, 0);
    rw.inline_region_before(src, region, Some(rb));
    assert_eq!(rw.ctx().region_blocks(region), [b1, b2, rb]);
    assert!(rw.ctx().region_blocks(src).is_empty());
    assert_eq!(rw.ctx().block_parent_region(b1), Some(region));
    // Inline a block with one argument before `ret`, the argument replaced by %a.
    let arg = rw.ctx().block_arg(b2, 0);
    let s = rw.intern(|ctx| state(ctx, "test.effect", &[arg], 0));
    let e = rw.create(InsertPoint::AtEnd(b2), s);
    rw.inline_block_before(b2, ret, &[a]);
    // Merge: a block's ops moved to the end of another.
    let s = rw.intern(|ctx| state(ctx, "test.effect", &[], 0));
    let e2 = rw.create(InsertPoint::AtEnd(b1), s);
    let y = rw.ctx().first_op(rb).unwrap();
    rw.erase_op(y);
    rw.merge_blocks(b1, rb, &[]);
    let y2 = rw.create(InsertPoint::AtEnd(rb), OperationState::new("test.yield", l));
    assert_eq!(
        rec.events,
        [
            BlockInserted(b1),
            BlockInserted(b2),
            BlockInserted(b1),
            BlockInserted(b2),
            Inserted(e),
            Modified(e),
            Inserted(e),
            Inserted(e2),
            Erased(y),
            Inserted(e2),
            Inserted(y2),
        ]
    );
    assert_eq!(ctx.region_blocks(region), [rb]);
    assert_eq!(ctx.block_op_vec(rb), [e2, y2]);
    assert_eq!(ctx.prev_op(ret), Some(e));
    assert_eq!(ctx.operand(e, 0), a);
    assert_eq!(verify(&ctx, m), Ok(()));
}

#[test]
fn a_rewriter_without_listener_still_rewrites() {
    let mut ctx = td::ctx();
    let (_, entry, a) = setup(&mut ctx);
    let p = op(&mut ctx, entry, "test.pure", &[a], 1, 3);
    let pv = ctx.result(p, 0);
    let u = op(&mut ctx, entry, "test.effect", &[pv], 0, 4);
    let mut rw = Rewriter::new(&mut ctx);
    rw.replace_op(p, &[a]);
    let c = rw.create_before(u, OperationState::new("test.effect", rw.ctx().loc(u)));
    rw.move_op_after(c, u);
    assert!(!ctx.is_alive(p));
    assert_eq!(ctx.block_op_vec(entry), [u, c]);
    assert_eq!(ctx.operand(u, 0), a);
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "Rewriter::intern created IR")]
fn interning_may_not_create_ir() {
    let mut ctx = td::ctx();
    let mut rw = Rewriter::new(&mut ctx);
    rw.intern(|ctx| ctx.create_region());
}
