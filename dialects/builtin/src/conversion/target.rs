//! [`ConversionTarget`]: which ops a conversion must produce (MLIR's `ConversionTarget`).
//!
//! Legality is declared per op name and per dialect namespace; a name entry wins over its
//! dialect's, and ops matched by neither take the unknown-op rule when one is set. An op with no
//! rule at all has unknown legality: a partial conversion leaves it, a full one fails on it.

use crate::context::Context;
use crate::entity::OpId;
use crate::fast_hash::FastMap;

/// A legality callback: whether this op instance is legal.
pub type LegalityFn = Box<dyn Fn(&Context, OpId) -> bool>;

/// How one op name or dialect is treated.
pub enum Legality {
    Legal,
    Illegal,
    /// Legal when the callback says so, illegal otherwise.
    Dynamic(LegalityFn),
}

/// The ops that are legal after a conversion.
#[derive(Default)]
pub struct ConversionTarget {
    // Asked for every op a conversion visits: a fast hash of the name, not SipHash.
    ops: FastMap<String, Legality>,
    dialects: FastMap<String, Legality>,
    unknown: Option<Legality>,
}

impl ConversionTarget {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add_legal_op(&mut self, name: &str) -> &mut Self {
        self.ops.insert(name.to_string(), Legality::Legal);
        self
    }

    pub fn add_illegal_op(&mut self, name: &str) -> &mut Self {
        self.ops.insert(name.to_string(), Legality::Illegal);
        self
    }

    pub fn add_dynamically_legal_op(
        &mut self,
        name: &str,
        f: impl Fn(&Context, OpId) -> bool + 'static,
    ) -> &mut Self {
        self.ops
            .insert(name.to_string(), Legality::Dynamic(Box::new(f)));
        self
    }

    pub fn add_legal_dialect(&mut self, namespace: &str) -> &mut Self {
        self.dialects.insert(namespace.to_string(), Legality::Legal);
        self
    }

    pub fn add_illegal_dialect(&mut self, namespace: &str) -> &mut Self {
        self.dialects
            .insert(namespace.to_string(), Legality::Illegal);
        self
    }

    pub fn add_dynamically_legal_dialect(
        &mut self,
        namespace: &str,
        f: impl Fn(&Context, OpId) -> bool + 'static,
    ) -> &mut Self {
        self.dialects
            .insert(namespace.to_string(), Legality::Dynamic(Box::new(f)));
        self
    }

    /// The rule for ops that no name or dialect entry covers (MLIR's
    /// `markUnknownOpDynamicallyLegal`).
    pub fn mark_unknown_op_dynamically_legal(
        &mut self,
        f: impl Fn(&Context, OpId) -> bool + 'static,
    ) -> &mut Self {
        self.unknown = Some(Legality::Dynamic(Box::new(f)));
        self
    }

    /// Whether `op` is legal: `Some(true)` legal, `Some(false)` illegal, `None` unknown.
    pub fn legality(&self, ctx: &Context, op: OpId) -> Option<bool> {
        let rule = self
            .ops
            .get(ctx.name(op))
            .or_else(|| self.dialects.get(ctx.dialect_of(op)))
            .or(self.unknown.as_ref())?;
        Some(match rule {
            Legality::Legal => true,
            Legality::Illegal => false,
            Legality::Dynamic(f) => f(ctx, op),
        })
    }

    /// What [`legality`](Self::legality) answers for every op named `name`, when that does not
    /// depend on the op (the rule that applies is not dynamic); None when it does.
    pub(super) fn legality_of_name(&self, name: &str) -> Option<Option<bool>> {
        let dialect = name.split_once('.').map(|(d, _)| d).unwrap_or("");
        let rule = self
            .ops
            .get(name)
            .or_else(|| self.dialects.get(dialect))
            .or(self.unknown.as_ref());
        match rule {
            None => Some(None),
            Some(Legality::Legal) => Some(Some(true)),
            Some(Legality::Illegal) => Some(Some(false)),
            Some(Legality::Dynamic(_)) => None,
        }
    }

    pub fn is_legal(&self, ctx: &Context, op: OpId) -> bool {
        self.legality(ctx, op) == Some(true)
    }

    pub fn is_illegal(&self, ctx: &Context, op: OpId) -> bool {
        self.legality(ctx, op) == Some(false)
    }
}
