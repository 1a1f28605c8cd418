//! The `convert-qd-to-lowered` pass: every `qd.kernel` of a module (forward kernels and gradient
//! kernels alike) becomes a `lowered.kernel` of tasks (see `partition` for the split, the other
//! modules for each construct). `qd.field` and `ad.reverse` declarations stay. The conversion is
//! all or nothing: any op it cannot convert fails the pass with a located error, and the module
//! is left as it was.

use crate::control::parallel_body;
use crate::convert::lower_op;
use crate::emit;
use crate::lowerer::{Cached, Lowerer, R};
use crate::partition::{partition, Bound, Segment};
use crate::spill;
use qd_adstack::{stack_id_of, ALLOCA_OP as ADSTACK_ALLOCA};
use qd_frontend::{KernelOp, KERNEL_OP};
use qd_ir::{BlockId, Builder, Context, Diagnostic, InsertPoint, Location, OpId, Type, Value};
use qd_lowered::{KernelOp as LoweredKernel, TaskBound, TaskKind, TaskOp};
use qd_pass::{Pass, PassFailure, PassInfo, PassResult, Statistic};

pub const PASS_NAME: &str = "convert-qd-to-lowered";
const DESCRIPTION: &str =
    "Convert qd kernels (with ad and adstack ops) to lowered kernels of tasks, pointers and structured control flow";

pub fn convert_qd_to_lowered_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, |_| {
        Ok(Box::new(ConvertQdToLowered::default()))
    })
}

#[derive(Default)]
pub struct ConvertQdToLowered {
    kernels: u64,
    tasks: u64,
}

impl Pass for ConvertQdToLowered {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn anchor(&self) -> Option<&'static str> {
        Some("builtin.module")
    }
    fn run(&mut self, ctx: &mut Context, module: OpId) -> PassResult {
        let kernels: Vec<OpId> = ctx
            .regions(module)
            .iter()
            .flat_map(|&r| ctx.region_blocks(r).to_vec())
            .flat_map(|b| ctx.block_op_vec(b))
            .filter(|&o| ctx.name(o) == KERNEL_OP)
            .collect();
        let mut lowered = Vec::new();
        let mut errors = Vec::new();
        for &k in &kernels {
            match lower_kernel(ctx, k) {
                Ok(l) => lowered.push((k, l)),
                Err(d) => errors.push(d),
            }
        }
        if !errors.is_empty() {
            for (_, l) in lowered {
                ctx.erase_op(l);
            }
            for d in errors {
                ctx.emit(d);
            }
            return Err(PassFailure);
        }
        for (k, l) in lowered {
            self.kernels += 1;
            self.tasks += ctx
                .regions(l)
                .first()
                .and_then(|&r| ctx.entry_block(r))
                .map_or(0, |b| ctx.block_len(b) as u64);
            ctx.insert_op_before(k, l);
            ctx.erase_op(k);
        }
        Ok(qd_pass::PassOutcome::changed(!kernels.is_empty()))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-kernels",
                description: "Number of qd kernels converted",
                value: self.kernels,
            },
            Statistic {
                name: "num-tasks",
                description: "Number of lowered tasks made",
                value: self.tasks,
            },
        ]
    }
}

/// The lowered kernel of qd kernel `kernel`, created detached.
pub fn lower_kernel(ctx: &mut Context, kernel: OpId) -> Result<OpId, Diagnostic> {
    let k = KernelOp(kernel);
    let plan = partition(ctx, k)?;
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
    let arg_types: Vec<Type> = args.iter().map(|&(t, _)| t).collect();
    let ft = ctx.function_type(arg_types, vec![]);
    let temps = plan.temps;
    let mut b = Builder::new(ctx, InsertPoint::Detached);
    let lk = LoweredKernel::build(&mut b, &name, ft, temps, loc);
    let kblock = ctx.create_block(&args);
    let r = lk.body(ctx);
    ctx.append_block(r, kblock);
    for &(k, v) in ctx.attrs(kernel).to_vec().iter() {
        let key = ctx.ident_str(k).to_string();
        ctx.set_attr(lk.0, &key, v);
    }
    let lk = lk.0;
    let segments = plan.segments.clone();
    let mut lw = Lowerer::new(ctx, kernel, body, plan);
    let r = (|| -> R<()> {
        for (n, seg) in segments.iter().enumerate() {
            lower_segment(&mut lw, kblock, &format!("{name}_{n}"), seg)?;
        }
        Ok(())
    })();
    if let Err(d) = r {
        ctx.erase_op(lk);
        return Err(d);
    }
    Ok(lk)
}

/// The ids of the adstacks allocated in `ops`, in pre-order (an alloca without one is an error).
fn stack_ids(ctx: &Context, ops: &[OpId]) -> R<Vec<u32>> {
    let mut ids = Vec::new();
    for &op in ops {
        for o in ctx.walk_pre_order(op) {
            if ctx.name(o) != ADSTACK_ALLOCA {
                continue;
            }
            match stack_id_of(ctx, o) {
                Some(id) => ids.push(id),
                None => {
                    return Err(Diagnostic::error(
                        ctx.loc(o),
                        "adstack.alloca has no 'id' property: run determine-ad-stack-size before convert-qd-to-lowered",
                    ))
                }
            }
        }
    }
    Ok(ids)
}

fn task_bound(b: Bound) -> TaskBound {
    match b {
        Bound::Const(c) => TaskBound::Const(c),
        Bound::Temp(s) => TaskBound::Temp(s),
    }
}

/// Creates task `name` for `seg` at the end of the kernel block and lowers the segment into it.
fn lower_segment(lw: &mut Lowerer, kblock: BlockId, name: &str, seg: &Segment) -> R<()> {
    let ctx = &mut *lw.ctx;
    let (ops, loc) = match seg {
        Segment::Serial { ops, .. } => {
            let loc = ops
                .first()
                .map(|&o| ctx.loc(o))
                .unwrap_or_else(|| ctx.loc(lw.kernel));
            (ops.clone(), loc)
        }
        Segment::Range { op, .. } => (vec![*op], ctx.loc(*op)),
    };
    let ids = stack_ids(ctx, &ops)?;
    let kind = match seg {
        Segment::Serial { .. } => TaskKind::Serial,
        Segment::Range { begin, end, .. } => TaskKind::Range {
            begin: task_bound(*begin),
            end: task_bound(*end),
        },
    };
    let mut b = Builder::at_end(ctx, kblock);
    let task = TaskOp::build(&mut b, name, "serial", None, None, None, None, None, loc);
    task.set_kind(ctx, kind);
    task.set_adstacks(ctx, &ids);
    let block = ctx.create_block(&[]);
    let r = task.body(ctx);
    ctx.append_block(r, block);
    lw.begin_task(block);
    let saved = lw.loc;
    lw.loc = loc;
    let r = match seg {
        Segment::Serial { ops, bounds } => lower_serial(lw, ops, bounds),
        Segment::Range { op, begin, .. } => lower_range(lw, *op, *begin),
    };
    lw.loc = loc;
    emit::ret(lw);
    lw.loc = saved;
    r
}

/// Serial code: its ops (storing each spilled result after it), then the bounds of the next
/// range task.
fn lower_serial(lw: &mut Lowerer, ops: &[OpId], bounds: &[(Value, u32, OpId)]) -> R<()> {
    for &op in ops {
        lower_op(lw, op)?;
        let results = lw.ctx.results(op).to_vec();
        for r in results {
            if let Some(&slot) = lw.plan.spills.get(&r) {
                let v = lw.get(r)?;
                lw.loc = lw.ctx.loc(op);
                spill::store(lw, v, slot);
            }
        }
    }
    for &(v, slot, for_op) in bounds {
        lw.loc = lw.ctx.loc(for_op);
        let x = lw.get(v)?;
        let x = lw.widen_i64(x)?;
        spill::store(lw, x, slot);
    }
    Ok(())
}

/// A parallel loop: thread t runs iteration `begin + t`.
fn lower_range(lw: &mut Lowerer, op: OpId, begin: Bound) -> R<()> {
    lw.loc = lw.ctx.loc(op);
    let t = lw.cached(Cached::ThreadId, emit::thread_id);
    let k = match begin {
        Bound::Const(0) => t,
        Bound::Const(c) => {
            let c = lw.const_i64(c);
            lw.arith(qd_arith::names::ADDI, &[t, c])
        }
        Bound::Temp(_) => {
            let b = lw.cached(Cached::TaskBegin, emit::task_begin);
            lw.arith(qd_arith::names::ADDI, &[t, b])
        }
    };
    parallel_body(lw, op, k)
}
