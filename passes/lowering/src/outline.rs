//! Outlining: the top-level code of a qd kernel moves into the tasks of a new `lowered.kernel`,
//! as `partition` planned them; the ops stay qd ops, for the conversion patterns to convert.
//!
//! - A range task computes its iteration `begin + thread_id` (i64) and, from it, the parallel
//!   loop's induction variables (a range_for's truncated to its type, a struct_for's
//!   delinearized row-major); the loop's body moves into the task.
//! - A serial task takes its top-level ops; after each op whose result is spilled it stores the
//!   value into its temporaries slot, and at its end the i64 bounds of the range task after it.
//! - A task is isolated: each value it uses from outside is made in its prologue (the run of
//!   ops at the head of its block): `lowered.arg` for a scalar argument, a clone of a
//!   rematerializable computation, a load from a temporaries slot. An ndarray argument stays a
//!   block argument of the lowered kernel until its ops are converted to `lowered.ndarray_ptr` /
//!   `lowered.ndarray_dim`.
//!
//! New ops carry the location of the qd op they stand for (the loop, the spilled op, the use).

use crate::marks::ValueMarks;
use crate::partition::{Bound, Plan, Segment};
use crate::spill;
use crate::structurize::delinearize;
use qd_arith::names::{ADDI, EXTSI, INDEX_CAST, TRUNCI};
use qd_frontend::{lookup_field_in, KernelOp, NdarrayType, RangeForOp, StructForOp};
use qd_ir::fast_hash::FastMap;
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{
    BlockId, Builder, Context, Diagnostic, IRMapping, InsertPoint, Location, OpId, Type, TypeData,
    Value, ValueDef,
};
use qd_lowered::{
    ArgOp, KernelOp as LoweredKernel, ReturnOp, TaskBeginOp, TaskBound, TaskKind, TaskOp,
    ThreadIdOp,
};

type R<T> = Result<T, Diagnostic>;

/// Builds the lowered kernel of qd kernel `kernel` (detached), moving its code into tasks.
/// `stacks`: the adstack ids each top-level op allocates (for the tasks' `adstacks`); `marks`:
/// the pass's scratch set of values.
pub fn outline(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    marks: &mut ValueMarks,
    kernel: OpId,
    plan: &Plan,
    stacks: &FastMap<OpId, Vec<u32>>,
) -> R<OpId> {
    let k = KernelOp(kernel);
    let loc = ctx.loc(kernel);
    let name = k.name(ctx).to_string();
    let body = k.body(ctx);
    let args: Vec<(Type, Location)> = match body {
        Some(b) => ctx
            .block_args(b)
            .iter()
            .map(|&a| (ctx.value_type(a), ctx.value_loc(a)))
            .collect(),
        None => k.arg_types(ctx).into_iter().map(|t| (t, loc)).collect(),
    };
    let tys: Vec<Type> = args.iter().map(|&(t, _)| t).collect();
    let ft = ctx.function_type(tys, vec![]);
    let mut b = Builder::new(ctx, InsertPoint::Detached);
    let lk = LoweredKernel::build(&mut b, &name, ft, plan.temps, loc);
    let kblock = ctx.create_block(&args);
    let r = lk.body(ctx);
    ctx.append_block(r, kblock);
    for (key, v) in ctx.attrs(kernel).to_vec() {
        let key = ctx.ident_str(key).to_string();
        ctx.set_attr(lk.0, &key, v);
    }
    let r = (|| -> R<()> {
        let mut tasks = Vec::new();
        for (n, seg) in plan.segments.iter().enumerate() {
            let name = format!("{name}_{n}");
            tasks.push(outline_segment(
                ctx, symbols, kblock, &name, seg, plan, stacks,
            )?);
        }
        // The qd kernel's arguments become the lowered kernel's (for the ndarray ops; scalars
        // are read in each task with lowered.arg).
        if let Some(b) = body {
            let old = ctx.block_args(b).to_vec();
            let new = ctx.block_args(kblock).to_vec();
            for (o, n) in old.into_iter().zip(new) {
                ctx.replace_all_uses_with(o, n);
            }
        }
        for task in tasks {
            isolate(ctx, marks, task, kblock, plan)?;
        }
        Ok(())
    })();
    match r {
        Ok(()) => Ok(lk.0),
        Err(d) => {
            discard(ctx, lk.0, kernel);
            Err(d)
        }
    }
}

/// Erases the lowered kernel `lk` of the qd kernel `kernel` (a failed attempt): the qd ops left
/// in `kernel` take back its arguments first.
pub fn discard(ctx: &mut Context, lk: OpId, kernel: OpId) {
    let kblock = LoweredKernel(lk).body_block(ctx);
    if let (Some(kb), Some(b)) = (kblock, KernelOp(kernel).body(ctx)) {
        let new = ctx.block_args(kb).to_vec();
        let old = ctx.block_args(b).to_vec();
        for (n, o) in new.into_iter().zip(old) {
            ctx.replace_all_uses_with(n, o);
        }
    }
    ctx.erase_op(lk);
}

fn task_bound(b: Bound) -> TaskBound {
    match b {
        Bound::Const(c) => TaskBound::Const(c),
        Bound::Temp(s) => TaskBound::Temp(s),
    }
}

/// Creates the task of `seg` at the end of `kblock` and moves the segment's code into it.
fn outline_segment(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    kblock: BlockId,
    name: &str,
    seg: &Segment,
    plan: &Plan,
    stacks: &FastMap<OpId, Vec<u32>>,
) -> R<OpId> {
    let (ops, kind) = match seg {
        Segment::Serial { ops, .. } => (ops.clone(), TaskKind::Serial),
        Segment::Range { op, begin, end } => (
            vec![*op],
            TaskKind::Range {
                begin: task_bound(*begin),
                end: task_bound(*end),
            },
        ),
    };
    let loc = match seg {
        Segment::Range { op, .. } => ctx.loc(*op),
        Segment::Serial { ops, bounds } => ops
            .first()
            .or(bounds.first().map(|(_, _, o)| o))
            .map(|&o| ctx.loc(o))
            .unwrap_or_else(|| ctx.unknown_loc()),
    };
    let ids: Vec<u32> = ops
        .iter()
        .flat_map(|o| stacks.get(o).cloned().unwrap_or_default())
        .collect();
    let mut b = Builder::at_end(ctx, kblock);
    let task = TaskOp::build(&mut b, name, "serial", None, None, None, None, None, loc);
    task.set_kind(ctx, kind);
    task.set_adstacks(ctx, &ids);
    let tb = ctx.create_block(&[]);
    let r = task.body(ctx);
    ctx.append_block(r, tb);
    match seg {
        Segment::Serial { ops, bounds } => outline_serial(ctx, tb, ops, bounds, plan)?,
        Segment::Range { op, begin, .. } => outline_range(ctx, symbols, tb, *op, *begin)?,
    }
    let mut b = Builder::at_end(ctx, tb);
    ReturnOp::build(&mut b, loc);
    Ok(task.0)
}

fn outline_serial(
    ctx: &mut Context,
    tb: BlockId,
    ops: &[OpId],
    bounds: &[(Value, u32, OpId)],
    plan: &Plan,
) -> R<()> {
    for &op in ops {
        ctx.detach_op(op);
        ctx.append_op(tb, op);
        let loc = ctx.loc(op);
        for r in ctx.results(op).to_vec() {
            if let Some(&slot) = plan.spills.get(&r) {
                let mut b = Builder::at_end(ctx, tb);
                spill::store(&mut b, r, slot, loc);
            }
        }
    }
    for &(v, slot, for_op) in bounds {
        let loc = ctx.loc(for_op);
        let mut b = Builder::at_end(ctx, tb);
        let x = widen_i64(&mut b, v, loc)?;
        spill::store(&mut b, x, slot, loc);
    }
    Ok(())
}

/// An integer or index value as i64 (sign-extended, as qd reads bounds).
pub fn widen_i64(b: &mut Builder, v: Value, loc: Location) -> R<Value> {
    let ty = b.ctx.value_type(v);
    let i64t = b.ctx.i64_type();
    match b.ctx.type_data(ty) {
        TypeData::Index => Ok(qd_arith::build_cast(b, INDEX_CAST, v, i64t, loc)),
        TypeData::Integer { width: 64, .. } => Ok(v),
        TypeData::Integer { .. } => Ok(qd_arith::build_cast(b, EXTSI, v, i64t, loc)),
        _ => Err(Diagnostic::error(loc, "a loop bound is not an integer")),
    }
}

/// An i64 value as integer or index type `ty` (truncated).
pub fn narrow_i64(b: &mut Builder, v: Value, ty: Type, loc: Location) -> Value {
    match b.ctx.type_data(ty) {
        TypeData::Index => qd_arith::build_cast(b, INDEX_CAST, v, ty, loc),
        TypeData::Integer { width: 64, .. } => v,
        _ => qd_arith::build_cast(b, TRUNCI, v, ty, loc),
    }
}

fn outline_range(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    tb: BlockId,
    op: OpId,
    begin: Bound,
) -> R<()> {
    let loc = ctx.loc(op);
    let i64t = ctx.i64_type();
    let mut b = Builder::at_end(ctx, tb);
    let t = ThreadIdOp::build(&mut b, i64t, loc).result(b.ctx);
    let k = match begin {
        Bound::Const(0) => t,
        Bound::Const(c) => {
            let c = qd_arith::build_constant_int(&mut b, c, i64t, loc);
            qd_arith::build_binary(&mut b, ADDI, t, c, loc)
        }
        Bound::Temp(_) => {
            let tb_ = TaskBeginOp::build(&mut b, i64t, loc).result(b.ctx);
            qd_arith::build_binary(&mut b, ADDI, t, tb_, loc)
        }
    };
    let body = if let Some(r) = RangeForOp::from_op(ctx, op) {
        let iv = r.induction_var(ctx);
        let ty = ctx.value_type(iv);
        let mut b = Builder::at_end(ctx, tb);
        let v = narrow_i64(&mut b, k, ty, loc);
        ctx.replace_all_uses_with(iv, v);
        Some(r.body(ctx))
    } else {
        let s = StructForOp(op);
        let name = s.field_name(ctx).to_string();
        // The loop is still in the qd kernel: it resolves as before outlining.
        let Some(f) = lookup_field_in(ctx, symbols, op, &name) else {
            return Err(Diagnostic::error(
                loc,
                format!("'qd.struct_for' over unknown field @{name}"),
            ));
        };
        let shape = f.shape(ctx);
        let ivs = s.induction_vars(ctx);
        let mut b = Builder::at_end(ctx, tb);
        let values = delinearize(&mut b, k, &shape, loc);
        for (iv, v) in ivs.into_iter().zip(values) {
            ctx.replace_all_uses_with(iv, v);
        }
        s.body(ctx)
    };
    if let Some(body) = body {
        ctx.splice_block_ops(body, tb);
    }
    ctx.erase_op(op);
    Ok(())
}

/// Where a task's prologue ends, and what it already holds.
struct Prologue {
    block: BlockId,
    end: Option<OpId>,
    map: IRMapping,
}

impl Prologue {
    fn builder<'c>(&self, ctx: &'c mut Context) -> Builder<'c> {
        let ip = match self.end {
            Some(o) => InsertPoint::After(o),
            None => InsertPoint::AtStart(self.block),
        };
        Builder::new(ctx, ip)
    }
    /// Records the ops a builder made (its insertion point is past them).
    fn advance(&mut self, ip: InsertPoint) {
        if let InsertPoint::After(o) = ip {
            self.end = Some(o);
        }
    }
}

/// Makes every value a task uses from outside it available in its prologue.
fn isolate(
    ctx: &mut Context,
    marks: &mut ValueMarks,
    task: OpId,
    kblock: BlockId,
    plan: &Plan,
) -> R<()> {
    let Some(tb) = TaskOp(task).body_block(ctx) else {
        return Ok(());
    };
    let mut pro = Prologue {
        block: tb,
        end: None,
        map: IRMapping::new(),
    };
    // The values of the ops walked so far: in pre-order a value is defined before its uses, so
    // most operands are found here (`defined_in` decides the others).
    marks.clear();
    for op in ctx.walk_pre_order(task) {
        if op == task {
            continue;
        }
        for i in 0..ctx.num_operands(op) {
            let v = ctx.operand(op, i);
            if marks.contains(v) || defined_in(ctx, v, task, tb) {
                continue;
            }
            if let Some(x) = available(ctx, &mut pro, v, kblock, plan, op)? {
                ctx.set_operand(op, i, x);
            }
        }
        marks.mark_defined_by(ctx, op);
    }
    marks.clear();
    Ok(())
}

/// Whether `v` is defined inside `task` (whose block is `tb`: most values are defined right
/// there, which needs no walk up the nest).
fn defined_in(ctx: &Context, v: Value, task: OpId, tb: BlockId) -> bool {
    let owner = match ctx.value_def(v) {
        ValueDef::OpResult { op, .. } => Some(op),
        ValueDef::BlockArg { block, .. } if block == tb => return true,
        ValueDef::BlockArg { block, .. } => ctx.block_parent_op(block),
    };
    owner.is_some_and(|o| ctx.parent_block(o) == Some(tb) || ctx.is_ancestor(task, o))
}

/// The value standing for `v` (defined outside the task) in the task's prologue; None when it
/// stays as it is (an ndarray argument).
fn available(
    ctx: &mut Context,
    pro: &mut Prologue,
    v: Value,
    kblock: BlockId,
    plan: &Plan,
    user: OpId,
) -> R<Option<Value>> {
    if let Some(x) = pro.map.lookup(v) {
        return Ok(Some(x));
    }
    let ty = ctx.value_type(v);
    let x = match ctx.value_def(v) {
        ValueDef::BlockArg { block, index } if block == kblock => {
            if NdarrayType::from_type(ctx, ty).is_some() {
                return Ok(None);
            }
            let loc = ctx.value_loc(v);
            let mut b = pro.builder(ctx);
            let x = ArgOp::build(&mut b, ty, index, loc).result(b.ctx);
            let ip = b.ip;
            pro.advance(ip);
            x
        }
        ValueDef::OpResult { op, .. } if plan.spills.contains_key(&v) => {
            let slot = plan.spills[&v];
            let loc = ctx.loc(op);
            let mut b = pro.builder(ctx);
            let x = spill::reload(&mut b, slot, ty, loc);
            let ip = b.ip;
            pro.advance(ip);
            x
        }
        ValueDef::OpResult { op, .. } if plan.remat.contains(&op) => {
            for o in ctx.operand_vec(op) {
                if let Some(x) = available(ctx, pro, o, kblock, plan, user)? {
                    pro.map.map(o, x);
                }
            }
            let mut b = pro.builder(ctx);
            b.clone_op(op, &mut pro.map);
            let ip = b.ip;
            pro.advance(ip);
            return Ok(pro.map.lookup(v));
        }
        _ => {
            return Err(Diagnostic::error(
                ctx.loc(user),
                format!(
                    "convert-qd-to-lowered internal error: a value of type {} from another task is not available",
                    qd_ir::text::type_to_string(ctx, ty)
                ),
            ))
        }
    };
    pro.map.map(v, x);
    Ok(Some(x))
}
