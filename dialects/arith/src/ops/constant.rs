//! `arith.constant`: `%c = arith.constant 1.5 : f32`, `arith.constant true`,
//! `arith.constant 0 : index`, `arith.constant dense<1> : tensor<4xi32>`; generic `"arith.constant"() <{value = 1.5 : f32}> : () -> f32`.

use crate::consts::{attr_type, fold_attr};
use crate::names;
use crate::syntax::{parse_attr_dict, print_attr_dict};
use crate::verify::Check;
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::{
    AttrData, Attribute, Context, DiagResult, Diagnostic, FoldResult, Location, OpId, OpInfo,
    OpTraits, OperationState, Type, TypeData, Value,
};

pub fn ops() -> Vec<OpInfo> {
    vec![
        OpInfo::new(names::CONSTANT, "an integer, index or float constant")
            .traits(OpTraits::PURE | OpTraits::CONSTANT_LIKE)
            .verify(verify)
            .syntax(parse, print)
            .fold(fold)
            .asm_result_names(result_names),
    ]
}

/// MLIR's `arith::ConstantOp::getAsmResultNames`: `%true`/`%false` for i1, `%c<value>_<type>`
/// for other integers (`%c<value>` for index), `%cst` for anything else.
fn result_names(ctx: &Context, op: OpId, set_name: &mut dyn FnMut(Value, &str)) {
    let result = ctx.result(op, 0);
    let ty = ctx.value_type(result);
    let name = match ctx.prop_or_attr(op, "value").map(|a| ctx.attr_data(a)) {
        Some(AttrData::Bool(b)) => b.to_string(),
        Some(AttrData::Integer { value, ty: at }) => match ctx.type_data(*at) {
            TypeData::Integer { width: 1, .. } => (*value != 0).to_string(),
            TypeData::Integer { .. } => {
                format!("c{value}_{}", qd_ir::text::type_to_string(ctx, ty))
            }
            _ => format!("c{value}"),
        },
        Some(AttrData::WideInteger { words, ty: at }) => {
            let width = ctx.type_data(*at).bit_width().unwrap_or(64);
            let v = qd_ir::apint::to_signed_decimal(words, width);
            format!("c{v}_{}", qd_ir::text::type_to_string(ctx, ty))
        }
        _ => "cst".to_string(),
    };
    set_name(result, &name);
}

/// A typed view of an `arith.constant` op.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct ConstantOp(pub OpId);

impl ConstantOp {
    pub fn new(ctx: &Context, op: OpId) -> Option<Self> {
        (ctx.name(op) == names::CONSTANT).then_some(ConstantOp(op))
    }
    /// The op defining `v`, if it is an `arith.constant`.
    pub fn from_value(ctx: &Context, v: Value) -> Option<Self> {
        Self::new(ctx, ctx.defining_op(v)?)
    }
    pub fn value(self, ctx: &Context) -> Option<Attribute> {
        ctx.prop_or_attr(self.0, "value")
    }
    pub fn result(self, ctx: &Context) -> Value {
        ctx.result(self.0, 0)
    }
    /// The value of an integer, index or bool constant, sign-extended from its width.
    pub fn int_value(self, ctx: &Context) -> Option<i64> {
        crate::consts::IntVal::from_attr(ctx, self.value(ctx)?).map(|v| v.sext())
    }
    pub fn float_value(self, ctx: &Context) -> Option<f64> {
        ctx.attr_data(self.value(ctx)?).as_float()
    }
}

/// Whether `attr` is a constant value of type `ty` that `arith.constant` can hold.
fn holds(ctx: &Context, attr: Attribute, ty: Type) -> bool {
    let t = ctx.type_data(ty);
    match ctx.attr_data(attr) {
        AttrData::Bool(_) => {
            matches!(t, TypeData::Integer { width: 1, .. }) && t.is_signless_integer()
        }
        AttrData::Integer { ty: at, .. } | AttrData::WideInteger { ty: at, .. } => {
            *at == ty && t.is_signless_int_or_index()
        }
        AttrData::Float { ty: at, .. } => *at == ty && t.is_float(),
        // `dense<...> : tensor<4xi32>`: elements of a signless integer, index or float type.
        AttrData::DenseElements(d) => {
            d.ty == ty
                && t.element_type().is_some_and(|e| {
                    let e = ctx.type_data(e);
                    e.is_signless_int_or_index() || e.is_float()
                })
        }
        _ => false,
    }
}

fn verify(ctx: &Context, op: OpId) -> DiagResult<()> {
    let c = Check::new(ctx, op);
    c.no_regions_or_successors()?;
    c.num_operands(0)?;
    c.one_result()?;
    c.known_props(&["value"])?;
    let Some(value) = ctx.prop_or_attr(op, "value") else {
        return c.fail("requires attribute 'value'");
    };
    let ty = ctx.value_type(ctx.result(op, 0));
    if holds(ctx, value, ty) {
        return Ok(());
    }
    let same_type = match ctx.attr_data(value) {
        AttrData::Integer { ty: at, .. }
        | AttrData::WideInteger { ty: at, .. }
        | AttrData::Float { ty: at, .. } => *at == ty,
        _ => false,
    };
    if same_type && ctx.type_data(ty).is_integer() {
        return c.fail("integer return type must be signless");
    }
    c.fail("failed to verify that all of {value, result} have same type")
}

/// `{attrs} value [: type]`.
fn parse(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    parse_attr_dict(p, state, &["value"])?;
    let loc = p.current_loc();
    let mut value = p.parse_attribute(None)?;
    // `1 : i1` is the same constant as `true`.
    if let AttrData::Integer { value: v, ty } = *p.ctx_ref().attr_data(value) {
        if matches!(
            p.ctx_ref().type_data(ty),
            TypeData::Integer { width: 1, .. }
        ) && p.ctx_ref().type_data(ty).is_signless_integer()
        {
            value = p.ctx().bool_attr(v & 1 != 0);
        }
    }
    let ty = attr_type(p.ctx(), value)
        .ok_or_else(|| Diagnostic::error(loc, "expected an integer, index or float constant"))?;
    state.add_prop(p.ctx(), "value", value);
    state.result_types.push(ty);
    Ok(())
}

fn print(op: OpId, p: &mut dyn OpAsmPrinter) {
    print_attr_dict(op, p, &["value"]);
    let ctx = p.ctx();
    let Some(value) = ctx.prop_or_attr(op, "value") else {
        return;
    };
    let data = ctx.attr_data(value).clone();
    let is_i1 = |ty| matches!(ctx.type_data(ty), TypeData::Integer { width: 1, .. });
    let bool_text = match data {
        AttrData::Bool(b) => Some(b),
        AttrData::Integer { value: v, ty } if is_i1(ty) => Some(v & 1 != 0),
        _ => None,
    };
    p.write(" ");
    match data {
        _ if bool_text.is_some() => p.write(if bool_text == Some(true) {
            "true"
        } else {
            "false"
        }),
        AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => {
            // Always with its type, even i64/f64, as upstream prints constants.
            p.print_attribute_without_type(value);
            p.write(" : ");
            p.print_type(ty);
        }
        _ => p.print_attribute(value),
    }
}

fn fold(ctx: &mut Context, op: OpId, _: &[Option<Attribute>]) -> Option<Vec<FoldResult>> {
    fold_attr(ctx.prop_or_attr(op, "value")?)
}

/// The `arith.constant` holding `value` as a `ty` (an i1 integer becomes `true`/`false`), or
/// None when `value` is not an integer, index or float constant of that type. This is the
/// dialect's constant materializer.
pub fn materialize_constant(
    ctx: &mut Context,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<OperationState> {
    let value = match *ctx.attr_data(value) {
        AttrData::Integer { value: v, ty: at }
            if at == ty && matches!(ctx.type_data(ty), TypeData::Integer { width: 1, .. }) =>
        {
            ctx.bool_attr(v & 1 != 0)
        }
        _ => value,
    };
    if !holds(ctx, value, ty) {
        return None;
    }
    Some(
        OperationState::new(names::CONSTANT, loc)
            .prop(ctx, "value", value)
            .results(&[ty]),
    )
}
