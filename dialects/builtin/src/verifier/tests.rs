use super::*;
use crate::builder::OperationState;
use crate::diagnostics::Severity;
use crate::entity::{BlockId, Value};
use crate::verifier::test_dialect::{self as td, call, constant, func, op, region_op};

/// (message, line) of each error, and of each note as ("note: " + message, line).
fn errors(ctx: &Context, root: OpId) -> Vec<(String, u32)> {
    let line = |d: &Diagnostic| ctx.file_line_col(d.loc).map_or(0, |(_, l, _)| l);
    match verify(ctx, root) {
        Ok(()) => Vec::new(),
        Err(ds) => ds
            .iter()
            .flat_map(|d| {
                assert_eq!(d.severity, Severity::Error);
                std::iter::once((d.message.clone(), line(d))).chain(
                    d.notes
                        .iter()
                        .map(|n| (format!("note: {}", n.message), line(n))),
                )
            })
            .collect(),
    }
}

fn e(msg: &str, line: u32) -> (String, u32) {
    (msg.to_string(), line)
}

/// module { test.func @f(%arg) { ... } } with the body left open; returns (module, f, entry).
fn module_with_func(ctx: &mut Context) -> (OpId, OpId, BlockId) {
    let (m, body) = td::module(ctx);
    let (f, entry) = func(ctx, body, "f", 1, 2);
    (m, f, entry)
}

fn add_block(ctx: &mut Context, f: OpId) -> BlockId {
    let b = ctx.create_block(&[]);
    ctx.append_block(ctx.region(f, 0), b);
    b
}

fn br(ctx: &mut Context, from: BlockId, to: &[BlockId], line: u32) -> OpId {
    let l = td::loc(ctx, line);
    let mut st = OperationState::new("test.br", l);
    st.successors = to.to_vec();
    let o = ctx.create_op(st);
    ctx.append_op(from, o);
    o
}

#[test]
fn valid_ir_passes() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let c = constant(&mut ctx, entry, 1, 3);
    let s = op(&mut ctx, entry, "test.add", &[a, c], 1, 4);
    let sv = ctx.result(s, 0);
    let (_, inner) = region_op(&mut ctx, entry, "test.region", &[], 0, 5);
    op(&mut ctx, inner, "test.pure", &[sv, a], 0, 6);
    op(&mut ctx, inner, "test.yield", &[], 0, 7);
    call(&mut ctx, entry, "f", 8);
    op(&mut ctx, entry, "test.ret", &[sv], 0, 9);
    assert_eq!(errors(&ctx, m), vec![]);
    assert!(verify_and_emit(&mut ctx, m));
    assert!(ctx.diagnostics().is_empty());
}

#[test]
fn unregistered_ops() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    op(&mut ctx, entry, "test.unknown", &[], 0, 3);
    op(&mut ctx, entry, "other.op", &[], 0, 4);
    op(&mut ctx, entry, "test.ret", &[], 0, 5);
    let unknown = "unregistered operation 'test.unknown' found in dialect ('test') that does not \
                   allow unknown operations";
    let other = "'other.op' op created with unregistered dialect. If this is intended, please \
                 call allowUnregisteredDialects() on the MLIRContext, or use \
                 -allow-unregistered-dialect with the MLIR opt tool used";
    assert_eq!(errors(&ctx, m), vec![e(unknown, 3), e(other, 4)]);
    ctx.allow_unregistered = true;
    assert_eq!(errors(&ctx, m), vec![e(unknown, 3)]);
    assert!(!verify_and_emit(&mut ctx, m));
    assert_eq!(ctx.diagnostics().len(), 1);
}

#[test]
fn op_hook_runs_after_structure() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let bad = op(&mut ctx, entry, "test.checked", &[], 0, 3);
    let u = ctx.unit_attr();
    ctx.set_attr(bad, "bad", u);
    let ret = op(&mut ctx, entry, "test.ret", &[], 0, 4);
    assert_eq!(errors(&ctx, m), vec![e("'test.checked' op is bad", 3)]);

    // With a broken region (a block without terminator), the hook is not run.
    let (bad2, inner) = region_op(&mut ctx, entry, "test.checked", &[], 0, 5);
    ctx.set_attr(bad2, "bad", u);
    ctx.move_op_before(bad2, ret);
    op(&mut ctx, inner, "test.pure", &[], 0, 6);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("'test.checked' op is bad", 3),
            e("block with no terminator, has 'test.pure'", 6)
        ]
    );
}

#[test]
fn hook_error_comes_first_for_its_op() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let (bad, inner) = region_op(&mut ctx, entry, "test.checked", &[], 0, 3);
    let u = ctx.unit_attr();
    ctx.set_attr(bad, "bad", u);
    op(&mut ctx, inner, "test.unknown", &[], 0, 4);
    op(&mut ctx, inner, "test.yield", &[], 0, 5);
    op(&mut ctx, entry, "test.ret", &[], 0, 6);
    let unknown = "unregistered operation 'test.unknown' found in dialect ('test') that does not \
                   allow unknown operations";
    assert_eq!(
        errors(&ctx, m),
        vec![e("'test.checked' op is bad", 3), e(unknown, 4)]
    );
}

#[test]
fn terminators() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    op(&mut ctx, entry, "test.ret", &[], 0, 3);
    op(&mut ctx, entry, "test.pure", &[], 0, 4);
    // As MLIR (which checks a block's terminator on leaving it, and stops at the first error):
    // a block whose ops have errors does not also get `block with no terminator`.
    assert_eq!(
        errors(&ctx, m),
        vec![e(
            "'test.ret' op must be the last operation in the parent block",
            3
        )]
    );
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let (bad, inner) = region_op(&mut ctx, entry, "test.checked", &[], 0, 3);
    op(&mut ctx, inner, "test.yield", &[], 0, 4);
    op(&mut ctx, entry, "test.pure", &[], 0, 5);
    assert_eq!(
        errors(&ctx, m),
        vec![e("block with no terminator, has 'test.pure'", 5)]
    );
    let u = ctx.unit_attr();
    ctx.set_attr(bad, "bad", u);
    assert_eq!(errors(&ctx, m), vec![e("'test.checked' op is bad", 3)]);
}

#[test]
fn root_block_is_not_checked() {
    let mut ctx = td::ctx();
    let (m, f, entry) = module_with_func(&mut ctx);
    let last = op(&mut ctx, entry, "test.pure", &[], 0, 3);
    assert_eq!(errors(&ctx, last), vec![]);
    assert_eq!(
        errors(&ctx, f),
        vec![e("block with no terminator, has 'test.pure'", 3)]
    );
    assert_eq!(
        errors(&ctx, m),
        vec![e("block with no terminator, has 'test.pure'", 3)]
    );
}

#[test]
fn unregistered_last_op_may_terminate() {
    let mut ctx = td::ctx();
    ctx.allow_unregistered = true;
    let (m, _, entry) = module_with_func(&mut ctx);
    op(&mut ctx, entry, "x.return", &[], 0, 3);
    assert_eq!(errors(&ctx, m), vec![]);
}

#[test]
fn empty_blocks() {
    let mut ctx = td::ctx();
    let (m, f, _) = module_with_func(&mut ctx);
    assert_eq!(
        errors(&ctx, m),
        vec![e("empty block: expect at least a terminator", 2)]
    );
    ctx.erase_op(f);
    let body = crate::builtin::module_body(&ctx, m);
    // SINGLE_BLOCK reports an empty block itself, once.
    region_op(&mut ctx, body, "test.single", &[], 0, 3);
    // NO_TERMINATOR regions may be empty.
    region_op(&mut ctx, body, "test.graph", &[], 0, 4);
    assert_eq!(
        errors(&ctx, m),
        vec![e("'test.single' op expects a non-empty block", 3)]
    );
}

#[test]
fn block_counts() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (single, b0) = region_op(&mut ctx, body, "test.single", &[], 0, 2);
    op(&mut ctx, b0, "test.yield", &[], 0, 3);
    let b1 = add_block(&mut ctx, single);
    op(&mut ctx, b1, "test.yield", &[], 0, 4);
    let (g, gb0) = region_op(&mut ctx, body, "test.graph2", &[], 0, 5);
    op(&mut ctx, gb0, "test.yield", &[], 0, 6);
    let gb1 = add_block(&mut ctx, g);
    op(&mut ctx, gb1, "test.yield", &[], 0, 7);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e(
                "'test.single' op expects region #0 to have 0 or 1 blocks",
                2
            ),
            e(
                "'test.graph2' op expects graph region #0 to have 0 or 1 blocks",
                5
            ),
        ]
    );
}

#[test]
fn unregistered_regions() {
    let mut ctx = td::ctx();
    ctx.allow_unregistered = true;
    let (m, body) = td::module(&mut ctx);
    // A lone block of an unregistered op needs no terminator.
    let (u, ub) = region_op(&mut ctx, body, "x.region", &[], 0, 2);
    op(&mut ctx, ub, "test.pure", &[], 0, 3);
    assert_eq!(errors(&ctx, m), vec![]);
    // With two blocks it does, and an empty block is an error.
    add_block(&mut ctx, u);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("empty block: expect at least a terminator", 2),
            e("block with no terminator, has 'test.pure'", 3),
        ]
    );
}

#[test]
fn successors() {
    let mut ctx = td::ctx();
    let (m, f, entry) = module_with_func(&mut ctx);
    let body = crate::builtin::module_body(&ctx, m);
    let (_, g_entry) = func(&mut ctx, body, "g", 0, 3);
    op(&mut ctx, g_entry, "test.ret", &[], 0, 4);
    let b1 = add_block(&mut ctx, f);
    br(&mut ctx, entry, &[b1, g_entry], 5);
    // An op with successors in the middle of a block.
    ctx.allow_unregistered = true;
    let l = td::loc(&mut ctx, 6);
    let mut st = OperationState::new("x.br", l);
    st.successors = vec![b1];
    let mid = ctx.create_op(st);
    ctx.append_op(b1, mid);
    op(&mut ctx, b1, "test.ret", &[], 0, 7);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("'test.br' op branching to block of a different region", 5),
            e(
                "operation with block successors must terminate its parent block",
                6
            ),
        ]
    );
}

#[test]
fn entry_block_has_no_predecessors() {
    let mut ctx = td::ctx();
    let (m, f, entry) = module_with_func(&mut ctx);
    let b1 = add_block(&mut ctx, f);
    br(&mut ctx, entry, &[b1], 3);
    br(&mut ctx, b1, &[entry], 4);
    assert_eq!(
        errors(&ctx, m),
        vec![e("entry block of region may not have predecessors", 2)]
    );
}

#[test]
fn use_before_def_in_block() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let user = op(&mut ctx, entry, "test.add", &[a, a], 1, 3);
    let def = op(&mut ctx, entry, "test.pure", &[], 1, 4);
    let dv = ctx.result(def, 0);
    ctx.set_operand(user, 1, dv);
    // Self-use.
    let selfish = op(&mut ctx, entry, "test.add", &[a, a], 1, 5);
    let sv = ctx.result(selfish, 0);
    ctx.set_operand(selfish, 0, sv);
    op(&mut ctx, entry, "test.ret", &[], 0, 6);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #1 does not dominate this use", 3),
            e("note: operand defined here (op in the same block)", 4),
            e("operand #0 does not dominate this use", 5),
            e("note: operand defined here (op in the same block)", 5),
        ]
    );
}

#[test]
fn dominance_across_blocks() {
    let mut ctx = td::ctx();
    let (m, f, entry) = module_with_func(&mut ctx);
    let i32 = ctx.i32_type();
    let b: Vec<BlockId> = (0..3).map(|_| add_block(&mut ctx, f)).collect();
    let l = td::loc(&mut ctx, 10);
    let b0arg = ctx.add_block_arg(b[0], i32, l);
    br(&mut ctx, entry, &[b[0], b[1]], 3);
    let x = op(&mut ctx, b[0], "test.pure", &[], 1, 4);
    let xv = ctx.result(x, 0);
    br(&mut ctx, b[0], &[b[2]], 5);
    br(&mut ctx, b[1], &[b[2]], 6);
    op(&mut ctx, b[2], "test.pure", &[xv, b0arg], 0, 7);
    op(&mut ctx, b[2], "test.ret", &[], 0, 8);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #0 does not dominate this use", 7),
            e("note: operand defined here (op in the same region)", 4),
            e("operand #1 does not dominate this use", 7),
            e(
                "note: operand defined as a block argument (block #1 in the same region)",
                2
            ),
        ]
    );
}

#[test]
fn unreachable_blocks_skip_dominance() {
    let mut ctx = td::ctx();
    let (m, f, entry) = module_with_func(&mut ctx);
    op(&mut ctx, entry, "test.ret", &[], 0, 3);
    let dead = add_block(&mut ctx, f);
    let user = op(&mut ctx, dead, "test.pure", &[], 0, 4);
    let def = op(&mut ctx, dead, "test.pure", &[], 1, 5);
    let dv = ctx.result(def, 0);
    ctx.append_operand(user, dv);
    op(&mut ctx, dead, "test.ret", &[], 0, 6);
    assert_eq!(errors(&ctx, m), vec![]);
}

#[test]
fn nested_region_dominance() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let (_, r1) = region_op(&mut ctx, entry, "test.region", &[], 0, 3);
    let in_r1 = op(&mut ctx, r1, "test.pure", &[], 1, 4);
    let in_r1_v = ctx.result(in_r1, 0);
    let parent_user = op(&mut ctx, r1, "test.pure", &[], 0, 5);
    op(&mut ctx, r1, "test.yield", &[], 0, 6);
    let later = op(&mut ctx, entry, "test.pure", &[], 1, 7);
    let later_v = ctx.result(later, 0);
    ctx.append_operand(parent_user, later_v);
    // Used after its region: a use in the parent region.
    op(&mut ctx, entry, "test.pure", &[in_r1_v], 0, 8);
    // Used in a sibling region.
    let (_, r2) = region_op(&mut ctx, entry, "test.region", &[], 0, 9);
    op(&mut ctx, r2, "test.pure", &[in_r1_v], 0, 10);
    op(&mut ctx, r2, "test.yield", &[], 0, 11);
    op(&mut ctx, entry, "test.ret", &[], 0, 12);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #0 does not dominate this use", 5),
            e("note: operand defined here (op in a parent region)", 7),
            e("operand #0 does not dominate this use", 8),
            e("note: operand defined here (op in a child region)", 4),
            e("operand #0 does not dominate this use", 10),
            e(
                "note: operand defined here (op is neither in a parent nor in a child region)",
                4
            ),
        ]
    );
}

#[test]
fn own_result_inside_own_region() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let i32 = ctx.i32_type();
    let (r, rb) = ctx.create_region_with_block(&[]);
    let l = td::loc(&mut ctx, 3);
    let o = ctx.create_op(
        OperationState::new("test.region", l)
            .results(&[i32])
            .region(r),
    );
    ctx.append_op(entry, o);
    let ov = ctx.result(o, 0);
    op(&mut ctx, rb, "test.pure", &[ov], 0, 4);
    op(&mut ctx, rb, "test.yield", &[], 0, 5);
    op(&mut ctx, entry, "test.ret", &[], 0, 6);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #0 does not dominate this use", 4),
            e("note: operand defined here (op in a parent region)", 3),
        ]
    );
}

#[test]
fn isolated_from_above() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    op(&mut ctx, entry, "test.ret", &[], 0, 3);
    let body = crate::builtin::module_body(&ctx, m);
    let (_, g_entry) = func(&mut ctx, body, "g", 0, 4);
    // Through a nested region too: the innermost isolated op is blamed.
    let (_, inner) = region_op(&mut ctx, g_entry, "test.region", &[], 0, 5);
    op(&mut ctx, inner, "test.pure", &[a], 0, 6);
    op(&mut ctx, inner, "test.yield", &[], 0, 7);
    op(&mut ctx, g_entry, "test.ret", &[a], 0, 8);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("'test.pure' op using value defined outside the region", 6),
            e("note: required by region isolation constraints", 4),
            e("'test.ret' op using value defined outside the region", 8),
            e("note: required by region isolation constraints", 4),
        ]
    );
}

#[test]
fn isolated_op_inner_scope_error_is_dominance() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let (_, r1) = region_op(&mut ctx, entry, "test.region", &[], 0, 3);
    let d = op(&mut ctx, r1, "test.pure", &[], 1, 4);
    let dv = ctx.result(d, 0);
    op(&mut ctx, r1, "test.yield", &[], 0, 5);
    let (_, r2) = region_op(&mut ctx, entry, "test.region", &[], 0, 6);
    op(&mut ctx, r2, "test.pure", &[dv], 0, 7);
    op(&mut ctx, r2, "test.yield", &[], 0, 8);
    op(&mut ctx, entry, "test.ret", &[], 0, 9);
    // test.func is isolated, but the value is defined inside it: a scope error, not isolation.
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #0 does not dominate this use", 7),
            e(
                "note: operand defined here (op is neither in a parent nor in a child region)",
                4
            ),
        ]
    );
}

#[test]
fn graph_regions_need_no_dominance() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let (_, g) = region_op(&mut ctx, entry, "test.graph", &[], 0, 3);
    let user = op(&mut ctx, g, "test.pure", &[], 0, 4);
    let def = op(&mut ctx, g, "test.pure", &[], 1, 5);
    let dv = ctx.result(def, 0);
    ctx.append_operand(user, dv);
    ctx.append_operand(def, dv);
    ctx.allow_unregistered = true;
    let (_, u) = region_op(&mut ctx, entry, "x.region", &[], 0, 6);
    let user2 = op(&mut ctx, u, "test.pure", &[], 0, 7);
    let def2 = op(&mut ctx, u, "test.pure", &[], 1, 8);
    let d2v = ctx.result(def2, 0);
    ctx.append_operand(user2, d2v);
    // ...but scope still matters.
    op(&mut ctx, entry, "test.ret", &[dv], 0, 9);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #0 does not dominate this use", 9),
            e("note: operand defined here (op in a child region)", 5),
        ]
    );
}

#[test]
fn symbol_uses_resolve() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    call(&mut ctx, entry, "f", 3);
    call(&mut ctx, entry, "missing", 4);
    ctx.allow_unregistered = true;
    let x = op(&mut ctx, entry, "x.call", &[], 0, 5);
    let r = ctx.symbol_ref_attr("anything");
    ctx.set_prop(x, "callee", r);
    // References inside arrays count.
    let y = op(&mut ctx, entry, "test.pure", &[], 0, 6);
    let (f_ref, q_ref) = (ctx.symbol_ref_attr("f"), ctx.symbol_ref_attr("q q"));
    let arr = ctx.array_attr(vec![f_ref, q_ref]);
    ctx.set_attr(y, "refs", arr);
    op(&mut ctx, entry, "test.ret", &[], 0, 7);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e(
                "'test.call' op '@missing' does not reference a valid symbol",
                4
            ),
            e(
                "'test.pure' op '@\"q q\"' does not reference a valid symbol",
                6
            ),
        ]
    );
}

#[test]
fn symbol_users_check_their_own_uses() {
    // A SYMBOL_USER op's symbol-use hook reports a bad reference in its own words (MLIR's
    // SymbolUserOpInterface); the generic check must not add a second error.
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let x = op(&mut ctx, entry, "test.own_call", &[], 0, 3);
    let r = ctx.symbol_ref_attr("missing");
    ctx.set_prop(x, "callee", r);
    let y = op(&mut ctx, entry, "test.own_call", &[], 0, 4);
    let f = ctx.symbol_ref_attr("f");
    ctx.set_prop(y, "callee", f);
    op(&mut ctx, entry, "test.ret", &[], 0, 5);
    assert_eq!(
        errors(&ctx, m),
        vec![e("'test.own_call' op has no function to call", 3)]
    );
}

#[test]
fn symbol_use_hooks_run_only_after_verify_passed() {
    // As MLIR's verifySymbolUses, which runs on verified IR only: one error per op.
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let x = op(&mut ctx, entry, "test.own_call", &[], 0, 3);
    let r = ctx.symbol_ref_attr("missing");
    ctx.set_prop(x, "callee", r);
    let u = ctx.unit_attr();
    ctx.set_attr(x, "bad", u);
    op(&mut ctx, entry, "test.ret", &[], 0, 4);
    assert_eq!(errors(&ctx, m), vec![e("'test.own_call' op is bad", 3)]);
}

#[test]
fn symbol_use_hooks_without_the_trait_keep_the_generic_check() {
    // Unresolved: the generic message; resolved to the wrong kind of op: the hook's.
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (_, entry) = func(&mut ctx, body, "f", 0, 2);
    let other = op(&mut ctx, body, "test.effect", &[], 0, 3);
    let n = ctx.string_attr("tbl");
    ctx.set_attr(other, "sym_name", n);
    for (line, callee) in [(4, "missing"), (5, "tbl"), (6, "f")] {
        let x = op(&mut ctx, entry, "test.field_use", &[], 0, line);
        let r = ctx.symbol_ref_attr(callee);
        ctx.set_prop(x, "callee", r);
    }
    op(&mut ctx, entry, "test.ret", &[], 0, 7);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e(
                "'test.field_use' op '@missing' does not reference a valid symbol",
                4
            ),
            e("'test.field_use' op expects a test.func", 5),
        ]
    );
}

#[test]
fn symbol_uses_outside_tables_are_not_checked() {
    let mut ctx = td::ctx();
    let (r, b) = ctx.create_region_with_block(&[]);
    let l = td::loc(&mut ctx, 1);
    let top = ctx.create_op(OperationState::new("test.graph", l).region(r));
    call(&mut ctx, b, "nowhere", 2);
    assert_eq!(errors(&ctx, top), vec![]);
}

#[test]
fn symbol_redefinition() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    for line in [2, 4, 6] {
        let (_, entry) = func(&mut ctx, body, "a", 0, line);
        op(&mut ctx, entry, "test.ret", &[], 0, line + 1);
    }
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("redefinition of symbol named 'a'", 4),
            e("note: see existing symbol definition here", 2),
            e("redefinition of symbol named 'a'", 6),
            e("note: see existing symbol definition here", 2),
        ]
    );
}

#[test]
fn symbol_table_structure() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (t, tb) = region_op(&mut ctx, body, "test.table", &[], 0, 2);
    op(&mut ctx, tb, "test.ret", &[], 0, 3);
    let tb2 = add_block(&mut ctx, t);
    op(&mut ctx, tb2, "test.ret", &[], 0, 4);
    op(&mut ctx, body, "test.table", &[], 0, 5);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e(
                "'test.table' op Operations with a 'SymbolTable' must have exactly one block",
                2
            ),
            e(
                "'test.table' op Operations with a 'SymbolTable' must have exactly one region",
                5
            ),
        ]
    );
}

#[test]
fn errors_in_pre_order_across_functions() {
    let mut ctx = td::ctx();
    let (m, body) = td::module(&mut ctx);
    let (_, f) = func(&mut ctx, body, "f", 0, 2);
    op(&mut ctx, f, "test.pure", &[], 0, 3);
    let (_, g) = func(&mut ctx, body, "g", 0, 4);
    call(&mut ctx, g, "zzz", 5);
    op(&mut ctx, g, "test.ret", &[], 0, 6);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("block with no terminator, has 'test.pure'", 3),
            e("'test.call' op '@zzz' does not reference a valid symbol", 5),
        ]
    );
}

#[test]
fn malformed_ir_does_not_panic() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let i32 = ctx.i32_type();
    let l = td::loc(&mut ctx, 20);
    // Operands from a detached op and from a block outside any region.
    let detached = ctx.create_op(OperationState::new("test.pure", l).results(&[i32]));
    let dv = ctx.result(detached, 0);
    let loose = ctx.create_block(&[(i32, l)]);
    let lv: Value = ctx.block_arg(loose, 0);
    op(&mut ctx, entry, "test.pure", &[dv, lv], 0, 3);
    // A successor block that was erased.
    let f = ctx.parent_op(ctx.first_op(entry).unwrap()).unwrap();
    let gone = add_block(&mut ctx, f);
    ctx.erase_block(gone);
    br(&mut ctx, entry, &[gone], 4);
    assert_eq!(
        errors(&ctx, m),
        vec![
            e("operand #0 does not dominate this use", 3),
            e(
                "note: operand defined here (op is neither in a parent nor in a child region)",
                20
            ),
            e("'test.pure' op using value defined outside the region", 3),
            e("note: required by region isolation constraints", 2),
            e("'test.br' op branching to block of a different region", 4),
        ]
    );
    // A detached terminator as the root, with such operands.
    let t = ctx.create_op(OperationState::new("test.ret", l).operands(&[dv, lv]));
    assert_eq!(
        errors(&ctx, t),
        vec![
            e(
                "'test.ret' op must be the last operation in the parent block",
                20
            ),
            e("operand #0 does not dominate this use", 20),
            e(
                "note: operand defined here (op is neither in a parent nor in a child region)",
                20
            ),
            e("operand #1 does not dominate this use", 20),
            e("note:  (block without parent)", 20),
        ]
    );
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let a = ctx.block_arg(entry, 0);
    let mut block = entry;
    for i in 0..20_000 {
        let (_, inner) = region_op(&mut ctx, block, "test.recursive", &[], 0, 3 + i);
        block = inner;
    }
    op(&mut ctx, block, "test.pure", &[a], 0, 1);
    op(&mut ctx, entry, "test.ret", &[], 0, 2);
    assert_eq!(errors(&ctx, m), vec![]);
}

#[test]
fn many_ops_verify_linearly() {
    let mut ctx = td::ctx();
    let (m, _, entry) = module_with_func(&mut ctx);
    let mut v = ctx.block_arg(entry, 0);
    for i in 0..100_000 {
        let o = op(&mut ctx, entry, "test.add", &[v, v], 1, i);
        v = ctx.result(o, 0);
    }
    op(&mut ctx, entry, "test.ret", &[v], 0, 1);
    let start = std::time::Instant::now();
    assert_eq!(errors(&ctx, m), vec![]);
    // Generous even for debug builds; the release build takes a few milliseconds.
    assert!(start.elapsed().as_secs() < 10);
}
