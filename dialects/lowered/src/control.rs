//! Structured control flow (no break or continue: SPIR-V's structured merges follow).
//!
//! ```text
//! lowered.for %i = %lo to %hi step %s : i32 { ... lowered.yield }
//! lowered.if %c { ... lowered.yield } else { ... lowered.yield }   // else optional
//! lowered.while { ... lowered.condition %c } do { ... lowered.yield }
//! ```
//!
//! - `for`: serial, half-open: `i = lo, lo + s, ...` while `i < hi` (signed comparison in the
//!   bounds' type, a signless integer or `index`; `s > 0`). The induction variable is the body
//!   block's argument. Generic form: operands `(lo, hi, step)`, one region.
//! - `if`: two regions; an empty else region (no block) means no else.
//! - `while`: the condition region runs first and ends with `lowered.condition %c`; the body
//!   runs while `%c` holds, then the condition region again. No iter args: state lives in
//!   private memory.
//! - Regions have one block; region ops have RECURSIVE_EFFECTS and no results.

use crate::verify::{err, expect_block, expect_terminator};
use crate::{CONDITION_OP, FOR_OP, IF_OP, WHILE_OP, YIELD_OP};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::constraint;
use qd_ir::{Context, DiagResult, OpId, OpTraits, OperationState, Value};

const REGION_TRAITS: OpTraits = OpTraits::SINGLE_BLOCK.union(OpTraits::RECURSIVE_EFFECTS);

qd_ir::declare_op! {
    /// `lowered.for %i = %lo to %hi step %s : T { ... lowered.yield }`.
    pub struct ForOp = "lowered.for" {
        summary: "a serial counted loop over [lower, upper) by step",
        traits: [REGION_TRAITS],
        operands: [lower: single(constraint::ANY), upper: single(constraint::ANY), step: single(constraint::ANY)],
        regions: [body: single_block],
        syntax: (parse_for, print_for),
        verify: verify_for,
    }
}

qd_ir::declare_op! {
    /// `lowered.if %c { ... } else { ... }`.
    pub struct IfOp = "lowered.if" {
        summary: "runs the then region when the condition holds, else the else region",
        traits: [REGION_TRAITS],
        operands: [condition: single(constraint::I1)],
        regions: [then_region: single_block, else_region: single_block],
        format: "$condition $then_region (`else` $else_region^)? attr-dict",
        verify: verify_if,
    }
}

qd_ir::declare_op! {
    /// `lowered.while { ... lowered.condition %c } do { ... lowered.yield }`.
    pub struct WhileOp = "lowered.while" {
        summary: "a serial loop: the first region computes the condition, the second is the body",
        traits: [REGION_TRAITS],
        regions: [before: single_block, after: single_block],
        format: "$before `do` $after attr-dict",
        verify: verify_while,
    }
}

qd_ir::declare_op! {
    /// `lowered.condition %c`: ends a while's condition region.
    pub struct ConditionOp = "lowered.condition" {
        summary: "ends a lowered.while's condition region with the loop condition",
        traits: [OpTraits::TERMINATOR],
        operands: [condition: single(constraint::I1)],
        format: "$condition attr-dict",
        verify: verify_condition,
    }
}

qd_ir::declare_op! {
    /// `lowered.yield`: ends the body of a for, a branch of an if, the body of a while.
    pub struct YieldOp = "lowered.yield" {
        summary: "ends a region of lowered.for, lowered.if or lowered.while",
        traits: [OpTraits::TERMINATOR],
        format: "attr-dict",
        verify: verify_yield,
    }
}

impl ForOp {
    /// The induction variable (the body block's argument; verified IR has it).
    pub fn induction_var(self, ctx: &Context) -> Value {
        let b = ctx
            .entry_block(self.body(ctx))
            .expect("lowered.for without a body block (verify first)");
        ctx.block_arg(b, 0)
    }
}

fn verify_for(ctx: &Context, op: OpId) -> DiagResult<()> {
    let tys: Vec<_> = ctx.operands(op).map(|v| ctx.value_type(v)).collect();
    let ty = tys[0];
    if !ctx.type_data(ty).is_signless_int_or_index() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects signless integer or index bounds, got {}",
                qd_ir::text::type_to_string(ctx, ty)
            ),
        ));
    }
    if tys.iter().any(|&t| t != ty) {
        return Err(err(
            ctx,
            op,
            "expects the bounds and the step to have one type",
        ));
    }
    expect_block(ctx, op, 0, "body")?;
    let b = ctx.entry_block(ctx.region(op, 0));
    let args: Vec<_> = b
        .map(|b| {
            ctx.block_args(b)
                .iter()
                .map(|&a| ctx.value_type(a))
                .collect()
        })
        .unwrap_or_default();
    if args != [ty] {
        return Err(err(
            ctx,
            op,
            "expects its body block to take one argument of the bounds' type",
        ));
    }
    expect_terminator(ctx, op, 0, YIELD_OP, "body")
}

fn verify_if(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_block(ctx, op, 0, "then")?;
    expect_terminator(ctx, op, 0, YIELD_OP, "then")?;
    expect_terminator(ctx, op, 1, YIELD_OP, "else")
}

fn verify_while(ctx: &Context, op: OpId) -> DiagResult<()> {
    expect_block(ctx, op, 0, "condition")?;
    expect_block(ctx, op, 1, "body")?;
    expect_terminator(ctx, op, 0, CONDITION_OP, "condition")?;
    expect_terminator(ctx, op, 1, YIELD_OP, "body")
}

/// Whether `op` sits directly in region `index` of an op named `parent`.
fn in_region_of(ctx: &Context, op: OpId, parent: &str, index: Option<usize>) -> bool {
    ctx.parent_op(op).is_some_and(|p| ctx.name(p) == parent)
        && index.is_none_or(|i| ctx.parent_region(op).and_then(|r| ctx.region_index(r)) == Some(i))
}

fn verify_condition(ctx: &Context, op: OpId) -> DiagResult<()> {
    if ctx.parent_op(op).is_some() && !in_region_of(ctx, op, WHILE_OP, Some(0)) {
        return Err(err(
            ctx,
            op,
            "expects to terminate the condition region of a 'lowered.while'",
        ));
    }
    Ok(())
}

fn verify_yield(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ok = ctx.parent_op(op).is_none()
        || in_region_of(ctx, op, FOR_OP, None)
        || in_region_of(ctx, op, IF_OP, None)
        || in_region_of(ctx, op, WHILE_OP, Some(1));
    if !ok {
        return Err(err(
            ctx,
            op,
            "expects to terminate a region of 'lowered.for', 'lowered.if' or the body of 'lowered.while'",
        ));
    }
    Ok(())
}

/// `%i = %lo to %hi step %s : T { ... } {attrs}`.
fn parse_for(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let mut iv = p.parse_argument(false)?;
    p.parse_punct("=")?;
    let lo = p.parse_operand()?;
    p.parse_keyword("to")?;
    let hi = p.parse_operand()?;
    p.parse_keyword("step")?;
    let step = p.parse_operand()?;
    p.parse_punct(":")?;
    let ty = p.parse_type()?;
    st.operands = p.resolve_operands(&[lo, hi, step], &[ty, ty, ty])?;
    iv.ty = Some(ty);
    let region = p.parse_region(&[iv])?;
    st.regions.push(region);
    let mut attrs = Vec::new();
    p.parse_optional_attr_dict(&mut attrs)?;
    st.attributes.extend(attrs);
    Ok(())
}

fn print_for(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let region = ctx.regions(op).first().copied();
    let iv = region
        .and_then(|r| ctx.entry_block(r))
        .and_then(|b| ctx.block_args(b).first().copied());
    let operands = ctx.operand_vec(op);
    p.write(" ");
    match iv {
        Some(v) => {
            p.print_operand(v);
            p.print_optional_location(v);
        }
        None => p.write("<<missing induction variable>>"),
    }
    for (i, kw) in [" = ", " to ", " step "].into_iter().enumerate() {
        p.write(kw);
        match operands.get(i) {
            Some(&v) => p.print_operand(v),
            None => p.write("<<missing operand>>"),
        }
    }
    p.write(" : ");
    match operands.first() {
        Some(&v) => {
            let t = p.ctx().value_type(v);
            p.print_type(t)
        }
        None => p.write("<<missing type>>"),
    }
    p.write(" ");
    match region {
        Some(r) => p.print_region(r, false),
        None => p.write("{\n}"),
    }
    let attrs = p.ctx().attrs(op).to_vec();
    p.print_optional_attr_dict(&attrs, &[]);
}
