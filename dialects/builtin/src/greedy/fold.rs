//! Folding: constant operands, calling an op's folder, materializing constants, and the table
//! through which the driver reuses and hoists constants (MLIR's `OperationFolder`).

use crate::context::Context;
use crate::entity::{Attribute, Ident, Location, OpId, RegionId, Type, Value};
use crate::registry::{FoldResult, OpTraits};
use std::collections::HashMap;

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
    /// Moved to the top of its insertion region.
    Moved,
    /// Already in place.
    Kept,
}

/// The constants of one sweep, one per key, each at the top of its insertion region's entry
/// block (after the constants placed there before it).
#[derive(Default)]
pub(super) struct Constants {
    map: HashMap<ConstKey, OpId>,
    /// The last constant placed at the top of each region's entry block.
    hoist: HashMap<RegionId, OpId>,
}

impl Constants {
    pub(super) fn clear(&mut self) {
        self.map.clear();
        self.hoist.clear();
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

    /// The live constant registered under `key` (entries whose op was erased or moved away by a
    /// pattern are dropped).
    pub(super) fn lookup(&mut self, ctx: &Context, key: &ConstKey) -> Option<OpId> {
        let op = *self.map.get(key)?;
        let entry = ctx.entry_block(key.0);
        if ctx.is_alive(op) && ctx.parent_block(op) == entry && entry.is_some() {
            return Some(op);
        }
        self.map.remove(key);
        None
    }

    pub(super) fn record(&mut self, key: ConstKey, op: OpId) {
        self.map.insert(key, op);
    }

    /// Inserts detached `op` at the top of `region`'s entry block, after the constants already
    /// placed there.
    pub(super) fn place(&mut self, ctx: &mut Context, region: RegionId, op: OpId) {
        let Some(entry) = ctx.entry_block(region) else {
            return;
        };
        match self.hoist.get(&region) {
            Some(&h) if ctx.is_alive(h) && ctx.parent_block(h) == Some(entry) => {
                ctx.insert_op_after(h, op)
            }
            _ => ctx.prepend_op(entry, op),
        }
        self.hoist.insert(region, op);
    }

    /// Registers an existing movable constant while seeding a sweep: merges it into an equal
    /// one, or else moves it to the top of its insertion region if it is not there yet.
    pub(super) fn seed(&mut self, ctx: &mut Context, op: OpId, root: OpId) -> Seeded {
        let Some(region) = Self::insertion_region(ctx, op, root) else {
            return Seeded::Kept;
        };
        let Some(value) = op_constant_value(ctx, op) else {
            return Seeded::Kept;
        };
        let key = Self::key(ctx, region, op, value);
        if let Some(existing) = self.lookup(ctx, &key) {
            if existing != op {
                let (from, to) = (ctx.result(op, 0), ctx.result(existing, 0));
                ctx.replace_all_uses_with(from, to);
                ctx.erase_op(op);
                return Seeded::Merged;
            }
        }
        let entry = ctx.entry_block(region);
        let in_place = ctx.parent_block(op) == entry
            && entry.is_some()
            && ctx.prev_op(op) == self.hoist.get(&region).copied();
        self.record(key, op);
        if in_place {
            self.hoist.insert(region, op);
            return Seeded::Kept;
        }
        ctx.detach_op(op);
        self.place(ctx, region, op);
        Seeded::Moved
    }
}
