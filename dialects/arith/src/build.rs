//! Builders for arith (and math) ops, used by later dialects and passes: each returns the new
//! op's result and gives the op the default properties its definition declares.

use crate::consts::int_attr;
use crate::elementwise::ElementwiseDef;
use crate::names;
use crate::ops::constant::materialize_constant;
use crate::predicates::{CmpFPredicate, CmpIPredicate};
use qd_ir::{Attribute, Builder, Context, Location, OperationState, Type, Value};

/// The state of elementwise op `name` (registered or not) with its default properties.
pub fn elementwise_state(
    ctx: &mut Context,
    name: &str,
    operands: &[Value],
    result: Type,
    loc: Location,
) -> OperationState {
    let mut state = OperationState::new(name, loc)
        .operands(operands)
        .results(&[result]);
    if let Some(def) = ctx.lookup_op_info(name).and_then(ElementwiseDef::of) {
        state.properties = def.default_props(ctx);
    }
    state
}

/// An `arith.constant` of `value` (integer, index, bool or float) and type `ty`.
///
/// # Panics
/// When `value` is not a constant of type `ty` (a programming error of the caller).
pub fn build_constant(b: &mut Builder, value: Attribute, ty: Type, loc: Location) -> Value {
    let state = materialize_constant(b.ctx, value, ty, loc)
        .expect("build_constant: value is not an integer/float constant of the given type");
    b.insert_value(state)
}

pub fn build_constant_f32(b: &mut Builder, v: f32, loc: Location) -> Value {
    let ty = b.ctx.f32_type();
    let a = b.ctx.float_attr(v as f64, ty);
    build_constant(b, a, ty, loc)
}

pub fn build_constant_f64(b: &mut Builder, v: f64, loc: Location) -> Value {
    let ty = b.ctx.f64_type();
    let a = b.ctx.float_attr(v, ty);
    build_constant(b, a, ty, loc)
}

/// A float constant of float type `ty`, rounded to it.
pub fn build_constant_float(b: &mut Builder, v: f64, ty: Type, loc: Location) -> Value {
    let a = b.ctx.float_attr(v, ty);
    build_constant(b, a, ty, loc)
}

/// An integer constant of signless integer or index type `ty`, wrapped to its width.
pub fn build_constant_int(b: &mut Builder, v: i64, ty: Type, loc: Location) -> Value {
    let a = int_attr(b.ctx, v, ty);
    build_constant(b, a, ty, loc)
}

pub fn build_constant_index(b: &mut Builder, v: i64, loc: Location) -> Value {
    let ty = b.ctx.index_type();
    build_constant_int(b, v, ty, loc)
}

pub fn build_constant_bool(b: &mut Builder, v: bool, loc: Location) -> Value {
    let ty = b.ctx.i1_type();
    let a = b.ctx.bool_attr(v);
    build_constant(b, a, ty, loc)
}

/// A same-type elementwise op of any arity (`arith.addf`, `math.fma`, ...): the result has the
/// first operand's type.
pub fn build_elementwise(b: &mut Builder, name: &str, operands: &[Value], loc: Location) -> Value {
    let ty = b.ctx.value_type(operands[0]);
    let state = elementwise_state(b.ctx, name, operands, ty, loc);
    b.insert_value(state)
}

/// A binary op such as `arith.addi` or `math.powf`.
pub fn build_binary(b: &mut Builder, name: &str, lhs: Value, rhs: Value, loc: Location) -> Value {
    build_elementwise(b, name, &[lhs, rhs], loc)
}

/// A unary op such as `arith.negf` or `math.sin`.
pub fn build_unary(b: &mut Builder, name: &str, x: Value, loc: Location) -> Value {
    build_elementwise(b, name, &[x], loc)
}

/// A cast such as `arith.sitofp` of `x` to type `to`.
pub fn build_cast(b: &mut Builder, name: &str, x: Value, to: Type, loc: Location) -> Value {
    let state = elementwise_state(b.ctx, name, &[x], to, loc);
    b.insert_value(state)
}

fn build_cmp(
    b: &mut Builder,
    name: &str,
    pred: i64,
    lhs: Value,
    rhs: Value,
    loc: Location,
) -> Value {
    let i64t = b.ctx.i64_type();
    let i1 = b.ctx.i1_type();
    let p = b.ctx.integer_attr(pred, i64t);
    let mut state = OperationState::new(name, loc)
        .operands(&[lhs, rhs])
        .results(&[i1])
        .prop(b.ctx, "predicate", p);
    if name == names::CMPF {
        let none = crate::flags::FlagKind::FastMath.attr(b.ctx, 0);
        state.add_prop(b.ctx, "fastmath", none);
    }
    b.insert_value(state)
}

pub fn build_cmpi(
    b: &mut Builder,
    pred: CmpIPredicate,
    lhs: Value,
    rhs: Value,
    loc: Location,
) -> Value {
    build_cmp(b, names::CMPI, pred as i64, lhs, rhs, loc)
}

pub fn build_cmpf(
    b: &mut Builder,
    pred: CmpFPredicate,
    lhs: Value,
    rhs: Value,
    loc: Location,
) -> Value {
    build_cmp(b, names::CMPF, pred as i64, lhs, rhs, loc)
}

pub fn build_select(b: &mut Builder, cond: Value, t: Value, f: Value, loc: Location) -> Value {
    let ty = b.ctx.value_type(t);
    let state = OperationState::new(names::SELECT, loc)
        .operands(&[cond, t, f])
        .results(&[ty]);
    b.insert_value(state)
}
