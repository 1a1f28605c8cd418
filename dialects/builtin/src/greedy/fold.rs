//! Folding: constant operands, calling an op's folder, materializing constants, and the table
//! through which the driver reuses and hoists constants (MLIR's `OperationFolder`).

use crate::context::Context;
use crate::entity::{Attribute, Ident, Location, OpId, RegionId, Type, Value};
use crate::fast_hash::{FastMap, FastSet};
use crate::registry::{FoldResult, OpTraits};

/// The constant `v` holds: the `value` of its defining op when that op is CONSTANT_LIKE.
pub fn constant_value(ctx: &Context, v: Value) -> Option<Attribute> {
    op_constant_value(ctx, ctx.defining_op(v)?)
}

/// The `value` property (or attribute) of a CONSTANT_LIKE op.
pub fn op_constant_value(ctx: &Context, op: OpId) -> Option<Attribute> {
    if !ctx.has_trait(op, OpTraits::CONSTANT_LIKE) {
        return None;
    }
    ctx.prop_or_attr(op, "value")
}

/// Calls `op`'s folder with the constant value of each operand. None when the op has no folder,
/// does not fold, or returns a wrong number of results. The IR is not changed.
pub fn fold_op(ctx: &mut Context, op: OpId) -> Option<Vec<FoldResult>> {
    let fold = ctx.info(op)?.fold?;
    let consts: Vec<Option<Attribute>> = ctx.operands(op).map(|v| constant_value(ctx, v)).collect();
    let results = fold(ctx, op, &consts)?;
    (results.len() == ctx.num_results(op)).then_some(results)
}

/// Builds, detached, the op through which `dialect` materializes constant `value` of type `ty`.
/// None when the dialect has no materializer, declines, or builds something that does not have
/// exactly one result of type `ty`.
pub fn materialize_constant(
    ctx: &mut Context,
    dialect: &str,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<OpId> {
    let make = ctx.dialect(dialect)?.materialize_constant?;
    let state = make(ctx, value, ty, loc)?;
    let op = ctx.create_op(state);
    if ctx.num_results(op) != 1 || ctx.value_type(ctx.result(op, 0)) != ty {
        ctx.erase_op(op);
        return None;
    }
    Some(op)
}

/// Whether `op` is a constant the driver may merge and move: CONSTANT_LIKE with a value, one
/// result, no operands and no regions.
pub(super) fn is_movable_constant(ctx: &Context, op: OpId) -> bool {
    op_constant_value(ctx, op).is_some()
        && ctx.num_results(op) == 1
        && ctx.num_operands(op) == 0
        && ctx.regions(op).is_empty()
}

/// (insertion region, dialect, value, type).
pub(super) type ConstKey = (RegionId, Ident, Attribute, Type);

/// What registering an existing constant did.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Seeded {
    /// Replaced by an equal constant and erased.
    Merged,
    /// Moved to the front of its insertion region's entry block.
    Moved,
    /// Already in place.
    Kept,
}

/// The constants of one sweep, one per key (MLIR's `OperationFolder`, which the driver makes anew
/// for each iteration).
#[derive(Default)]
pub(super) struct Constants {
    map: FastMap<ConstKey, OpId>,
    /// The constants registered this sweep (MLIR's "folder-owned" constants).
    owned: FastSet<OpId>,
}

impl Constants {
    pub(super) fn clear(&mut self) {
        self.map.clear();
        self.owned.clear();
    }

    /// Where constants used by `op` live: its region, or the enclosing one up to the nearest
    /// ISOLATED_FROM_ABOVE op (as MLIR). Regions of `root` and of unregistered ops (which may be
    /// isolated) stop the climb.
    pub(super) fn insertion_region(ctx: &Context, op: OpId, root: OpId) -> Option<RegionId> {
        let mut region = ctx.parent_region(op)?;
        loop {
            let Some(p) = ctx.region_parent_op(region) else {
                return Some(region);
            };
            if p == root || !ctx.is_registered(p) || ctx.has_trait(p, OpTraits::ISOLATED_FROM_ABOVE)
            {
                return Some(region);
            }
            match ctx.parent_region(p) {
                Some(r) => region = r,
                None => return Some(region),
            }
        }
    }

    pub(super) fn key(
        ctx: &mut Context,
        region: RegionId,
        dialect_of: OpId,
        value: Attribute,
    ) -> ConstKey {
        let dialect = ctx.dialect_of(dialect_of).to_string();
        let ty = ctx.value_type(ctx.result(dialect_of, 0));
        (region, ctx.ident(&dialect), value, ty)
    }

    /// Registers an existing movable constant while seeding a sweep, as MLIR's
    /// `OperationFolder::insertKnownConstant`: a constant equal to one registered before it (in
    /// pre-order) is merged into that one, which loses its location; otherwise it is kept where
    /// it is if it leads its block or follows a registered constant, and else moved to the
    /// *front* of its insertion region's entry block (losing its location when it changes
    /// block). So constants made by folding, which the driver leaves where the folded op was,
    /// end up at the top in reverse order of their position, above the older ones: the order
    /// mlir-opt prints.
    pub(super) fn seed(&mut self, ctx: &mut Context, op: OpId, root: OpId) -> Seeded {
        let Some(region) = Self::insertion_region(ctx, op, root) else {
            return Seeded::Kept;
        };
        let Some(value) = op_constant_value(ctx, op) else {
            return Seeded::Kept;
        };
        let Some(entry) = ctx.entry_block(region) else {
            return Seeded::Kept;
        };
        let key = Self::key(ctx, region, op, value);
        if let Some(&existing) = self.map.get(&key) {
            if existing != op && ctx.is_alive(existing) {
                let (from, to) = (ctx.result(op, 0), ctx.result(existing, 0));
                ctx.replace_all_uses_with(from, to);
                ctx.erase_op(op);
                let unknown = ctx.unknown_loc();
                ctx.set_loc(existing, unknown);
                return Seeded::Merged;
            }
        }
        self.map.insert(key, op);
        self.owned.insert(op);
        if ctx.parent_block(op) != Some(entry) {
            ctx.detach_op(op);
            ctx.prepend_op(entry, op);
            let unknown = ctx.unknown_loc();
            ctx.set_loc(op, unknown);
            return Seeded::Moved;
        }
        match ctx.prev_op(op) {
            Some(p) if !self.owned.contains(&p) => {
                ctx.detach_op(op);
                ctx.prepend_op(entry, op);
                Seeded::Moved
            }
            _ => Seeded::Kept,
        }
    }
}
