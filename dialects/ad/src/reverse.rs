//! `ad.reverse`: the module-level declaration that a gradient kernel of `@k` is wanted.
//!
//! ```text
//! ad.reverse @k                                  // wanted; activity by default
//! ad.reverse @k {active = [true, false]}         // one bool per argument of @k
//! ad.reverse @k -> @k_grad                       // after reverse-mode-ad: the gradient kernel
//! "ad.reverse"() <{active = [true, false], gradient = @k_grad, kernel = @k}> : () -> ()
//! ```
//!
//! Gradient kernel convention: `@k_grad(args..., adj_1, ..., adj_m)` takes the arguments of `@k`
//! followed by one adjoint ndarray per ACTIVE ndarray argument of `@k` (in argument order, each of
//! its primal's type). Active, by default, means a float-element ndarray; `active` overrides it
//! (only float ndarray arguments may be active). [`gradient_arg_types`] computes the signature.

use crate::verify::*;
use qd_frontend::{KernelOp, NdarrayType, KERNEL_OP};
use qd_ir::op_def::prop;
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    AttrData, Attribute, Builder, Context, DiagResult, Location, OpId, OpInfo, OpTraits, Type,
};

pub(crate) fn ops() -> Vec<OpInfo> {
    vec![ReverseOp::op_info()]
}

qd_ir::declare_op! {
    /// `ad.reverse @k [-> @k_grad] [{active = [...]}]`.
    pub struct ReverseOp = "ad.reverse" {
        summary: "declares that a gradient kernel of a kernel is wanted",
        properties: [
            kernel as _: required(prop::SymbolRef),
            gradient as _: optional(prop::SymbolRef),
            active: optional(prop::BoolArray),
        ],
        builder: create,
        format: "$kernel (`->` $gradient^)? attr-dict",
        verify: verify_reverse,
        verify_symbol_uses: verify_reverse_symbols,
    }
}

fn sym_of(ctx: &Context, op: OpId, name: &str) -> Option<String> {
    match ctx.attr_data(ctx.prop(op, name)?) {
        AttrData::SymbolRef { root, .. } => Some(ctx.ident_str(*root).to_string()),
        _ => None,
    }
}

impl ReverseOp {
    /// Creates `ad.reverse @kernel`.
    pub fn build(b: &mut Builder, kernel: &str, loc: Location) -> Self {
        ReverseOp::create(b, kernel, None, None, loc)
    }
    /// The primal kernel's name ("" when missing: the duplicate check reads unverified ops).
    pub fn kernel_name(self, ctx: &Context) -> String {
        sym_of(ctx, self.0, "kernel").unwrap_or_default()
    }
    /// The gradient kernel's name, once reverse-mode-ad has set it.
    pub fn gradient_name(self, ctx: &Context) -> Option<String> {
        sym_of(ctx, self.0, "gradient")
    }
    pub fn set_gradient(self, ctx: &mut Context, name: &str) {
        let sym = ctx.symbol_ref_attr(name);
        ctx.set_prop(self.0, "gradient", sym);
    }
    pub fn set_active(self, ctx: &mut Context, active: &[bool]) {
        let elems: Vec<Attribute> = active.iter().map(|&b| ctx.bool_attr(b)).collect();
        let a = ctx.array_attr(elems);
        ctx.set_prop(self.0, "active", a);
    }
    /// The primal kernel, when the symbol resolves to one.
    pub fn kernel(self, ctx: &Context) -> Option<KernelOp> {
        let name = sym_of(ctx, self.0, "kernel")?;
        qd_frontend::verify::lookup_symbol(ctx, self.0, &name)
            .and_then(|k| KernelOp::from_op(ctx, k))
    }
    /// The gradient kernel, when set and resolving to one.
    pub fn gradient(self, ctx: &Context) -> Option<KernelOp> {
        let name = sym_of(ctx, self.0, "gradient")?;
        qd_frontend::verify::lookup_symbol(ctx, self.0, &name)
            .and_then(|k| KernelOp::from_op(ctx, k))
    }
    /// The effective activity of each argument of `arg_types` (the primal kernel's): the explicit
    /// `active` when given, else [`default_activity`].
    pub fn activity(self, ctx: &Context, arg_types: &[Type]) -> Vec<bool> {
        self.active(ctx)
            .unwrap_or_else(|| default_activity(ctx, arg_types))
    }
}

/// Whether `ty` is an ndarray whose elements are floats (the only arguments that carry adjoints).
pub fn is_differentiable_arg(ctx: &Context, ty: Type) -> bool {
    NdarrayType::from_type(ctx, ty).is_some_and(|a| ctx.type_data(a.elem(ctx)).is_float())
}

/// Default activity: float-element ndarray arguments are active.
pub fn default_activity(ctx: &Context, arg_types: &[Type]) -> Vec<bool> {
    arg_types
        .iter()
        .map(|&t| is_differentiable_arg(ctx, t))
        .collect()
}

/// The argument types of the gradient kernel: the primal's, then one adjoint ndarray (of the
/// primal's type) per active argument.
pub fn gradient_arg_types(arg_types: &[Type], activity: &[bool]) -> Vec<Type> {
    let mut out = arg_types.to_vec();
    out.extend(
        arg_types
            .iter()
            .zip(activity)
            .filter(|(_, &a)| a)
            .map(|(&t, _)| t),
    );
    out
}

/// Every `ad.reverse` directly in `block` (a module body), in order.
pub fn reverse_decls(ctx: &Context, block: qd_ir::BlockId) -> Vec<ReverseOp> {
    ctx.block_ops(block)
        .filter_map(|op| ReverseOp::from_op(ctx, op))
        .collect()
}

/// The `ad.reverse` of `kernel` directly in the body of `module` (a `builtin.module`), if any.
pub fn find_reverse(ctx: &Context, module: OpId, kernel: &str) -> Option<ReverseOp> {
    let region = *ctx.regions(module).first()?;
    let block = ctx.entry_block(region)?;
    reverse_decls(ctx, block)
        .into_iter()
        .find(|r| r.kernel_name(ctx) == kernel)
}

fn type_list(ctx: &Context, tys: &[Type]) -> String {
    let parts: Vec<String> = tys.iter().map(|&t| type_str(ctx, t)).collect();
    format!("({})", parts.join(", "))
}

/// What `convert-qd-to-lowered` makes of a qd kernel: same symbol, same `function_type`.
const LOWERED_KERNEL_OP: &str = "lowered.kernel";

/// A kernel a declaration names: a `qd.kernel`, or the `lowered.kernel` it was lowered to.
fn resolve_kernel(
    ctx: &Context,
    op: OpId,
    name: &str,
    what: &str,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<Option<OpId>> {
    match symbols.lookup_symbol_from(ctx, op, name) {
        Some(d) if ctx.name(d) == LOWERED_KERNEL_OP => Ok(Some(d)),
        _ => resolve_symbol(ctx, op, name, KERNEL_OP, what, symbols),
    }
}

/// Where the declaration sits; that it is the only one of its kernel and what its kernels must be
/// is [`verify_reverse_symbols`]'s.
fn verify_reverse(ctx: &Context, op: OpId) -> DiagResult<()> {
    if let Some(p) = ctx.parent_op(op) {
        if !ctx.has_trait(p, OpTraits::SYMBOL_TABLE) {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects its parent to be a symbol table (such as 'builtin.module'), got '{}'",
                    ctx.name(p)
                ),
            ));
        }
    }
    Ok(())
}

/// The kernel an op of a block declares the gradient of, when it is an `ad.reverse`.
fn declared_kernel(ctx: &Context, op: OpId) -> Option<String> {
    ReverseOp::from_op(ctx, op).map(|r| r.kernel_name(ctx))
}

/// One declaration per kernel: a second one would be ambiguous about activity and gradient.
/// Checked with the verifier's collection, which indexes the block's declarations once (a scan
/// of the earlier ops per declaration was quadratic in them).
fn check_declared_once(
    ctx: &Context,
    op: OpId,
    kernel: &str,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let Some(block) = ctx.parent_block(op) else {
        return Ok(());
    };
    match symbols.first_keyed_op(ctx, block, ReverseOp::NAME, declared_kernel, kernel) {
        Some(first) if first != op => Err(err(
            ctx,
            op,
            format!("declares the gradient of @{kernel} a second time"),
        )),
        _ => Ok(()),
    }
}

/// What the declaration's kernels must be (after [`verify_reverse`] passed).
fn verify_reverse_symbols(
    ctx: &Context,
    op: OpId,
    symbols: &mut SymbolTableCollection,
) -> DiagResult<()> {
    let r = ReverseOp(op);
    let kernel = r.kernel_name(ctx);
    let gradient = r.gradient_name(ctx);
    let active = r.active(ctx);
    check_declared_once(ctx, op, &kernel, symbols)?;
    let Some(k) = resolve_kernel(ctx, op, &kernel, "kernel", symbols)? else {
        return Ok(());
    };
    let arg_types = KernelOp(k).arg_types(ctx);
    if let Some(active) = &active {
        if active.len() != arg_types.len() {
            return Err(err(
                ctx,
                op,
                format!(
                    "expects one 'active' entry per argument of @{kernel} ({}), got {}",
                    arg_types.len(),
                    active.len()
                ),
            ));
        }
        for (i, (&a, &t)) in active.iter().zip(&arg_types).enumerate() {
            if a && !is_differentiable_arg(ctx, t) {
                return Err(err(
                    ctx,
                    op,
                    format!(
                        "marks argument {i} of @{kernel} active, but only float ndarray arguments carry adjoints, got {}",
                        type_str(ctx, t)
                    ),
                ));
            }
        }
    }
    let Some(gradient) = gradient else {
        return Ok(());
    };
    let Some(g) = resolve_kernel(ctx, op, &gradient, "gradient kernel", symbols)? else {
        return Ok(());
    };
    let activity = active.unwrap_or_else(|| default_activity(ctx, &arg_types));
    let want = gradient_arg_types(&arg_types, &activity);
    let got = KernelOp(g).arg_types(ctx);
    if want != got {
        return Err(err(
            ctx,
            op,
            format!(
                "expects gradient kernel @{gradient} to take {} (the arguments of @{kernel}, then the adjoints of its active ndarrays), got {}",
                type_list(ctx, &want),
                type_list(ctx, &got)
            ),
        ));
    }
    Ok(())
}
