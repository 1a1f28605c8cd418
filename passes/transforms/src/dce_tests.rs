use super::*;
use crate::test_dialect::{names, setup, B};
use qd_ir::{OperationState, Value};

fn dce(ctx: &mut Context, op: OpId) -> bool {
    DcePass::default().run(ctx, op).unwrap().changed
}

#[test]
fn dead_chains_go_in_one_run() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let x = b.val("t.effect", &[]);
    let c = b.konst(1);
    let s = b.val("t.add", &[x, c]);
    let n = b.val("t.neg", &[s]);
    b.val("t.sub", &[n, n]);
    let kept = b.val("t.neg", &[x]);
    b.op("t.effect", &[kept], &[]);
    let mut pass = DcePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(names(&ctx, body), ["t.effect", "t.neg", "t.effect"]);
    assert_eq!(pass.statistics()[0].value, 4);
    assert!(!pass.run(&mut ctx, m).unwrap().changed);
}

#[test]
fn effects_and_unregistered_ops_stay_unused_reads_go() {
    let (mut ctx, m, body) = setup();
    ctx.allow_unregistered = true;
    let mut b = B::new(&mut ctx, body);
    let x = b.val("t.effect", &[]);
    b.val("t.read", &[x]);
    b.val("test.pure", &[x]);
    assert!(dce(&mut ctx, m));
    assert_eq!(names(&ctx, body), ["t.effect", "test.pure"]);
}

#[test]
fn uses_in_nested_regions_keep_values_alive() {
    let (mut ctx, m, body) = setup();
    let mut b = B::new(&mut ctx, body);
    let c = b.konst(3);
    let dead_in_region = b.konst(4);
    let (_, inner) = b.region_op("t.scope", &[]);
    let mut ib = B::new(&mut ctx, inner);
    ib.op("t.effect", &[c], &[]);
    ib.val("t.neg", &[dead_in_region]);
    assert!(dce(&mut ctx, m));
    assert_eq!(names(&ctx, body), ["t.const", "t.scope"]);
    assert_eq!(names(&ctx, inner), ["t.effect"]);
}

/// `t.func` with blocks: bb0 branches to bb1; bb2 and bb3 branch to each other (unreachable)
/// and use each other's values.
fn cfg_with_unreachable_cycle(ctx: &mut Context, body: BlockId) -> (RegionId, Vec<BlockId>, Value) {
    let i32t = ctx.i32_type();
    let loc = ctx.unknown_loc();
    let mut b = B::new(ctx, body);
    let (_, r) = b.symbol("t.func", "f", None);
    let bb: Vec<BlockId> = (0..4)
        .map(|i| {
            let args: Vec<_> = if i >= 2 { vec![(i32t, loc)] } else { vec![] };
            let blk = ctx.create_block(&args);
            ctx.append_block(r, blk);
            blk
        })
        .collect();
    let mut b0 = B::new(ctx, bb[0]);
    let live = b0.konst(1);
    b0.push(OperationState::new("t.br", loc).successor(bb[1]));
    let mut b1 = B::new(ctx, bb[1]);
    b1.op("t.effect", &[live], &[]);
    b1.op("t.return", &[], &[]);
    let a2 = ctx.block_arg(bb[2], 0);
    let a3 = ctx.block_arg(bb[3], 0);
    let mut b2 = B::new(ctx, bb[2]);
    let v2 = b2.val("t.effect", &[a2]);
    b2.push(
        OperationState::new("t.br", loc)
            .operands(&[v2])
            .successor(bb[3]),
    );
    let mut b3 = B::new(ctx, bb[3]);
    let v3 = b3.val("t.neg", &[a3]);
    b3.push(
        OperationState::new("t.br", loc)
            .operands(&[v3])
            .successor(bb[2]),
    );
    (r, bb, live)
}

#[test]
fn unreachable_blocks_are_erased() {
    let (mut ctx, m, body) = setup();
    let (r, bb, live) = cfg_with_unreachable_cycle(&mut ctx, body);
    let mut pass = DcePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(ctx.region_blocks(r), &bb[..2]);
    assert!(ctx.has_uses(live));
    assert_eq!(pass.statistics()[1].value, 2);
    assert!(!pass.run(&mut ctx, m).unwrap().changed);
}

/// CFG regions are found at any depth: after ops without regions, in a registered region op,
/// and through an unregistered one (whose own regions are left alone).
#[test]
fn unreachable_blocks_are_erased_at_any_depth() {
    let (mut ctx, m, body) = setup();
    ctx.allow_unregistered = true;
    let mut b = B::new(&mut ctx, body);
    b.op("t.effect", &[], &[]);
    let (_, scope) = b.region_op("t.scope", &[]);
    let (_, wrapper) = b.region_op("test.wrapper", &[]);
    let (r1, bb1, _) = cfg_with_unreachable_cycle(&mut ctx, scope);
    let (r2, bb2, _) = cfg_with_unreachable_cycle(&mut ctx, wrapper);
    let mut pass = DcePass::default();
    assert!(pass.run(&mut ctx, m).unwrap().changed);
    assert_eq!(ctx.region_blocks(r1), &bb1[..2]);
    assert_eq!(ctx.region_blocks(r2), &bb2[..2]);
    assert_eq!(pass.statistics()[1].value, 4);
    assert_eq!(names(&ctx, body), ["t.effect", "t.scope", "test.wrapper"]);
}

#[test]
fn graph_and_unregistered_regions_keep_their_blocks() {
    let (mut ctx, m, body) = setup();
    ctx.allow_unregistered = true;
    let loc = ctx.unknown_loc();
    let r = ctx.create_region();
    let b0 = ctx.create_block(&[]);
    let b1 = ctx.create_block(&[]);
    ctx.append_block(r, b0);
    ctx.append_block(r, b1);
    let op = ctx.create_op(OperationState::new("test.graph", loc).region(r));
    ctx.append_op(body, op);
    let mut b = B::new(&mut ctx, b1);
    b.op("t.effect", &[], &[]);
    assert!(!dce(&mut ctx, m));
    assert_eq!(ctx.region_blocks(r).len(), 2);
}

#[test]
fn invalid_uses_from_reachable_code_block_erasure() {
    let (mut ctx, m, body) = setup();
    let (r, bb, _) = cfg_with_unreachable_cycle(&mut ctx, body);
    // Reachable bb1 uses a value of unreachable bb2 (invalid IR): keep the blocks.
    let v2 = ctx.result(ctx.first_op(bb[2]).unwrap(), 0);
    let mut b1 = B::new(&mut ctx, bb[1]);
    let user = b1.op("t.effect", &[v2], &[]);
    let ret = ctx.prev_op(user).unwrap();
    ctx.detach_op(ret);
    ctx.append_op(bb[1], ret);
    dce(&mut ctx, m);
    assert_eq!(ctx.region_blocks(r).len(), 4);
}

/// `has_work`, which computes from the nested ops whether each region op is harmless, says
/// there is work exactly when some nested op is trivially dead (as `is_trivially_dead`, which
/// walks each region op's body, decides), over random nests of scopes (recursive effects) and
/// isolated ops, with pure, read-only, effectful and unregistered ops, used or not. Both ways
/// agree: the walk down the nest (`scan`, for nested anchors) and the pass over the context's
/// ops (for a root anchor), which must ignore dead ops outside the anchor (detached here).
#[test]
fn has_work_agrees_with_is_trivially_dead_in_random_nests() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let (mut with_work, mut without) = (0, 0);
    // Reparsed nests without and with work.
    let mut reparsed = [0; 2];
    for _ in 0..400 {
        let (mut ctx, m, body) = setup();
        ctx.allow_unregistered = true;
        let mut blocks = vec![body];
        let mut vals: Vec<Value> = Vec::new();
        for _ in 0..1 + next(12) {
            let block = blocks[next(blocks.len() as u64) as usize];
            let mut b = B::new(&mut ctx, block);
            let operand: Vec<Value> = vals.last().copied().into_iter().collect();
            match next(7) {
                0 | 1 => {
                    let name = ["t.scope", "t.isolated"][next(2) as usize];
                    let (_, inner) = b.region_op(name, &[]);
                    blocks.push(inner);
                }
                2 => {
                    b.op("t.effect", &operand, &[]);
                }
                3 => vals.push(b.val("t.read", &[])),
                4 => vals.push(b.val("test.opaque", &[])),
                5 => vals.push(b.konst(1)),
                _ => vals.push(b.val("t.neg", &operand)),
            }
        }
        if next(2) == 0 {
            // Dead ops outside the anchor: a loose one, and one in a detached scope.
            let mut b = B::new(&mut ctx, body);
            b.konst(7);
            let loose = ctx.last_op(body).unwrap();
            ctx.detach_op(loose);
            let mut b = B::new(&mut ctx, body);
            let (scope, inner) = b.region_op("t.scope", &[]);
            B::new(&mut ctx, inner).val("t.neg", &[]);
            ctx.detach_op(scope);
        }
        let expected = ctx
            .walk_pre_order(m)
            .into_iter()
            .any(|o| o != m && is_trivially_dead(&ctx, o));
        assert!(ctx.parent_block(m).is_none());
        assert_eq!(has_work(&ctx, m), expected);
        assert_eq!(scan(&ctx, m).is_err(), expected);
        // Parsed, each region op comes after its body in index order (built here, before it).
        // Nests that use a value across an isolated op do not parse: those are skipped.
        let text = qd_ir::text::print_op(&ctx, m, &qd_ir::text::PrintOptions::default());
        let (mut parsed, _, _) = setup();
        parsed.allow_unregistered = true;
        if let Some(pm) = qd_ir::text::parse_source(&mut parsed, &text, "t.mlir") {
            let parsed_expected = parsed
                .walk_pre_order(pm)
                .into_iter()
                .any(|o| o != pm && is_trivially_dead(&parsed, o));
            assert_eq!(has_work(&parsed, pm), parsed_expected, "{text}");
            assert_eq!(scan(&parsed, pm).is_err(), parsed_expected);
            reparsed[parsed_expected as usize] += 1;
        }
        if expected {
            with_work += 1;
        } else {
            without += 1;
        }
    }
    assert!(with_work > 20 && without > 20, "{with_work} / {without}");
    assert!(reparsed[0] > 20 && reparsed[1] > 20, "{reparsed:?}");
}
