//! How a kernel's top-level code splits into tasks, and which values cross them.
//!
//! - Each top-level `qd.range_for` / `qd.struct_for` (a parallel loop) is a range task. Its
//!   bounds are constants when they fold to integers (a struct_for: `0` to the field's number of
//!   elements), else temporaries slots that the serial task just before it fills (a serial task
//!   is added there when the loop has none before it).
//! - Every other top-level op goes into a serial task; consecutive ones share one.
//! - Rematerializable ops (see `remat`) belong to no task: each task that uses one computes it.
//! - A result of serial code used by another task is spilled: the producing task stores it into a
//!   temporaries slot and the consumers load it. Only scalars can cross: a pointer or a stack
//!   used by another task is an error at the use.

use crate::remat::{const_int, rematerializable};
use qd_adstack::StackType;
use qd_frontend::{is_parallel_loop, KernelOp, RangeForOp, StructForOp};
use qd_ir::symbol_table::SymbolTableCollection;
use qd_ir::{BlockId, Context, Diagnostic, OpId, Value};
use std::collections::{HashMap, HashSet};

/// A bound of a range task's dispatch.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    Const(i64),
    /// Read at launch from this temporaries slot (an i64).
    Temp(u32),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Segment {
    /// Serial code: these top-level ops, then the i64 range bounds it must store for the range
    /// task after it: (bound, slot, the loop).
    Serial {
        ops: Vec<OpId>,
        bounds: Vec<(Value, u32, OpId)>,
    },
    /// A parallel loop.
    Range { op: OpId, begin: Bound, end: Bound },
}

/// The tasks of a kernel.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub segments: Vec<Segment>,
    /// Spilled values and their temporaries slots.
    pub spills: HashMap<Value, u32>,
    /// Rematerializable top-level ops.
    pub remat: HashSet<OpId>,
    /// Temporaries slots in use.
    pub temps: u32,
}

impl Plan {
    fn new_slot(&mut self) -> u32 {
        self.temps += 1;
        self.temps - 1
    }

    /// The serial segment that ends the plan, made when the plan ends with a range task.
    fn last_serial(&mut self) -> usize {
        if !matches!(self.segments.last(), Some(Segment::Serial { .. })) {
            self.segments.push(Segment::Serial {
                ops: Vec::new(),
                bounds: Vec::new(),
            });
        }
        self.segments.len() - 1
    }
}

/// Whether a value of type `ty` can be stored in a temporaries slot.
fn is_spillable(ctx: &Context, ty: qd_ir::Type) -> bool {
    let d = ctx.type_data(ty);
    (d.is_integer() && d.bit_width().is_some_and(|w| w <= 64))
        || d.is_index()
        || matches!(d.bit_width(), Some(w) if d.is_float() && w <= 64)
}

/// The tasks of `kernel`.
pub fn partition(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    kernel: KernelOp,
) -> Result<Plan, Diagnostic> {
    let mut plan = Plan::default();
    let Some(body) = kernel.body(ctx) else {
        return Ok(plan);
    };
    let ops = ctx.block_op_vec(body);
    plan.remat = rematerializable(ctx, body, &ops);
    let mut segment_of: HashMap<OpId, usize> = HashMap::new();
    // The segment that computes the dynamic bounds of each range loop.
    let mut bounds_segment: HashMap<OpId, usize> = HashMap::new();
    for &op in &ops {
        if plan.remat.contains(&op) {
            continue;
        }
        if !is_parallel_loop(ctx, op) {
            let s = plan.last_serial();
            if let Segment::Serial { ops, .. } = &mut plan.segments[s] {
                ops.push(op);
            }
            segment_of.insert(op, s);
            continue;
        }
        let (begin, end) = if let Some(sf) = StructForOp::from_op(ctx, op) {
            let n = qd_frontend::lookup_field_in(ctx, symbols, op, sf.field_name(ctx))
                .map(|f| f.field_type(ctx).num_elements(ctx))
                .ok_or_else(|| {
                    Diagnostic::error(
                        ctx.loc(op),
                        format!("'qd.struct_for' over unknown field @{}", sf.field_name(ctx)),
                    )
                })?;
            (Bound::Const(0), Bound::Const(n))
        } else {
            let r = RangeForOp(op);
            let (lo, hi) = (r.lower(ctx), r.upper(ctx));
            let mut bound = |plan: &mut Plan, v: Value| match const_int(ctx, v) {
                Some(c) => Bound::Const(c),
                None => {
                    let s = plan.last_serial();
                    let slot = plan.new_slot();
                    if let Segment::Serial { bounds, .. } = &mut plan.segments[s] {
                        bounds.push((v, slot, op));
                    }
                    bounds_segment.insert(op, s);
                    Bound::Temp(slot)
                }
            };
            let b = bound(&mut plan, lo);
            let e = bound(&mut plan, hi);
            (b, e)
        };
        plan.segments.push(Segment::Range { op, begin, end });
        segment_of.insert(op, plan.segments.len() - 1);
    }
    find_spills(ctx, body, &mut plan, &segment_of, &bounds_segment)?;
    Ok(plan)
}

/// The top-level op of `body` that holds `op`.
fn top_level(ctx: &Context, body: BlockId, mut op: OpId) -> Option<OpId> {
    loop {
        if ctx.parent_block(op) == Some(body) {
            return Some(op);
        }
        op = ctx.parent_op(op)?;
    }
}

fn find_spills(
    ctx: &Context,
    body: BlockId,
    plan: &mut Plan,
    segment_of: &HashMap<OpId, usize>,
    bounds_segment: &HashMap<OpId, usize>,
) -> Result<(), Diagnostic> {
    let mut spilled = Vec::new();
    for (s, seg) in plan.segments.iter().enumerate() {
        let Segment::Serial { ops, .. } = seg else {
            continue;
        };
        for &op in ops {
            for &r in ctx.results(op) {
                for u in ctx.uses(r) {
                    let Some(top) = top_level(ctx, body, u.op) else {
                        continue;
                    };
                    let used_in = if top == u.op && bounds_segment.contains_key(&top) {
                        bounds_segment[&top]
                    } else {
                        match segment_of.get(&top) {
                            Some(&t) => t,
                            None => continue,
                        }
                    };
                    if used_in == s {
                        continue;
                    }
                    let ty = ctx.value_type(r);
                    if !is_spillable(ctx, ty) {
                        let what = if StackType::from_type(ctx, ty).is_some() {
                            "an adstack"
                        } else {
                            "a value"
                        };
                        return Err(Diagnostic::error(
                            ctx.loc(u.op),
                            format!(
                                "cannot lower: {what} of type {} defined by serial code of the kernel is used by another task (only integer and float scalars cross tasks)",
                                qd_ir::text::type_to_string(ctx, ty)
                            ),
                        )
                        .with_note(ctx.loc(op), "defined here"));
                    }
                    if !spilled.contains(&r) {
                        spilled.push(r);
                    }
                }
            }
        }
    }
    for r in spilled {
        let slot = plan.new_slot();
        plan.spills.insert(r, slot);
    }
    Ok(())
}
