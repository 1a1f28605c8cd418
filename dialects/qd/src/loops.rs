//! Loops: `qd.range_for`, `qd.struct_for`, `qd.while` and its `qd.condition`.
//!
//! ```text
//! qd.range_for %i = %lo to %hi : i32 { ... }     // i in [lo, hi), step 1; no iteration when hi <= lo
//! qd.struct_for (%i, %j) in @x { ... }           // over the index space of field @x (i32 indices)
//! qd.while { ...; qd.condition %c } do { ... }   // runs `do` while the first region yields true
//! ```
//!
//! A `range_for` or `struct_for` directly in a kernel's body is a parallel task (its iterations run
//! on different threads, in any order); every other loop runs serially, per thread. Loops carry no
//! SSA values: state that lives across iterations is kept in locals (`qd.alloca`). Induction
//! variables are the entry block arguments of the body region.

use crate::constraints::CONDITION;
use crate::globals::KernelOp;
use crate::syntax::*;
use crate::verify::*;
use crate::{CONDITION_OP, KERNEL_OP, RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP};
use qd_ir::asm::{Delimiter, OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::{constraint, prop};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    BlockId, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, OperationState,
    RegionId, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![
        RangeForOp::op_info(),
        StructForOp::op_info(),
        WhileOp::op_info(),
        ConditionOp::op_info(),
    ]
}

qd_ir::declare_op! {
    /// A `qd.range_for` op: `lower(ctx)`, `upper(ctx)`, `induction_var(ctx)`, `body(ctx)`.
    pub struct RangeForOp = "qd.range_for" {
        summary: "a loop over [lower, upper); parallel at a kernel's top level",
        traits: [OpTraits::NO_TERMINATOR, OpTraits::SINGLE_BLOCK, OpTraits::RECURSIVE_EFFECTS],
        operands: [lower: single(constraint::ANY), upper: single(constraint::ANY)],
        regions: [body as _: single_block],
        builder: none,
        syntax: (parse_range_for, print_range_for),
        verify: verify_range_for,
    }
}

qd_ir::declare_op! {
    /// A `qd.struct_for` op: `field_name(ctx)`, `induction_vars(ctx)`, `body(ctx)`.
    pub struct StructForOp = "qd.struct_for" {
        summary: "a loop over a field's index space; parallel at a kernel's top level",
        traits: [OpTraits::NO_TERMINATOR, OpTraits::SINGLE_BLOCK, OpTraits::RECURSIVE_EFFECTS],
        regions: [body as _: single_block],
        properties: [field as field_name: required(prop::SymbolRef)],
        builder: none,
        syntax: (parse_struct_for, print_struct_for),
        verify_symbol_uses: verify_struct_for,
    }
}

qd_ir::declare_op! {
    /// A `qd.while` op: `before(ctx)` computes the condition (ends with `qd.condition`),
    /// `after(ctx)` is the loop body.
    pub struct WhileOp = "qd.while" {
        summary: "a serial loop: the first region computes the condition, the second is the body",
        traits: [OpTraits::NO_TERMINATOR, OpTraits::SINGLE_BLOCK, OpTraits::RECURSIVE_EFFECTS],
        regions: [condition as _: single_block, body as _: single_block],
        builder: none,
        syntax: (parse_while, print_while),
        verify: verify_while,
    }
}

qd_ir::declare_op! {
    /// A `qd.condition` op: `qd.condition %c`.
    pub struct ConditionOp = "qd.condition" {
        summary: "ends a qd.while's condition region with the loop condition",
        traits: [OpTraits::TERMINATOR],
        operands: [condition: single(CONDITION)],
        format: "$condition attr-dict",
        verify: verify_condition,
    }
}

/// Whether `op` is a loop (`range_for`, `struct_for` or `while`).
pub fn is_loop(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.name(op), RANGE_FOR_OP | STRUCT_FOR_OP | WHILE_OP)
}

/// Whether `op` is a parallel loop: a `range_for` or `struct_for` directly in a kernel's body.
pub fn is_parallel_loop(ctx: &Context, op: OpId) -> bool {
    matches!(ctx.name(op), RANGE_FOR_OP | STRUCT_FOR_OP)
        && ctx.parent_op(op).is_some_and(|p| ctx.name(p) == KERNEL_OP)
}

/// The nearest loop that holds `op`, if any.
pub fn enclosing_loop(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = ctx.parent_op(op);
    while let Some(o) = cur {
        if is_loop(ctx, o) {
            return Some(o);
        }
        cur = ctx.parent_op(o);
    }
    None
}

/// The parallel loops of a kernel (its top-level `range_for`/`struct_for`), in order.
pub fn parallel_loops(ctx: &Context, kernel: KernelOp) -> Vec<OpId> {
    kernel
        .body(ctx)
        .map(|b| {
            ctx.block_ops(b)
                .filter(|&o| is_parallel_loop(ctx, o))
                .collect()
        })
        .unwrap_or_default()
}

/// The block of a region, created (empty) when the region has none.
pub(crate) fn ensure_region_block(ctx: &mut Context, region: RegionId) -> BlockId {
    match ctx.entry_block(region) {
        Some(b) => b,
        None => {
            let b = ctx.create_block(&[]);
            ctx.append_block(region, b);
            b
        }
    }
}

// ----- qd.range_for ------------------------------------------------------------------------

impl RangeForOp {
    /// Creates `qd.range_for %i = lower to upper` with an empty body; the induction variable has
    /// the bounds' type.
    pub fn build(b: &mut Builder, lower: Value, upper: Value, loc: Location) -> Self {
        let ty = b.ctx.value_type(lower);
        let (region, _) = b.ctx.create_region_with_block(&[(ty, loc)]);
        let st = OperationState::new(RANGE_FOR_OP, loc)
            .operands(&[lower, upper])
            .region(region);
        RangeForOp(b.insert(st))
    }
    pub fn body(self, ctx: &Context) -> BlockId {
        ctx.region_entry_block(self.0, 0)
            .expect("qd.range_for without a body block (verify first)")
    }
    pub fn induction_var(self, ctx: &Context) -> Value {
        ctx.block_arg(self.body(ctx), 0)
    }
    pub fn is_parallel(self, ctx: &Context) -> bool {
        is_parallel_loop(ctx, self.0)
    }
}

fn verify_range_for(ctx: &Context, op: OpId) -> DiagResult<()> {
    let (lo, hi) = (
        ctx.value_type(ctx.operand(op, 0)),
        ctx.value_type(ctx.operand(op, 1)),
    );
    if !ctx.type_data(lo).is_signless_int_or_index() {
        return Err(err(
            ctx,
            op,
            format!("expects integer or index bounds, got {}", type_str(ctx, lo)),
        ));
    }
    if lo != hi {
        return Err(err(
            ctx,
            op,
            format!(
                "expects both bounds to have the same type, got {} and {}",
                type_str(ctx, lo),
                type_str(ctx, hi)
            ),
        ));
    }
    check_body(ctx, op, 0, &[lo], "body")?;
    Ok(())
}

fn parse_range_for(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let iv = p.parse_argument(false)?;
    p.parse_punct("=")?;
    let lo = p.parse_operand()?;
    p.parse_keyword("to")?;
    let hi = p.parse_operand()?;
    let ty = p.parse_colon_type()?;
    st.operands = p.resolve_operands(&[lo, hi], &[ty, ty])?;
    let region = parse_body(p, &typed(vec![iv], ty))?;
    st.regions.push(region);
    parse_attrs(p, st)
}

fn print_range_for(op: OpId, p: &mut dyn OpAsmPrinter) {
    let iv = p
        .ctx()
        .region_entry_block(op, 0)
        .and_then(|b| p.ctx().block_args(b).first().copied());
    p.write(" ");
    print_opt_value(p, iv);
    if let Some(iv) = iv {
        p.print_optional_location(iv);
    }
    p.write(" = ");
    let lo = operand(p, op, 0);
    print_opt_value(p, lo);
    p.write(" to ");
    let hi = operand(p, op, 1);
    print_opt_value(p, hi);
    let ty = lo.map(|v| p.ctx().value_type(v));
    print_colon_type(p, ty);
    print_region_at(p, op, 0);
    print_attrs(p, op);
}

// ----- qd.struct_for -----------------------------------------------------------------------

impl StructForOp {
    /// Creates `qd.struct_for (...) in @field` over a field of rank `rank`, with an empty body.
    pub fn build(b: &mut Builder, field: &str, rank: usize, loc: Location) -> Self {
        let i32t = b.ctx.i32_type();
        let (region, _) = b.ctx.create_region_with_block(&vec![(i32t, loc); rank]);
        let sym = b.ctx.symbol_ref_attr(field);
        let st = OperationState::new(STRUCT_FOR_OP, loc)
            .prop(b.ctx, "field", sym)
            .region(region);
        StructForOp(b.insert(st))
    }
    /// The body block; None only for a loop over a scalar field whose body is an empty region.
    pub fn body(self, ctx: &Context) -> Option<BlockId> {
        ctx.region_entry_block(self.0, 0)
    }
    pub fn ensure_body(self, ctx: &mut Context) -> BlockId {
        let r = ctx.region(self.0, 0);
        ensure_region_block(ctx, r)
    }
    /// One i32 index per field dimension.
    pub fn induction_vars(self, ctx: &Context) -> Vec<Value> {
        self.body(ctx)
            .map(|b| ctx.block_args(b).to_vec())
            .unwrap_or_default()
    }
    pub fn is_parallel(self, ctx: &Context) -> bool {
        is_parallel_loop(ctx, self.0)
    }
}

/// A symbol-use hook: every check depends on the field.
fn verify_struct_for(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let Some((name, field)) = referenced_field(ctx, op, symbols)? else {
        return Ok(());
    };
    let rank = field.rank(ctx);
    let got = ctx
        .region_entry_block(op, 0)
        .map(|b| ctx.block_args(b).len())
        .unwrap_or(0);
    if got != rank {
        return Err(err(
            ctx,
            op,
            format!(
                "expects {rank} induction variables for field @{name} of rank {rank}, got {got}"
            ),
        ));
    }
    check_body_i32(ctx, op, 0, rank, "body")?;
    Ok(())
}

fn parse_struct_for(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let ivs = p.parse_argument_list(Delimiter::Paren, false)?;
    p.parse_keyword("in")?;
    let field = p.parse_symbol_name()?;
    let i32t = i32_type(p);
    let region = parse_body(p, &typed(ivs, i32t))?;
    let sym = p.ctx().symbol_ref_attr(&field);
    st.add_prop(p.ctx(), "field", sym);
    st.regions.push(region);
    parse_attrs(p, st)
}

fn print_struct_for(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ivs = p
        .ctx()
        .region_entry_block(op, 0)
        .map(|b| p.ctx().block_args(b).to_vec())
        .unwrap_or_default();
    p.write(" (");
    for (i, &iv) in ivs.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_operand(iv);
        p.print_optional_location(iv);
    }
    p.write(") in ");
    print_symbol_prop(p, op, "field");
    print_region_at(p, op, 0);
    print_attrs(p, op);
}

// ----- qd.while / qd.condition -------------------------------------------------------------

impl WhileOp {
    /// Creates `qd.while {} do {}` with two empty blocks; the caller fills the condition block
    /// (ending it with [`ConditionOp::build`]) and the body block.
    pub fn build(b: &mut Builder, loc: Location) -> Self {
        let (before, _) = b.ctx.create_region_with_block(&[]);
        let (after, _) = b.ctx.create_region_with_block(&[]);
        let st = OperationState::new(WHILE_OP, loc)
            .region(before)
            .region(after);
        WhileOp(b.insert(st))
    }
    pub fn before(self, ctx: &Context) -> BlockId {
        ctx.region_entry_block(self.0, 0)
            .expect("qd.while without a condition block (verify first)")
    }
    /// The body block; None when the body region is empty.
    pub fn after(self, ctx: &Context) -> Option<BlockId> {
        ctx.region_entry_block(self.0, 1)
    }
    pub fn ensure_after(self, ctx: &mut Context) -> BlockId {
        let r = ctx.region(self.0, 1);
        ensure_region_block(ctx, r)
    }
    /// The `qd.condition` that ends the condition region.
    pub fn condition_op(self, ctx: &Context) -> ConditionOp {
        ConditionOp(
            ctx.last_op(self.before(ctx))
                .expect("qd.while without qd.condition (verify first)"),
        )
    }
    /// The i1 value that decides whether the body runs.
    pub fn condition(self, ctx: &Context) -> Value {
        self.condition_op(ctx).condition(ctx)
    }
}

fn verify_while(ctx: &Context, op: OpId) -> DiagResult<()> {
    let missing = || {
        err(
            ctx,
            op,
            "expects its condition region to end with 'qd.condition'",
        )
    };
    let Some(before) = check_body(ctx, op, 0, &[], "condition")? else {
        return Err(missing());
    };
    // A qd.condition that is there but not last is reported once, by the IR verifier's
    // terminator check ("must be the last operation in the parent block").
    if !ctx.block_ops(before).any(|t| ctx.name(t) == CONDITION_OP) {
        return Err(missing());
    }
    check_body(ctx, op, 1, &[], "body")?;
    Ok(())
}

fn parse_while(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let before = parse_body(p, &[])?;
    p.parse_keyword("do")?;
    let after = parse_body(p, &[])?;
    st.regions.push(before);
    st.regions.push(after);
    parse_attrs(p, st)
}

fn print_while(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_region_at(p, op, 0);
    p.write(" do");
    print_region_at(p, op, 1);
    print_attrs(p, op);
}

fn verify_condition(ctx: &Context, op: OpId) -> DiagResult<()> {
    check_i1(ctx, op, ctx.operand(op, 0), "condition")?;
    let in_while_cond = ctx.parent_op(op).is_some_and(|p| ctx.name(p) == WHILE_OP)
        && ctx.parent_region(op).and_then(|r| ctx.region_index(r)) == Some(0);
    if !in_while_cond {
        return Err(err(
            ctx,
            op,
            "expects to terminate the condition region of a 'qd.while'",
        ));
    }
    Ok(())
}

/// Checks that `v` is an `i1`.
pub(crate) fn check_i1(ctx: &Context, op: OpId, v: Value, what: &str) -> DiagResult<()> {
    let t = ctx.value_type(v);
    if !matches!(
        ctx.type_data(t),
        qd_ir::TypeData::Integer {
            width: 1,
            signedness: qd_ir::Signedness::Signless
        }
    ) {
        return Err(err(
            ctx,
            op,
            format!("expects the {what} to be i1, got {}", type_str(ctx, t)),
        ));
    }
    Ok(())
}
