//! [`Em`]: what a conversion pattern emits with: the driver's rewriter, an insertion point (just
//! before the op being converted, or the end of a region being filled), the location of the qd
//! op, and the facts gathered before the conversion.
//!
//! Task invariants (kernel data, metadata, constants, and arithmetic on them) go into the task's
//! prologue, the run of pure ops at the head of its block, once per task: [`Em::invariant`]
//! reuses an identical op already there. The invariants asked for again and again (constants,
//! field pointers, the adstack metadata every stack shares) are also remembered per task by what
//! they compute ([`Em::remembered`]), so that asking again builds nothing.

use super::prologue::Found;
use super::State;
use crate::convert_qd_to_lowered::LoweringOptions;
use crate::facts::Facts;
use qd_arith::names::{EXTSI, INDEX_CAST, TRUNCI};
use qd_arith::{build_cast, build_cmpi, build_constant, build_elementwise, CmpIPredicate};
use qd_ir::conversion::ConversionRewriter;
use qd_ir::fast_hash::FastMap;
use qd_ir::{
    BlockId, Builder, Context, Diagnostic, InsertPoint, Location, OpId, RegionId, Type, TypeData,
    Value,
};
use qd_lowered::types::storage_type;
use qd_lowered::{global_ptr, Heap, TASK_OP};

pub type R<T> = Result<T, Diagnostic>;

pub struct Em<'r, 'a> {
    pub rw: &'r mut ConversionRewriter<'a>,
    pub ip: InsertPoint,
    pub loc: Location,
    /// The op being converted.
    pub op: OpId,
    pub facts: &'r Facts,
    pub options: LoweringOptions,
    /// What the patterns remember between ops (the prologue index, stack views).
    pub state: &'r mut State,
    /// The block of the task the op is in, once asked (see [`Em::task_block`]).
    task: Option<Option<BlockId>>,
}

/// An invariant the patterns ask for often, as [`Em`] remembers it per task: what it computes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum InvKey {
    /// An integer constant of a type.
    Int(i64, Type),
    /// The zero of a float type.
    FloatZero(Type),
    /// `lowered.field_ptr` of a field (its adjoint when `grad`), of a pointer type: the field
    /// by its declaration, which names it.
    FieldPtr { decl: OpId, grad: bool, ty: Type },
    /// `lowered.ndarray_ptr` of kernel argument `arg`, of a pointer type.
    NdarrayPtr { arg: u32, ty: Type },
    /// `lowered.ndarray_dim` of kernel argument `arg` on `axis`.
    NdarrayDim { arg: u32, axis: u32 },
    /// `lowered.adstack_row`.
    AdstackRow,
    /// `lowered.adstack_stride` of a heap.
    AdstackStride(Heap),
    /// A binary arith op on two invariants.
    Arith(&'static str, Value, Value),
}

/// Types the patterns ask for per op, interned once per conversion instead of hashed into the
/// Context's type table each time.
#[derive(Default)]
pub struct Types {
    i64: Option<Type>,
    /// `!lowered.ptr<T>` by `T`.
    global_ptrs: FastMap<Type, Type>,
}

impl<'r, 'a> Em<'r, 'a> {
    /// `i64`.
    pub fn i64_type(&mut self) -> Type {
        if let Some(t) = self.state.types.i64 {
            return t;
        }
        let t = self.rw.intern(|ctx| ctx.i64_type());
        self.state.types.i64 = Some(t);
        t
    }

    /// `!lowered.ptr<ty>` (global).
    pub fn global_ptr(&mut self, ty: Type) -> Type {
        if let Some(&p) = self.state.types.global_ptrs.get(&ty) {
            return p;
        }
        let p = self.rw.intern(|ctx| global_ptr(ctx, ty));
        self.state.types.global_ptrs.insert(ty, p);
        p
    }

    /// A global pointer to where an element of type `elem` is stored (`i1` as `i8`).
    pub fn stored_ptr(&mut self, elem: Type) -> Type {
        let st = self.rw.intern(|ctx| storage_type(ctx, elem));
        self.global_ptr(st)
    }

    pub fn new(
        rw: &'r mut ConversionRewriter<'a>,
        op: OpId,
        facts: &'r Facts,
        options: LoweringOptions,
        state: &'r mut State,
    ) -> Self {
        let loc = rw.ctx().loc(op);
        Em {
            rw,
            ip: InsertPoint::Before(op),
            loc,
            op,
            facts,
            options,
            state,
            task: None,
        }
    }

    pub fn ctx(&self) -> &Context {
        self.rw.ctx()
    }

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
        qd_ir::text::type_to_string(self.ctx(), ty)
    }

    /// Runs `f` with a builder at the insertion point.
    pub fn b<T>(&mut self, f: impl FnOnce(&mut Builder) -> T) -> T {
        let mut b = self.rw.builder(self.ip);
        let r = f(&mut b);
        self.ip = b.ip;
        r
    }

    /// Runs `f` emitting at the end of `block`, then goes back to the insertion point.
    pub fn at_end<T>(&mut self, block: BlockId, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.ip;
        self.ip = InsertPoint::AtEnd(block);
        let r = f(self);
        self.ip = saved;
        r
    }

    /// A new block (with `args`) in `region`, which must have none.
    pub fn block(&mut self, region: RegionId, args: &[(Type, Location)]) -> BlockId {
        self.rw.create_block(region, args)
    }

    /// The block of the task the op being converted is in (found once per op: a pattern asks
    /// for each invariant and stack it emits, and the op may sit deep in loops).
    pub fn task_block(&mut self) -> Option<BlockId> {
        if let Some(tb) = self.task {
            return tb;
        }
        let tb = self.find_task_block();
        self.task = Some(tb);
        tb
    }

    fn find_task_block(&self) -> Option<BlockId> {
        let ctx = self.ctx();
        let mut cur = ctx.parent_op(self.op);
        while let Some(o) = cur {
            if ctx.name(o) == TASK_OP {
                return ctx.regions(o).first().and_then(|&r| ctx.entry_block(r));
            }
            cur = ctx.parent_op(o);
        }
        None
    }

    /// The result of the op `make` builds (with the builder it is given), made once per task in
    /// its prologue: an identical op already there is reused.
    pub fn invariant(&mut self, make: impl FnOnce(&mut Builder) -> OpId) -> Value {
        let Some(tb) = self.task_block() else {
            let op = self.b(make);
            return self.ctx().result(op, 0);
        };
        let new = {
            let mut b = self.rw.builder(InsertPoint::Detached);
            make(&mut b)
        };
        let last = match self.state.prologues.find(self.rw.ctx(), tb, new) {
            Found::Same(o) => {
                self.rw.erase_op(new);
                return self.ctx().result(o, 0);
            }
            Found::Append(last) => last,
        };
        let ip = match last {
            Some(o) => InsertPoint::After(o),
            None => InsertPoint::AtStart(tb),
        };
        self.rw.insert_op(new, ip);
        self.state.prologues.appended(self.rw.ctx(), tb, new);
        self.ctx().result(new, 0)
    }

    // ----- arith -----------------------------------------------------------------------------

    /// The invariant `key` in the prologue: the one this task already has (as [`Em::invariant`]
    /// would find it, without building an op to compare), or the result of the op `make`
    /// builds, as [`Em::invariant`] places it.
    pub fn remembered(&mut self, key: InvKey, make: impl FnOnce(&mut Builder) -> OpId) -> Value {
        let Some(tb) = self.task_block() else {
            return self.invariant(make);
        };
        // An invariant of the prologue stays there, the first of its kind: the prologue only
        // grows at its end while the conversion runs (see `prologue`). It is checked in case a
        // pattern erased it.
        let key = (tb, key);
        let known = self.state.invariants.get(&key).copied().filter(|&v| {
            let ctx = self.ctx();
            ctx.defining_op(v)
                .is_some_and(|o| ctx.is_alive(o) && ctx.parent_block(o) == Some(tb))
        });
        if let Some(v) = known {
            debug_assert_eq!(v, self.invariant(make), "a stale invariant");
            return v;
        }
        let v = self.invariant(make);
        self.state.invariants.insert(key, v);
        v
    }

    /// An integer (or index, or i1) constant, in the prologue.
    pub fn const_int(&mut self, v: i64, ty: Type) -> Value {
        let loc = self.loc;
        self.remembered(InvKey::Int(v, ty), |b| {
            let a = qd_arith::consts::int_attr(b.ctx, v, ty);
            let r = build_constant(b, a, ty, loc);
            b.ctx.defining_op(r).expect("a constant op")
        })
    }

    pub fn const_i64(&mut self, v: i64) -> Value {
        let t = self.i64_type();
        self.const_int(v, t)
    }

    /// The zero of scalar type `ty`, in the prologue.
    pub fn zero(&mut self, ty: Type) -> Value {
        if !self.ctx().type_data(ty).is_float() {
            return self.const_int(0, ty);
        }
        let loc = self.loc;
        self.remembered(InvKey::FloatZero(ty), |b| {
            let r = qd_arith::build_constant_float(b, 0.0, ty, loc);
            b.ctx.defining_op(r).expect("a constant op")
        })
    }

    /// A same-type arith op (`arith.addi`, `arith.maxsi`, ...) at the insertion point.
    pub fn arith(&mut self, name: &str, operands: &[Value]) -> Value {
        let loc = self.loc;
        self.b(|b| build_elementwise(b, name, operands, loc))
    }

    /// The same, in the prologue (its operands must be invariants).
    pub fn arith_inv(&mut self, name: &'static str, operands: &[Value]) -> Value {
        let loc = self.loc;
        let make = |b: &mut Builder| {
            let r = build_elementwise(b, name, operands, loc);
            b.ctx.defining_op(r).expect("an arith op")
        };
        match *operands {
            [x, y] => self.remembered(InvKey::Arith(name, x, y), make),
            _ => self.invariant(make),
        }
    }

    pub fn cast(&mut self, name: &str, x: Value, to: Type) -> Value {
        let loc = self.loc;
        self.b(|b| build_cast(b, name, x, to, loc))
    }

    pub fn cmpi(&mut self, pred: CmpIPredicate, a: Value, b: Value) -> Value {
        let loc = self.loc;
        self.b(|bl| build_cmpi(bl, pred, a, b, loc))
    }

    pub fn cmpi_inv(&mut self, pred: CmpIPredicate, a: Value, b: Value) -> Value {
        let loc = self.loc;
        self.invariant(|bl| {
            let r = build_cmpi(bl, pred, a, b, loc);
            bl.ctx.defining_op(r).expect("a cmpi op")
        })
    }

    pub fn select_inv(&mut self, c: Value, t: Value, f: Value) -> Value {
        let loc = self.loc;
        self.invariant(|b| {
            let r = qd_arith::build_select(b, c, t, f, loc);
            b.ctx.defining_op(r).expect("a select op")
        })
    }

    /// An integer or index value as i64 (sign-extended, as qd reads indices and bounds).
    pub fn widen_i64(&mut self, v: Value) -> R<Value> {
        let ty = self.ctx().value_type(v);
        let i64t = self.i64_type();
        match self.ctx().type_data(ty) {
            TypeData::Index => Ok(self.cast(INDEX_CAST, v, i64t)),
            TypeData::Integer { width: 64, .. } => Ok(v),
            TypeData::Integer { .. } => Ok(self.cast(EXTSI, v, i64t)),
            _ => Err(self.internal(format!(
                "expected an integer index, got {}",
                self.type_str(ty)
            ))),
        }
    }

    /// An i64 value as integer or index type `ty` (truncated).
    pub fn narrow_i64(&mut self, v: Value, ty: Type) -> Value {
        match self.ctx().type_data(ty) {
            TypeData::Index => self.cast(INDEX_CAST, v, ty),
            TypeData::Integer { width: 64, .. } => v,
            _ => self.cast(TRUNCI, v, ty),
        }
    }
}
