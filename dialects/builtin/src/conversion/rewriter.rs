//! [`ConversionRewriter`]: the [`Rewriter`] of a conversion pattern. It reports every change to
//! the driver's listener like any rewriter, and adds what a change of types needs: results
//! replaced by values of another type (bridged by source materializations), block signatures
//! converted through the [`TypeConverter`], and the converted operands of an op.

use super::type_converter::{InputMapping, SignatureConversion, TypeConverter};
use crate::builder::{Builder, InsertPoint, OperationState};
use crate::builtin::UNREALIZED_CONVERSION_CAST;
use crate::context::{Context, ValueDef};
use crate::entity::*;
use crate::fast_hash::{FastMap, FastSet};
use crate::mapping::IRMapping;
use crate::rewrite::{Listener, Rewriter};

/// What the driver keeps across pattern applications.
#[derive(Default)]
pub(super) struct ConversionState {
    /// A source materialization's result -> the converted value it stands for (asked for each
    /// operand of each converted op: a fast hash, not SipHash).
    mapping: FastMap<Value, Value>,
    /// What defines the mapping's keys: the names of their ops, and whether one is a block
    /// argument. A value defined otherwise is not looked up: a conversion of a million ops
    /// makes a mapping too big for the cache, and most operands are not in it.
    mapped_defs: Vec<OpName>,
    mapped_args: bool,
    /// The `unrealized_conversion_cast`s the driver built, in creation order.
    pub(super) casts: Vec<OpId>,
    pub(super) cast_set: FastSet<OpId>,
    /// Their op name, once one is built (ops of other names need no look in `cast_set`).
    cast_name: Option<OpName>,
}

impl ConversionState {
    /// Maps source materialization result `from` to the converted value `to`.
    fn map(&mut self, ctx: &Context, from: Value, to: Value) {
        match ctx.value_def(from) {
            ValueDef::OpResult { op, .. } => {
                let name = ctx.op_name_of(op);
                if !self.mapped_defs.contains(&name) {
                    self.mapped_defs.push(name);
                }
            }
            ValueDef::BlockArg { .. } => self.mapped_args = true,
        }
        self.mapping.insert(from, to);
    }

    /// What `v` is mapped to.
    fn lookup(&self, ctx: &Context, v: Value) -> Option<Value> {
        if self.mapping.is_empty() {
            return None;
        }
        let candidate = match ctx.value_def(v) {
            ValueDef::OpResult { op, .. } => self.mapped_defs.contains(&ctx.op_name_of(op)),
            ValueDef::BlockArg { .. } => self.mapped_args,
        };
        if !candidate {
            return None;
        }
        self.mapping.get(&v).copied()
    }

    /// Whether `op` is one of the driver's casts.
    pub(super) fn is_cast(&self, ctx: &Context, op: OpId) -> bool {
        self.cast_name.is_some_and(|n| ctx.op_name_of(op) == n) && self.cast_set.contains(&op)
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum Materialization {
    Source,
    Target,
}

/// Mutates the IR on behalf of a [`super::ConversionPattern`].
pub struct ConversionRewriter<'a> {
    rw: Rewriter<'a>,
    state: &'a mut ConversionState,
    converter: &'a TypeConverter,
}

impl<'a> ConversionRewriter<'a> {
    pub(super) fn new(
        ctx: &'a mut Context,
        listener: &'a mut dyn Listener,
        state: &'a mut ConversionState,
        converter: &'a TypeConverter,
    ) -> Self {
        ConversionRewriter {
            rw: Rewriter::with_listener(ctx, listener),
            state,
            converter,
        }
    }

    pub fn ctx(&self) -> &Context {
        self.rw.ctx()
    }

    /// See [`Rewriter::intern`].
    pub fn intern<T>(&mut self, f: impl FnOnce(&mut Context) -> T) -> T {
        self.rw.intern(f)
    }

    pub fn type_converter(&self) -> &'a TypeConverter {
        self.converter
    }

    /// The types `ty` converts to (see [`TypeConverter::convert_type`]).
    pub fn convert_type(&mut self, ty: Type) -> Option<Vec<Type>> {
        self.converter.convert_type(self.rw.ctx, ty)
    }

    /// The single type `ty` converts to.
    pub fn convert_type_1(&mut self, ty: Type) -> Option<Type> {
        self.converter.convert_type_1(self.rw.ctx, ty)
    }

    /// The converted value `v` stands for: through source materializations, or `v` itself.
    pub fn remapped(&self, v: Value) -> Value {
        let mut cur = v;
        // The mapping is acyclic (each entry maps a new cast result); the bound is a guard.
        for _ in 0..64 {
            match self.state.lookup(self.rw.ctx(), cur) {
                Some(n) if n != cur => cur = n,
                _ => break,
            }
        }
        cur
    }

    // ----- as a Rewriter ----------------------------------------------------------------------

    /// A builder at `ip` that reports inserted ops to the driver.
    pub fn builder(&mut self, ip: InsertPoint) -> Builder<'_> {
        self.rw.builder(ip)
    }
    pub fn create(&mut self, ip: InsertPoint, state: OperationState) -> OpId {
        self.rw.create(ip, state)
    }
    pub fn create_before(&mut self, anchor: OpId, state: OperationState) -> OpId {
        self.rw.create_before(anchor, state)
    }
    pub fn create_after(&mut self, anchor: OpId, state: OperationState) -> OpId {
        self.rw.create_after(anchor, state)
    }
    pub fn insert_op(&mut self, op: OpId, ip: InsertPoint) {
        self.rw.insert_op(op, ip)
    }
    pub fn move_op_before(&mut self, op: OpId, anchor: OpId) {
        self.rw.move_op_before(op, anchor)
    }
    pub fn clone_op(&mut self, op: OpId, ip: InsertPoint, mapping: &mut IRMapping) -> OpId {
        self.rw.clone_op(op, ip, mapping)
    }
    pub fn create_region(&mut self) -> RegionId {
        self.rw.create_region()
    }
    pub fn create_block(&mut self, region: RegionId, args: &[(Type, Location)]) -> BlockId {
        self.rw.create_block(region, args)
    }
    pub fn erase_op(&mut self, op: OpId) {
        self.rw.erase_op(op)
    }
    pub fn erase_block(&mut self, block: BlockId) {
        self.rw.erase_block(block)
    }
    pub fn set_operand(&mut self, op: OpId, index: usize, v: Value) {
        self.rw.set_operand(op, index, v)
    }
    pub fn set_prop(&mut self, op: OpId, name: &str, value: Attribute) {
        self.rw.set_prop(op, name, value)
    }
    pub fn set_attr(&mut self, op: OpId, name: &str, value: Attribute) {
        self.rw.set_attr(op, name, value)
    }
    pub fn modify_op_in_place<T>(&mut self, op: OpId, f: impl FnOnce(&mut Context) -> T) -> T {
        self.rw.modify_op_in_place(op, f)
    }
    pub fn inline_region_before(&mut self, from: RegionId, to: RegionId, before: Option<BlockId>) {
        self.rw.inline_region_before(from, to, before)
    }
    pub fn inline_block_before(&mut self, src: BlockId, anchor: OpId, args: &[Value]) {
        self.rw.inline_block_before(src, anchor, args)
    }
    pub fn merge_blocks(&mut self, src: BlockId, dest: BlockId, args: &[Value]) {
        self.rw.merge_blocks(src, dest, args)
    }

    // ----- type-changing rewrites -------------------------------------------------------------

    /// Replaces each result of `op` by a value of the same or of a converted type and erases
    /// `op`. Uses that are not converted yet see a source materialization of the new value.
    pub fn replace_op(&mut self, op: OpId, with: &[Value]) {
        assert_eq!(
            self.ctx().num_results(op),
            with.len(),
            "replace_op: result count mismatch"
        );
        self.rw.notify(|l, ctx| l.notify_op_replaced(ctx, op, with));
        let loc = self.ctx().loc(op);
        for (i, &n) in with.iter().enumerate() {
            let r = self.ctx().result(op, i);
            let ty = self.ctx().value_type(r);
            if self.ctx().value_type(n) == ty || !self.ctx().has_uses(r) {
                self.rw.replace_all_uses_with(r, n);
                continue;
            }
            let ip = match self.ctx().value_def(n) {
                ValueDef::OpResult { op: d, .. } if self.ctx().parent_block(d).is_some() => {
                    InsertPoint::After(d)
                }
                ValueDef::BlockArg { block, .. } => InsertPoint::AtStart(block),
                _ => InsertPoint::Before(op),
            };
            let c = self.materialize(Materialization::Source, ip, ty, &[n], loc);
            self.state.map(self.rw.ctx(), c, n);
            self.rw.replace_all_uses_with(r, c);
        }
        self.rw.erase_op(op);
    }

    /// Replaces `op` by a new op built from `state` and returns the new op.
    pub fn replace_op_with_new(&mut self, op: OpId, state: OperationState) -> OpId {
        let new = self.rw.create_before(op, state);
        let results = self.ctx().results(new).to_vec();
        self.replace_op(op, &results);
        new
    }

    /// Converts the arguments of every block of `region` through the type converter. Returns
    /// `false`, changing nothing, when some argument's type does not convert.
    pub fn convert_region_types(&mut self, region: RegionId) -> bool {
        let blocks = self.ctx().region_blocks(region).to_vec();
        let mut sigs = Vec::with_capacity(blocks.len());
        for &b in &blocks {
            match self.converter.convert_block_signature(self.rw.ctx, b) {
                Some(s) => sigs.push(s),
                None => return false,
            }
        }
        for (b, s) in blocks.into_iter().zip(sigs) {
            self.apply_signature_conversion(b, &s);
        }
        true
    }

    /// Gives `block` the arguments `sig` describes. The block keeps its handle (so branches to
    /// it stay valid); its arguments are new values, and the uses of each old argument take the
    /// new one, its replacement, or a source materialization of the new ones.
    pub fn apply_signature_conversion(&mut self, block: BlockId, sig: &SignatureConversion) {
        let old = self.ctx().block_args(block).to_vec();
        assert_eq!(old.len(), sig.inputs.len(), "signature conversion arity");
        let mut new_for: Vec<Vec<Value>> = Vec::with_capacity(old.len());
        for (&a, m) in old.iter().zip(&sig.inputs) {
            let loc = self.ctx().value_loc(a);
            let types = match m {
                InputMapping::Keep => vec![self.ctx().value_type(a)],
                InputMapping::Types(ts) => ts.clone(),
                InputMapping::Value(_) => Vec::new(),
            };
            let news = types
                .into_iter()
                .map(|t| self.rw.ctx.add_block_arg(block, t, loc))
                .collect();
            new_for.push(news);
        }
        let mut after: Option<OpId> = None;
        for ((&a, m), news) in old.iter().zip(&sig.inputs).zip(&new_for) {
            let ty = self.ctx().value_type(a);
            let to = match m {
                InputMapping::Value(v) => *v,
                _ if news.len() == 1 && self.ctx().value_type(news[0]) == ty => news[0],
                _ if !self.ctx().has_uses(a) => continue,
                _ => {
                    let ip = after.map_or(InsertPoint::AtStart(block), InsertPoint::After);
                    let loc = self.ctx().value_loc(a);
                    let c = self.materialize(Materialization::Source, ip, ty, news, loc);
                    if news.len() == 1 {
                        self.state.map(self.rw.ctx(), c, news[0]);
                    }
                    after = self
                        .ctx()
                        .defining_op(c)
                        .filter(|&d| self.ctx().parent_block(d) == Some(block));
                    c
                }
            };
            self.rw.replace_all_uses_with(a, to);
        }
        for _ in 0..old.len() {
            self.rw.ctx.erase_block_arg(block, 0);
        }
        if let Some(p) = self.ctx().block_parent_op(block) {
            self.rw.modified(p);
        }
    }

    /// The converted operands of `op`: each operand's remapped value, or, when its type
    /// converts 1:1 to another, a target materialization of it before `op`.
    pub(super) fn adaptor(&mut self, op: OpId) -> Vec<Value> {
        let loc = self.ctx().loc(op);
        let operands = self.ctx().operand_vec(op);
        let mut out = Vec::with_capacity(operands.len());
        for v in operands {
            let m = self.remapped(v);
            if m != v {
                out.push(m);
                continue;
            }
            let ty = self.ctx().value_type(v);
            match self.convert_type_1(ty) {
                Some(t) if t != ty => {
                    let c = self.materialize(
                        Materialization::Target,
                        InsertPoint::Before(op),
                        t,
                        &[v],
                        loc,
                    );
                    out.push(c);
                }
                _ => out.push(v),
            }
        }
        out
    }

    /// A value of type `ty` built from `inputs` at `ip`: by the converter's hooks (last added
    /// first), else by an `unrealized_conversion_cast` that the driver tracks.
    pub(super) fn materialize(
        &mut self,
        kind: Materialization,
        ip: InsertPoint,
        ty: Type,
        inputs: &[Value],
        loc: Location,
    ) -> Value {
        let conv = self.converter;
        let hooks = match kind {
            Materialization::Source => &conv.source_materializations,
            Materialization::Target => &conv.target_materializations,
        };
        for h in hooks.iter().rev() {
            if let Some(v) = h(&mut self.rw.builder(ip), ty, inputs, loc) {
                return v;
            }
        }
        let st = OperationState::new(UNREALIZED_CONVERSION_CAST, loc)
            .operands(inputs)
            .results(&[ty]);
        let c = self.rw.create(ip, st);
        self.state.casts.push(c);
        self.state.cast_set.insert(c);
        self.state.cast_name = Some(self.ctx().op_name_of(c));
        self.ctx().result(c, 0)
    }
}
