//! Tasks: compiling a `lowered.task` (its dispatch shape, its stacks, its body) and running it
//! over its threads; `lowered.thread_id` and `lowered.task_begin`.
//!
//! A range task runs thread `t` for `t` in `0..max(end - begin, 0)`, ascending, or in the order
//! the interpreter's shuffle draws (one permutation per range task, drawn as the qd interpreter
//! draws one per parallel loop, so that the same seed gives the same orders on both). Each
//! thread's heap row is its id. The task's [`HeapLayout`] is made from the launch's adstack plan
//! before the task runs, and each heap is checked to fit `threads x stride` bytes, as a compiled
//! device sizes it; the interpreter holds the running thread's row only, zeroed when the thread
//! starts (as a fresh heap's row is).

use super::state::{heap_index, HeapRow, LoweredState};
use super::{index_prop, state, str_prop};
use crate::exec::{Code, Compiler, Exec, Flow, Frame, StateId};
use qd_ir::{AttrData, Diagnostic, Location, OpId};
use qd_runtime::adstack::layout::{Heap, HeapLayout, LayoutError};
use qd_runtime::{DType, KernelStacks, RuntimeError, RuntimeErrorKind};

/// A range bound: a constant, or a temporaries slot read when the task starts.
#[derive(Copy, Clone, Debug)]
pub(super) enum Bound {
    Const(i64),
    Temp(usize),
}

/// How a task is dispatched.
#[derive(Copy, Clone, Debug)]
pub(super) enum Dispatch {
    Serial,
    Range { begin: Bound, end: Bound },
}

/// A compiled `lowered.task`.
pub(super) struct Task {
    pub loc: Location,
    pub dispatch: Dispatch,
    /// The task's stacks (id, element type), in its `adstacks` order.
    pub stacks: Vec<(u32, DType)>,
    pub body: Code,
}

fn bound(c: &Compiler<'_>, op: OpId, name: &str, temps: usize) -> Result<Bound, Diagnostic> {
    let temp = format!("{name}_temp");
    match (c.ctx().prop(op, name), c.ctx().prop(op, &temp)) {
        (Some(_), None) => Ok(Bound::Const(super::int_prop(c, op, name)?)),
        (None, Some(_)) => {
            let slot = index_prop(c, op, &temp)?;
            if slot >= temps {
                return Err(c.error(
                    op,
                    format!("lowered.task: {temp} {slot} is not one of the kernel's {temps} slots"),
                ));
            }
            Ok(Bound::Temp(slot))
        }
        _ => Err(c.error(
            op,
            format!("a range lowered.task needs exactly one of '{name}' and '{temp}'"),
        )),
    }
}

/// Compiles `lowered.task` op `op` of a kernel with `temps` slots and stack table `stacks`.
pub(super) fn compile(
    c: &mut Compiler<'_>,
    op: OpId,
    temps: usize,
    table: &KernelStacks,
) -> Result<Task, Diagnostic> {
    let ctx = c.ctx();
    let dispatch = match str_prop(c, op, "kind") {
        Some("serial") => Dispatch::Serial,
        Some("range") => Dispatch::Range {
            begin: bound(c, op, "begin", temps)?,
            end: bound(c, op, "end", temps)?,
        },
        other => {
            return Err(c.error(
                op,
                format!("lowered.task kind must be 'serial' or 'range', got {other:?}"),
            ))
        }
    };
    let mut stacks = Vec::new();
    let ids: Vec<i64> = match ctx.prop(op, "adstacks").map(|a| ctx.attr_data(a)) {
        None => Vec::new(),
        Some(AttrData::Array(items)) => items
            .iter()
            .map(|&a| match ctx.attr_data(a) {
                AttrData::Integer { value, .. } => Ok(*value),
                _ => Err(c.error(op, "lowered.task adstacks must be integers")),
            })
            .collect::<Result<_, _>>()?,
        Some(AttrData::DenseIntArray { values, .. }) => values.clone(),
        Some(_) => return Err(c.error(op, "lowered.task adstacks must be an array of ids")),
    };
    for id in ids {
        let stack = u32::try_from(id).ok().and_then(|id| table.get(id));
        let Some(s) = stack else {
            return Err(c.error(
                op,
                format!("lowered.task: adstack id {id} is not a stack of the kernel"),
            ));
        };
        stacks.push((s.id, s.elem));
    }
    let body = c.compile_region(op, 0)?;
    Ok(Task {
        loc: ctx.loc(op),
        dispatch,
        stacks,
        body,
    })
}

/// Reads a bound: a constant, or the i64 in its temporaries slot now.
fn resolve(f: &mut Frame<'_>, sid: StateId, b: Bound) -> i64 {
    match b {
        Bound::Const(v) => v,
        Bound::Temp(slot) => {
            let temps = &f.state::<LoweredState>(sid).temps;
            let mut bytes = [0u8; 8];
            if let Some(s) = temps.get(slot * 8..slot * 8 + 8) {
                bytes.copy_from_slice(s);
            }
            i64::from_le_bytes(bytes)
        }
    }
}

/// Runs `task` in the launch `f` (whose lowered state is `sid`).
pub(super) fn run(f: &mut Frame<'_>, sid: StateId, task: &Task) -> Result<(), Box<RuntimeError>> {
    let (begin, threads) = match task.dispatch {
        Dispatch::Serial => (0, 1u64),
        Dispatch::Range { begin, end } => {
            let (b, e) = (resolve(f, sid, begin), resolve(f, sid, end));
            (b, (i128::from(e) - i128::from(b)).max(0) as u64)
        }
    };
    let layout = HeapLayout::compute(f.adstacks, &task.stacks)
        .map_err(|e| f.error(task.loc, RuntimeErrorKind::Device, e.to_string()))?;
    let mut heaps: [HeapRow; 2] = Default::default();
    for heap in [Heap::Float, Heap::Int] {
        let fail = |e: LayoutError| f.error(task.loc, RuntimeErrorKind::Device, e.to_string());
        layout.heap_bytes(f.kernel, heap, threads).map_err(fail)?;
        heaps[heap_index(heap)].bytes = layout.allocate(f.kernel, heap, 1).map_err(fail)?;
    }
    let strides = [layout.stride(Heap::Float), layout.stride(Heap::Int)];
    {
        let st = f.state::<LoweredState>(sid);
        st.layout = layout;
        st.heaps = heaps;
        st.begin = begin;
    }
    let order = match task.dispatch {
        Dispatch::Serial => None,
        Dispatch::Range { .. } => f.parallel_order(threads, task.loc)?,
    };
    let one = |f: &mut Frame<'_>, t: u64| -> Result<(), Box<RuntimeError>> {
        let st = f.state::<LoweredState>(sid);
        st.thread = t;
        st.row = t;
        for (row, stride) in st.heaps.iter_mut().zip(strides) {
            row.bytes.fill(0);
            // t < threads, and threads x stride fits 64 bits (checked above).
            row.base = t * stride;
        }
        task.body.run(f)?;
        Ok(())
    };
    match order {
        Some(order) => order.into_iter().try_for_each(|t| one(f, t))?,
        None => (0..threads).try_for_each(|t| one(f, t))?,
    }
    // The heaps are the task's: free them before the next one sizes its own.
    f.state::<LoweredState>(sid).heaps = Default::default();
    Ok(())
}

pub(super) fn thread_id(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let sid = state(c);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        let t = f.state::<LoweredState>(sid).thread;
        f.set(r, t);
        Ok(Flow::Next)
    }))
}

pub(super) fn task_begin(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let sid = state(c);
    let r = c.result_slot(op, 0);
    Ok(Box::new(move |f| {
        let b = f.state::<LoweredState>(sid).begin;
        f.set(r, b as u64);
        Ok(Flow::Next)
    }))
}
