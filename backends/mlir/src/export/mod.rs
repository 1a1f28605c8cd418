//! Export: a `lowered.kernel` becomes an upstream MLIR module of `func.func`s over memrefs, one
//! per task, built in a melior context (func, scf, arith, math, memref; nothing of ours).
//!
//! A task function runs the task's threads `first .. last` one after another in an `scf.for`:
//!
//! ```text
//! func.func @k_task1(%first: index, %last: index, %begin: i64, %row: i64,
//!                    %temps: memref<?xi8>, %heap_float: memref<?xi8>, %heap_int: memref<?xi8>,
//!                    %meta: memref<?xi64>, %status: memref<?xi64>,
//!                    <kernel arguments: a scalar as itself, an ndarray as memref<?xT> and one
//!                     i64 extent per axis>, <each field the task names: memref<?xT>>)
//! ```
//!
//! - Memory: fields, adjoint fields and ndarrays are flat `memref<?xT>`s (row-major, as the
//!   runtime holds them). The temporaries and the two adstack heaps are byte buffers; a typed
//!   pointer into them is a `memref.view` at its byte offset, so an adstack is a slice of its heap
//!   (`lowered.heap_ptr`), with the runtime's layout (an i64 count, then the entries).
//!   `lowered.offset` moves an index into the memref, never the memref itself.
//! - Private memory (`lowered.alloca`) is a `memref.alloca` in the function's entry block (one per
//!   op, not per iteration), zeroed where the op runs: `memref<1xT>` for a scalar, a byte buffer
//!   for a `!qd.array` or `!qd.struct` (C layout), addressed by byte offsets and read through
//!   views.
//! - Runtime metadata: `%meta` holds the heaps' strides (`[0]` float, `[1]` int), then for the
//!   task's i-th adstack its byte offset (`[2 + 2i]`) and capacity (`[3 + 2i]`), as the runtime's
//!   `HeapLayout` gives them.
//! - Errors (`lowered.bounds_check`, integer division by zero, an oversized shift, a `lowered.for`
//!   step that is not positive): the failing thread writes its record into `%status` (see
//!   [`status`]) and stops. Structured control flow has no early exit, so every op after one that
//!   may fail runs under an `scf.if` on "no error yet", loops spin out their remaining iterations
//!   doing nothing, `while` conditions are and-ed with it, and later threads do nothing.
//! - Deadlines: a task with a `lowered.while` takes the address of the launch's cancel flag
//!   ([`Param::Cancel`]); each `while` back edge reads it (an atomic load in the LLVM dialect, the
//!   one op not of the dialects above) and, once it is set, records the loop's error site
//!   (`SiteKind::Cancelled`) and stops the thread as a failed check does. Nothing else reads it.
//! - Overflow (`lowered.adstack_overflow`): the first overflowing thread and stack go into
//!   `%status` too; the thread goes on.
//! - Integer semantics follow the interpreter where upstream ops leave a case undefined:
//!   `divsi`/`remsi`/`ceildivsi`/`floordivsi` by -1 are done apart (wrapping), `fptosi`/`fptoui`
//!   saturate (NaN is 0).

mod control;
mod layout;
mod memory;
mod scalar;
pub mod status;

use crate::context::MlirContext;
use crate::ir::{self, Blk, Builder, Op, V};
use melior::ir::attribute::{IntegerAttribute, StringAttribute, TypeAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::TypeLike;
use melior::ir::r#type::{FunctionType, IntegerType};
use melior::ir::{Attribute, Location, Module, Type};
use qd_ir::{Context, Diagnostic, OpId, TypeData, Value};
use qd_lowered as lw;
use qd_runtime::sites::Sites;
use qd_runtime::Memory;
use std::collections::{HashMap, HashSet};

pub(crate) type R<T> = Result<T, Diagnostic>;

/// One parameter of a task function, in order.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Param {
    /// The first and one past the last thread to run (index).
    ThreadFirst,
    ThreadLast,
    /// The task's resolved begin (i64).
    Begin,
    /// The heap row of the threads (i64).
    Row,
    /// The temporaries, a byte buffer.
    Temps,
    /// The float and the int adstack heaps, byte buffers.
    HeapFloat,
    HeapInt,
    /// The heap strides, and each adstack's offset and capacity (i64s).
    Meta,
    /// The error and overflow record (i64s, [`status`]).
    Status,
    /// The address of the launch's cancel flag (i64; a 32-bit integer there, nonzero: stop),
    /// polled at `while` back edges. Only tasks with a `lowered.while` have it.
    Cancel,
    /// Scalar kernel argument `arg`.
    Scalar {
        arg: usize,
    },
    /// The data of ndarray argument `arg`, and the extent of its axis `axis` (i64).
    NdData {
        arg: usize,
    },
    NdDim {
        arg: usize,
        axis: usize,
    },
    /// Field number `index` of the program's memory (its adjoint when `grad`).
    Field {
        index: usize,
        grad: bool,
    },
}

/// One task function of an exported kernel.
#[derive(Clone, Debug)]
pub struct TaskSig {
    pub symbol: String,
    pub params: Vec<Param>,
    pub kind: lw::TaskKind,
    /// The task's adstack ids, in its `adstacks` order (the order of `%meta`).
    pub stacks: Vec<u32>,
    pub loc: qd_ir::Location,
}

/// A kernel exported to upstream MLIR.
pub struct Exported<'c> {
    pub module: Module<'c>,
    pub tasks: Vec<TaskSig>,
    /// The kernel's error sites, as every compiled device numbers them.
    pub sites: Sites,
}

/// A lowered value in MLIR: a scalar, or a pointer.
#[derive(Copy, Clone)]
pub(crate) enum Val {
    S(V),
    P(Ptr),
}

/// A pointer: an element index into a typed `memref<?xT>`, or (private aggregates) a byte offset
/// into a `memref<?xi8>`.
#[derive(Copy, Clone)]
pub(crate) struct Ptr {
    pub mem: V,
    /// `index`: elements of a typed memref, bytes of a byte buffer.
    pub idx: V,
    pub bytes: bool,
    /// The pointee (a qd type).
    pub pointee: qd_ir::Type,
}

/// Exports `kernel` (a `lowered.kernel` named `name`) against the fields of `memory`.
pub fn export_kernel<'c>(
    mcx: &'c MlirContext,
    ir: &Context,
    kernel: OpId,
    name: &str,
    memory: &Memory,
) -> R<Exported<'c>> {
    let Some(k) = lw::KernelOp::from_op(ir, kernel) else {
        return Err(Diagnostic::error(
            ir.loc(kernel),
            format!(
                "the MLIR export takes a lowered.kernel, got '{}'",
                ir.name(kernel)
            ),
        ));
    };
    if let Some(b) = k.body_block(ir) {
        if let Some(op) = ir.block_ops(b).find(|&o| ir.name(o) != lw::TASK_OP) {
            return Err(Diagnostic::error(
                ir.loc(op),
                format!("a lowered.kernel holds only tasks, got '{}'", ir.name(op)),
            ));
        }
    }
    let sites = Sites::collect(ir, kernel);
    let cx = &mcx.cx;
    let module = Module::new(Location::unknown(cx));
    let body = module.body().to_raw();
    let arg_types = k.arg_types(ir);
    let mut tasks = Vec::new();
    for (i, t) in k.tasks(ir).into_iter().enumerate() {
        let symbol = format!("{name}_task{i}");
        let sig = export_task(cx, ir, t, &symbol, &arg_types, memory, &sites, body)?;
        tasks.push(sig);
    }
    Ok(Exported {
        module,
        tasks,
        sites,
    })
}

/// Builds the function of task `t` at the end of `module_body`.
#[allow(clippy::too_many_arguments)]
fn export_task<'c>(
    cx: &'c melior::Context,
    ir: &Context,
    t: lw::TaskOp,
    symbol: &str,
    arg_types: &[qd_ir::Type],
    memory: &Memory,
    sites: &Sites,
    module_body: Blk,
) -> R<TaskSig> {
    let top = t.0;
    let err = |msg: String| Diagnostic::error(ir.loc(top), msg);
    let kind = t
        .kind(ir)
        .ok_or_else(|| err("lowered.task without a valid dispatch".into()))?;
    let body = t
        .body_block(ir)
        .ok_or_else(|| err("lowered.task without a body".into()))?;
    let mut e = Emit {
        ir,
        b: Builder::new(cx),
        memory,
        sites,
        values: HashMap::new(),
        params: HashMap::new(),
        entry: Blk {
            ptr: std::ptr::null_mut(),
        },
        anchor: null_op(),
        consts: HashMap::new(),
        thread_i64: null_value(),
        may_stop: HashSet::new(),
        stacks: t.adstacks(ir),
        op: top,
    };
    e.b.loc = e.loc(top);
    // The parameters: fixed ones, the kernel's arguments, the fields the task names.
    let mut params = vec![
        Param::ThreadFirst,
        Param::ThreadLast,
        Param::Begin,
        Param::Row,
        Param::Temps,
        Param::HeapFloat,
        Param::HeapInt,
        Param::Meta,
        Param::Status,
    ];
    let mut types: Vec<Type<'c>> = vec![
        Type::index(cx),
        Type::index(cx),
        e.i64(),
        e.i64(),
        e.bytes_ty(),
        e.bytes_ty(),
        e.bytes_ty(),
        ir::memref(e.i64(), None),
        ir::memref(e.i64(), None),
    ];
    let ops = ir.walk_pre_order(top);
    if ops.iter().any(|&o| ir.name(o) == lw::WHILE_OP) {
        params.push(Param::Cancel);
        types.push(e.i64());
    }
    for (j, &a) in arg_types.iter().enumerate() {
        if let Some(nd) = qd_frontend::types::NdarrayType::from_type(ir, a) {
            let elem = e.ty(nd.elem(ir))?;
            params.push(Param::NdData { arg: j });
            types.push(ir::memref(elem, None));
            for axis in 0..nd.rank(ir) {
                params.push(Param::NdDim { arg: j, axis });
                types.push(e.i64());
            }
        } else {
            params.push(Param::Scalar { arg: j });
            types.push(e.ty(a)?);
        }
    }
    let mut fields_seen = HashSet::new();
    for op in ir.walk_pre_order(top) {
        if ir.name(op) != lw::FIELD_PTR_OP {
            continue;
        }
        e.op = op;
        let (index, grad) = e.field_of(op)?;
        if fields_seen.insert((index, grad)) {
            let pointee = e.pointee(ir.value_type(ir.result(op, 0)))?;
            params.push(Param::Field { index, grad });
            types.push(ir::memref(e.ty(pointee)?, None));
        }
    }
    e.op = top;
    // The function and its entry block.
    let (region, entry) = e.b.region(&types);
    let fty = FunctionType::new(cx, &types, &[]);
    let attrs = [
        ("sym_name", StringAttribute::new(cx, symbol).into()),
        ("function_type", TypeAttribute::new(fty.into()).into()),
    ];
    e.b.append(module_body, "func.func", &[], &[], &attrs, vec![region])
        .map_err(|m| e.err(m))?;
    e.entry = entry;
    for (i, p) in params.iter().enumerate() {
        e.params.insert(p.clone(), ir::block_arg(entry, i));
    }
    // The thread loop; constants and allocas go before it.
    let (lregion, lbody) = e.b.region(&[Type::index(cx)]);
    let first = e.param(&Param::ThreadFirst)?;
    let last = e.param(&Param::ThreadLast)?;
    let one_op =
        e.b.append(
            entry,
            "arith.constant",
            &[],
            &[Type::index(cx)],
            &[("value", IntegerAttribute::new(Type::index(cx), 1).into())],
            Vec::new(),
        )
        .map_err(|m| e.err(m))?;
    let one = ir::result(one_op, 0);
    let lp =
        e.b.append(
            entry,
            "scf.for",
            &[first, last, one],
            &[],
            &[],
            vec![lregion],
        )
        .map_err(|m| e.err(m))?;
    e.b.append(entry, "func.return", &[], &[], &[], Vec::new())
        .map_err(|m| e.err(m))?;
    e.anchor = lp;
    e.consts
        .insert((Type::index(cx).to_raw().ptr as usize, 1), one);
    e.collect_may_stop(top);
    let t_index = ir::block_arg(lbody, 0);
    e.b.loc = e.loc(top);
    e.thread_i64 = e.cast_index_to_i64(lbody, t_index)?;
    // A later thread does nothing once one failed (the device stops at the lowest failing
    // thread, which runs first here).
    let start = if e.may_stop.contains(&top) {
        let ok = e.status_ok(lbody)?;
        e.guard(lbody, ok, false)?.1
    } else {
        lbody
    };
    let (cur, guards) = e.emit_block(body, start)?;
    e.finish(cur, guards, None)?;
    if start.ptr != lbody.ptr {
        e.yield_(start, &[])?;
    }
    e.yield_(lbody, &[])?;
    let stacks = e.stacks.clone();
    Ok(TaskSig {
        symbol: symbol.to_string(),
        params,
        kind,
        stacks,
        loc: ir.loc(top),
    })
}

fn null_op() -> Op {
    Op {
        ptr: std::ptr::null_mut(),
    }
}
fn null_value() -> V {
    V {
        ptr: std::ptr::null(),
    }
}

/// The emission state of one task function.
pub(crate) struct Emit<'a, 'c> {
    pub ir: &'a Context,
    pub b: Builder<'c>,
    pub memory: &'a Memory,
    pub sites: &'a Sites,
    pub values: HashMap<Value, Val>,
    pub params: HashMap<Param, V>,
    /// The function's entry block, and the thread loop in it: hoisted constants and allocas go
    /// before it.
    pub entry: Blk,
    pub anchor: Op,
    /// Hoisted integer constants by (type, value).
    pub consts: HashMap<(usize, i64), V>,
    /// The running thread's index within the dispatch, i64.
    pub thread_i64: V,
    /// Ops that may stop their thread (checks, and ops whose regions hold one).
    pub may_stop: HashSet<OpId>,
    /// The task's adstack ids, in `adstacks` order.
    pub stacks: Vec<u32>,
    /// The op being emitted (the location of errors).
    pub op: OpId,
}

/// Guards made by [`Emit::emit_block`]: each `scf.if` on "no error yet" and its then-block.
pub(crate) type Guards = Vec<(Op, Blk)>;

impl<'a, 'c> Emit<'a, 'c> {
    pub fn err(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.ir.loc(self.op), msg)
    }

    /// The MLIR location of qd op `op`.
    pub fn loc(&self, op: OpId) -> Location<'c> {
        match self.ir.file_line_col(self.ir.loc(op)) {
            Some((f, l, c)) => Location::new(self.b.cx, f, l as usize, c as usize),
            None => Location::unknown(self.b.cx),
        }
    }

    pub fn i64(&self) -> Type<'c> {
        IntegerType::new(self.b.cx, 64).into()
    }
    pub fn i1(&self) -> Type<'c> {
        IntegerType::new(self.b.cx, 1).into()
    }
    pub fn index(&self) -> Type<'c> {
        Type::index(self.b.cx)
    }
    pub fn bytes_ty(&self) -> Type<'c> {
        ir::memref(IntegerType::new(self.b.cx, 8).into(), None)
    }

    /// The upstream type of a qd scalar type: integers signless (qd's `ui8` is `i8`; the ops
    /// say how to read it), floats and `index` as they are.
    pub fn ty(&self, t: qd_ir::Type) -> R<Type<'c>> {
        let cx = self.b.cx;
        Ok(match self.ir.type_data(t) {
            TypeData::Integer { width, .. } => IntegerType::new(cx, *width).into(),
            TypeData::Index => Type::index(cx),
            TypeData::Float(k) => match k {
                qd_ir::FloatKind::F16 => Type::float16(cx),
                qd_ir::FloatKind::BF16 => Type::bfloat16(cx),
                qd_ir::FloatKind::F32 => Type::float32(cx),
                qd_ir::FloatKind::F64 => Type::float64(cx),
            },
            _ => {
                return Err(self.err(format!(
                    "the MLIR export has no upstream scalar type for '{}'",
                    qd_ir::text::type_to_string(self.ir, t)
                )))
            }
        })
    }

    /// The pointee of a `!lowered.ptr` type.
    pub fn pointee(&self, t: qd_ir::Type) -> R<qd_ir::Type> {
        lw::types::pointee(self.ir, t).ok_or_else(|| self.err("expected a !lowered.ptr"))
    }

    pub fn param(&self, p: &Param) -> R<V> {
        self.params
            .get(p)
            .copied()
            .ok_or_else(|| self.err(format!("internal error: no parameter {p:?}")))
    }

    /// The field (memory index, adjoint) a `lowered.field_ptr` names.
    pub fn field_of(&self, op: OpId) -> R<(usize, bool)> {
        let name = match self.ir.prop(op, "field").map(|a| self.ir.attr_data(a)) {
            Some(qd_ir::AttrData::SymbolRef { root, nested }) if nested.is_empty() => {
                self.ir.ident_str(*root).to_string()
            }
            _ => return Err(self.err("lowered.field_ptr needs a field symbol")),
        };
        let index = self
            .memory
            .field_index(&name)
            .ok_or_else(|| self.err(format!("lowered.field_ptr of unknown field @{name}")))?;
        let grad = self.ir.prop(op, "grad").is_some();
        if grad && self.memory.field(index).grad.is_none() {
            return Err(self.err(format!(
                "field @{name} has no adjoint: it is not needs_grad"
            )));
        }
        Ok((index, grad))
    }

    /// Marks every op under `top` that may stop its thread, and their ancestors up to `top`.
    fn collect_may_stop(&mut self, top: OpId) {
        for op in self.ir.walk_pre_order(top) {
            // A while's site is its cancel poll: a cancelled launch stops the thread there.
            if self.sites.of(op).is_none() {
                continue;
            }
            let mut cur = Some(op);
            while let Some(o) = cur {
                if !self.may_stop.insert(o) || o == top {
                    break;
                }
                cur = self.ir.parent_op(o);
            }
        }
    }

    /// The MLIR value of lowered value `v`.
    pub fn val(&self, v: Value) -> R<Val> {
        self.values
            .get(&v)
            .copied()
            .ok_or_else(|| self.err("a value is used before the MLIR export emitted it"))
    }
    pub fn scalar(&self, v: Value) -> R<V> {
        match self.val(v)? {
            Val::S(s) => Ok(s),
            Val::P(_) => Err(self.err("expected a scalar operand, got a pointer")),
        }
    }
    pub fn ptr(&self, v: Value) -> R<Ptr> {
        match self.val(v)? {
            Val::P(p) => Ok(p),
            Val::S(_) => Err(self.err("expected a pointer operand")),
        }
    }
    pub fn set(&mut self, op: OpId, i: usize, v: Val) {
        self.values.insert(self.ir.result(op, i), v);
    }

    /// Appends an op to `block` at the current location; a refusal is located at the qd op.
    pub fn append(
        &self,
        block: Blk,
        name: &str,
        operands: &[V],
        results: &[Type<'c>],
        attrs: &[(&str, Attribute<'c>)],
    ) -> R<Op> {
        self.b
            .append(block, name, operands, results, attrs, Vec::new())
            .map_err(|m| self.err(m))
    }
    /// Appends a one-result op and returns its result.
    pub fn op1(
        &self,
        block: Blk,
        name: &str,
        operands: &[V],
        result: Type<'c>,
        attrs: &[(&str, Attribute<'c>)],
    ) -> R<V> {
        Ok(ir::result(
            self.append(block, name, operands, &[result], attrs)?,
            0,
        ))
    }

    /// An integer (or index) constant, hoisted to the function's entry.
    pub fn const_int(&mut self, ty: Type<'c>, v: i64) -> R<V> {
        let key = (ty.to_raw().ptr as usize, v);
        if let Some(&c) = self.consts.get(&key) {
            return Ok(c);
        }
        let saved = self.b.loc;
        self.b.loc = Location::unknown(self.b.cx);
        let op = self
            .b
            .insert_before(
                self.entry,
                self.anchor,
                "arith.constant",
                &[],
                &[ty],
                &[("value", IntegerAttribute::new(ty, v).into())],
            )
            .map_err(|m| self.err(m));
        self.b.loc = saved;
        let c = ir::result(op?, 0);
        self.consts.insert(key, c);
        Ok(c)
    }
    pub fn c_index(&mut self, v: i64) -> R<V> {
        let t = self.index();
        self.const_int(t, v)
    }
    pub fn c_i64(&mut self, v: i64) -> R<V> {
        let t = self.i64();
        self.const_int(t, v)
    }

    pub fn cast_index_to_i64(&self, block: Blk, v: V) -> R<V> {
        self.op1(block, "arith.index_cast", &[v], self.i64(), &[])
    }
    pub fn cast_to_index(&self, block: Blk, v: V) -> R<V> {
        if ir::type_of(v) == self.index() {
            return Ok(v);
        }
        self.op1(block, "arith.index_cast", &[v], self.index(), &[])
    }

    /// `scf.yield` of `values` at the end of `block`.
    pub fn yield_(&self, block: Blk, values: &[V]) -> R<()> {
        self.append(block, "scf.yield", values, &[], &[])?;
        Ok(())
    }

    /// `cmpi pred, a, b` (the predicate's MLIR number).
    pub fn cmpi(&self, block: Blk, pred: i64, a: V, b: V) -> R<V> {
        let p = IntegerAttribute::new(self.i64(), pred).into();
        self.op1(block, "arith.cmpi", &[a, b], self.i1(), &[("predicate", p)])
    }

    /// Emits the ops of `block` into `into` (not its terminator); returns the innermost block
    /// the last ops went to and the guards opened on the way (see [`Emit::finish`]).
    pub fn emit_block(&mut self, block: qd_ir::BlockId, into: Blk) -> R<(Blk, Guards)> {
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        let mut cur = into;
        let mut guards = Guards::new();
        for (n, &op) in ops.iter().enumerate() {
            let name = self.ir.name(op);
            if matches!(name, lw::YIELD_OP | lw::CONDITION_OP | lw::RETURN_OP) {
                continue;
            }
            self.op = op;
            self.b.loc = self.loc(op);
            self.emit_op(op, cur)?;
            let rest = ops[n + 1..]
                .iter()
                .any(|&o| !matches!(self.ir.name(o), lw::YIELD_OP | lw::RETURN_OP));
            if self.may_stop.contains(&op) && rest {
                let ok = self.status_ok(cur)?;
                let carries = ops
                    .last()
                    .is_some_and(|&o| self.ir.name(o) == lw::CONDITION_OP);
                let (g, then) = self.guard(cur, ok, carries)?;
                guards.push((g, then));
                cur = then;
            }
        }
        Ok((cur, guards))
    }

    /// Closes the guards of [`Emit::emit_block`]: the innermost block yields `value` (a
    /// `while` condition, or nothing), each guard yields its inner guard's result; returns what
    /// the block the emission started in gets.
    pub fn finish(&mut self, cur: Blk, guards: Guards, value: Option<V>) -> R<Option<V>> {
        let mut v = value;
        // The blocks chain: start -> guards[0].1 -> ... -> guards[n-1].1 == cur.
        debug_assert!(guards.last().is_none_or(|&(_, b)| b.ptr == cur.ptr));
        for &(g, then) in guards.iter().rev() {
            self.yield_(then, v.as_slice())?;
            v = v.map(|_| ir::result(g, 0));
        }
        Ok(v)
    }

    /// An `scf.if` on `cond` at the end of `block`, with an empty else (or, when `carries`, an
    /// i1 result that the else gives as false); returns it and its then-block.
    pub fn guard(&mut self, block: Blk, cond: V, carries: bool) -> R<(Op, Blk)> {
        let (then_r, then_b) = self.b.region(&[]);
        let results = if carries { vec![self.i1()] } else { vec![] };
        let else_r = if carries {
            let (r, eb) = self.b.region(&[]);
            let f = self.const_int(self.i1(), 0)?;
            self.yield_(eb, &[f])?;
            r
        } else {
            melior::ir::Region::new()
        };
        let op = self
            .b
            .append(
                block,
                "scf.if",
                &[cond],
                &results,
                &[],
                vec![then_r, else_r],
            )
            .map_err(|m| self.err(m))?;
        Ok((op, then_b))
    }

    /// Whether no thread has failed yet (`%status[0]` is still [`status::NONE`]).
    pub fn status_ok(&mut self, block: Blk) -> R<V> {
        let st = self.param(&Param::Status)?;
        let c0 = self.c_index(status::ERR_THREAD as i64)?;
        let none = self.c_i64(status::NONE)?;
        let e = self.op1(block, "memref.load", &[st, c0], self.i64(), &[])?;
        self.cmpi(block, 0, e, none)
    }

    /// Whether the launch's cancel flag ([`Param::Cancel`]) is set: one monotonic (relaxed)
    /// 32-bit atomic load through its address, as the `cpu` device polls it. An atomic load is
    /// never hoisted out of a loop nor merged with an earlier one, as a plain `memref.load` of
    /// memory the loop does not write would be; upstream MLIR has it only in the LLVM dialect.
    pub fn cancel_poll(&mut self, block: Blk) -> R<V> {
        let cx = self.b.cx;
        let addr = self.param(&Param::Cancel)?;
        let ptr_ty = melior::dialect::llvm::r#type::pointer(cx, 0);
        let p = self.op1(block, "llvm.inttoptr", &[addr], ptr_ty, &[])?;
        let i32t: Type<'c> = IntegerType::new(cx, 32).into();
        let attrs = [
            ("alignment", IntegerAttribute::new(self.i64(), 4).into()),
            // LLVM::AtomicOrdering::monotonic.
            ("ordering", IntegerAttribute::new(self.i64(), 2).into()),
        ];
        let flag = self.op1(block, "llvm.load", &[p], i32t, &attrs)?;
        let zero = self.const_int(i32t, 0)?;
        // ne = 1.
        self.cmpi(block, 1, flag, zero)
    }

    /// When `fail` holds: records error site `op` with `values` (i64s) for this thread. The
    /// ops after it run under a guard ([`Emit::emit_block`]).
    pub fn fail_if(&mut self, block: Blk, op: OpId, fail: V, values: &[V]) -> R<()> {
        let Some(site) = self.sites.of(op) else {
            return Err(self.err("internal error: this op has no error site"));
        };
        if values.len() > status::MAX_VALUES {
            return Err(self.err(format!(
                "the MLIR export reports at most {} values per error",
                status::MAX_VALUES
            )));
        }
        let (_, then) = self.guard(block, fail, false)?;
        let st = self.param(&Param::Status)?;
        let site_v = self.c_i64(i64::from(site))?;
        let mut words = vec![
            (status::ERR_SITE, site_v),
            (status::ERR_THREAD, self.thread_i64),
        ];
        for (i, &v) in values.iter().enumerate() {
            words.push((status::ERR_VALUES + i, v));
        }
        for (w, v) in words {
            let i = self.c_index(w as i64)?;
            self.append(then, "memref.store", &[v, st, i], &[], &[])?;
        }
        self.yield_(then, &[])
    }

    fn emit_op(&mut self, op: OpId, block: Blk) -> R<()> {
        let name = self.ir.name(op);
        if name.starts_with("arith.") || name.starts_with("math.") {
            return scalar::emit(self, op, name, block);
        }
        match name {
            lw::FOR_OP => control::for_loop(self, op, block),
            lw::IF_OP => control::if_op(self, op, block),
            lw::WHILE_OP => control::while_loop(self, op, block),
            lw::THREAD_ID_OP => {
                let t = self.thread_i64;
                self.set(op, 0, Val::S(t));
                Ok(())
            }
            lw::TASK_BEGIN_OP => {
                let b = self.param(&Param::Begin)?;
                self.set(op, 0, Val::S(b));
                Ok(())
            }
            lw::BOUNDS_CHECK_OP => memory::bounds_check(self, op, block),
            _ => memory::emit(self, op, name, block),
        }
    }
}

/// Prints `module` in MLIR's custom form, as `mlir-opt` would.
pub fn print_module(module: &Module<'_>) -> String {
    format!("{}\n", module.as_operation())
}

/// Verifies `module` with MLIR's verifier; MLIR's messages on failure.
pub fn verify_module(mcx: &MlirContext, module: &Module<'_>) -> Result<(), String> {
    if module.as_operation().verify() {
        Ok(())
    } else {
        Err(mcx.take_messages())
    }
}

/// The text of kernel `kernel` (a `lowered.kernel` named `name`) exported to upstream MLIR,
/// verified by MLIR's verifier first (a failure is an internal error, located at the kernel).
pub fn export_text(ir: &Context, kernel: OpId, name: &str, memory: &Memory) -> R<String> {
    let mcx = MlirContext::new();
    let exported = export_kernel(&mcx, ir, kernel, name, memory)?;
    verify_module(&mcx, &exported.module).map_err(|m| {
        Diagnostic::error(
            ir.loc(kernel),
            format!("internal error: the exported module does not verify in MLIR:\n{m}"),
        )
    })?;
    Ok(print_module(&exported.module))
}
