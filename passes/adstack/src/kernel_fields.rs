//! The fields a kernel's ops name, resolved once per kernel for sizing (which asks per load and
//! loop). The pass runs per `qd.kernel`, so a symbol table of the whole module per kernel would
//! cost the module's size for every kernel; instead one scan of the table around the kernel
//! stops as soon as every name is found (fields are usually declared before the kernels).

use qd_frontend::FieldOp;
use qd_ir::symbol_table::{is_symbol_table, symbol_name};
use qd_ir::{Context, OpId};
use std::collections::HashMap;

/// What `qd_frontend::lookup_field` answers for each of `names` from an op of `kernel`, for
/// kernels that hold no symbol table (so all their ops resolve from the same tables); None when
/// the kernel holds one (resolve per op then). `ops`: the kernel's ops in pre-order.
pub(crate) fn resolve(
    ctx: &Context,
    kernel: OpId,
    ops: &[OpId],
    names: Vec<String>,
) -> Option<HashMap<String, Option<FieldOp>>> {
    if ops.iter().any(|&o| is_symbol_table(ctx, o)) {
        return None;
    }
    let mut want: HashMap<String, Option<Option<FieldOp>>> =
        names.into_iter().map(|n| (n, None)).collect();
    let mut left = want.len();
    // The nearest table: lookup_symbol_from's first; its first definition of a name decides.
    let mut table = ctx.parent_op(kernel);
    while let Some(t) = table {
        if is_symbol_table(ctx, t) {
            break;
        }
        table = ctx.parent_op(t);
    }
    let region = table.and_then(|t| ctx.regions(t).first().copied());
    if let (Some(r), true) = (region, left > 0) {
        'scan: {
            for &b in ctx.region_blocks(r) {
                for o in ctx.block_ops(b) {
                    let Some(slot) = symbol_name(ctx, o).and_then(|n| want.get_mut(n)) else {
                        continue;
                    };
                    if slot.is_none() {
                        *slot = Some(FieldOp::from_op(ctx, o));
                        left -= 1;
                        if left == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
    }
    // Names the nearest table lacks resolve outward (or not at all), as lookup_field does.
    Some(
        want.into_iter()
            .map(|(n, f)| {
                let f = f.unwrap_or_else(|| qd_frontend::lookup_field(ctx, kernel, &n));
                (n, f)
            })
            .collect(),
    )
}
