//! Op interfaces that later layers query through `OpInfo::get_interface`. They live in the core so
//! that a dialect can implement them next to its ops without depending on the passes that use them.

use crate::builder::Builder;
use crate::context::Context;
use crate::entity::{OpId, Value};

/// Which primal values a derivative rule reads.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct PrimalNeeds {
    /// For each operand: whether the rule reads its primal value.
    pub operands: Vec<bool>,
    /// For each result: whether the rule reads its primal value (e.g. `exp`, `tanh`).
    pub results: Vec<bool>,
}

/// The reverse-mode derivative rule of an op, attached with
/// `OpInfo::interface::<dyn ReverseRule>(&(&RULE as &dyn ReverseRule))` and found with
/// `info.get_interface::<dyn ReverseRule>()`. An op without a rule is not differentiable: reverse
/// mode treats its results as constants (e.g. integer ops, comparisons, integer casts).
pub trait ReverseRule: Sync {
    /// The primal values the rule reads, given which operands need an adjoint (`active`). A rule
    /// reads only what the active operands' adjoints require (`mulf %a, %c` with `%c` inactive
    /// reads `%c` but not `%a`), so that reverse mode saves no more than it must.
    fn primal_needs(&self, ctx: &Context, op: OpId, active: &[bool]) -> PrimalNeeds;

    /// Emits, at `b`'s insertion point, each active operand's adjoint contribution given the
    /// adjoint of each result. `operands[i]` / `results[i]` hold the primal values as available in
    /// the reverse code: `Some` at least where `primal_needs` asked for them. Returns one entry per
    /// operand: `None` for inactive or non-differentiable operands.
    fn emit_adjoints(
        &self,
        b: &mut Builder<'_>,
        op: OpId,
        operands: &[Option<Value>],
        results: &[Option<Value>],
        result_adjoints: &[Value],
        active: &[bool],
    ) -> Vec<Option<Value>>;
}

impl std::fmt::Debug for dyn ReverseRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ReverseRule")
    }
}
