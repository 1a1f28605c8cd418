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
    fold_op_with(ctx, op, &mut ValueKey::default(), &mut Vec::new())
}

/// [`fold_op`] with the `value` name looked up once per run and the operands' constants listed
/// in a buffer kept between calls (the driver folds every op of a million-op kernel).
pub(super) fn fold_op_with(
    ctx: &mut Context,
    op: OpId,
    key: &mut ValueKey,
    consts: &mut Vec<Option<Attribute>>,
) -> Option<Vec<FoldResult>> {
    let fold = ctx.info(op)?.fold?;
    consts.clear();
    for v in ctx.operands(op) {
        let c = ctx
            .defining_op(v)
            .and_then(|d| op_constant_value_with(ctx, d, key));
        consts.push(c);
    }
    let results = fold(ctx, op, consts)?;
    (results.len() == ctx.num_results(op)).then_some(results)
}

/// The interned name `value`, looked up once it exists: [`Context::prop`] looks the name up by
/// its string at every call, which the driver would do for every constant it meets.
#[derive(Default)]
pub(super) struct ValueKey(Option<Ident>);

impl ValueKey {
    fn get(&mut self, ctx: &Context) -> Option<Ident> {
        if self.0.is_none() {
            // Not interned yet: no op has it (yet: a materialized constant may add it).
            self.0 = ctx.lookup_ident("value");
        }
        self.0
    }
}

/// [`op_constant_value`] through a [`ValueKey`]: the same answer.
pub(super) fn op_constant_value_with(
    ctx: &Context,
    op: OpId,
    key: &mut ValueKey,
) -> Option<Attribute> {
    if !ctx.has_trait(op, OpTraits::CONSTANT_LIKE) {
        return None;
    }
    let name = key.get(ctx)?;
    let find = |list: &[(Ident, Attribute)]| list.iter().find(|(k, _)| *k == name).map(|e| e.1);
    find(ctx.properties(op)).or_else(|| find(ctx.attrs(op)))
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
pub(super) fn is_movable_constant(ctx: &Context, op: OpId, key: &mut ValueKey) -> bool {
    op_constant_value_with(ctx, op, key).is_some()
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
///
/// Only the constants of the insertion regions around the op being seeded can be met again, so
/// the driver forgets those of an isolated op's regions once it has seeded them (see
/// [`Constants::mark`]): the tables stay as small as one kernel's constants instead of growing
/// with the module, where each probe would miss the cache.
#[derive(Default)]
pub(super) struct Constants {
    map: FastMap<ConstKey, OpId>,
    /// The constants registered this sweep (MLIR's "folder-owned" constants).
    owned: FastSet<OpId>,
    /// Registered constants and their keys, in order, for [`Constants::forget_since`].
    log: Vec<(ConstKey, OpId)>,
    /// The interned dialect name of each op name (by index) met as a constant.
    dialects: Vec<Option<Ident>>,
}

impl Constants {
    pub(super) fn clear(&mut self) {
        self.map.clear();
        self.owned.clear();
        self.log.clear();
    }

    /// Where the constants registered from now on start, for [`Constants::forget_since`].
    pub(super) fn mark(&self) -> usize {
        self.log.len()
    }

    /// Forgets the constants registered since `mark`: their insertion regions will not be seeded
    /// again this sweep.
    pub(super) fn forget_since(&mut self, mark: usize) {
        for (key, op) in self.log.drain(mark..) {
            self.map.remove(&key);
            self.owned.remove(&op);
        }
    }

    fn key(&mut self, ctx: &mut Context, region: RegionId, op: OpId, value: Attribute) -> ConstKey {
        let name = ctx.op_name_of(op).index();
        if self.dialects.len() <= name {
            self.dialects.resize(name + 1, None);
        }
        let dialect = match self.dialects[name] {
            Some(d) => d,
            None => {
                let d = ctx.dialect_of(op).to_string();
                let d = ctx.ident(&d);
                self.dialects[name] = Some(d);
                d
            }
        };
        let ty = ctx.value_type(ctx.result(op, 0));
        (region, dialect, value, ty)
    }

    /// Registers an existing movable constant while seeding a sweep, as MLIR's
    /// `OperationFolder::insertKnownConstant`: a constant equal to one registered before it (in
    /// pre-order) is merged into that one, which loses its location; otherwise it is kept where
    /// it is if it leads its block or follows a registered constant, and else moved to the
    /// *front* of its insertion region's entry block (losing its location when it changes
    /// block). So constants made by folding, which the driver leaves where the folded op was,
    /// end up at the top in reverse order of their position, above the older ones: the order
    /// mlir-opt prints.
    ///
    /// `region` is `op`'s insertion region: where constants used by `op` live, its region or
    /// the enclosing one up to the nearest ISOLATED_FROM_ABOVE op, as MLIR (see [`stops_climb`]).
    pub(super) fn seed(
        &mut self,
        ctx: &mut Context,
        op: OpId,
        region: RegionId,
        key: &mut ValueKey,
    ) -> Seeded {
        let Some(value) = op_constant_value_with(ctx, op, key) else {
            return Seeded::Kept;
        };
        let Some(entry) = ctx.entry_block(region) else {
            return Seeded::Kept;
        };
        let key = self.key(ctx, region, op, value);
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
        self.log.push((key, op));
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

/// Whether the insertion region of the ops in `p`'s regions is that region itself: `p` is the
/// root, unregistered (it may be isolated) or ISOLATED_FROM_ABOVE.
pub(super) fn stops_climb(ctx: &Context, p: OpId, root: OpId) -> bool {
    p == root || !ctx.is_registered(p) || ctx.has_trait(p, OpTraits::ISOLATED_FROM_ABOVE)
}
