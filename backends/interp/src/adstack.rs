//! The interpreter of the adstack dialect: per-thread LIFO stacks of (primal, adjoint) entries.
//!
//! - Storage: one [`Stacks`] per launch, shared by the kernel's adstack ops; each alloca owns
//!   the stack of its `id` (set by determine-ad-stack-size or the runtime's compile pipeline),
//!   held at the stack's position in the launch's plan, and writes that position into its
//!   result's register, so that push/pop/loads find the stack whatever the nesting. Threads run
//!   one after another and each executes its alloca, which empties the stack: the stack is per
//!   thread.
//! - Capacity: exactly the depth the launch's adstack plan gives the stack (the runtime
//!   evaluates its SizeExpr against the launch's data, or takes its `max_size` or the forced
//!   `ad_stack_size`; see `qd_runtime::adstack`). Entries are allocated as they are pushed (at
//!   most the depth); an allocation failure of the host stops the launch with an error.
//! - `push`: count += 1, then top := (v, 0). Past capacity it writes nothing and records an
//!   overflow (the kernel, the alloca's location, the capacity) in the program's memory; the
//!   launch goes on, as on a device, and the next `sync` reports it.
//! - Statistic: each stack's peak demand over the launch's threads ([`Stacks::peaks`], read
//!   back through `Device::adstack_peaks`), to check that sizing is never under and to see how
//!   tight it is. The demand is the depth the pushes and pops ask for, counting the pushes that
//!   overflowed: a stack sized too small still shows what it needed, not its capacity.
//! - `pop`: count = max(count - 1, 0). `load_top` / `load_top_adj` read entry max(count - 1, 0);
//!   an entry never written reads as zero (the alloca zero-initialises the stack).
//! - `acc_adjoint`: top.adjoint += v in the element's precision (float stacks only).

use crate::exec::{Compiler, DialectInterpreter, Exec, Flow, StateId};
use crate::num::{Float, Kind};
use qd_adstack::{
    stack_id_of, AccAdjointOp, LoadTopAdjOp, LoadTopOp, PopOp, PushOp, StackType, ACC_ADJOINT_OP,
    ALLOCA_OP, LOAD_TOP_ADJ_OP, LOAD_TOP_OP, POP_OP, PUSH_OP,
};
use qd_ir::{Diagnostic, Location, OpId, Value};
use qd_runtime::{AdstackOverflow, RuntimeErrorKind};

/// One stack: entries (primal bits, adjoint bits) of which the first `count` are live.
#[derive(Default)]
struct Stack {
    entries: Vec<(u64, u64)>,
    count: usize,
    capacity: usize,
    loc: Option<Location>,
    /// The depth the thread's pushes and pops ask for, as if the capacity were unlimited.
    demand: usize,
    /// The largest `demand` since the launch began (over every thread).
    peak: usize,
}

impl Stack {
    /// The index of the top entry (entry 0 when empty).
    fn top(&self) -> usize {
        self.count.saturating_sub(1)
    }
    fn read(&self) -> (u64, u64) {
        self.entries.get(self.top()).copied().unwrap_or((0, 0))
    }
}

/// Every stack of a launch, by position in the launch's plan.
#[derive(Default)]
pub struct Stacks {
    stacks: Vec<Stack>,
}

impl Stacks {
    fn get_mut(&mut self, key: usize) -> &mut Stack {
        if key >= self.stacks.len() {
            self.stacks.resize_with(key + 1, Stack::default);
        }
        &mut self.stacks[key]
    }

    /// The peak demand of each of the first `n` stacks of the plan during the launch (0 for a
    /// stack whose alloca never ran): the most entries it held at once, or would have held had
    /// its capacity allowed.
    pub fn peaks(&self, n: usize) -> Vec<u64> {
        (0..n)
            .map(|i| self.stacks.get(i).map_or(0, |s| s.peak as u64))
            .collect()
    }
}

/// What a push did.
enum Pushed {
    Ok,
    /// Past capacity: nothing written.
    Overflow {
        capacity: usize,
        loc: Option<Location>,
    },
    /// The host could not allocate the entry.
    NoMemory {
        loc: Option<Location>,
    },
}

/// Runs `adstack.*` ops.
#[derive(Default)]
pub struct AdstackInterpreter;

impl DialectInterpreter for AdstackInterpreter {
    fn dialect(&self) -> &'static str {
        "adstack"
    }

    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        match c.ctx().name(op) {
            ALLOCA_OP => alloca(c, op),
            PUSH_OP => push(c, op),
            POP_OP => pop(c, op),
            LOAD_TOP_OP => load_top(c, op, false),
            LOAD_TOP_ADJ_OP => load_top(c, op, true),
            ACC_ADJOINT_OP => acc_adjoint(c, op),
            _ => Err(c.unsupported(op)),
        }
    }
}

fn stacks(c: &mut Compiler<'_>) -> StateId {
    c.shared_state::<Stacks>()
}

/// The element kind of the stack `v` (a located error when `v` is not a stack, or holds a type
/// the interpreter cannot).
fn elem_kind(c: &Compiler<'_>, op: OpId, v: Value) -> Result<Kind, Diagnostic> {
    let ctx = c.ctx();
    let Some(st) = StackType::from_type(ctx, ctx.value_type(v)) else {
        return Err(c.error(
            op,
            format!("'{}' expects an !adstack.stack operand", ctx.name(op)),
        ));
    };
    c.kind(op, st.elem(ctx))
}

fn alloca(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let Some(&result) = ctx.results(op).first() else {
        return Err(c.unsupported(op));
    };
    elem_kind(c, op, result)?;
    let Some(id) = stack_id_of(ctx, op) else {
        return Err(c.error(
            op,
            "this adstack.alloca has no id (the runtime's compile pipeline gives every stack one)",
        ));
    };
    let loc = ctx.loc(op);
    let sid = stacks(c);
    let r = c.slot(result);
    Ok(Box::new(move |f| {
        let Some(key) = f.adstacks.position(id) else {
            let n = f.adstacks.stacks.len();
            return Err(f.error(
                loc,
                RuntimeErrorKind::Device,
                format!("the launch's adstack plan has no stack with id {id} (it sizes {n})"),
            ));
        };
        let depth = f.adstacks.stacks[key].depth;
        let s = f.state::<Stacks>(sid).get_mut(key);
        // Entries are pushed one by one: clearing keeps the allocation for the next thread.
        s.entries.clear();
        s.count = 0;
        s.demand = 0;
        s.capacity = usize::try_from(depth).unwrap_or(usize::MAX);
        s.loc = Some(loc);
        f.set(r, key as u64);
        Ok(Flow::Next)
    }))
}

fn push(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let p = PushOp(op);
    let (sv, vv) = (p.stack(ctx), p.value(ctx));
    elem_kind(c, op, sv)?;
    let sid = stacks(c);
    let (s, v) = (c.slot(sv), c.slot(vv));
    let op_loc = ctx.loc(op);
    Ok(Box::new(move |f| {
        let key = f.get(s) as usize;
        let bits = f.get(v);
        let st = f.state::<Stacks>(sid).get_mut(key);
        let top = st.count;
        st.demand = st.demand.saturating_add(1);
        st.peak = st.peak.max(st.demand);
        let pushed = if top >= st.capacity {
            Pushed::Overflow {
                capacity: st.capacity,
                loc: st.loc,
            }
        } else if top >= st.entries.len() && st.entries.try_reserve(1).is_err() {
            Pushed::NoMemory { loc: st.loc }
        } else {
            st.count += 1;
            if top < st.entries.len() {
                st.entries[top] = (bits, 0);
            } else {
                st.entries.push((bits, 0));
            }
            Pushed::Ok
        };
        match pushed {
            Pushed::Ok => {}
            Pushed::Overflow { capacity, loc } => {
                let kernel = f.kernel.to_string();
                f.mem.record_adstack_overflow(AdstackOverflow {
                    kernel,
                    loc: loc.unwrap_or(op_loc),
                    capacity: capacity as u64,
                });
            }
            Pushed::NoMemory { loc } => {
                return Err(f.error(
                    loc.unwrap_or(op_loc),
                    RuntimeErrorKind::Device,
                    format!(
                        "the interpreter cannot allocate adstack entry {} (out of host memory)",
                        top + 1
                    ),
                ))
            }
        }
        Ok(Flow::Next)
    }))
}

fn pop(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let sv = PopOp(op).stack(c.ctx());
    elem_kind(c, op, sv)?;
    let sid = stacks(c);
    let s = c.slot(sv);
    Ok(Box::new(move |f| {
        let key = f.get(s) as usize;
        let st = f.state::<Stacks>(sid).get_mut(key);
        // The entries stay as a device keeps them (an overflowed push wrote nothing, yet a pop
        // still takes the top); the demand only counts.
        st.count = st.count.saturating_sub(1);
        st.demand = st.demand.saturating_sub(1);
        Ok(Flow::Next)
    }))
}

/// `load_top` (the primal) or `load_top_adj` (the adjoint) of the top entry.
fn load_top(c: &mut Compiler<'_>, op: OpId, adjoint: bool) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let (sv, rv) = if adjoint {
        let l = LoadTopAdjOp(op);
        (l.stack(ctx), l.result(ctx))
    } else {
        let l = LoadTopOp(op);
        (l.stack(ctx), l.result(ctx))
    };
    let kind = elem_kind(c, op, sv)?;
    if adjoint && matches!(kind, Kind::Int { .. }) {
        return Err(c.error(op, "integer and i1 stacks carry no adjoint"));
    }
    let sid = stacks(c);
    let (s, r) = (c.slot(sv), c.slot(rv));
    Ok(Box::new(move |f| {
        let key = f.get(s) as usize;
        let (primal, adj) = f.state::<Stacks>(sid).get_mut(key).read();
        f.set(r, if adjoint { adj } else { primal });
        Ok(Flow::Next)
    }))
}

fn acc_adjoint(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let a = AccAdjointOp(op);
    let (sv, vv) = (a.stack(ctx), a.value(ctx));
    match elem_kind(c, op, sv)? {
        Kind::F32 => acc_exec::<f32>(c, sv, vv),
        Kind::F64 => acc_exec::<f64>(c, sv, vv),
        Kind::Int { .. } => Err(c.error(op, "integer and i1 stacks carry no adjoint")),
    }
}

fn acc_exec<T: Float>(c: &mut Compiler<'_>, sv: Value, vv: Value) -> Result<Exec, Diagnostic> {
    let sid = stacks(c);
    let (s, v) = (c.slot(sv), c.slot(vv));
    Ok(Box::new(move |f| {
        let key = f.get(s) as usize;
        let add = T::from_bits64(f.get(v));
        let st = f.state::<Stacks>(sid).get_mut(key);
        // Entry 0 of an empty stack is materialised (zeroed) unless the stack holds nothing.
        if st.capacity == 0 {
            return Ok(Flow::Next);
        }
        let top = st.top();
        if top >= st.entries.len() {
            st.entries.resize(top + 1, (0, 0));
        }
        let e = &mut st.entries[top];
        e.1 = (T::from_bits64(e.1) + add).to_bits64();
        Ok(Flow::Next)
    }))
}
