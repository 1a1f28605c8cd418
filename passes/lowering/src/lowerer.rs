//! [`Lowerer`]: the state of lowering one qd kernel into the tasks of a lowered kernel.
//!
//! - Ops are emitted at the end of the current block ([`At::End`]), or into the current task's
//!   prologue ([`At::Prologue`]): the run of ops at the head of the task's block that holds
//!   task-invariant values (kernel arguments, field and ndarray pointers, thread id, constants,
//!   adstack metadata, rematerialized top-level values, loads of spilled values). Everything in
//!   the prologue dominates the whole task.
//! - [`Lowerer::get`] maps a qd value to its lowered value; a top-level value of the kernel that
//!   the task has not seen is materialized in the prologue: `lowered.arg`, a rematerialized pure
//!   computation, or a load from its temporaries slot (see `partition`).
//! - Every emitted op gets [`Lowerer::loc`], the location of the qd op being converted.

use crate::partition::Plan;
use qd_arith::{build_cast, build_constant, build_constant_float, build_elementwise};
use qd_arith::{build_cmpi, build_select, CmpIPredicate};
use qd_frontend::{NdarrayType, PtrType};
use qd_ir::{
    BlockId, Builder, Context, Diagnostic, IRMapping, InsertPoint, Location, OpId, RegionId, Type,
    TypeData, Value, ValueDef,
};
use std::collections::HashMap;

pub(crate) type R<T> = Result<T, Diagnostic>;

/// Where the next op goes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum At {
    End(BlockId),
    Prologue,
}

/// A task-invariant value kept once per task, in its prologue.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Cached {
    FieldPtr(String, bool),
    NdarrayPtr(u32),
    NdarrayDim(u32, u32),
    ThreadId,
    TaskBegin,
    /// A constant: its type and bits (integers sign-extended, floats as f64 bits).
    Const(Type, u64),
    AdstackRow,
    AdstackStride(bool),
    AdstackOffset(u32),
    AdstackMaxSize(u32),
}

/// The private flags that replace `qd.break` / `qd.continue` in one serial loop.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct LoopFlags {
    /// `i1`, true once the loop broke (it is checked by the loop's condition).
    pub broken: Option<Value>,
    /// `i1`, true while the current iteration goes on (cleared by break and continue; guards
    /// the code after an `if` that may jump).
    pub running: Option<Value>,
}

struct Task {
    block: BlockId,
    prologue_end: Option<OpId>,
}

/// One heap slice of an adstack in the current task (see `adstack`).
#[derive(Copy, Clone, Debug)]
pub(crate) struct StackView {
    pub id: u32,
    pub float: bool,
    /// The element type of the stack.
    pub elem: Type,
    /// The element's type in the heap (`i1` widened to `i32`).
    pub stored: Type,
    /// Bytes of one entry.
    pub entry_bytes: i64,
    /// i64 capacity in entries.
    pub cap: Value,
    /// i1: `cap > 0`.
    pub has_entries: Value,
    /// i64 byte offset of entry 0's primal (the header when the stack has no entries, whose
    /// count reads as zero).
    pub primal0: Value,
    /// i64 byte offset of entry 0's adjoint (float stacks), same fallback.
    pub adjoint0: Option<Value>,
    /// `!lowered.ptr<i64>` to the count header.
    pub count_ptr: Value,
}

pub(crate) struct Lowerer<'c> {
    pub ctx: &'c mut Context,
    /// The qd kernel and its body block (top-level ops).
    pub kernel: OpId,
    pub body: Option<BlockId>,
    pub plan: Plan,
    /// qd value -> lowered value, for the current task.
    pub map: IRMapping,
    pub loc: Location,
    pub at: At,
    task: Option<Task>,
    cache: HashMap<Cached, Value>,
    /// The adstacks allocated in the current task, by their qd stack value.
    pub stacks: HashMap<Value, StackView>,
    /// The flags of the enclosing serial loops, innermost last.
    pub loops: Vec<LoopFlags>,
}

impl<'c> Lowerer<'c> {
    pub fn new(ctx: &'c mut Context, kernel: OpId, body: Option<BlockId>, plan: Plan) -> Self {
        let loc = ctx.loc(kernel);
        Lowerer {
            ctx,
            kernel,
            body,
            plan,
            map: IRMapping::new(),
            loc,
            at: At::Prologue,
            task: None,
            cache: HashMap::new(),
            stacks: HashMap::new(),
            loops: Vec::new(),
        }
    }

    /// Starts emitting into the (empty) block of a new task.
    pub fn begin_task(&mut self, block: BlockId) {
        self.map.clear();
        self.cache.clear();
        self.stacks.clear();
        self.loops.clear();
        self.task = Some(Task {
            block,
            prologue_end: None,
        });
        self.at = At::End(block);
    }

    fn insert_point(&self) -> InsertPoint {
        match self.at {
            At::End(b) => InsertPoint::AtEnd(b),
            At::Prologue => match &self.task {
                Some(Task {
                    prologue_end: Some(o),
                    ..
                }) => InsertPoint::After(*o),
                Some(t) => InsertPoint::AtStart(t.block),
                None => InsertPoint::Detached,
            },
        }
    }

    /// Runs `f` with a builder at the current insertion point.
    pub fn with_builder<T>(&mut self, f: impl FnOnce(&mut Builder) -> T) -> T {
        let ip = self.insert_point();
        let mut b = Builder::new(self.ctx, ip);
        let r = f(&mut b);
        let end = b.ip;
        if self.at == At::Prologue {
            if let (Some(t), InsertPoint::After(o)) = (self.task.as_mut(), end) {
                t.prologue_end = Some(o);
            }
        }
        r
    }

    /// Places a detached op at the insertion point.
    pub fn place(&mut self, op: OpId) {
        self.with_builder(|b| b.insert_op(op));
    }

    /// Runs `f` emitting into the prologue, then goes back to where it was.
    pub fn in_prologue<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.at;
        self.at = At::Prologue;
        let r = f(self);
        self.at = saved;
        r
    }

    /// The task-invariant value `key`, made in the prologue by `make` on first use.
    pub fn cached(&mut self, key: Cached, make: impl FnOnce(&mut Self) -> Value) -> Value {
        if let Some(&v) = self.cache.get(&key) {
            return v;
        }
        let v = self.in_prologue(make);
        self.cache.insert(key, v);
        v
    }

    /// A new region with one block (with `args`), filled by `f` with the insertion point at its
    /// end; the insertion point is restored afterwards.
    pub fn region(
        &mut self,
        args: &[(Type, Location)],
        f: impl FnOnce(&mut Self, BlockId) -> R<()>,
    ) -> R<RegionId> {
        let (region, block) = self.ctx.create_region_with_block(args);
        let saved = self.at;
        self.at = At::End(block);
        let r = f(self, block);
        self.at = saved;
        r.map(|()| region)
    }

    // ----- values ------------------------------------------------------------------------

    /// The lowered value of qd value `v`, materializing a top-level kernel value in the
    /// prologue when the task has not seen it yet.
    pub fn get(&mut self, v: Value) -> R<Value> {
        if let Some(x) = self.map.lookup(v) {
            return Ok(x);
        }
        let saved = self.loc;
        let r = self.materialize(v);
        self.loc = saved;
        r
    }

    pub fn get_all(&mut self, vs: &[Value]) -> R<Vec<Value>> {
        vs.iter().map(|&v| self.get(v)).collect()
    }

    fn materialize(&mut self, v: Value) -> R<Value> {
        let ty = self.ctx.value_type(v);
        match self.ctx.value_def(v) {
            ValueDef::BlockArg { block, index } if Some(block) == self.body => {
                if NdarrayType::from_type(self.ctx, ty).is_some() {
                    return Err(self.error(format!(
                        "ndarray argument {index} is used by an op that does not address it"
                    )));
                }
                let r = self.in_prologue(|lw| crate::emit::arg(lw, index, ty));
                self.map.map(v, r);
                Ok(r)
            }
            ValueDef::OpResult { op, .. } if self.ctx.parent_block(op) == self.body => {
                self.loc = self.ctx.loc(op);
                if let Some(&slot) = self.plan.spills.get(&v) {
                    let r = self.in_prologue(|lw| crate::spill::reload(lw, slot, ty))?;
                    self.map.map(v, r);
                    return Ok(r);
                }
                if self.plan.remat.contains(&op) {
                    self.in_prologue(|lw| crate::convert::lower_op(lw, op))?;
                    if let Some(r) = self.map.lookup(v) {
                        return Ok(r);
                    }
                }
                Err(self.internal(format!(
                    "a value of type {} defined by '{}' is not available in this task",
                    self.type_str(ty),
                    self.ctx.name(op)
                )))
            }
            _ => Err(self.internal(format!(
                "a value of type {} is used before it is lowered",
                self.type_str(ty)
            ))),
        }
    }

    // ----- diagnostics -------------------------------------------------------------------

    pub fn error(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.loc, msg.into())
    }

    pub fn internal(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(
            self.loc,
            format!("convert-qd-to-lowered internal error: {}", msg.into()),
        )
    }

    pub fn type_str(&self, ty: Type) -> String {
        qd_ir::text::type_to_string(self.ctx, ty)
    }

    // ----- arith helpers ----------------------------------------------------------------

    /// An integer (or index, or i1) constant, in the prologue.
    pub fn const_int(&mut self, v: i64, ty: Type) -> Value {
        let loc = self.loc;
        self.cached(Cached::Const(ty, v as u64), |lw| {
            let a = qd_arith::consts::int_attr(lw.ctx, v, ty);
            lw.with_builder(|b| build_constant(b, a, ty, loc))
        })
    }

    pub fn const_i64(&mut self, v: i64) -> Value {
        let t = self.ctx.i64_type();
        self.const_int(v, t)
    }

    pub fn const_bool(&mut self, v: bool) -> Value {
        let t = self.ctx.i1_type();
        self.const_int(v as i64, t)
    }

    /// A float constant, in the prologue.
    pub fn const_float(&mut self, v: f64, ty: Type) -> Value {
        let loc = self.loc;
        self.cached(Cached::Const(ty, v.to_bits()), |lw| {
            lw.with_builder(|b| build_constant_float(b, v, ty, loc))
        })
    }

    /// The zero of scalar type `ty`.
    pub fn zero(&mut self, ty: Type) -> Value {
        if self.ctx.type_data(ty).is_float() {
            self.const_float(0.0, ty)
        } else {
            self.const_int(0, ty)
        }
    }

    /// A same-type arith op (`arith.addi`, `arith.maxsi`, ...).
    pub fn arith(&mut self, name: &str, operands: &[Value]) -> Value {
        let loc = self.loc;
        self.with_builder(|b| build_elementwise(b, name, operands, loc))
    }

    pub fn cast(&mut self, name: &str, x: Value, to: Type) -> Value {
        let loc = self.loc;
        self.with_builder(|b| build_cast(b, name, x, to, loc))
    }

    pub fn cmpi(&mut self, pred: CmpIPredicate, a: Value, b: Value) -> Value {
        let loc = self.loc;
        self.with_builder(|bl| build_cmpi(bl, pred, a, b, loc))
    }

    pub fn select(&mut self, c: Value, t: Value, f: Value) -> Value {
        let loc = self.loc;
        self.with_builder(|b| build_select(b, c, t, f, loc))
    }

    /// `!x` of an i1.
    pub fn not(&mut self, x: Value) -> Value {
        let t = self.const_bool(true);
        self.arith(qd_arith::names::XORI, &[x, t])
    }

    /// An integer or index value as i64 (sign-extended, as qd reads indices and bounds).
    pub fn widen_i64(&mut self, v: Value) -> R<Value> {
        let ty = self.ctx.value_type(v);
        let i64t = self.ctx.i64_type();
        match self.ctx.type_data(ty) {
            TypeData::Index => Ok(self.cast(qd_arith::names::INDEX_CAST, v, i64t)),
            TypeData::Integer { width: 64, .. } => Ok(v),
            TypeData::Integer { .. } => Ok(self.cast(qd_arith::names::EXTSI, v, i64t)),
            _ => Err(self.internal(format!(
                "expected an integer index, got {}",
                self.type_str(ty)
            ))),
        }
    }

    /// An i64 value as integer or index type `ty` (truncated).
    pub fn narrow_i64(&mut self, v: Value, ty: Type) -> R<Value> {
        match self.ctx.type_data(ty) {
            TypeData::Index => Ok(self.cast(qd_arith::names::INDEX_CAST, v, ty)),
            TypeData::Integer { width: 64, .. } => Ok(v),
            TypeData::Integer { .. } => Ok(self.cast(qd_arith::names::TRUNCI, v, ty)),
            _ => Err(self.internal(format!(
                "expected an integer type, got {}",
                self.type_str(ty)
            ))),
        }
    }

    /// The element type of a qd pointer value.
    pub fn pointee(&self, v: Value) -> R<Type> {
        let ty = self.ctx.value_type(v);
        PtrType::from_type(self.ctx, ty)
            .map(|p| p.pointee(self.ctx))
            .ok_or_else(|| self.internal(format!("expected a !qd.ptr, got {}", self.type_str(ty))))
    }
}
