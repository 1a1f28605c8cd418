//! `lowered.kernel`, `lowered.task` and `lowered.return`.
//!
//! ```text
//! lowered.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) attributes {temps = 2} { tasks }
//! "lowered.kernel"() <{function_type = (!qd.ndarray<?xf32>, f32) -> (), sym_name = "k",
//!                      temps = 2 : i64}> ({ ^bb0(%arg0: ..., %arg1: f32): ... }) : () -> ()
//!
//! lowered.task @k_0 serial { ... lowered.return }
//! lowered.task @k_1 range(0, temp 1) adstacks [0, 2] attributes {foo} { ... lowered.return }
//! "lowered.task"() <{adstacks = array<i64: 0, 2>, begin = 0 : i64, end_temp = 1 : i64,
//!                    kind = "range", sym_name = "k_1"}> ({ ... }) {foo} : () -> ()
//! ```

use crate::verify::{err, expect_block, expect_terminator};
use crate::{RETURN_OP, TASK_OP};
use qd_frontend::types::{is_scalar, verify_type};
use qd_frontend::NdarrayType;
use qd_ir::asm::{Delimiter, OpAsmParser, OpAsmPrinter};
use qd_ir::op_def::prop;
use qd_ir::{
    AttrData, Attribute, BlockId, Context, DiagResult, Diagnostic, Ident, OpId, OpTraits,
    OperationState, TypeData, Value,
};

qd_ir::declare_op! {
    /// `lowered.kernel @k(args) attributes {temps = N} { tasks }`.
    pub struct KernelOp = "lowered.kernel" {
        summary: "a kernel: its tasks run in order, each finishing before the next starts",
        traits: [
            OpTraits::SYMBOL,
            OpTraits::SYMBOL_TABLE,
            OpTraits::ISOLATED_FROM_ABOVE,
            OpTraits::NO_TERMINATOR,
            OpTraits::SINGLE_BLOCK,
        ],
        regions: [body: single_block],
        properties: [
            sym_name as name: required(prop::SymbolName),
            function_type: required(prop::TypeAttr),
            temps: required(prop::NonNeg<u32>) => set_temps,
        ],
        syntax: (parse_kernel, print_kernel),
        verify: verify_kernel,
    }
}

qd_ir::declare_op! {
    /// `lowered.task @k_n serial { ... }` or `lowered.task @k_n range(B, E) adstacks [...] { ... }`.
    pub struct TaskOp = "lowered.task" {
        summary: "a dispatch: one thread (serial) or one thread per iteration of [begin, end) (range)",
        traits: [OpTraits::SYMBOL, OpTraits::ISOLATED_FROM_ABOVE, OpTraits::SINGLE_BLOCK],
        regions: [body: single_block],
        properties: [
            sym_name as name: required(prop::SymbolName),
            kind as _: required(prop::Str),
            begin: optional(prop::Int),
            end: optional(prop::Int),
            begin_temp: optional(prop::NonNeg<u32>),
            end_temp: optional(prop::NonNeg<u32>),
            adstacks as _: optional(prop::DenseI64Array),
        ],
        syntax: (parse_task, print_task),
        verify: verify_task,
    }
}

qd_ir::declare_op! {
    /// `lowered.return`: ends a task.
    pub struct ReturnOp = "lowered.return" {
        summary: "ends a task",
        traits: [OpTraits::TERMINATOR],
        format: "attr-dict",
        verify: verify_return,
    }
}

// ----- kernel ------------------------------------------------------------------------------

impl KernelOp {
    /// The body block, when the region has one.
    pub fn body_block(self, ctx: &Context) -> Option<BlockId> {
        ctx.entry_block(self.body(ctx))
    }
    /// The argument types (from `function_type`).
    pub fn arg_types(self, ctx: &Context) -> Vec<qd_ir::Type> {
        match ctx.type_data(self.function_type(ctx)) {
            TypeData::Function { inputs, .. } => inputs.clone(),
            _ => Vec::new(),
        }
    }
    /// The tasks, in order.
    pub fn tasks(self, ctx: &Context) -> Vec<TaskOp> {
        self.body_block(ctx)
            .map(|b| {
                ctx.block_ops(b)
                    .filter_map(|o| TaskOp::from_op(ctx, o))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn verify_kernel(ctx: &Context, op: OpId) -> DiagResult<()> {
    let k = KernelOp(op);
    let TypeData::Function { inputs, results } = ctx.type_data(k.function_type(ctx)) else {
        return Err(err(
            ctx,
            op,
            "expects 'function_type' to be a function type",
        ));
    };
    if !results.is_empty() {
        return Err(err(ctx, op, "expects a kernel to return nothing"));
    }
    for (i, &t) in inputs.iter().enumerate() {
        let ok = is_scalar(ctx, t) || NdarrayType::from_type(ctx, t).is_some();
        if !ok || verify_type(ctx, t).is_err() {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects argument {i} to be an integer or float scalar or a !qd.ndarray, got {}",
                    qd_ir::text::type_to_string(ctx, t)
                ),
            ));
        }
    }
    match k.body_block(ctx) {
        Some(b) => {
            let got: Vec<_> = ctx
                .block_args(b)
                .iter()
                .map(|&a| ctx.value_type(a))
                .collect();
            if &got != inputs {
                return Err(err(
                    ctx,
                    op,
                    "expects the body block's arguments to match 'function_type'",
                ));
            }
            if let Some(o) = ctx.block_ops(b).find(|&o| ctx.name(o) != TASK_OP) {
                return Err(err(
                    ctx,
                    op,
                    format!(
                        "expects only 'lowered.task' ops in its body, got '{}'",
                        ctx.name(o)
                    ),
                ));
            }
        }
        None if !inputs.is_empty() => {
            return Err(err(
                ctx,
                op,
                "expects a body block with the kernel's arguments",
            ))
        }
        None => {}
    }
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

/// `@k(%a: T, ...) [attributes {temps = N, attrs...}] { ... }`.
fn parse_kernel(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let name = p.parse_symbol_name()?;
    let args = p.parse_argument_list(Delimiter::Paren, true)?;
    if p.parse_optional_keyword("attributes") {
        let mut entries = Vec::new();
        p.parse_optional_attr_dict(&mut entries)?;
        for (k, v) in entries {
            if p.ctx_ref().ident_str(k) == "temps" {
                st.properties.push((k, v));
            } else {
                st.attributes.push((k, v));
            }
        }
    }
    let tys: Vec<qd_ir::Type> = args.iter().filter_map(|a| a.ty).collect();
    let region = p.parse_region(&args)?;
    // A symbol table has one block, even when it holds no task.
    if p.ctx_ref().region_blocks(region).is_empty() {
        let b = p.ctx().create_block(&[]);
        p.ctx().append_block(region, b);
    }
    let sym = p.ctx().string_attr(&name);
    st.add_prop(p.ctx(), "sym_name", sym);
    let ft = p.ctx().function_type(tys, vec![]);
    let fta = p.ctx().type_attr(ft);
    st.add_prop(p.ctx(), "function_type", fta);
    st.regions.push(region);
    Ok(())
}

fn string_prop(ctx: &Context, op: OpId, name: &str) -> Option<String> {
    match ctx.attr_data(ctx.prop(op, name)?) {
        AttrData::String(s) => Some(s.clone()),
        _ => None,
    }
}

/// Whether a dictionary key prints as a bare identifier (`[A-Za-z_][A-Za-z0-9_$.]*`).
fn is_bare_key(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// Prints ` keyword {k = v, ...}` (nothing when empty); `temps` prints as a bare integer when it
/// is an i64, as the parser reads it back.
fn print_dict(p: &mut dyn OpAsmPrinter, keyword: &str, entries: &[(Ident, Attribute)]) {
    if entries.is_empty() {
        return;
    }
    p.write(" ");
    p.write(keyword);
    p.write(" {");
    for (n, &(k, a)) in entries.iter().enumerate() {
        if n > 0 {
            p.write(", ");
        }
        let key = p.ctx().ident_str(k).to_string();
        if is_bare_key(&key) {
            p.write(&key);
        } else {
            p.print_string(&key);
        }
        let bare_int = key == "temps"
            && matches!(p.ctx().attr_data(a), AttrData::Integer { ty, .. }
                if matches!(p.ctx().type_data(*ty), TypeData::Integer { width: 64, .. }));
        match p.ctx().attr_data(a) {
            AttrData::Unit => {}
            _ if bare_int => {
                p.write(" = ");
                p.print_attribute_without_type(a);
            }
            _ => {
                p.write(" = ");
                p.print_attribute(a);
            }
        }
    }
    p.write("}");
}

fn print_kernel(op: OpId, p: &mut dyn OpAsmPrinter) {
    let name = string_prop(p.ctx(), op, "sym_name").unwrap_or_default();
    p.write(" ");
    p.print_symbol_name(&name);
    let ctx = p.ctx();
    let args: Vec<Value> = ctx
        .regions(op)
        .first()
        .and_then(|&r| ctx.entry_block(r))
        .map(|b| ctx.block_args(b).to_vec())
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
    // `temps` (and any property the verifier rejects) print with the discardable attributes.
    let ctx = p.ctx();
    let entries: Vec<(Ident, Attribute)> = ctx
        .properties(op)
        .iter()
        .filter(|(k, _)| !matches!(ctx.ident_str(*k), "sym_name" | "function_type"))
        .chain(ctx.attrs(op))
        .copied()
        .collect();
    print_dict(p, "attributes", &entries);
    match p.ctx().regions(op).first() {
        Some(&r) => {
            p.write(" ");
            p.print_region(r, false);
        }
        None => p.write(" {\n}"),
    }
}

// ----- task --------------------------------------------------------------------------------

/// A bound of a range task.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TaskBound {
    Const(i64),
    /// Read at launch from this temporaries slot.
    Temp(u32),
}

/// What a task dispatches.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TaskKind {
    Serial,
    Range { begin: TaskBound, end: TaskBound },
}

impl TaskOp {
    /// The body block, when the region has one.
    pub fn body_block(self, ctx: &Context) -> Option<BlockId> {
        ctx.entry_block(self.body(ctx))
    }
    fn bound(self, ctx: &Context, name: &str) -> Option<TaskBound> {
        if let Some(c) = ctx
            .prop(self.0, name)
            .and_then(|a| ctx.attr_data(a).as_int())
        {
            return Some(TaskBound::Const(c));
        }
        let slot = ctx.prop(self.0, &format!("{name}_temp"))?;
        match ctx.attr_data(slot) {
            AttrData::Integer { value, .. } => u32::try_from(*value).ok().map(TaskBound::Temp),
            _ => None,
        }
    }
    /// The dispatch (None for IR that does not verify).
    pub fn kind(self, ctx: &Context) -> Option<TaskKind> {
        match string_prop(ctx, self.0, "kind").as_deref() {
            Some("serial") => Some(TaskKind::Serial),
            Some("range") => Some(TaskKind::Range {
                begin: self.bound(ctx, "begin")?,
                end: self.bound(ctx, "end")?,
            }),
            _ => None,
        }
    }
    /// The ids of the adstacks the task uses (empty when it has none).
    pub fn adstacks(self, ctx: &Context) -> Vec<u32> {
        match ctx.prop(self.0, "adstacks").map(|a| ctx.attr_data(a)) {
            Some(AttrData::DenseIntArray { values, .. }) => values
                .iter()
                .filter_map(|&v| u32::try_from(v).ok())
                .collect(),
            _ => Vec::new(),
        }
    }
    /// Sets the dispatch.
    pub fn set_kind(self, ctx: &mut Context, kind: TaskKind) {
        for p in ["begin", "end", "begin_temp", "end_temp"] {
            ctx.remove_prop(self.0, p);
        }
        let (name, bounds) = match kind {
            TaskKind::Serial => ("serial", None),
            TaskKind::Range { begin, end } => ("range", Some((begin, end))),
        };
        let k = ctx.string_attr(name);
        ctx.set_prop(self.0, "kind", k);
        let i64t = ctx.i64_type();
        if let Some((b, e)) = bounds {
            for (n, bound) in [("begin", b), ("end", e)] {
                match bound {
                    TaskBound::Const(c) => {
                        let a = ctx.integer_attr(c, i64t);
                        ctx.set_prop(self.0, n, a);
                    }
                    TaskBound::Temp(s) => {
                        let a = ctx.integer_attr(i64::from(s), i64t);
                        ctx.set_prop(self.0, &format!("{n}_temp"), a);
                    }
                }
            }
        }
    }
    /// Sets the adstack ids (removes the property when empty).
    pub fn set_adstacks(self, ctx: &mut Context, ids: &[u32]) {
        if ids.is_empty() {
            ctx.remove_prop(self.0, "adstacks");
            return;
        }
        let i64t = ctx.i64_type();
        let a = ctx.intern_attr(AttrData::DenseIntArray {
            elem: i64t,
            values: ids.iter().map(|&i| i64::from(i)).collect(),
        });
        ctx.set_prop(self.0, "adstacks", a);
    }
}

fn verify_task(ctx: &Context, op: OpId) -> DiagResult<()> {
    let t = TaskOp(op);
    let kernel = ctx.parent_op(op);
    if let Some(k) = kernel {
        if KernelOp::from_op(ctx, k).is_none() {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects its parent to be a 'lowered.kernel', got '{}'",
                    ctx.name(k)
                ),
            ));
        }
    }
    let has = |p: &str| ctx.prop(op, p).is_some();
    match string_prop(ctx, op, "kind").as_deref() {
        Some("serial") => {
            if let Some(p) = ["begin", "end", "begin_temp", "end_temp"]
                .into_iter()
                .find(|p| has(p))
            {
                return Err(err(ctx, op, format!("expects no '{p}' on a serial task")));
            }
        }
        Some("range") => {
            for b in ["begin", "end"] {
                let temp = format!("{b}_temp");
                match (has(b), has(&temp)) {
                    (true, true) => {
                        return Err(err(
                            ctx,
                            op,
                            format!("expects one of '{b}' and '{temp}', got both"),
                        ))
                    }
                    (false, false) => {
                        return Err(err(
                            ctx,
                            op,
                            format!("expects '{b}' or '{temp}' on a range task"),
                        ))
                    }
                    _ => {}
                }
            }
        }
        _ => {
            return Err(err(
                ctx,
                op,
                "expects property 'kind' to be \"serial\" or \"range\"",
            ))
        }
    }
    if let Some(temps) = kernel.and_then(|k| KernelOp(k).temps_checked(ctx)) {
        for b in ["begin_temp", "end_temp"] {
            if let Some(TaskBound::Temp(s)) = t.bound(ctx, &b[..b.len() - 5]) {
                if s >= temps {
                    return Err(err(
                        ctx,
                        op,
                        format!("reads temporaries slot {s}, but the kernel has {temps}"),
                    ));
                }
            }
        }
    }
    if let Some(a) = ctx.prop(op, "adstacks") {
        let AttrData::DenseIntArray { values, .. } = ctx.attr_data(a) else {
            return Err(err(
                ctx,
                op,
                "property 'adstacks' must be an array<i64: ...>",
            ));
        };
        let mut seen = Vec::new();
        for &v in values {
            if u32::try_from(v).is_err() {
                return Err(err(
                    ctx,
                    op,
                    format!("expects adstack ids in [0, 2^32), got {v}"),
                ));
            }
            if seen.contains(&v) {
                return Err(err(ctx, op, format!("lists adstack id {v} twice")));
            }
            seen.push(v);
        }
    }
    expect_block(ctx, op, 0, "body")?;
    expect_terminator(ctx, op, 0, RETURN_OP, "body")
}

impl KernelOp {
    /// `temps`, when well-formed (for verifiers that read unverified IR).
    pub fn temps_checked(self, ctx: &Context) -> Option<u32> {
        match ctx.attr_data(ctx.prop(self.0, "temps")?) {
            AttrData::Integer { value, .. } => u32::try_from(*value).ok(),
            _ => None,
        }
    }
}

fn parse_bound(p: &mut dyn OpAsmParser, st: &mut OperationState, name: &str) -> DiagResult<()> {
    let i64t = p.ctx().i64_type();
    if p.parse_optional_keyword("temp") {
        let loc = p.current_loc();
        let s = p.parse_integer()?;
        if s < 0 {
            return Err(Diagnostic::error(
                loc,
                "expected a non-negative temporaries slot",
            ));
        }
        let a = p.ctx().integer_attr(s, i64t);
        st.add_prop(p.ctx(), &format!("{name}_temp"), a);
    } else {
        let c = p.parse_integer()?;
        let a = p.ctx().integer_attr(c, i64t);
        st.add_prop(p.ctx(), name, a);
    }
    Ok(())
}

/// `@name serial|range(B, E) [adstacks [ids]] [attributes {...}] { ... }`.
fn parse_task(p: &mut dyn OpAsmParser, st: &mut OperationState) -> DiagResult<()> {
    let name = p.parse_symbol_name()?;
    let sym = p.ctx().string_attr(&name);
    st.add_prop(p.ctx(), "sym_name", sym);
    let loc = p.current_loc();
    let kind = p.parse_any_keyword()?;
    match kind.as_str() {
        "serial" => {}
        "range" => {
            p.parse_punct("(")?;
            parse_bound(p, st, "begin")?;
            p.parse_punct(",")?;
            parse_bound(p, st, "end")?;
            p.parse_punct(")")?;
        }
        _ => {
            return Err(Diagnostic::error(
                loc,
                format!("expected 'serial' or 'range', got '{kind}'"),
            ))
        }
    }
    let k = p.ctx().string_attr(&kind);
    st.add_prop(p.ctx(), "kind", k);
    if p.parse_optional_keyword("adstacks") {
        p.parse_punct("[")?;
        let mut ids = Vec::new();
        if !p.parse_optional_punct("]") {
            loop {
                ids.push(p.parse_integer()?);
                if p.parse_optional_punct("]") {
                    break;
                }
                p.parse_punct(",")?;
            }
        }
        let i64t = p.ctx().i64_type();
        let a = p.ctx().intern_attr(AttrData::DenseIntArray {
            elem: i64t,
            values: ids,
        });
        st.add_prop(p.ctx(), "adstacks", a);
    }
    if p.parse_optional_keyword("attributes") {
        let mut attrs = Vec::new();
        p.parse_optional_attr_dict(&mut attrs)?;
        st.attributes.extend(attrs);
    }
    st.regions.push(p.parse_region(&[])?);
    Ok(())
}

fn print_bound(p: &mut dyn OpAsmPrinter, op: OpId, name: &str) {
    let ctx = p.ctx();
    let int = |n: &str| ctx.prop(op, n).map(|a| (a, ctx.attr_data(a).as_int()));
    match (int(name), int(&format!("{name}_temp"))) {
        (Some((_, Some(c))), None) => p.write(&c.to_string()),
        (None, Some((_, Some(s)))) => p.write(&format!("temp {s}")),
        _ => p.write(&format!("<<bad {name}>>")),
    }
}

fn print_task(op: OpId, p: &mut dyn OpAsmPrinter) {
    let ctx = p.ctx();
    let name = string_prop(ctx, op, "sym_name").unwrap_or_default();
    let kind = string_prop(ctx, op, "kind");
    p.write(" ");
    p.print_symbol_name(&name);
    match kind.as_deref() {
        Some("serial") => p.write(" serial"),
        Some("range") => {
            p.write(" range(");
            print_bound(p, op, "begin");
            p.write(", ");
            print_bound(p, op, "end");
            p.write(")");
        }
        other => p.write(&format!(" <<bad kind {other:?}>>")),
    }
    let ctx = p.ctx();
    let known = [
        "sym_name",
        "kind",
        "begin",
        "end",
        "begin_temp",
        "end_temp",
        "adstacks",
    ];
    if let Some(a) = ctx.prop(op, "adstacks") {
        match ctx.attr_data(a) {
            AttrData::DenseIntArray { values, .. } => {
                let ids: Vec<String> = values.iter().map(|v| v.to_string()).collect();
                p.write(&format!(" adstacks [{}]", ids.join(", ")));
            }
            _ => p.write(" <<bad adstacks>>"),
        }
    }
    // Properties the verifier rejects print with the discardable attributes.
    let ctx = p.ctx();
    let entries: Vec<(Ident, Attribute)> = ctx
        .properties(op)
        .iter()
        .filter(|(k, _)| !known.contains(&ctx.ident_str(*k)))
        .chain(ctx.attrs(op))
        .copied()
        .collect();
    print_dict(p, "attributes", &entries);
    match p.ctx().regions(op).first() {
        Some(&r) => {
            p.write(" ");
            p.print_region(r, false);
        }
        None => p.write(" {\n}"),
    }
}

fn verify_return(ctx: &Context, op: OpId) -> DiagResult<()> {
    match ctx.parent_op(op) {
        Some(p) if ctx.name(p) != TASK_OP => Err(err(
            ctx,
            op,
            format!(
                "expects its parent to be a 'lowered.task', got '{}'",
                ctx.name(p)
            ),
        )),
        _ => Ok(()),
    }
}
