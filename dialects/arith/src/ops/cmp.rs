//! `arith.cmpi` and `arith.cmpf`: `%r = arith.cmpi slt, %a, %b : i32`, the predicate kept as an
//! i64 `predicate` property holding upstream's enum number; the result is i1.

use crate::consts::{fold_attr, fold_value, int_width, IntVal};
use crate::flags::FlagKind;
use crate::fold::{const_attr, const_float};
use crate::names;
use crate::patterns::{
    cmpf_int_to_fp_const, cmpi_constant_to_rhs, cmpi_of_extsi, cmpi_of_extui, def_by, fn_pattern,
};
use crate::predicates::{CmpFPredicate, CmpIPredicate};
use crate::syntax::{
    default_flags, parse_attr_dict, parse_flags, print_attr_dict, print_flags, FlagsProp,
};
use crate::verify::{Check, TypeClass};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::rewrite::RewritePattern;
use qd_ir::{
    AttrData, Attribute, Context, DiagResult, Diagnostic, FoldResult, OpId, OpInfo, OpTraits,
    OperationState, Value,
};

const CMPF_FLAGS: FlagsProp = FlagsProp::Default(FlagKind::FastMath);

pub fn ops() -> Vec<OpInfo> {
    vec![
        OpInfo::new(names::CMPI, "integer comparison")
            .traits(OpTraits::PURE)
            .verify(verify_cmpi)
            .syntax(parse_cmpi, print_cmpi)
            .fold(fold_cmpi)
            .canonicalization(cmpi_patterns),
        OpInfo::new(names::CMPF, "floating point comparison")
            .traits(OpTraits::PURE)
            .verify(verify_cmpf)
            .syntax(parse_cmpf, print_cmpf)
            .fold(fold_cmpf)
            .canonicalization(cmpf_patterns),
    ]
}

fn cmpi_patterns(v: &mut Vec<Box<dyn RewritePattern>>) {
    v.push(fn_pattern(
        "arith-cmpi-constant-to-rhs",
        names::CMPI,
        cmpi_constant_to_rhs,
    ));
    v.push(fn_pattern(
        "arith-cmpi-of-extsi",
        names::CMPI,
        cmpi_of_extsi,
    ));
    v.push(fn_pattern(
        "arith-cmpi-of-extui",
        names::CMPI,
        cmpi_of_extui,
    ));
}

fn cmpf_patterns(v: &mut Vec<Box<dyn RewritePattern>>) {
    v.push(fn_pattern(
        "arith-cmpf-int-to-fp-const",
        names::CMPF,
        cmpf_int_to_fp_const,
    ));
}

/// The predicate number of a comparison, when well-formed.
fn predicate_number(ctx: &Context, op: OpId) -> Option<i64> {
    let a = ctx.prop_or_attr(op, "predicate")?;
    match ctx.attr_data(a) {
        AttrData::Integer { value, .. } => Some(*value),
        _ => None,
    }
}

/// A typed view of an `arith.cmpi` op.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CmpIOp(pub OpId);

impl CmpIOp {
    pub fn new(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == names::CMPI).then_some(CmpIOp(op))
    }
    pub fn predicate(self, ctx: &Context) -> Option<CmpIPredicate> {
        CmpIPredicate::from_i64(predicate_number(ctx, self.0)?)
    }
}

/// A typed view of an `arith.cmpf` op.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct CmpFOp(pub OpId);

impl CmpFOp {
    pub fn new(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == names::CMPF).then_some(CmpFOp(op))
    }
    pub fn predicate(self, ctx: &Context) -> Option<CmpFPredicate> {
        CmpFPredicate::from_i64(predicate_number(ctx, self.0)?)
    }
}

fn verify_cmp(
    ctx: &Context,
    op: OpId,
    class: TypeClass,
    cases: i64,
    props: &[&str],
) -> DiagResult<()> {
    let c = Check::new(ctx, op);
    c.no_regions_or_successors()?;
    c.num_operands(2)?;
    c.one_result()?;
    c.known_props(props)?;
    c.enum_i64("predicate", cases)?;
    if props.contains(&"fastmath") {
        c.flags(FlagKind::FastMath)?;
    }
    c.operand_class(0, class)?;
    c.operand_class(1, class)?;
    c.result_class(0, TypeClass::Bool)?;
    c.same_operands()
}

fn verify_cmpi(ctx: &Context, op: OpId) -> DiagResult<()> {
    verify_cmp(ctx, op, TypeClass::IntLike, 10, &["predicate"])
}

fn verify_cmpf(ctx: &Context, op: OpId) -> DiagResult<()> {
    verify_cmp(ctx, op, TypeClass::Float, 16, &["fastmath", "predicate"])
}

/// `pred, %a, %b [flags] {attrs} : T`; `names` lists the predicates by enum number.
fn parse_cmp(
    p: &mut dyn OpAsmParser,
    state: &mut OperationState,
    names: &[&str],
    flags: FlagsProp,
    class: TypeClass,
) -> DiagResult<()> {
    let loc = p.current_loc();
    let bad = || {
        Diagnostic::error(
            loc,
            format!(
                "expected string or keyword containing one of the following enum values for attribute 'predicate' [{}]",
                names.join(", ")
            ),
        )
    };
    // No keyword and no string (`arith.cmpi %a, %b`) gets upstream's enum message too.
    let name = match p.parse_optional_any_keyword() {
        Some(k) => k,
        None => p.parse_string().map_err(|_| bad())?,
    };
    let n = names.iter().position(|n| *n == name).ok_or_else(bad)? as i64;
    let i64t = p.ctx().i64_type();
    let pred = p.ctx().integer_attr(n, i64t);
    state.add_prop(p.ctx(), "predicate", pred);
    p.parse_punct(",")?;
    let a = p.parse_operand()?;
    p.parse_punct(",")?;
    let b = p.parse_operand()?;
    parse_flags(p, state, flags)?;
    parse_attr_dict(p, state, &["fastmath", "predicate"])?;
    default_flags(p, state, flags);
    let ty = p.parse_colon_type()?;
    // Upstream's parser checks the operand type (its format gives it as `type($lhs)`).
    if !class.accepts(p.ctx_ref(), ty) {
        let got = crate::verify::type_str(p.ctx_ref(), ty);
        return Err(Diagnostic::error(
            state.loc,
            format!("'lhs' must be {}, but got '{got}'", class.description()),
        ));
    }
    state.operands = p.resolve_operands(&[a, b], &[ty, ty])?;
    let i1 = p.ctx().i1_type();
    state.result_types.push(i1);
    Ok(())
}

fn print_cmp(op: OpId, p: &mut dyn OpAsmPrinter, name: Option<&'static str>, flags: FlagsProp) {
    let ctx = p.ctx();
    let operands = ctx.operand_vec(op);
    let ty = operands.first().map(|v| ctx.value_type(*v));
    p.write(" ");
    match name {
        Some(n) => p.write(n),
        // A malformed predicate still prints as something the parser reports.
        None => p.write("<<invalid predicate>>"),
    }
    p.write(", ");
    p.print_operands(&operands);
    print_flags(op, p, flags);
    print_attr_dict(op, p, &["fastmath", "predicate"]);
    if let Some(t) = ty {
        p.write(" : ");
        p.print_type(t);
    }
}

fn parse_cmpi(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    parse_cmp(
        p,
        state,
        &CmpIPredicate::names(),
        FlagsProp::None,
        TypeClass::IntLike,
    )
}

fn print_cmpi(op: OpId, p: &mut dyn OpAsmPrinter) {
    let name = CmpIOp(op).predicate(p.ctx()).map(CmpIPredicate::name);
    print_cmp(op, p, name, FlagsProp::None)
}

fn parse_cmpf(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    parse_cmp(
        p,
        state,
        &CmpFPredicate::names(),
        CMPF_FLAGS,
        TypeClass::Float,
    )
}

fn print_cmpf(op: OpId, p: &mut dyn OpAsmPrinter) {
    let name = CmpFOp(op).predicate(p.ctx()).map(CmpFPredicate::name);
    print_cmp(op, p, name, CMPF_FLAGS)
}

fn operands2(ctx: &Context, op: OpId) -> Option<(Value, Value)> {
    (ctx.num_operands(op) == 2 && ctx.num_results(op) == 1)
        .then(|| (ctx.operand(op, 0), ctx.operand(op, 1)))
}

fn fold_cmpi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let pred = CmpIOp(op).predicate(ctx)?;
    let (a, b) = operands2(ctx, op)?;
    if a == b {
        return fold_attr(ctx.bool_attr(pred.reflexive()));
    }
    let rhs = const_attr(c, 1).and_then(|y| IntVal::from_attr(ctx, y));
    let is_i1 = |v: Value| int_width(ctx, ctx.value_type(v)) == Some(1);
    if rhs.is_some_and(|y| y.is_zero()) && pred == CmpIPredicate::Ne {
        // ext(x : i1) != 0 is x: the extension of false is 0, of true non-zero.
        for ext in [names::EXTSI, names::EXTUI] {
            if let Some(e) = def_by(ctx, a, ext, 1) {
                if is_i1(ctx.operand(e, 0)) {
                    return fold_value(ctx.operand(e, 0));
                }
            }
        }
        // x != 0 on i1 is x.
        if is_i1(a) {
            return fold_value(a);
        }
    }
    // x == 1 on i1 is x.
    if rhs.is_some_and(|y| y.is_one()) && pred == CmpIPredicate::Eq && is_i1(a) {
        return fold_value(a);
    }
    let x = IntVal::from_attr(ctx, const_attr(c, 0)?)?;
    let y = rhs?;
    if x.width() != y.width() {
        return None;
    }
    fold_attr(ctx.bool_attr(pred.eval(x, y)))
}

fn fold_cmpf(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    let pred = CmpFOp(op).predicate(ctx)?;
    operands2(ctx, op)?;
    // As upstream, only constants fold, even for the `false` and `true` predicates; one NaN
    // operand decides every predicate whatever the other is: compare it with itself (ordered
    // predicates false, unordered true).
    let result = match (const_float(ctx, c, 0), const_float(ctx, c, 1)) {
        (Some(n), _) | (_, Some(n)) if n.is_nan() => pred.eval(n, n),
        // Values are exact in f64, so comparing them there is exact in every precision.
        (Some(x), Some(y)) => pred.eval(x, y),
        _ => return None,
    };
    fold_attr(ctx.bool_attr(result))
}
