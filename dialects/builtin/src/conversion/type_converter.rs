//! [`TypeConverter`]: how the types of a conversion's source map to its target (MLIR's
//! `TypeConverter`), and how to bridge the two where a value of one meets a use of the other.
//!
//! Conversions are tried last-added first, as in MLIR, so a later, more specific rule overrides
//! an earlier, general one. A rule returns `None` when it does not apply (the next one is tried)
//! and `Some(types)` when it does: one type (1:1), several (1:N) or none (the value is dropped).
//!
//! Materializations build the bridge values: a *source* materialization rebuilds a value of the
//! original type from converted values (for uses not converted yet), a *target* one turns a value
//! into its converted type (for a pattern's operands). Hooks are tried last-added first; when all
//! decline, the driver builds `builtin.unrealized_conversion_cast`, which it later folds away
//! (a cast of a cast back to the original type) or reports.

use crate::builder::Builder;
use crate::context::Context;
use crate::entity::{BlockId, Location, Type, Value};

/// A type conversion rule: `None` when it does not apply.
pub type ConversionFn = Box<dyn Fn(&mut Context, Type) -> Option<Vec<Type>>>;

/// Builds a value of type `ty` from `inputs` at the builder's insertion point; `None` to decline
/// (then it must create nothing).
pub type MaterializationFn = Box<dyn Fn(&mut Builder, Type, &[Value], Location) -> Option<Value>>;

/// Type conversion rules and materialization hooks.
#[derive(Default)]
pub struct TypeConverter {
    conversions: Vec<ConversionFn>,
    pub(super) source_materializations: Vec<MaterializationFn>,
    pub(super) target_materializations: Vec<MaterializationFn>,
}

impl TypeConverter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a 1:1 rule.
    pub fn add_conversion(
        &mut self,
        f: impl Fn(&mut Context, Type) -> Option<Type> + 'static,
    ) -> &mut Self {
        self.conversions
            .push(Box::new(move |ctx, ty| f(ctx, ty).map(|t| vec![t])));
        self
    }

    /// Adds a 1:N rule (an empty list drops the value).
    pub fn add_conversion_n(
        &mut self,
        f: impl Fn(&mut Context, Type) -> Option<Vec<Type>> + 'static,
    ) -> &mut Self {
        self.conversions.push(Box::new(f));
        self
    }

    /// Keeps every type as it is: added first, it is the fallback of the other rules.
    pub fn add_identity_conversion(&mut self) -> &mut Self {
        self.add_conversion(|_, ty| Some(ty))
    }

    pub fn add_source_materialization(
        &mut self,
        f: impl Fn(&mut Builder, Type, &[Value], Location) -> Option<Value> + 'static,
    ) -> &mut Self {
        self.source_materializations.push(Box::new(f));
        self
    }

    pub fn add_target_materialization(
        &mut self,
        f: impl Fn(&mut Builder, Type, &[Value], Location) -> Option<Value> + 'static,
    ) -> &mut Self {
        self.target_materializations.push(Box::new(f));
        self
    }

    /// The types `ty` converts to, or `None` when no rule applies.
    pub fn convert_type(&self, ctx: &mut Context, ty: Type) -> Option<Vec<Type>> {
        self.conversions.iter().rev().find_map(|f| f(ctx, ty))
    }

    /// The single type `ty` converts to (`None` when no rule applies or it is not 1:1).
    pub fn convert_type_1(&self, ctx: &mut Context, ty: Type) -> Option<Type> {
        match self.convert_type(ctx, ty)?.as_slice() {
            [t] => Some(*t),
            _ => None,
        }
    }

    /// Converts each type, concatenating the results; `None` if one does not convert.
    pub fn convert_types(&self, ctx: &mut Context, tys: &[Type]) -> Option<Vec<Type>> {
        let mut out = Vec::with_capacity(tys.len());
        for &t in tys {
            out.extend(self.convert_type(ctx, t)?);
        }
        Some(out)
    }

    /// Whether `ty` converts to itself.
    pub fn is_legal_type(&self, ctx: &mut Context, ty: Type) -> bool {
        self.convert_type(ctx, ty).as_deref() == Some(&[ty])
    }

    /// How the arguments of `block` convert, or `None` if one does not.
    pub fn convert_block_signature(
        &self,
        ctx: &mut Context,
        block: BlockId,
    ) -> Option<SignatureConversion> {
        let args = ctx.block_args(block).to_vec();
        let mut sig = SignatureConversion::new(args.len());
        for (i, a) in args.into_iter().enumerate() {
            let ty = ctx.value_type(a);
            let converted = self.convert_type(ctx, ty)?;
            sig.add_inputs(i, &converted);
        }
        Some(sig)
    }
}

/// What each argument of a block becomes (MLIR's `SignatureConversion`): new argument types
/// (1:1, 1:N or dropped), or an existing value that replaces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureConversion {
    pub(super) inputs: Vec<InputMapping>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum InputMapping {
    /// Not set yet: the argument is kept with its type.
    Keep,
    Types(Vec<Type>),
    Value(Value),
}

impl SignatureConversion {
    /// A conversion of `num_inputs` arguments, each kept as it is until set.
    pub fn new(num_inputs: usize) -> Self {
        SignatureConversion {
            inputs: vec![InputMapping::Keep; num_inputs],
        }
    }

    /// Argument `index` becomes new arguments of these types (none: it is dropped).
    pub fn add_inputs(&mut self, index: usize, types: &[Type]) {
        self.inputs[index] = InputMapping::Types(types.to_vec());
    }

    /// Argument `index` is replaced by `value` and removed from the block.
    pub fn remap_input(&mut self, index: usize, value: Value) {
        self.inputs[index] = InputMapping::Value(value);
    }

    /// The new argument types, in order (kept arguments as in `block`).
    pub fn converted_types(&self, ctx: &Context, block: BlockId) -> Vec<Type> {
        let mut out = Vec::new();
        for (i, m) in self.inputs.iter().enumerate() {
            match m {
                InputMapping::Keep => out.push(ctx.value_type(ctx.block_arg(block, i))),
                InputMapping::Types(ts) => out.extend_from_slice(ts),
                InputMapping::Value(_) => {}
            }
        }
        out
    }
}
