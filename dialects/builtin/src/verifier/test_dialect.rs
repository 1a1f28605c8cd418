//! A small dialect for the unit tests of dominance, symbol tables, the verifier and the greedy
//! driver, plus helpers that build IR with it.

use crate::attributes::AttrData;
use crate::builder::OperationState;
use crate::context::Context;
use crate::diagnostics::{DiagResult, Diagnostic};
use crate::entity::*;
use crate::registry::{DialectDef, FoldResult, OpInfo, OpTraits};

pub fn dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.materialize_constant = Some(|ctx, value, ty, loc| {
        Some(
            OperationState::new("test.constant", loc)
                .results(&[ty])
                .prop(ctx, "value", value),
        )
    });
    d.ops = vec![
        OpInfo::new("test.constant", "a constant")
            .traits(OpTraits::CONSTANT_LIKE | OpTraits::PURE)
            .verify(verify_constant),
        OpInfo::new("test.add", "integer addition")
            .traits(OpTraits::PURE | OpTraits::COMMUTATIVE)
            .fold(fold_add),
        OpInfo::new("test.neg", "integer negation")
            .traits(OpTraits::PURE)
            .fold(fold_neg),
        OpInfo::new("test.pure", "a pure op that does not fold").traits(OpTraits::PURE),
        OpInfo::new("test.effect", "an op with side effects"),
        OpInfo::new("test.read", "reads memory").traits(OpTraits::READ_ONLY),
        OpInfo::new("test.ret", "returns").traits(OpTraits::TERMINATOR),
        OpInfo::new("test.yield", "yields").traits(OpTraits::TERMINATOR | OpTraits::PURE),
        OpInfo::new("test.br", "branches").traits(OpTraits::TERMINATOR),
        OpInfo::new("test.func", "a function")
            .traits(OpTraits::SYMBOL | OpTraits::ISOLATED_FROM_ABOVE),
        OpInfo::new("test.call", "calls @callee"),
        OpInfo::new(
            "test.own_call",
            "calls @callee, checked by its own hook only",
        )
        .traits(OpTraits::SYMBOL_USER)
        .verify(verify_own_call)
        .verify_symbol_uses(verify_own_call_uses),
        OpInfo::new("test.field_use", "uses @callee, which must be a test.func")
            .verify_symbol_uses(verify_field_use),
        OpInfo::new("test.graph", "a graph region")
            .traits(OpTraits::GRAPH_REGION | OpTraits::NO_TERMINATOR | OpTraits::SINGLE_BLOCK),
        OpInfo::new("test.single", "one block with a terminator").traits(OpTraits::SINGLE_BLOCK),
        OpInfo::new("test.region", "a CFG region"),
        OpInfo::new("test.pure_region", "pure, effects of its body")
            .traits(OpTraits::PURE | OpTraits::RECURSIVE_EFFECTS),
        OpInfo::new("test.recursive", "effects of its body")
            .traits(OpTraits::RECURSIVE_EFFECTS | OpTraits::NO_TERMINATOR),
        OpInfo::new("test.isolated", "isolated from above, no terminator").traits(
            OpTraits::ISOLATED_FROM_ABOVE | OpTraits::NO_TERMINATOR | OpTraits::SINGLE_BLOCK,
        ),
        OpInfo::new("test.graph2", "a graph region that may hold blocks")
            .traits(OpTraits::GRAPH_REGION | OpTraits::NO_TERMINATOR),
        OpInfo::new("test.table", "a symbol table with a CFG region")
            .traits(OpTraits::SYMBOL_TABLE),
        OpInfo::new("test.checked", "fails its verifier when it has `bad`").verify(verify_checked),
    ];
    d
}

fn verify_constant(ctx: &Context, op: OpId) -> DiagResult<()> {
    if ctx.num_results(op) != 1 || ctx.prop(op, "value").is_none() {
        return Err(Diagnostic::error(
            ctx.loc(op),
            "'test.constant' op needs one result and a value",
        ));
    }
    Ok(())
}

fn verify_checked(ctx: &Context, op: OpId) -> DiagResult<()> {
    if ctx.attr(op, "bad").is_some() {
        return Err(Diagnostic::error(ctx.loc(op), "'test.checked' op is bad"));
    }
    Ok(())
}

/// `bad` fails the op's own verifier (so its symbol-use hook must not run).
fn verify_own_call(ctx: &Context, op: OpId) -> DiagResult<()> {
    if ctx.attr(op, "bad").is_some() {
        return Err(Diagnostic::error(ctx.loc(op), "'test.own_call' op is bad"));
    }
    Ok(())
}

/// Reports an unresolved `callee` itself (a SYMBOL_USER op).
fn verify_own_call_uses(
    ctx: &Context,
    op: OpId,
    symbols: &mut crate::symbol_table::SymbolTableCollection,
) -> DiagResult<()> {
    let Some(callee) = ctx.prop(op, "callee") else {
        return Ok(());
    };
    match symbols.lookup_symbol_ref_from(ctx, op, callee) {
        Some(f) if ctx.name(f) == "test.func" => Ok(()),
        _ => Err(Diagnostic::error(
            ctx.loc(op),
            "'test.own_call' op has no function to call",
        )),
    }
}

/// Checks only what a resolved `callee` is; the generic check reports an unresolved one.
fn verify_field_use(
    ctx: &Context,
    op: OpId,
    symbols: &mut crate::symbol_table::SymbolTableCollection,
) -> DiagResult<()> {
    let Some(callee) = ctx.prop(op, "callee") else {
        return Ok(());
    };
    match symbols.lookup_symbol_ref_from(ctx, op, callee) {
        Some(f) if ctx.name(f) != "test.func" => Err(Diagnostic::error(
            ctx.loc(op),
            "'test.field_use' op expects a test.func",
        )),
        _ => Ok(()),
    }
}

fn int(ctx: &Context, a: Option<Attribute>) -> Option<i64> {
    match ctx.attr_data(a?) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

fn fold_add(ctx: &mut Context, op: OpId, consts: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if consts.len() != 2 {
        return None;
    }
    match (int(ctx, consts[0]), int(ctx, consts[1])) {
        (Some(a), Some(b)) => {
            let ty = ctx.value_type(ctx.result(op, 0));
            Some(vec![FoldResult::Attr(
                ctx.integer_attr(a.wrapping_add(b), ty),
            )])
        }
        (_, Some(0)) => Some(vec![FoldResult::Value(ctx.operand(op, 0))]),
        (Some(0), _) => Some(vec![FoldResult::Value(ctx.operand(op, 1))]),
        _ => None,
    }
}

fn fold_neg(ctx: &mut Context, op: OpId, consts: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let a = int(ctx, *consts.first()?)?;
    let ty = ctx.value_type(ctx.result(op, 0));
    Some(vec![FoldResult::Attr(
        ctx.integer_attr(a.wrapping_neg(), ty),
    )])
}

pub fn ctx() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    ctx
}

pub fn loc(ctx: &mut Context, line: u32) -> Location {
    ctx.file_loc("t.mlir", line, 1)
}

pub fn int_attr(ctx: &mut Context, v: i64) -> Attribute {
    let ty = ctx.i32_type();
    ctx.integer_attr(v, ty)
}

/// Creates `name(operands) -> i32 x n_results` at `line` and appends it to `block`.
pub fn op(
    ctx: &mut Context,
    block: BlockId,
    name: &str,
    operands: &[Value],
    n_results: usize,
    line: u32,
) -> OpId {
    let i32 = ctx.i32_type();
    let l = loc(ctx, line);
    let o = ctx.create_op(
        OperationState::new(name, l)
            .operands(operands)
            .results(&vec![i32; n_results]),
    );
    ctx.append_op(block, o);
    o
}

/// Appends `test.constant {value = v : i32}` to `block`; returns its result.
pub fn constant(ctx: &mut Context, block: BlockId, v: i64, line: u32) -> Value {
    let i32 = ctx.i32_type();
    let l = loc(ctx, line);
    let a = int_attr(ctx, v);
    let st = OperationState::new("test.constant", l)
        .results(&[i32])
        .prop(ctx, "value", a);
    let o = ctx.create_op(st);
    ctx.append_op(block, o);
    ctx.result(o, 0)
}

/// Appends an op with one region of one block (with `n_args` i32 arguments) to `block`.
pub fn region_op(
    ctx: &mut Context,
    block: BlockId,
    name: &str,
    operands: &[Value],
    n_args: usize,
    line: u32,
) -> (OpId, BlockId) {
    let i32 = ctx.i32_type();
    let l = loc(ctx, line);
    let (r, b) = ctx.create_region_with_block(&vec![(i32, l); n_args]);
    let o = ctx.create_op(OperationState::new(name, l).operands(operands).region(r));
    ctx.append_op(block, o);
    (o, b)
}

/// A detached `builtin.module` and its body.
pub fn module(ctx: &mut Context) -> (OpId, BlockId) {
    let l = loc(ctx, 1);
    crate::builtin::create_module(ctx, l)
}

/// Appends `test.func @name` with `n_args` i32 arguments to `block`; returns it and its entry.
pub fn func(
    ctx: &mut Context,
    block: BlockId,
    name: &str,
    n_args: usize,
    line: u32,
) -> (OpId, BlockId) {
    let (f, entry) = region_op(ctx, block, "test.func", &[], n_args, line);
    let s = ctx.string_attr(name);
    ctx.set_prop(f, "sym_name", s);
    (f, entry)
}

/// Appends `test.call` with `callee = @name` to `block`.
pub fn call(ctx: &mut Context, block: BlockId, name: &str, line: u32) -> OpId {
    let o = op(ctx, block, "test.call", &[], 0, line);
    let r = ctx.symbol_ref_attr(name);
    ctx.set_prop(o, "callee", r);
    o
}
