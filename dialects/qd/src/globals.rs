//! Module-level symbols: `qd.field` and `qd.kernel`.
//!
//! ```text
//! qd.field @x : !qd.field<16xf32> {needs_grad}
//! "qd.field"() <{needs_grad, sym_name = "x", type = !qd.field<16xf32>}> : () -> ()
//!
//! qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) attributes {foo} { ... }
//! "qd.kernel"() <{function_type = (!qd.ndarray<?xf32>, f32) -> (), sym_name = "k"}> ({
//! ^bb0(%arg0: !qd.ndarray<?xf32>, %arg1: f32): ... }) {foo} : () -> ()
//! ```

use crate::syntax::*;
use crate::types::{is_scalar, FieldType, NdarrayType};
use crate::verify::*;
use qd_ir::asm::{Delimiter, OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::prop;
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    AttrData, BlockId, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits,
    OperationState, Type, TypeData, Value,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![FieldOp::op_info(), KernelOp::op_info()]
}

qd_ir::declare_op! {
    /// A `qd.field` op: `qd.field @x : !qd.field<16xf32> {needs_grad}`.
    pub struct FieldOp = "qd.field" {
        summary: "a dense global array (scalar when its shape is empty)",
        traits: [OpTraits::SYMBOL],
        properties: [
            sym_name as _: required(prop::SymbolName),
            type as _: required(prop::TypeAttr),
            needs_grad as _: optional(prop::Flag),
        ],
        builder: none,
        format: "$sym_name `:` $type attr-dict",
        verify: verify_field,
    }
}

qd_ir::declare_op! {
    /// A `qd.kernel` op: `qd.kernel @k(%a: !qd.ndarray<?xf32>) attributes {...} { ... }`.
    pub struct KernelOp = "qd.kernel" {
        summary: "a kernel: its top-level loops run in parallel",
        traits: [
            OpTraits::ISOLATED_FROM_ABOVE,
            OpTraits::SYMBOL,
            OpTraits::NO_TERMINATOR,
            OpTraits::SINGLE_BLOCK,
        ],
        regions: [body as body_region: single_block],
        properties: [
            function_type as _: required(prop::TypeAttr),
            sym_name as _: required(prop::SymbolName),
        ],
        builder: none,
        syntax: (parse_kernel, print_kernel),
        verify: verify_kernel,
    }
}

fn sym_name_of(ctx: &Context, op: OpId) -> &str {
    match ctx.prop(op, "sym_name").map(|a| ctx.attr_data(a)) {
        Some(AttrData::String(s)) => s,
        _ => "",
    }
}

/// Symbols live directly in a symbol table (a `builtin.module`).
fn check_parent(ctx: &Context, op: OpId) -> DiagResult<()> {
    match ctx.parent_op(op) {
        Some(p) if !ctx.has_trait(p, OpTraits::SYMBOL_TABLE) => Err(err(
            ctx,
            op,
            format!(
                "expects its parent to be a symbol table (such as 'builtin.module'), got '{}'",
                ctx.name(p)
            ),
        )),
        _ => Ok(()),
    }
}

// ----- qd.field ----------------------------------------------------------------------------

impl FieldOp {
    /// Creates `qd.field @name : ty` (with `{needs_grad}` when asked).
    pub fn build(b: &mut Builder, name: &str, ty: Type, needs_grad: bool, loc: Location) -> Self {
        let sym = b.ctx.string_attr(name);
        let ta = b.ctx.type_attr(ty);
        let mut st = OperationState::new(FieldOp::NAME, loc)
            .prop(b.ctx, "sym_name", sym)
            .prop(b.ctx, "type", ta);
        if needs_grad {
            let u = b.ctx.unit_attr();
            st.add_prop(b.ctx, "needs_grad", u);
        }
        FieldOp(b.insert(st))
    }
    pub fn name(self, ctx: &Context) -> &str {
        sym_name_of(ctx, self.0)
    }
    pub fn field_type(self, ctx: &Context) -> FieldType {
        match ctx.prop(self.0, "type").map(|a| ctx.attr_data(a)) {
            Some(AttrData::Type(t)) => FieldType(*t),
            _ => panic!("qd.field without a type (verify first)"),
        }
    }
    pub fn shape(self, ctx: &Context) -> Vec<i64> {
        self.field_type(ctx).shape(ctx)
    }
    pub fn elem(self, ctx: &Context) -> Type {
        self.field_type(ctx).elem(ctx)
    }
    /// Whether the field has an adjoint field (of the same shape).
    pub fn needs_grad(self, ctx: &Context) -> bool {
        ctx.prop(self.0, "needs_grad").is_some()
    }
    pub fn set_needs_grad(self, ctx: &mut Context, on: bool) {
        if on {
            let u = ctx.unit_attr();
            ctx.set_prop(self.0, "needs_grad", u);
        } else {
            ctx.remove_prop(self.0, "needs_grad");
        }
    }
}

/// The `qd.field` named `name` in the nearest symbol table above `from`.
pub fn lookup_field(ctx: &Context, from: OpId, name: &str) -> Option<FieldOp> {
    lookup_symbol(ctx, from, name).and_then(|op| FieldOp::from_op(ctx, op))
}

/// As [`lookup_field`], resolved through `symbols`: passes that look up a field per op build the
/// collection once per run (fields do not change while they run), so lookups stay O(1).
pub fn lookup_field_in(
    ctx: &Context,
    symbols: &mut SymbolTableCollection,
    from: OpId,
    name: &str,
) -> Option<FieldOp> {
    symbols
        .lookup_symbol_from(ctx, from, name)
        .and_then(|op| FieldOp::from_op(ctx, op))
}

fn verify_field(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ty = type_prop(ctx, op, "type")?;
    if FieldType::from_type(ctx, ty).is_none() {
        return Err(err(
            ctx,
            op,
            format!("expects a !qd.field type, got {}", type_str(ctx, ty)),
        ));
    }
    check_type(ctx, op, ty, "invalid field type")?;
    check_parent(ctx, op)
}

// ----- qd.kernel ---------------------------------------------------------------------------

impl KernelOp {
    /// Creates `qd.kernel @name(args)` with an empty body block whose arguments are the kernel's.
    pub fn build(b: &mut Builder, name: &str, arg_types: &[Type], loc: Location) -> Self {
        let args: Vec<(Type, Location)> = arg_types.iter().map(|&t| (t, loc)).collect();
        let (region, _) = b.ctx.create_region_with_block(&args);
        let sym = b.ctx.string_attr(name);
        let ft = b.ctx.function_type(arg_types.to_vec(), vec![]);
        let fta = b.ctx.type_attr(ft);
        let st = OperationState::new(KernelOp::NAME, loc)
            .prop(b.ctx, "sym_name", sym)
            .prop(b.ctx, "function_type", fta)
            .region(region);
        KernelOp(b.insert(st))
    }
    pub fn name(self, ctx: &Context) -> &str {
        sym_name_of(ctx, self.0)
    }
    /// The argument types (from `function_type`).
    pub fn arg_types(self, ctx: &Context) -> Vec<Type> {
        match ctx.prop(self.0, "function_type").map(|a| ctx.attr_data(a)) {
            Some(AttrData::Type(t)) => match ctx.type_data(*t) {
                TypeData::Function { inputs, .. } => inputs.clone(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
    /// The body block; None only for an argument-less kernel whose body is an empty region.
    pub fn body(self, ctx: &Context) -> Option<BlockId> {
        ctx.entry_block(self.body_region(ctx))
    }
    /// The body block, created (empty) when the body region has none.
    pub fn ensure_body(self, ctx: &mut Context) -> BlockId {
        let r = self.body_region(ctx);
        match ctx.entry_block(r) {
            Some(b) => b,
            None => {
                let b = ctx.create_block(&[]);
                ctx.append_block(r, b);
                b
            }
        }
    }
    /// The kernel's arguments (the body block's arguments).
    pub fn args(self, ctx: &Context) -> Vec<Value> {
        self.body(ctx)
            .map(|b| ctx.block_args(b).to_vec())
            .unwrap_or_default()
    }
}

/// The `qd.kernel` that holds `op` (or `op` itself), if any.
pub fn enclosing_kernel(ctx: &Context, op: OpId) -> Option<KernelOp> {
    let mut cur = Some(op);
    while let Some(o) = cur {
        if let Some(k) = KernelOp::from_op(ctx, o) {
            return Some(k);
        }
        cur = ctx.parent_op(o);
    }
    None
}

fn verify_kernel(ctx: &Context, op: OpId) -> DiagResult<()> {
    let ft = type_prop(ctx, op, "function_type")?;
    let TypeData::Function { inputs, results } = ctx.type_data(ft) else {
        return Err(err(
            ctx,
            op,
            format!(
                "expects 'function_type' to be a function type, got {}",
                type_str(ctx, ft)
            ),
        ));
    };
    if !results.is_empty() {
        return Err(err(
            ctx,
            op,
            format!(
                "expects a kernel to return nothing, got {} results",
                results.len()
            ),
        ));
    }
    for (i, &t) in inputs.iter().enumerate() {
        if !is_scalar(ctx, t) && NdarrayType::from_type(ctx, t).is_none() {
            return Err(err(
                ctx,
                op,
                format!("expects argument {i} to be an integer or float scalar or a !qd.ndarray, got {}", type_str(ctx, t)),
            ));
        }
        check_type(ctx, op, t, &format!("argument {i} has an invalid type"))?;
    }
    check_body(ctx, op, 0, inputs, "body")?;
    check_parent(ctx, op)
}

fn parse_kernel(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let name = p.parse_symbol_name()?;
    let args = p.parse_argument_list(Delimiter::Paren, true)?;
    if p.parse_optional_keyword("attributes") {
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        st.attributes.extend(attrs);
    }
    let tys: Vec<Type> = args.iter().filter_map(|a| a.ty).collect();
    let region = parse_body(p, &args)?;
    let sym = p.ctx().string_attr(&name);
    st.add_prop(p.ctx(), "sym_name", sym);
    let ft = p.ctx().function_type(tys, vec![]);
    let fta = p.ctx().type_attr(ft);
    st.add_prop(p.ctx(), "function_type", fta);
    st.regions.push(region);
    Ok(())
}

fn print_kernel(op: OpId, p: &mut dyn OpAsmPrinter) {
    let name = sym_name_of(p.ctx(), op).to_string();
    p.write(" ");
    p.print_symbol_name(&name);
    let args: Vec<Value> = p
        .ctx()
        .regions(op)
        .first()
        .and_then(|&r| p.ctx().entry_block(r))
        .map(|b| p.ctx().block_args(b).to_vec())
        .unwrap_or_default();
    p.write("(");
    for (i, &a) in args.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.print_operand(a);
        p.write(": ");
        let t = p.ctx().value_type(a);
        p.print_type(t);
        p.print_optional_location(a);
    }
    p.write(")");
    if !p.ctx().attrs(op).is_empty() {
        p.write(" attributes");
        print_attrs(p, op);
    }
    print_region_at(p, op, 0);
}
