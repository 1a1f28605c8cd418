//! [`ConversionPattern`]: a rewrite of one op into legal ops (MLIR's `ConversionPattern`).

use super::rewriter::ConversionRewriter;
use crate::entity::{OpId, Value};

/// Converts one op. Unlike a [`crate::rewrite::RewritePattern`], it receives the op's operands
/// already converted (the values that replaced them, or target materializations of them), and
/// it must leave the IR untouched when it returns `false`: the driver does not roll back, so a
/// pattern checks everything before its first mutation.
pub trait ConversionPattern {
    /// A name for debugging and error messages.
    fn name(&self) -> &'static str;
    /// The op name this pattern converts, or `None` to be tried on every op.
    fn root(&self) -> Option<&'static str>;
    /// Converts `op`; returns whether it did. `operands` are the converted operands, one per
    /// operand of `op`. All mutation goes through `rw`.
    fn match_and_rewrite(
        &self,
        op: OpId,
        operands: &[Value],
        rw: &mut ConversionRewriter<'_>,
    ) -> bool;
}
