//! Finding the few ops of one name in a large scope (issue #16 point 1).
//!
//! `walk_pre_order` then a filter by name reads every op's record twice (once to walk, once to
//! compare its name string) and collects a million-entry vector first; at 1M ops the IR no
//! longer fits in cache and those passes, which find a handful of stacks, scaled above linear.
//! Here each op is read once, through the block iteration that prefetches ahead, its name is
//! compared as an interned id, and only ops with regions are descended into.

use qd_ir::{BlockOps, Context, OpId};

/// The ops named `name` nested in `root` (including `root`), in pre-order: parents before
/// children, in program order, as `walk_pre_order` gives them.
pub fn ops_named(ctx: &Context, root: OpId, name: &str) -> Vec<OpId> {
    let mut out = Vec::new();
    // A name never interned is the name of no op.
    let Some(name) = ctx.lookup_op_name(name) else {
        return out;
    };
    // Nor, when no op of that name is alive, is any op in `root`: most kernels have no stacks,
    // and the walk of a kernel larger than the cache waits on memory for each op.
    if ctx.op_count(name) == 0 {
        return out;
    }
    if ctx.op_name_of(root) == name {
        out.push(root);
    }
    // The blocks being walked, innermost last; an op's blocks are pushed in reverse so that they
    // are walked in order, before the rest of the block that holds it.
    let mut stack: Vec<BlockOps<'_>> = Vec::new();
    push_blocks(ctx, root, &mut stack);
    while let Some(ops) = stack.last_mut() {
        let Some(o) = ops.next() else {
            stack.pop();
            continue;
        };
        if ctx.op_name_of(o) == name {
            out.push(o);
        }
        if !ctx.regions(o).is_empty() {
            push_blocks(ctx, o, &mut stack);
        }
    }
    out
}

fn push_blocks<'a>(ctx: &'a Context, op: OpId, stack: &mut Vec<BlockOps<'a>>) {
    for &r in ctx.regions(op).iter().rev() {
        for &b in ctx.region_blocks(r).iter().rev() {
            stack.push(ctx.block_ops(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ops_named;
    use qd_ir::text::parse_source;

    /// Same ops, same order as walk_pre_order filtered by name, through nested regions and
    /// several blocks; a name no op has gives nothing.
    #[test]
    fn matches_walk_pre_order_filtered() {
        let mut ctx = qd_dialects::context();
        // Generic ops of a made-up dialect: only the shape of the nesting matters here.
        ctx.allow_unregistered = true;
        let src = r#"
"t.a"() ({
  "t.x"() : () -> ()
  "t.a"() ({
    "t.x"() : () -> ()
  ^bb1:
    "t.a"() : () -> ()
  }, {
    "t.a"() : () -> ()
  }) : () -> ()
  "t.a"() : () -> ()
}) : () -> ()
"#;
        let m = parse_source(&mut ctx, src, "input.mlir");
        let Some(m) = m else {
            panic!("{:?}", ctx.diagnostics())
        };
        let want: Vec<_> = ctx
            .walk_pre_order(m)
            .into_iter()
            .filter(|&o| ctx.name(o) == "t.a")
            .collect();
        assert_eq!(want.len(), 5);
        assert_eq!(ops_named(&ctx, m, "t.a"), want);
        assert!(ops_named(&ctx, m, "t.nothing").is_empty());
    }
}
