//! [`ElementwiseDef`]: the one-place definition of an elementwise op (arith's and math's binary,
//! unary, ternary and cast ops): name, type rule, flags property, traits, folder, patterns. The
//! OpInfo built from it carries the definition as an interface, so that one verifier, parser and
//! printer serve every such op.

use crate::flags::FlagKind;
use crate::syntax::{
    default_flags, parse_attr_dict, parse_flags, print_attr_dict, print_flags, FlagsProp,
};
use crate::verify::{type_str, Check, TypeClass};
use qd_ir::asm::{OpAsmParser, OpAsmPrinter};
use qd_ir::interfaces::ReverseRule;
use qd_ir::registry::{FoldFn, PatternsFn};
use qd_ir::{
    AttrData, Attribute, Context, DiagResult, Ident, OpId, OpInfo, OpTraits, OperationState, Type,
    TypeData,
};

/// Width relation a cast requires between its operand and result types.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CastRule {
    /// The result is strictly wider (ext*).
    Wider,
    /// The result is strictly narrower (trunc*).
    Narrower,
    /// Same bit width (bitcast).
    SameWidth,
    /// Any widths (int <-> float conversions).
    Any,
    /// Exactly one side is `index` (index_cast).
    IndexCast,
}

impl CastRule {
    pub fn compatible(self, ctx: &Context, from: Type, to: Type) -> bool {
        let (f, t) = (ctx.type_data(from), ctx.type_data(to));
        let (fw, tw) = (f.bit_width(), t.bit_width());
        match self {
            CastRule::Wider => matches!((fw, tw), (Some(a), Some(b)) if b > a),
            CastRule::Narrower => matches!((fw, tw), (Some(a), Some(b)) if b < a),
            CastRule::SameWidth => fw.is_some() && fw == tw,
            CastRule::Any => true,
            CastRule::IndexCast => f.is_index() != t.is_index(),
        }
    }
}

/// The operand/result shape of an elementwise op.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Shape {
    /// `arity` operands and one result, all of one type of `class`:
    /// `%r = op %a, %b [flags] {attrs} : T`.
    Same { arity: usize, class: TypeClass },
    /// One operand of class `from` converted to a result of class `to`:
    /// `%r = op %a [flags] {attrs} : T to U`.
    Cast {
        from: TypeClass,
        to: TypeClass,
        rule: CastRule,
    },
    /// One operand of class `class` and an `i1` result (upstream math's classification ops):
    /// `%r = op %a {attrs} : T`.
    Test { class: TypeClass },
    /// Two operands of classes `lhs` and `rhs`, each of its own type, and a result of the lhs
    /// type (upstream `math.fpowi`): `%r = op %a, %b [flags] {attrs} : T, U`.
    Mixed { lhs: TypeClass, rhs: TypeClass },
}

impl Shape {
    /// How many operands the op takes.
    pub fn arity(self) -> usize {
        match self {
            Shape::Same { arity, .. } => arity,
            Shape::Cast { .. } | Shape::Test { .. } => 1,
            Shape::Mixed { .. } => 2,
        }
    }
}

/// truncf's rounding modes, numbered as upstream's `arith::RoundingMode`.
pub const ROUNDING_MODES: [&str; 5] = [
    "to_nearest_even",
    "downward",
    "upward",
    "toward_zero",
    "to_nearest_away",
];

/// Everything that defines one elementwise op.
#[derive(Debug)]
pub struct ElementwiseDef {
    pub name: &'static str,
    pub summary: &'static str,
    pub shape: Shape,
    pub flags: FlagsProp,
    /// The flags property is written in the attribute dictionary (`{fastmath = ...}`, elided when
    /// `none`) rather than as a keyword, as upstream's classification ops do.
    pub flags_in_dict: bool,
    /// Has upstream truncf's optional `roundingmode` property.
    pub rounding_mode: bool,
    pub commutative: bool,
    pub fold: Option<FoldFn>,
    pub patterns: Option<PatternsFn>,
    /// The reverse-mode derivative rule (attached as the op's `dyn ReverseRule` interface); `None`
    /// for ops that are not differentiable (integer ops, integer casts), which reverse mode treats
    /// as constants.
    pub reverse: Option<&'static &'static dyn ReverseRule>,
}

impl ElementwiseDef {
    /// An op whose operands and result share one type.
    pub const fn same(
        name: &'static str,
        summary: &'static str,
        arity: usize,
        class: TypeClass,
    ) -> Self {
        Self::new(name, summary, Shape::Same { arity, class })
    }
    /// A cast.
    pub const fn cast(
        name: &'static str,
        summary: &'static str,
        from: TypeClass,
        to: TypeClass,
        rule: CastRule,
    ) -> Self {
        Self::new(name, summary, Shape::Cast { from, to, rule })
    }
    const fn new(name: &'static str, summary: &'static str, shape: Shape) -> Self {
        ElementwiseDef {
            name,
            summary,
            shape,
            flags: FlagsProp::None,
            flags_in_dict: false,
            rounding_mode: false,
            commutative: false,
            fold: None,
            patterns: None,
            reverse: None,
        }
    }
    /// A `fastmath` property that is always present.
    pub const fn fastmath(mut self) -> Self {
        self.flags = FlagsProp::Default(FlagKind::FastMath);
        self
    }
    /// An always-present `fastmath` property written in the attribute dictionary.
    pub const fn fastmath_in_dict(mut self) -> Self {
        self.flags = FlagsProp::Default(FlagKind::FastMath);
        self.flags_in_dict = true;
        self
    }
    /// One operand of class `class`, an `i1` result.
    pub const fn test(name: &'static str, summary: &'static str, class: TypeClass) -> Self {
        Self::new(name, summary, Shape::Test { class })
    }
    /// Two operands of classes `lhs` and `rhs`; the result has the lhs type.
    pub const fn mixed(
        name: &'static str,
        summary: &'static str,
        lhs: TypeClass,
        rhs: TypeClass,
    ) -> Self {
        Self::new(name, summary, Shape::Mixed { lhs, rhs })
    }
    /// A `fastmath` property present only when written.
    pub const fn optional_fastmath(mut self) -> Self {
        self.flags = FlagsProp::Optional(FlagKind::FastMath);
        self
    }
    /// An `overflowFlags` property that is always present.
    pub const fn overflow(mut self) -> Self {
        self.flags = FlagsProp::Default(FlagKind::Overflow);
        self
    }
    pub const fn rounding_mode(mut self) -> Self {
        self.rounding_mode = true;
        self
    }
    pub const fn commutative(mut self) -> Self {
        self.commutative = true;
        self
    }
    pub const fn fold(mut self, f: FoldFn) -> Self {
        self.fold = Some(f);
        self
    }
    pub const fn patterns(mut self, f: PatternsFn) -> Self {
        self.patterns = Some(f);
        self
    }
    /// The op's derivative rule: a `static` holding `&'static dyn ReverseRule`.
    pub const fn reverse(mut self, r: &'static &'static dyn ReverseRule) -> Self {
        self.reverse = Some(r);
        self
    }

    /// The registered op. `def` is a `static` holding a reference to the definition, so that the
    /// OpInfo can carry it as an interface.
    pub fn op_info(def: &'static &'static ElementwiseDef) -> OpInfo {
        let d: &'static ElementwiseDef = def;
        let mut traits = OpTraits::PURE;
        if d.commutative {
            traits = traits | OpTraits::COMMUTATIVE;
        }
        let mut info = OpInfo::new(d.name, d.summary)
            .traits(traits)
            .verify(verify)
            .syntax(parse, print)
            .interface::<ElementwiseDef>(def);
        if let Some(f) = d.fold {
            info = info.fold(f);
        }
        if let Some(p) = d.patterns {
            info = info.canonicalization(p);
        }
        if let Some(r) = d.reverse {
            info = info.interface::<dyn ReverseRule>(r);
        }
        info
    }

    /// The definition of a registered elementwise op.
    pub fn of(info: &OpInfo) -> Option<&'static ElementwiseDef> {
        info.get_interface::<ElementwiseDef>()
    }

    /// The definition of `op`, if it is a registered elementwise op.
    pub fn of_op(ctx: &Context, op: OpId) -> Option<&'static ElementwiseDef> {
        ctx.info(op).and_then(Self::of)
    }

    /// The names of the op's properties.
    pub fn prop_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self
            .flags
            .kind()
            .map(|k| k.prop_name())
            .into_iter()
            .collect();
        if self.rounding_mode {
            names.push("roundingmode");
        }
        names
    }

    /// The properties a newly built op gets (a `Default` flags property set to `none`).
    pub fn default_props(&self, ctx: &mut Context) -> Vec<(Ident, Attribute)> {
        match self.flags {
            FlagsProp::Default(kind) => {
                let a = kind.attr(ctx, 0);
                vec![(ctx.ident(kind.prop_name()), a)]
            }
            _ => Vec::new(),
        }
    }
}

/// The `roundingmode` property as a mode number, when it is well-formed.
fn rounding_mode_of(ctx: &Context, op: OpId) -> Option<Option<usize>> {
    let Some(a) = ctx.prop_or_attr(op, "roundingmode") else {
        return Some(None);
    };
    match ctx.attr_data(a) {
        AttrData::Integer { value, ty }
            if matches!(ctx.type_data(*ty), TypeData::Integer { width: 32, .. })
                && (0..ROUNDING_MODES.len() as i64).contains(value) =>
        {
            Some(Some(*value as usize))
        }
        _ => None,
    }
}

/// The rounding mode of a truncf-like op: None when absent or malformed.
pub fn rounding_mode(ctx: &Context, op: OpId) -> Option<usize> {
    rounding_mode_of(ctx, op).flatten()
}

fn verify(ctx: &Context, op: OpId) -> DiagResult<()> {
    let Some(def) = ElementwiseDef::of_op(ctx, op) else {
        return Ok(());
    };
    let c = Check::new(ctx, op);
    c.no_regions_or_successors()?;
    c.num_operands(def.shape.arity())?;
    c.one_result()?;
    c.known_props(&def.prop_names())?;
    if let Some(kind) = def.flags.kind() {
        c.flags(kind)?;
    }
    if def.rounding_mode && rounding_mode_of(ctx, op).is_none() {
        if let Some(a) = ctx.prop_or_attr(op, "roundingmode") {
            return Err(c.bad_prop("roundingmode", a));
        }
    }
    match def.shape {
        Shape::Same { arity, class } => {
            for i in 0..arity {
                c.operand_class(i, class)?;
            }
            c.result_class(0, class)?;
            c.same_operands_and_result()
        }
        Shape::Cast { from, to, rule } => {
            c.operand_class(0, from)?;
            c.result_class(0, to)?;
            let (a, b) = (
                ctx.value_type(ctx.operand(op, 0)),
                ctx.value_type(ctx.result(op, 0)),
            );
            if !rule.compatible(ctx, a, b) {
                return c.fail(format!(
                    "operand type '{}' and result type '{}' are cast incompatible",
                    type_str(ctx, a),
                    type_str(ctx, b)
                ));
            }
            Ok(())
        }
        Shape::Test { class } => {
            c.operand_class(0, class)?;
            c.result_class(0, TypeClass::Bool)
        }
        Shape::Mixed { lhs, rhs } => {
            c.operand_class(0, lhs)?;
            c.operand_class(1, rhs)?;
            c.result_class(0, lhs)?;
            if ctx.value_type(ctx.operand(op, 0)) != ctx.value_type(ctx.result(op, 0)) {
                return c.fail("failed to verify that all of {lhs, result} have same type");
            }
            Ok(())
        }
    }
}

fn parse(p: &mut dyn OpAsmParser, state: &mut OperationState) -> DiagResult<()> {
    let Some(def) = p.op_info().and_then(ElementwiseDef::of) else {
        return Err(p.error("expected a registered elementwise op"));
    };
    let arity = def.shape.arity();
    let mut operands = vec![p.parse_operand()?];
    for _ in 1..arity {
        p.parse_punct(",")?;
        operands.push(p.parse_operand()?);
    }
    if def.rounding_mode {
        if let Some(mode) = ROUNDING_MODES
            .iter()
            .position(|m| p.parse_optional_keyword(m))
        {
            let i32t = p.ctx().integer_type(32);
            let a = p.ctx().integer_attr(mode as i64, i32t);
            state.add_prop(p.ctx(), "roundingmode", a);
        }
    }
    if !def.flags_in_dict {
        parse_flags(p, state, def.flags)?;
    }
    parse_attr_dict(p, state, &def.prop_names())?;
    default_flags(p, state, def.flags);
    match def.shape {
        Shape::Same { .. } => {
            let ty = p.parse_colon_type()?;
            state.operands = p.resolve_operands(&operands, &vec![ty; arity])?;
            state.result_types.push(ty);
        }
        Shape::Cast { .. } => {
            let from = p.parse_colon_type()?;
            p.parse_keyword("to")?;
            let to = p.parse_type()?;
            state.operands = p.resolve_operands(&operands, &[from])?;
            state.result_types.push(to);
        }
        Shape::Test { .. } => {
            let ty = p.parse_colon_type()?;
            state.operands = p.resolve_operands(&operands, &[ty])?;
            state.result_types.push(p.ctx().integer_type(1));
        }
        Shape::Mixed { .. } => {
            let lhs = p.parse_colon_type()?;
            p.parse_punct(",")?;
            let rhs = p.parse_type()?;
            state.operands = p.resolve_operands(&operands, &[lhs, rhs])?;
            state.result_types.push(lhs);
        }
    }
    Ok(())
}

fn print(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let Some(def) = ElementwiseDef::of_op(ctx, op) else {
        return;
    };
    let operands = ctx.operand_vec(op);
    let in_ty = operands.first().map(|v| ctx.value_type(*v));
    let out_ty = ctx.results(op).first().map(|v| ctx.value_type(*v));
    let rhs_ty = operands.get(1).map(|v| ctx.value_type(*v));
    let mode = if def.rounding_mode {
        rounding_mode(ctx, op)
    } else {
        None
    };
    p.write(" ");
    p.print_operands(&operands);
    if let Some(m) = mode {
        p.write(" ");
        p.write(ROUNDING_MODES[m]);
    }
    if def.flags_in_dict {
        print_dict_flags(op, p, def);
    } else {
        print_flags(op, p, def.flags);
        print_attr_dict(op, p, &def.prop_names());
    }
    match def.shape {
        Shape::Same { .. } => {
            if let Some(t) = out_ty.or(in_ty) {
                p.write(" : ");
                p.print_type(t);
            }
        }
        Shape::Test { .. } => {
            if let Some(t) = in_ty {
                p.write(" : ");
                p.print_type(t);
            }
        }
        Shape::Mixed { .. } => {
            if let (Some(a), Some(b)) = (in_ty, rhs_ty) {
                p.write(" : ");
                p.print_type(a);
                p.write(", ");
                p.print_type(b);
            }
        }
        Shape::Cast { .. } => {
            if let (Some(a), Some(b)) = (in_ty, out_ty) {
                p.write(" : ");
                p.print_type(a);
                p.write(" to ");
                p.print_type(b);
            }
        }
    }
}

/// The attribute dictionary of an op whose flags live there: the flags first when not `none`
/// (upstream elides a default-valued property), then the discardable attributes.
fn print_dict_flags(op: OpId, p: &mut dyn OpAsmPrinter, def: &ElementwiseDef) {
    let ctx = p.ctx();
    let names = def.prop_names();
    let mut attrs = Vec::new();
    if let Some(kind) = def.flags.kind() {
        let shown = ctx
            .prop_or_attr(op, kind.prop_name())
            .filter(|a| kind.bits_of(ctx, *a) != Some(0));
        if let (Some(a), Some(id)) = (shown, ctx.lookup_ident(kind.prop_name())) {
            attrs.push((id, a));
        }
    }
    attrs.extend(
        ctx.attrs(op)
            .iter()
            .filter(|(k, _)| !names.contains(&ctx.ident_str(*k)))
            .copied(),
    );
    p.print_optional_attr_dict(&attrs, &[]);
}
