//! Shared verifier checks with upstream's messages (`'arith.addi' op requires ...`). Every check
//! tolerates arbitrary generic input: any operand/result counts, missing or ill-typed properties.

use crate::flags::FlagKind;
use qd_ir::text::attr_to_string;
use qd_ir::{AttrData, Context, DiagResult, Diagnostic, OpId, Type, TypeData};

/// Type constraints of arith and math operands and results, with upstream's descriptions.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TypeClass {
    /// Signless integer or index.
    IntLike,
    /// Signless integer (not index).
    FixedInt,
    Float,
    /// i1.
    Bool,
    /// Signless integer or float (bitcast).
    IntOrFloat,
    /// Signless integer or index, as index_cast describes it (memrefs are not accepted here).
    IndexCastable,
}

impl TypeClass {
    pub fn accepts(self, ctx: &Context, ty: Type) -> bool {
        let t = ctx.type_data(ty);
        match self {
            TypeClass::IntLike | TypeClass::IndexCastable => t.is_signless_int_or_index(),
            TypeClass::FixedInt => t.is_signless_integer(),
            TypeClass::Float => t.is_float(),
            TypeClass::Bool => {
                matches!(t, TypeData::Integer { width: 1, .. }) && t.is_signless_integer()
            }
            TypeClass::IntOrFloat => t.is_signless_integer() || t.is_float(),
        }
    }
    pub fn description(self) -> &'static str {
        match self {
            TypeClass::IntLike => "signless-integer-like",
            TypeClass::IndexCastable => "signless-integer-like or memref of signless-integer",
            TypeClass::FixedInt => "signless-fixed-width-integer-like",
            TypeClass::Float => "floating-point-like",
            TypeClass::Bool => "bool-like",
            TypeClass::IntOrFloat => {
                "signless-integer-or-float-like or memref of signless-integer or float"
            }
        }
    }
}

/// A type as text, for messages.
pub fn type_str(ctx: &Context, ty: Type) -> String {
    qd_ir::text::type_to_string(ctx, ty)
}

/// Checks on one op; each failure is an error at the op's location naming the op.
pub struct Check<'a> {
    pub ctx: &'a Context,
    pub op: OpId,
}

impl<'a> Check<'a> {
    pub fn new(ctx: &'a Context, op: OpId) -> Self {
        Check { ctx, op }
    }

    /// `'name' op <message>` at the op.
    pub fn error(&self, message: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::error(
            self.ctx.loc(self.op),
            format!("'{}' op {message}", self.ctx.name(self.op)),
        )
    }

    pub fn fail<T>(&self, message: impl std::fmt::Display) -> DiagResult<T> {
        Err(self.error(message))
    }

    pub fn no_regions_or_successors(&self) -> DiagResult<()> {
        if !self.ctx.regions(self.op).is_empty() {
            return self.fail("requires zero regions");
        }
        if !self.ctx.successors(self.op).is_empty() {
            return self.fail("requires zero successors");
        }
        Ok(())
    }

    pub fn num_operands(&self, n: usize) -> DiagResult<()> {
        let found = self.ctx.num_operands(self.op);
        if found == n {
            return Ok(());
        }
        match n {
            0 => self.fail("requires zero operands"),
            1 => self.fail("requires a single operand"),
            _ => self.fail(format!("expected {n} operands, but found {found}")),
        }
    }

    pub fn one_result(&self) -> DiagResult<()> {
        if self.ctx.num_results(self.op) != 1 {
            return self.fail("requires one result");
        }
        Ok(())
    }

    /// Properties other than the op's own are refused: upstream has no place to keep them (it
    /// rejects properties on ops without any, and drops unknown ones on the others).
    pub fn known_props(&self, allowed: &[&str]) -> DiagResult<()> {
        let props = self.ctx.properties(self.op);
        if allowed.is_empty() && !props.is_empty() {
            return Err(self.invalid_props("this operation does not support properties", None));
        }
        for (k, _) in props {
            let name = self.ctx.ident_str(*k);
            if !allowed.contains(&name) {
                return self.fail(format!("does not have a property named '{name}'"));
            }
        }
        Ok(())
    }

    /// Upstream's message for properties that do not convert: `invalid properties {...} for op
    /// NAME: REASON`, listing the op's properties (and `extra`, an inherent attribute that was
    /// given as a discardable one).
    pub fn invalid_props(
        &self,
        reason: &str,
        extra: Option<(&str, qd_ir::Attribute)>,
    ) -> Diagnostic {
        let ctx = self.ctx;
        let mut entries: Vec<(&str, qd_ir::Attribute)> = ctx
            .properties(self.op)
            .iter()
            .map(|(k, v)| (ctx.ident_str(*k), *v))
            .collect();
        if let Some((name, v)) = extra {
            if !entries.iter().any(|(k, _)| *k == name) {
                entries.push((name, v));
            }
        }
        let entries: Vec<String> = entries
            .into_iter()
            .map(|(k, v)| match ctx.attr_data(v) {
                AttrData::Unit => k.to_string(),
                _ => format!("{k} = {}", attr_to_string(ctx, v)),
            })
            .collect();
        Diagnostic::error(
            ctx.loc(self.op),
            format!(
                "invalid properties {{{}}} for op {}: {reason}",
                entries.join(", "),
                ctx.name(self.op)
            ),
        )
    }

    /// Upstream's message for an inherent attribute of the wrong kind.
    pub fn bad_prop(&self, name: &str, value: qd_ir::Attribute) -> Diagnostic {
        let reason = format!(
            "Invalid attribute `{name}` in property conversion: {}",
            attr_to_string(self.ctx, value)
        );
        self.invalid_props(&reason, Some((name, value)))
    }

    /// The flags property, when present, is a well-formed `#arith.<kind><...>`.
    pub fn flags(&self, kind: FlagKind) -> DiagResult<()> {
        let name = kind.prop_name();
        match self.ctx.prop_or_attr(self.op, name) {
            Some(a) if kind.bits_of(self.ctx, a).is_none() => Err(self.bad_prop(name, a)),
            _ => Ok(()),
        }
    }

    /// A required i64 enum property whose value is one of `0..count`; returns the value.
    pub fn enum_i64(&self, name: &str, count: i64) -> DiagResult<i64> {
        let Some(a) = self.ctx.prop_or_attr(self.op, name) else {
            return self.fail(format!("requires attribute '{name}'"));
        };
        match self.ctx.attr_data(a) {
            AttrData::Integer { value, ty }
                if *self.ctx.type_data(*ty)
                    == TypeData::Integer {
                        width: 64,
                        signedness: qd_ir::Signedness::Signless,
                    }
                    && (0..count).contains(value) =>
            {
                Ok(*value)
            }
            // Given in the attribute dictionary, an integer of another value or type converts,
            // then fails the enum constraint; as a property it fails the conversion (mlir-opt).
            AttrData::Integer { .. } if self.ctx.prop(self.op, name).is_none() => {
                let cases: Vec<String> = (0..count).map(|i| i.to_string()).collect();
                self.fail(format!(
                    "attribute '{name}' failed to satisfy constraint: allowed 64-bit signless integer cases: {}",
                    cases.join(", ")
                ))
            }
            _ => Err(self.bad_prop(name, a)),
        }
    }

    pub fn operand_class(&self, i: usize, class: TypeClass) -> DiagResult<()> {
        let ty = self.ctx.value_type(self.ctx.operand(self.op, i));
        self.class("operand", i, ty, class)
    }

    pub fn result_class(&self, i: usize, class: TypeClass) -> DiagResult<()> {
        let ty = self.ctx.value_type(self.ctx.result(self.op, i));
        self.class("result", i, ty, class)
    }

    fn class(&self, what: &str, i: usize, ty: Type, class: TypeClass) -> DiagResult<()> {
        if class.accepts(self.ctx, ty) {
            return Ok(());
        }
        self.fail(format!(
            "{what} #{i} must be {}, but got '{}'",
            class.description(),
            type_str(self.ctx, ty)
        ))
    }

    pub fn same_operands_and_result(&self) -> DiagResult<()> {
        let mut tys = self.ctx.operands(self.op).map(|v| self.ctx.value_type(v));
        let first = self.ctx.value_type(self.ctx.result(self.op, 0));
        if !tys.all(|t| t == first) {
            return self.fail("requires the same type for all operands and results");
        }
        Ok(())
    }

    pub fn same_operands(&self) -> DiagResult<()> {
        let tys: Vec<Type> = self
            .ctx
            .operands(self.op)
            .map(|v| self.ctx.value_type(v))
            .collect();
        if tys.windows(2).any(|w| w[0] != w[1]) {
            return self.fail("requires all operands to have the same type");
        }
        Ok(())
    }
}
