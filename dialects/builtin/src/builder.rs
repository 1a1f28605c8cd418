//! [`OperationState`] (everything needed to create an op) and a [`Builder`] with an insertion point.

use crate::context::Context;
use crate::entity::*;
use crate::mapping::IRMapping;
use crate::rewrite::Listener;

/// The parts of an op before it is created.
#[derive(Clone, Debug)]
pub struct OperationState {
    pub name: String,
    pub loc: Location,
    pub operands: Vec<Value>,
    pub result_types: Vec<Type>,
    pub properties: Vec<(Ident, Attribute)>,
    pub attributes: Vec<(Ident, Attribute)>,
    pub regions: Vec<RegionId>,
    pub successors: Vec<BlockId>,
}

impl OperationState {
    pub fn new(name: impl Into<String>, loc: Location) -> Self {
        OperationState {
            name: name.into(),
            loc,
            operands: Vec::new(),
            result_types: Vec::new(),
            properties: Vec::new(),
            attributes: Vec::new(),
            regions: Vec::new(),
            successors: Vec::new(),
        }
    }
    pub fn operands(mut self, vs: &[Value]) -> Self {
        self.operands.extend_from_slice(vs);
        self
    }
    pub fn results(mut self, tys: &[Type]) -> Self {
        self.result_types.extend_from_slice(tys);
        self
    }
    pub fn prop(mut self, ctx: &mut Context, name: &str, value: Attribute) -> Self {
        self.add_prop(ctx, name, value);
        self
    }
    pub fn add_prop(&mut self, ctx: &mut Context, name: &str, value: Attribute) {
        let k = ctx.ident(name);
        self.properties.retain(|(n, _)| *n != k);
        self.properties.push((k, value));
    }
    pub fn attr(mut self, ctx: &mut Context, name: &str, value: Attribute) -> Self {
        self.add_attr(ctx, name, value);
        self
    }
    pub fn add_attr(&mut self, ctx: &mut Context, name: &str, value: Attribute) {
        let k = ctx.ident(name);
        self.attributes.retain(|(n, _)| *n != k);
        self.attributes.push((k, value));
    }
    pub fn region(mut self, r: RegionId) -> Self {
        self.regions.push(r);
        self
    }
    pub fn successor(mut self, b: BlockId) -> Self {
        self.successors.push(b);
        self
    }
    /// The property of this name already set on the state.
    pub fn get_prop(&self, ctx: &Context, name: &str) -> Option<Attribute> {
        let k = ctx.lookup_ident(name)?;
        self.properties
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| *v)
    }
}

/// Where a [`Builder`] inserts.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum InsertPoint {
    /// Ops are created detached.
    Detached,
    AtEnd(BlockId),
    AtStart(BlockId),
    Before(OpId),
    After(OpId),
}

/// Creates ops at an insertion point. After `After(op)`, the point advances past each new op so
/// that successive ops come out in order. A builder made by a [`crate::rewrite::Rewriter`] (or
/// [`Builder::with_listener`]) reports each op it inserts, so that a driver sees it.
pub struct Builder<'c> {
    pub ctx: &'c mut Context,
    pub ip: InsertPoint,
    listener: Option<&'c mut dyn Listener>,
}

impl<'c> Builder<'c> {
    pub fn new(ctx: &'c mut Context, ip: InsertPoint) -> Self {
        Builder {
            ctx,
            ip,
            listener: None,
        }
    }
    /// A builder that reports every op it inserts to `listener`.
    pub fn with_listener(
        ctx: &'c mut Context,
        ip: InsertPoint,
        listener: &'c mut dyn Listener,
    ) -> Self {
        Builder {
            ctx,
            ip,
            listener: Some(listener),
        }
    }
    pub fn at_end(ctx: &'c mut Context, block: BlockId) -> Self {
        Self::new(ctx, InsertPoint::AtEnd(block))
    }
    pub fn before(ctx: &'c mut Context, op: OpId) -> Self {
        Self::new(ctx, InsertPoint::Before(op))
    }

    /// Creates the op and inserts it at the insertion point.
    pub fn insert(&mut self, state: OperationState) -> OpId {
        let op = self.ctx.create_op(state);
        self.insert_op(op);
        op
    }

    /// Deep-clones `op` through `mapping` (see [`Context::clone_op`]) and inserts the clone at
    /// the insertion point. A listener hears of the clone and of every op and block in it.
    pub fn clone_op(&mut self, op: OpId, mapping: &mut IRMapping) -> OpId {
        let new = self.ctx.clone_op(op, mapping);
        self.place(new);
        if self.ip == InsertPoint::Detached {
            return new;
        }
        if let Some(l) = self.listener.as_deref_mut() {
            for o in self.ctx.walk_pre_order(new) {
                l.notify_op_inserted(self.ctx, o);
                for &r in self.ctx.regions(o) {
                    for &b in self.ctx.region_blocks(r) {
                        l.notify_block_inserted(self.ctx, b);
                    }
                }
            }
        }
        new
    }

    /// Inserts a detached op at the insertion point.
    pub fn insert_op(&mut self, op: OpId) {
        self.place(op);
        if self.ip == InsertPoint::Detached {
            return;
        }
        if let Some(l) = self.listener.as_deref_mut() {
            l.notify_op_inserted(self.ctx, op);
        }
    }

    fn place(&mut self, op: OpId) {
        match self.ip {
            InsertPoint::Detached => {}
            InsertPoint::AtEnd(b) => self.ctx.append_op(b, op),
            InsertPoint::AtStart(b) => {
                self.ctx.prepend_op(b, op);
                self.ip = InsertPoint::After(op);
            }
            InsertPoint::Before(a) => self.ctx.insert_op_before(a, op),
            InsertPoint::After(a) => {
                self.ctx.insert_op_after(a, op);
                self.ip = InsertPoint::After(op);
            }
        }
    }

    /// Inserts the op and returns its single result.
    pub fn insert_value(&mut self, state: OperationState) -> Value {
        let op = self.insert(state);
        self.ctx.result(op, 0)
    }
}
