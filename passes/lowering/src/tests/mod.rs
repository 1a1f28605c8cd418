//! Unit tests of the conversion's helpers on parsed IR: where jumps sit (`jumps`), how a kernel
//! splits into tasks and which values cross them (`partition`), the removal of jumps checked on
//! the interpreter (`structurize`), the lowering of a whole module (`convert`), and which kernels
//! are lowered in place (`precheck`), the per-op tables of the facts (`op_table`), and the
//! scratch set of values defined in a loop or task (`marks`).

mod convert;
mod jumps;
mod marks;
mod op_table;
mod partition;
mod precheck;
mod structurize;

use qd_ir::text::parse_source;
use qd_ir::{Context, OpId};

/// A context with every dialect, and the module parsed from `src`.
pub(super) fn parse(src: &str) -> (Context, OpId) {
    let mut ctx = qd_dialects::context();
    let m = parse_source(&mut ctx, src, "t.mlir")
        .unwrap_or_else(|| panic!("parse: {:?}", ctx.diagnostics()));
    qd_ir::verifier::verify(&ctx, m).unwrap_or_else(|d| panic!("verify: {d:?}"));
    (ctx, m)
}

/// The ops named `name` under `root`, in pre-order.
pub(super) fn ops_named(ctx: &Context, root: OpId, name: &str) -> Vec<OpId> {
    ctx.walk_pre_order(root)
        .into_iter()
        .filter(|&o| ctx.name(o) == name)
        .collect()
}
