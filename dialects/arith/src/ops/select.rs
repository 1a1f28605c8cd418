//! `arith.select`: `%r = arith.select %cond, %a, %b : T` picks `%a` when the i1 `%cond` is true.

use crate::consts::{fold_attr, fold_value, IntVal};
use crate::fold::const_attr;
use crate::names;
use crate::patterns::*;
use crate::predicates::CmpIPredicate;
use crate::reverse::{needs, FnRule};
use crate::syntax::{parse_attr_dict, print_attr_dict};
use crate::verify::{Check, TypeClass};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::interfaces::ReverseRule;
use qd_ir::rewrite::RewritePattern;
use qd_ir::{
    Attribute, Context, DiagResult, FoldResult, OpId, OpInfo, OpTraits, OperationState, TypeData,
};

pub fn ops() -> Vec<OpInfo> {
    vec![OpInfo::new(
        names::SELECT,
        "choose between two values by an i1 condition",
    )
    .traits(OpTraits::PURE)
    .verify(verify)
    .syntax(parse, print)
    .fold(fold)
    .canonicalization(patterns)
    .interface::<dyn ReverseRule>(&SELECT_RULE)]
}

/// d(select c, a, b) = (c ? g : 0, c ? 0 : g); the condition (an i1) gets none but is read.
static SELECT_RULE: &dyn ReverseRule = &FnRule {
    needs: |active| needs(&[active[1] || active[2]], &[]),
    emit: |cx, _| {
        let (ga, gb) = cx.route(cx.x(0));
        vec![None, Some(ga), Some(gb)]
    },
};

/// Upstream's order: by benefit (ops matched), then as added.
fn patterns(v: &mut Vec<Box<dyn RewritePattern>>) {
    v.push(Box::new(SelectI1ToCond));
    v.push(fn_pattern(
        "arith-redundant-select-false",
        names::SELECT,
        redundant_select_false,
    ));
    v.push(fn_pattern(
        "arith-redundant-select-true",
        names::SELECT,
        redundant_select_true,
    ));
    v.push(fn_pattern(
        "arith-select-not-cond",
        names::SELECT,
        select_not_cond,
    ));
    v.push(fn_pattern(
        "arith-select-i1-to-not",
        names::SELECT,
        select_i1_to_not,
    ));
    v.push(fn_pattern(
        "arith-select-to-extui",
        names::SELECT,
        select_to_extui,
    ));
}

fn verify(ctx: &Context, op: OpId) -> DiagResult<()> {
    let c = Check::new(ctx, op);
    c.no_regions_or_successors()?;
    c.num_operands(3)?;
    c.one_result()?;
    c.known_props(&[])?;
    c.operand_class(0, TypeClass::Bool)?;
    let t = ctx.value_type(ctx.operand(op, 1));
    let f = ctx.value_type(ctx.operand(op, 2));
    let r = ctx.value_type(ctx.result(op, 0));
    if t != f || t != r {
        return c
            .fail("failed to verify that all of {true_value, false_value, result} have same type");
    }
    Ok(())
}

/// `%c, %a, %b {attrs} : T`, or `: C, T` spelling out the condition's type.
fn parse(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    let c = p.parse_operand()?;
    p.parse_punct(",")?;
    let a = p.parse_operand()?;
    p.parse_punct(",")?;
    let b = p.parse_operand()?;
    parse_attr_dict(p, state, &[])?;
    let first = p.parse_colon_type()?;
    let (cond_ty, ty) = if p.parse_optional_punct(",") {
        (first, p.parse_type()?)
    } else {
        (p.ctx().i1_type(), first)
    };
    state.operands = p.resolve_operands(&[c, a, b], &[cond_ty, ty, ty])?;
    state.result_types.push(ty);
    Ok(())
}

fn print(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let operands = ctx.operand_vec(op);
    let tys: Vec<_> = operands.iter().map(|v| ctx.value_type(*v)).collect();
    let cond_is_i1 = tys.first().is_some_and(|t| {
        *ctx.type_data(*t)
            == TypeData::Integer {
                width: 1,
                signedness: qd_ir::Signedness::Signless,
            }
    });
    p.write(" ");
    p.print_operands(&operands);
    print_attr_dict(op, p, &[]);
    p.write(" : ");
    if !cond_is_i1 {
        if let Some(t) = tys.first() {
            p.print_type(*t);
            p.write(", ");
        }
    }
    if let Some(t) = tys.get(1) {
        p.print_type(*t);
    }
}

fn fold(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    if ctx.num_operands(op) != 3 || ctx.num_results(op) != 1 {
        return None;
    }
    let (t, f) = (ctx.operand(op, 1), ctx.operand(op, 2));
    if let Some(cond) = const_attr(c, 0).and_then(|a| IntVal::from_attr(ctx, a)) {
        return fold_value(if cond.is_zero() { f } else { t });
    }
    if t == f {
        return fold_value(t);
    }
    // select(cmpi eq a b, a, b) is b, select(cmpi ne a b, a, b) is a (either operand order).
    if let Some(cmp) = def_by(ctx, ctx.operand(op, 0), names::CMPI, 2) {
        let pred = crate::CmpIOp(cmp).predicate(ctx);
        let (l, r) = (ctx.operand(cmp, 0), ctx.operand(cmp, 1));
        if matches!(pred, Some(CmpIPredicate::Eq | CmpIPredicate::Ne))
            && ((l == t && r == f) || (r == t && l == f))
        {
            return fold_value(if pred == Some(CmpIPredicate::Ne) {
                t
            } else {
                f
            });
        }
    }
    // Two equal constants: interned attributes compare by identity.
    match (const_attr(c, 1), const_attr(c, 2)) {
        (Some(x), Some(y)) if x == y => fold_attr(x),
        _ => None,
    }
}
