//! The interpreter's core: kernels are compiled once into closures ([`Exec`]), one per op, that
//! run over a [`Frame`] (dense registers, per-thread local memory, the program's memory).
//!
//! Each dialect plugs in through [`DialectInterpreter`]: given an op of its namespace, it returns
//! the op's closure, compiling nested blocks through the [`Compiler`]. All name matching, type
//! analysis, symbol lookup and layout happen at compile time; running an op is one indirect call.

use crate::num::Kind;
use crate::rng::Rng;
use qd_ir::{BlockId, Context, Diagnostic, Location, OpId, Type, Value};
use qd_runtime::{AdstackPlan, CancelFlag, Memory, RuntimeError, RuntimeErrorKind};
use std::any::Any;

/// How a block's execution ended: normally, or by `qd.break` / `qd.continue` (which the nearest
/// enclosing loop consumes).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Flow {
    Next,
    Break,
    Continue,
}

/// The result of running an op: its control flow, or a runtime error that stops the launch.
pub type ExecResult = Result<Flow, Box<RuntimeError>>;

/// A compiled op.
pub type Exec = Box<dyn Fn(&mut Frame<'_>) -> ExecResult>;

/// A register: the dense index of an SSA value in the frame.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Slot(u32);

impl Slot {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Per-launch state an extension asked for ([`Compiler::add_state`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct StateId(usize);

/// A compiled block: its ops' closures, in order.
#[derive(Default)]
pub struct Code {
    ops: Vec<Exec>,
}

impl Code {
    pub fn empty() -> Code {
        Code::default()
    }

    pub fn len(&self) -> usize {
        self.ops.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Runs the ops in order; stops at the first that does not fall through.
    #[inline]
    pub fn run(&self, f: &mut Frame<'_>) -> ExecResult {
        for op in &self.ops {
            match op(f)? {
                Flow::Next => {}
                flow => return Ok(flow),
            }
        }
        Ok(Flow::Next)
    }
}

/// One launch's machine state.
pub struct Frame<'a> {
    pub ctx: &'a Context,
    pub mem: &'a mut Memory,
    pub kernel: &'a str,
    /// This launch's adstack sizes, by stack id (each `adstack.alloca` carries its id).
    pub adstacks: &'a AdstackPlan,
    /// SSA values, canonically encoded (see `num`).
    pub regs: Vec<u64>,
    /// Local memory of the running thread: one cell per scalar, laid out at compile time.
    pub locals: Vec<u64>,
    rng: Option<&'a mut Rng>,
    states: Vec<Box<dyn Any>>,
    /// The launch's cancel flag, polled at every `while` iteration ([`Frame::check_cancel`]).
    pub cancel: &'a CancelFlag,
}

impl<'a> Frame<'a> {
    // One argument per piece of the launch; a struct for them would only be unpacked here.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        ctx: &'a Context,
        mem: &'a mut Memory,
        kernel: &'a str,
        adstacks: &'a AdstackPlan,
        num_regs: usize,
        local_cells: usize,
        rng: Option<&'a mut Rng>,
        states: Vec<Box<dyn Any>>,
    ) -> Self {
        Frame {
            ctx,
            mem,
            kernel,
            adstacks,
            regs: vec![0; num_regs],
            locals: vec![0; local_cells],
            rng,
            states,
            cancel: CancelFlag::never(),
        }
    }

    /// The launch's error when its cancel flag is set: located at `loc`, the `while` loop whose
    /// iteration polls it. An atomic load per iteration, next to an interpreted loop body.
    #[inline]
    pub fn check_cancel(&self, loc: Location) -> Result<(), Box<RuntimeError>> {
        if self.cancel.is_cancelled() {
            return Err(self.error(
                loc,
                RuntimeErrorKind::Cancelled,
                qd_runtime::cancel::cancelled_message(),
            ));
        }
        Ok(())
    }

    #[inline]
    pub fn get(&self, s: Slot) -> u64 {
        self.regs[s.index()]
    }
    #[inline]
    pub fn set(&mut self, s: Slot, bits: u64) {
        self.regs[s.index()] = bits;
    }

    /// A runtime error at `loc` in this launch's kernel.
    pub fn error(
        &self,
        loc: Location,
        kind: RuntimeErrorKind,
        message: impl Into<String>,
    ) -> Box<RuntimeError> {
        Box::new(RuntimeError::at(self.ctx, loc, kind, self.kernel, message))
    }

    /// The order in which a parallel loop of `n` iterations runs them: None for ascending order,
    /// or a seeded permutation when shuffling is on.
    pub fn parallel_order(
        &mut self,
        n: u64,
        loc: Location,
    ) -> Result<Option<Vec<u64>>, Box<RuntimeError>> {
        let Some(rng) = self.rng.as_deref_mut() else {
            return Ok(None);
        };
        match rng.permutation(n) {
            Some(p) => Ok(Some(p)),
            None => Err(self.error(
                loc,
                RuntimeErrorKind::Device,
                format!("cannot shuffle {n} parallel iterations: out of memory"),
            )),
        }
    }

    /// The per-launch states, once the launch is over (for a device to read statistics).
    pub(crate) fn into_states(self) -> Vec<Box<dyn Any>> {
        self.states
    }

    /// The per-launch state `id` (created by the initializer given to [`Compiler::add_state`]).
    /// Panics when `T` is not the type that initializer made: a bug of the extension.
    pub fn state<T: Any>(&mut self, id: StateId) -> &mut T {
        self.states[id.0]
            .downcast_mut::<T>()
            .expect("Frame::state: wrong type for this StateId")
    }
}

/// Executes the ops of one dialect.
pub trait DialectInterpreter {
    /// The namespace whose ops this implementation runs (`arith`).
    fn dialect(&self) -> &'static str;

    /// Compiles `op` (of this dialect) into its closure. Ops it does not know are a located
    /// diagnostic (use [`Compiler::unsupported`]).
    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic>;
}

/// What a dialect sees while compiling a kernel: the IR, the memory layout, register and local
/// memory allocation, and recursion into nested blocks.
pub struct Compiler<'a> {
    ctx: &'a Context,
    memory: &'a Memory,
    dialects: &'a [Box<dyn DialectInterpreter>],
    kernel: OpId,
    kernel_name: String,
    slot_of: Vec<u32>,
    num_slots: u32,
    local_cells: usize,
    states: Vec<fn() -> Box<dyn Any>>,
    /// The states made by [`Compiler::shared_state`], by the type they hold.
    shared: Vec<(std::any::TypeId, StateId)>,
}

/// Local memory a kernel may use per thread, in cells (one per scalar): 16 Mi cells = 128 MiB.
pub const MAX_LOCAL_CELLS: usize = 1 << 24;

impl<'a> Compiler<'a> {
    pub(crate) fn new(
        ctx: &'a Context,
        memory: &'a Memory,
        dialects: &'a [Box<dyn DialectInterpreter>],
        kernel: OpId,
        kernel_name: String,
    ) -> Self {
        Compiler {
            ctx,
            memory,
            dialects,
            kernel,
            kernel_name,
            slot_of: vec![u32::MAX; ctx.num_value_slots()],
            num_slots: 0,
            local_cells: 0,
            states: Vec::new(),
            shared: Vec::new(),
        }
    }

    pub fn ctx(&self) -> &'a Context {
        self.ctx
    }
    /// The program's memory layout (field names, dtypes, shapes).
    pub fn memory(&self) -> &'a Memory {
        self.memory
    }
    /// The `qd.kernel` op being compiled.
    pub fn kernel(&self) -> OpId {
        self.kernel
    }
    pub fn kernel_name(&self) -> &str {
        &self.kernel_name
    }

    /// The register of `v` (assigned on first request).
    pub fn slot(&mut self, v: Value) -> Slot {
        let i = v.index();
        if self.slot_of[i] == u32::MAX {
            self.slot_of[i] = self.num_slots;
            self.num_slots += 1;
        }
        Slot(self.slot_of[i])
    }

    /// The registers of the operands of `op`.
    pub fn operand_slots(&mut self, op: OpId) -> Vec<Slot> {
        let vs: Vec<Value> = self.ctx.operands(op).collect();
        vs.into_iter().map(|v| self.slot(v)).collect()
    }

    /// The register of result `i` of `op`.
    pub fn result_slot(&mut self, op: OpId, i: usize) -> Slot {
        let v = self.ctx.result(op, i);
        self.slot(v)
    }

    pub(crate) fn num_slots(&self) -> usize {
        self.num_slots as usize
    }
    pub(crate) fn local_cells(&self) -> usize {
        self.local_cells
    }
    pub(crate) fn take_states(&mut self) -> Vec<fn() -> Box<dyn Any>> {
        std::mem::take(&mut self.states)
    }

    /// Compiles every op of `block`, in order, through the dialect that owns each.
    pub fn compile_block(&mut self, block: BlockId) -> Result<Code, Diagnostic> {
        // Copies of the 'a references, so that `self` can be lent to each dialect.
        let (ctx, dialects) = (self.ctx, self.dialects);
        let mut ops = Vec::with_capacity(ctx.block_len(block));
        for op in ctx.block_ops(block) {
            let dialect = ctx.dialect_of(op);
            let Some(d) = dialects.iter().find(|d| d.dialect() == dialect) else {
                return Err(Diagnostic::error(
                    ctx.loc(op),
                    format!(
                        "the interpreter cannot run '{}': no interpreter for dialect '{dialect}'",
                        ctx.name(op)
                    ),
                ));
            };
            ops.push(d.compile(self, op)?);
        }
        Ok(Code { ops })
    }

    /// Compiles the entry block of region `index` of `op` (empty code when it has no block).
    pub fn compile_region(&mut self, op: OpId, index: usize) -> Result<Code, Diagnostic> {
        match self
            .ctx
            .regions(op)
            .get(index)
            .and_then(|&r| self.ctx.entry_block(r))
        {
            Some(b) => self.compile_block(b),
            None => Ok(Code::empty()),
        }
    }

    /// Reserves `cells` of per-thread local memory for `op`; returns the first cell.
    pub fn alloc_locals(&mut self, op: OpId, cells: usize) -> Result<usize, Diagnostic> {
        let start = self.local_cells;
        match start.checked_add(cells) {
            Some(end) if end <= MAX_LOCAL_CELLS => {
                self.local_cells = end;
                Ok(start)
            }
            _ => Err(self.error(
                op,
                format!(
                    "kernel @{} needs more than {MAX_LOCAL_CELLS} local scalars per thread",
                    self.kernel_name
                ),
            )),
        }
    }

    /// Asks for a per-launch state, made by `init` at the start of every launch and reached with
    /// [`Frame::state`] (e.g. an extension's per-thread stacks or flags).
    pub fn add_state(&mut self, init: fn() -> Box<dyn Any>) -> StateId {
        self.states.push(init);
        StateId(self.states.len() - 1)
    }

    /// The per-launch state of type `T` shared by every op of this kernel that asks for it
    /// (made once per launch by `T::default()`): e.g. the stacks all of a dialect's ops reach.
    pub fn shared_state<T: Any + Default>(&mut self) -> StateId {
        fn init<T: Any + Default>() -> Box<dyn Any> {
            Box::new(T::default())
        }
        let key = std::any::TypeId::of::<T>();
        if let Some(&(_, id)) = self.shared.iter().find(|(k, _)| *k == key) {
            return id;
        }
        let id = self.add_state(init::<T>);
        self.shared.push((key, id));
        id
    }

    /// The interpreter's kind of a scalar type, or a located error.
    pub fn kind(&self, op: OpId, ty: Type) -> Result<Kind, Diagnostic> {
        Kind::of(self.ctx, ty).ok_or_else(|| {
            self.error(
                op,
                format!(
                    "the interpreter does not support type '{}' in '{}'",
                    qd_ir::text::type_to_string(self.ctx, ty),
                    self.ctx.name(op)
                ),
            )
        })
    }

    /// A located compile error at `op`.
    pub fn error(&self, op: OpId, message: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.ctx.loc(op), message)
    }

    /// The error for an op its dialect's interpreter does not implement.
    pub fn unsupported(&self, op: OpId) -> Diagnostic {
        self.error(
            op,
            format!("the interpreter does not support '{}'", self.ctx.name(op)),
        )
    }
}
