//! Which ops of a function body go into which kernel.
//!
//! Ops are visited in program order. A fusible elementwise op joins the group of one of its
//! operands' producers when that group iterates over the op's own result shape, is open, and
//! joining makes no cycle (no operand reaches the group through an op outside it); failing that,
//! any open group of its shape on which it does not depend (siblings, e.g. two ops of one input,
//! which then reads it once); otherwise it starts a group. A reduction joins the group that makes its operand (same shape, same axis as
//! the group's other reductions), which then runs as a partial kernel plus a reduce kernel; else
//! it gets a group of its own that only loads its operand. A primitive that is not fusible is a
//! closed group of one. With fusion off every op is a group of its own: the unfused baseline.

use qd_ir::{BlockId, Context, OpId, Value};
use qd_ndarray::{elementwise_name, primitive, reduction, ArrayType, ReduceKind};
use std::collections::{HashMap, HashSet};

/// One kernel's worth of ops.
#[derive(Clone, Debug, Default)]
pub struct Group {
    /// The iteration space: every member's result shape, every reduction's operand shape.
    pub shape: Vec<i64>,
    /// Elementwise ops, in program order.
    pub members: Vec<OpId>,
    /// Reductions fed by the group (same axis), in program order.
    pub reductions: Vec<OpId>,
    /// The reductions' axis (None: every axis).
    pub axis: Option<usize>,
    /// No op may join (a non-fusible primitive, or fusion off).
    pub closed: bool,
}

impl Group {
    /// Every op of the group, in program order of first appearance.
    pub fn ops(&self) -> impl Iterator<Item = OpId> + '_ {
        self.members.iter().chain(&self.reductions).copied()
    }
}

/// The groups of `block` (a function body), in order of creation.
pub fn group_ops(ctx: &Context, block: BlockId, fuse: bool) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut group_of: HashMap<OpId, usize> = HashMap::new();
    // The groups each value depends on, through any path.
    let mut deps: HashMap<Value, HashSet<usize>> = HashMap::new();
    let deps_of = |deps: &HashMap<Value, HashSet<usize>>, v: Value| -> HashSet<usize> {
        deps.get(&v).cloned().unwrap_or_default()
    };
    for op in ctx.block_op_vec(block) {
        let operands = ctx.operand_vec(op);
        let mut mine: Option<usize> = None;
        if let Some(name) = elementwise_name(ctx, op) {
            let fusible = primitive(&name).is_some_and(|p| p.fusible);
            let shape = result_shape(ctx, op);
            if fuse && fusible {
                let fits = |g: usize| {
                    !groups[g].closed
                        && groups[g].shape == shape
                        && joinable(ctx, &groups[g], g, &operands, &deps)
                };
                // A producer's group first (a chain); else any open group of this shape that it
                // does not depend on (siblings: inputs they share are then read once).
                mine = operands
                    .iter()
                    .find_map(|&o| {
                        group_of
                            .get(&ctx.defining_op(o)?)
                            .copied()
                            .filter(|&g| fits(g))
                    })
                    .or_else(|| (0..groups.len()).rev().find(|&g| fits(g)));
            }
            let g = match mine {
                Some(g) => g,
                None => {
                    groups.push(Group {
                        shape,
                        closed: !(fuse && fusible),
                        ..Group::default()
                    });
                    groups.len() - 1
                }
            };
            groups[g].members.push(op);
            group_of.insert(op, g);
            mine = Some(g);
        } else if let Some((_, axis)) = reduction(ctx, op) {
            let axis = axis.map(|a| a as usize);
            let input = operands[0];
            let shape = ArrayType::from_type(ctx, ctx.value_type(input))
                .map(|a| a.shape(ctx))
                .unwrap_or_default();
            let producer = ctx
                .defining_op(input)
                .and_then(|d| group_of.get(&d).copied());
            let g = producer.filter(|&g| {
                let grp = &groups[g];
                fuse && !grp.closed
                    && grp.shape == shape
                    && (grp.reductions.is_empty() || grp.axis == axis)
                    && joinable(ctx, grp, g, &operands, &deps)
            });
            let g = match g {
                Some(g) => g,
                None => {
                    groups.push(Group {
                        shape,
                        closed: !fuse,
                        ..Group::default()
                    });
                    groups.len() - 1
                }
            };
            groups[g].reductions.push(op);
            groups[g].axis = axis;
            group_of.insert(op, g);
            mine = Some(g);
        }
        let mut d: HashSet<usize> = HashSet::new();
        for &o in &operands {
            d.extend(deps_of(&deps, o));
        }
        d.extend(mine);
        for &r in ctx.results(op) {
            deps.insert(r, d.clone());
        }
    }
    groups
}

/// Whether an op with `operands` may join group `g`: no operand made outside the group depends
/// on the group (the group's kernel would then need a value that needs the kernel).
fn joinable(
    ctx: &Context,
    grp: &Group,
    g: usize,
    operands: &[Value],
    deps: &HashMap<Value, HashSet<usize>>,
) -> bool {
    operands.iter().all(|&o| {
        // A reduction's result is not inside: it exists only after the reduce kernel.
        let inside = ctx.defining_op(o).is_some_and(|d| grp.members.contains(&d));
        inside || !deps.get(&o).is_some_and(|s| s.contains(&g))
    })
}

/// The shape of an op's (array) result.
pub fn result_shape(ctx: &Context, op: OpId) -> Vec<i64> {
    ArrayType::from_type(ctx, ctx.value_type(ctx.result(op, 0)))
        .map(|a| a.shape(ctx))
        .unwrap_or_default()
}

/// The kind of every reduction of a group, in order.
pub fn reduction_kinds(ctx: &Context, grp: &Group) -> Vec<ReduceKind> {
    grp.reductions
        .iter()
        .filter_map(|&r| reduction(ctx, r).map(|(k, _)| k))
        .collect()
}
