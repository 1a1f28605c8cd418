//! `func.func`: a function symbol with a signature and, unless it is a declaration, a body.
//!
//! ```text
//! func.func private @decl(i32, f32 {t.x}) -> (i1 {t.r = 1 : i32})
//! func.func @f(%arg0: i32 {t.a}) -> i32 attributes {t.fattr} {
//!   return %arg0 : i32
//! }
//! "func.func"() <{arg_attrs = [{t.a}], function_type = (i32) -> i32, sym_name = "f"}> ({
//! ^bb0(%arg0: i32):
//!   "func.return"(%arg0) : (i32) -> ()
//! }) {t.fattr} : () -> ()
//! ```
//!
//! Syntax and checks follow MLIR's `function_interface_impl` (parseFunctionOp /
//! printFunctionOp) and the Symbol and FunctionOpInterface verifiers, with their messages.

use crate::syntax::*;
use qd_ir::asm::{Argument, OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::prop;
use qd_ir::{
    AttrData, Attribute, BlockId, Builder, Context, DiagResult, Ident, Location, OpId, OpTraits,
    OperationState, RegionId, Type, Value,
};

qd_ir::declare_op! {
    /// A `func.func` op (see the module docs).
    pub struct FuncOp = "func.func" {
        summary: "a function: a symbol with a signature and, unless a declaration, a body",
        traits: [OpTraits::ISOLATED_FROM_ABOVE, OpTraits::SYMBOL],
        regions: [body as body_region: any],
        properties: [
            arg_attrs as _: optional(prop::AnyAttr),
            function_type as _: optional(prop::AnyAttr),
            res_attrs as _: optional(prop::AnyAttr),
            sym_name as _: optional(prop::AnyAttr),
            sym_visibility as _: optional(prop::AnyAttr),
        ],
        builder: none,
        syntax: (parse_func, print_func),
        verify: verify_func,
    }
}

/// The properties the custom syntax spells itself; `attributes {...}` may not name them.
const INFERRED: [&str; 5] = [
    "sym_name",
    "function_type",
    "sym_visibility",
    "arg_attrs",
    "res_attrs",
];

const VISIBILITIES: [&str; 3] = ["public", "private", "nested"];

impl FuncOp {
    /// Creates `func.func @name(inputs) -> results`: with `body`, an entry block whose arguments
    /// are the inputs (returned); without, a declaration (private, as MLIR requires).
    pub fn build(
        b: &mut Builder,
        name: &str,
        inputs: &[Type],
        results: &[Type],
        body: bool,
        loc: Location,
    ) -> (Self, Option<BlockId>) {
        let (region, entry) = if body {
            let args: Vec<(Type, Location)> = inputs.iter().map(|&t| (t, loc)).collect();
            let (r, blk) = b.ctx.create_region_with_block(&args);
            (r, Some(blk))
        } else {
            (b.ctx.create_region(), None)
        };
        let sym = b.ctx.string_attr(name);
        let ft = b.ctx.function_type(inputs.to_vec(), results.to_vec());
        let fta = b.ctx.type_attr(ft);
        let mut st = OperationState::new(FuncOp::NAME, loc)
            .prop(b.ctx, "sym_name", sym)
            .prop(b.ctx, "function_type", fta)
            .region(region);
        if !body {
            let private = b.ctx.string_attr("private");
            st.add_prop(b.ctx, "sym_visibility", private);
        }
        (FuncOp(b.insert(st)), entry)
    }

    /// The symbol name ("" when malformed).
    pub fn name(self, ctx: &Context) -> &str {
        match ctx.prop(self.0, "sym_name").map(|a| ctx.attr_data(a)) {
            Some(AttrData::String(s)) => s,
            _ => "",
        }
    }

    /// The `function_type` property, when it is a function type.
    pub fn function_type(self, ctx: &Context) -> Option<Type> {
        type_prop(ctx, self.0, "function_type").filter(|&t| signature(ctx, t).is_some())
    }

    /// Argument types (empty when malformed).
    pub fn inputs(self, ctx: &Context) -> &[Type] {
        self.function_type(ctx)
            .and_then(|t| signature(ctx, t))
            .map_or(&[], |(i, _)| i)
    }

    /// Result types (empty when malformed).
    pub fn results(self, ctx: &Context) -> &[Type] {
        self.function_type(ctx)
            .and_then(|t| signature(ctx, t))
            .map_or(&[], |(_, r)| r)
    }

    /// A declaration: the body region has no block.
    pub fn is_declaration(self, ctx: &Context) -> bool {
        ctx.regions(self.0)
            .first()
            .is_none_or(|&r| ctx.region_blocks(r).is_empty())
    }

    /// The entry block of a definition.
    pub fn entry_block(self, ctx: &Context) -> Option<BlockId> {
        ctx.regions(self.0)
            .first()
            .and_then(|&r| ctx.entry_block(r))
    }

    /// The function's arguments (the entry block's), empty for a declaration.
    pub fn args(self, ctx: &Context) -> Vec<Value> {
        self.entry_block(ctx)
            .map(|b| ctx.block_args(b).to_vec())
            .unwrap_or_default()
    }
}

/// The `func.func` directly holding `op` (its body's op), if any.
pub(crate) fn parent_func(ctx: &Context, op: OpId) -> Option<FuncOp> {
    ctx.parent_op(op).and_then(|p| FuncOp::from_op(ctx, p))
}

// ----- verification --------------------------------------------------------------------------

fn verify_func(ctx: &Context, op: OpId) -> DiagResult<()> {
    // ODS: required and constrained properties, in declaration order.
    check_prop(ctx, op, "sym_name", true, PropCheck::Str)?;
    check_prop(ctx, op, "function_type", true, PropCheck::FunctionType)?;
    check_prop(ctx, op, "sym_visibility", false, PropCheck::Str)?;
    check_prop(ctx, op, "arg_attrs", false, PropCheck::DictArray)?;
    check_prop(ctx, op, "res_attrs", false, PropCheck::DictArray)?;
    let f = FuncOp(op);
    // The Symbol trait.
    if let Some(AttrData::String(v)) = ctx.prop(op, "sym_visibility").map(|a| ctx.attr_data(a)) {
        if !VISIBILITIES.contains(&v.as_str()) {
            return Err(op_err(
                ctx,
                op,
                format!(
                    "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"{v}\""
                ),
            ));
        }
    }
    let public = !matches!(
        ctx.prop(op, "sym_visibility").map(|a| ctx.attr_data(a)),
        Some(AttrData::String(v)) if v != "public"
    );
    if f.is_declaration(ctx) && public {
        return Err(op_err(
            ctx,
            op,
            "symbol declaration cannot have public visibility",
        ));
    }
    // FunctionOpInterface.
    let (ins, outs) = (f.inputs(ctx), f.results(ctx));
    for (prop, what, n) in [
        ("arg_attrs", "argument", ins.len()),
        ("res_attrs", "result", outs.len()),
    ] {
        if let Some(AttrData::Array(xs)) = ctx.prop(op, prop).map(|a| ctx.attr_data(a)) {
            if xs.len() != n {
                let plural = if what == "argument" {
                    "arguments"
                } else {
                    "results"
                };
                return Err(op_err(
                    ctx,
                    op,
                    format!(
                        "expects {what} attribute array to have the same number of elements as the number of function {plural}, got {}, but expected {n}",
                        xs.len()
                    ),
                ));
            }
        }
    }
    if let Some(entry) = f.entry_block(ctx) {
        let args = ctx.block_args(entry);
        if args.len() != ins.len() {
            return Err(op_err(
                ctx,
                op,
                format!(
                    "entry block must have {} arguments to match function signature",
                    ins.len()
                ),
            ));
        }
        for (i, (&a, &t)) in args.iter().zip(ins).enumerate() {
            let at = ctx.value_type(a);
            if at != t {
                return Err(op_err(
                    ctx,
                    op,
                    format!(
                        "type of entry block argument #{i}({}) must match the type of the corresponding argument in function signature({})",
                        quoted(ctx, at),
                        quoted(ctx, t)
                    ),
                ));
            }
        }
    }
    Ok(())
}

// ----- custom syntax ---------------------------------------------------------------------------

/// A dictionary's entries.
type Dict = Vec<(Ident, Attribute)>;

/// One entry of the argument list: `%a: T {attrs} loc(...)` or, in a declaration, `T {attrs}`.
struct SigArg {
    arg: Option<Argument>,
    ty: Type,
    attrs: Dict,
}

fn parse_func(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let visibility = VISIBILITIES
        .into_iter()
        .find(|k| p.parse_optional_keyword(k));
    let name_loc = p.current_loc();
    let Some(name) = p.parse_optional_symbol_name() else {
        return Err(custom_err(
            p,
            name_loc,
            "expected valid '@'-identifier for symbol name",
        ));
    };
    let args = parse_arguments(p)?;
    let results = parse_results(p)?;
    if p.parse_optional_keyword("attributes") {
        let loc = p.current_loc();
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        if let Some((k, _)) = attrs
            .iter()
            .find(|(k, _)| INFERRED.contains(&p.ctx_ref().ident_str(*k)))
        {
            let k = p.ctx_ref().ident_str(*k).to_string();
            return Err(custom_err(
                p,
                loc,
                &format!("'{k}' is an inferred attribute and should not be specified in the explicit attribute dictionary"),
            ));
        }
        st.attributes.extend(attrs);
    }
    // The body: named arguments become the entry block's; a body after an unnamed signature
    // gets none (and fails the verifier, as in MLIR).
    let body_loc = p.current_loc();
    let entry: Vec<Argument> = args.iter().filter_map(|a| a.arg.clone()).collect();
    let region = match p.parse_optional_region(&entry)? {
        Some(r) => {
            if p.ctx_ref().region_blocks(r).is_empty() {
                return Err(custom_err(p, body_loc, "expected non-empty function body"));
            }
            r
        }
        None => p.ctx().create_region(),
    };
    let ctx = p.ctx();
    let sym = ctx.string_attr(&name);
    st.add_prop(ctx, "sym_name", sym);
    let ins: Vec<Type> = args.iter().map(|a| a.ty).collect();
    let outs: Vec<Type> = results.iter().map(|r| r.0).collect();
    let ft = ctx.function_type(ins, outs);
    let fta = ctx.type_attr(ft);
    st.add_prop(ctx, "function_type", fta);
    if let Some(v) = visibility {
        let va = ctx.string_attr(v);
        st.add_prop(ctx, "sym_visibility", va);
    }
    if let Some(a) = dict_array(ctx, args.into_iter().map(|a| a.attrs).collect()) {
        st.add_prop(ctx, "arg_attrs", a);
    }
    if let Some(a) = dict_array(ctx, results.into_iter().map(|r| r.1).collect()) {
        st.add_prop(ctx, "res_attrs", a);
    }
    st.regions.push(region);
    Ok(())
}

/// `(` arguments `)`: all named (`%a: T`) or all types only (a declaration's).
fn parse_arguments(p: &mut dyn OpAsmParser) -> DiagResult<Vec<SigArg>> {
    p.parse_punct("(")?;
    let mut out: Vec<SigArg> = Vec::new();
    if p.parse_optional_punct(")") {
        return Ok(out);
    }
    loop {
        let loc = p.current_loc();
        let named = out.first().map(|a| a.arg.is_some());
        let arg = p.parse_optional_argument(true)?;
        let entry = match (arg, named) {
            (Some(_), Some(false)) => {
                return Err(custom_err(
                    p,
                    loc,
                    "expected type instead of SSA identifier",
                ))
            }
            (None, Some(true)) => return Err(custom_err(p, loc, "expected SSA identifier")),
            (Some(mut a), _) => {
                let mut attrs = Vec::new();
                p.parse_optional_attr_dict(&mut attrs)?;
                if let Some(l) = p.parse_optional_location()? {
                    a.name.loc = Some(l);
                }
                let ty = a.ty.expect("parsed with its type");
                SigArg {
                    arg: Some(a),
                    ty,
                    attrs,
                }
            }
            (None, _) => {
                let ty = p.parse_type()?;
                let mut attrs = Vec::new();
                p.parse_optional_attr_dict(&mut attrs)?;
                p.parse_optional_location()?;
                SigArg {
                    arg: None,
                    ty,
                    attrs,
                }
            }
        };
        out.push(entry);
        if !p.parse_optional_punct(",") {
            break;
        }
    }
    p.parse_punct(")")?;
    Ok(out)
}

/// An optional `-> T` or `-> (T {attrs}, U)`.
fn parse_results(p: &mut dyn OpAsmParser) -> DiagResult<Vec<(Type, Dict)>> {
    let mut out = Vec::new();
    if !p.parse_optional_punct("->") {
        return Ok(out);
    }
    if !p.parse_optional_punct("(") {
        out.push((p.parse_type()?, Vec::new()));
        return Ok(out);
    }
    if p.parse_optional_punct(")") {
        return Ok(out);
    }
    loop {
        let ty = p.parse_type()?;
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        out.push((ty, attrs));
        if !p.parse_optional_punct(",") {
            break;
        }
    }
    p.parse_punct(")")?;
    Ok(out)
}

fn print_func(op: OpId, p: &mut dyn OpAsmPrinter) {
    let f = FuncOp(op);
    let ctx = p.ctx();
    let visibility = match ctx.prop(op, "sym_visibility").map(|a| ctx.attr_data(a)) {
        Some(AttrData::String(v)) => Some(v.clone()),
        _ => None,
    };
    let name = f.name(ctx).to_string();
    let ins = f.inputs(ctx).to_vec();
    let outs = f.results(ctx).to_vec();
    let args = f.args(ctx);
    let body: Option<RegionId> = ctx.regions(op).first().copied();
    p.write(" ");
    if let Some(v) = visibility {
        p.write(&v);
        p.write(" ");
    }
    p.print_symbol_name(&name);
    p.write("(");
    for (i, &t) in ins.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        let attrs = dict_at(p.ctx(), op, "arg_attrs", i);
        match args.get(i) {
            Some(&a) => {
                p.print_operand(a);
                p.write(": ");
                p.print_type(t);
                p.print_optional_attr_dict(&attrs, &[]);
                p.print_optional_location(a);
            }
            None => {
                p.print_type(t);
                p.print_optional_attr_dict(&attrs, &[]);
            }
        }
    }
    p.write(")");
    if !outs.is_empty() {
        p.write(" -> ");
        let res_attrs: Vec<_> = (0..outs.len())
            .map(|i| dict_at(p.ctx(), op, "res_attrs", i))
            .collect();
        if res_attrs.iter().all(|a| a.is_empty()) {
            print_results(p, &outs);
        } else {
            p.write("(");
            for (i, &t) in outs.iter().enumerate() {
                if i > 0 {
                    p.write(", ");
                }
                p.print_type(t);
                p.print_optional_attr_dict(&res_attrs[i], &[]);
            }
            p.write(")");
        }
    }
    let attrs = p.ctx().attrs(op).to_vec();
    if !attrs.is_empty() {
        p.write(" attributes");
        p.print_optional_attr_dict(&attrs, &[]);
    }
    if let Some(r) = body.filter(|&r| !p.ctx().region_blocks(r).is_empty()) {
        p.write(" ");
        p.print_region(r, false);
    }
}
