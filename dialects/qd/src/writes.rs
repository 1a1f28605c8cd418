//! Every write of global memory in one form: `qd.store` and `qd.atomic_*` (fields),
//! `qd.ndarray_store` and `qd.ndarray_atomic_*` (ndarrays), so that a pass that reasons about
//! writes (access rules, activity) covers them all through one match.
//!
//! ```text
//! if let Some(w) = qd_frontend::global_write(ctx, op) {
//!     match w.target {
//!         WriteTarget::Field(name) => ..., // the field's symbol name
//!         WriteTarget::Ndarray(a) => ...,  // the ndarray value (a kernel argument)
//!     }
//!     // w.kind: Store or Atomic(Add | Sub | Min | Max); w.value, w.indices, w.old
//! }
//! ```

use crate::memory::{AtomicKind, AtomicOp, StoreOp};
use crate::ndarray::{NdarrayAtomicOp, NdarrayStoreOp};
use crate::{NDARRAY_STORE_OP, STORE_OP};
use qd_ir::{Context, OpId, Value};

/// What a write writes to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WriteTarget<'a> {
    /// A field, by symbol name.
    Field(&'a str),
    /// An ndarray value.
    Ndarray(Value),
}

/// How a write changes its element.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WriteKind {
    /// Overwrites it (`qd.store`, `qd.ndarray_store`).
    Store,
    /// Combines it with the value (`qd.atomic_*`, `qd.ndarray_atomic_*`).
    Atomic(AtomicKind),
}

/// One write of a global element.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GlobalWrite<'a> {
    pub op: OpId,
    pub target: WriteTarget<'a>,
    pub kind: WriteKind,
    /// The value stored or combined.
    pub value: Value,
    pub indices: Vec<Value>,
    /// An atomic's result (the element before the update), when it has one.
    pub old: Option<Value>,
}

/// The global write `op` performs, or None when it is no field or ndarray store or atomic.
pub fn global_write(ctx: &Context, op: OpId) -> Option<GlobalWrite<'_>> {
    let name = ctx.name(op);
    let w = if name == STORE_OP {
        let s = StoreOp(op);
        GlobalWrite {
            op,
            target: WriteTarget::Field(s.field_name(ctx)),
            kind: WriteKind::Store,
            value: s.value(ctx),
            indices: s.indices(ctx),
            old: None,
        }
    } else if name == NDARRAY_STORE_OP {
        let s = NdarrayStoreOp(op);
        GlobalWrite {
            op,
            target: WriteTarget::Ndarray(s.array(ctx)),
            kind: WriteKind::Store,
            value: s.value(ctx),
            indices: s.indices(ctx),
            old: None,
        }
    } else if let Some(a) = AtomicOp::from_op(ctx, op) {
        GlobalWrite {
            op,
            target: WriteTarget::Field(a.field_name(ctx)),
            kind: WriteKind::Atomic(a.kind(ctx)),
            value: a.value(ctx),
            indices: a.indices(ctx),
            old: a.old_value(ctx),
        }
    } else {
        let a = NdarrayAtomicOp::from_op(ctx, op)?;
        GlobalWrite {
            op,
            target: WriteTarget::Ndarray(a.array(ctx)),
            kind: WriteKind::Atomic(a.kind(ctx)),
            value: a.value(ctx),
            indices: a.indices(ctx),
            old: a.old_value(ctx),
        }
    };
    Some(w)
}
