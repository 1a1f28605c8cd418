//! Lowered IR to LLVM IR: one LLVM function per `lowered.task` (see the crate doc for its
//! signature), one file per concern. [`Gen`] holds what one task function's emission shares: the
//! builders (one at the insertion point, one in the entry block for the launch context's loads
//! and the allocas), the values of the lowered IR already emitted, and the thread index.

mod adstack;
mod arith;
mod checks;
mod control;
mod math;
mod memory;
mod task;
mod topcache;
mod types;
pub(crate) mod vmath;

pub(crate) use arith::{
    float_binary, int_binary, intrinsic, rounding_division, FLOAT_BINARY, INT_BINARY,
};
pub(crate) use control::{for_body, while_condition};

use crate::frame::FrameLayout;
use crate::jit::Options;
use crate::sites::Sites;
use inkwell::builder::{Builder, BuilderError};
use inkwell::context::Context as LContext;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, FunctionValue, IntValue, PointerValue};
use inkwell::AddressSpace;
use qd_ir::{Context, Diagnostic, Location, OpId, Value};
use qd_lowered as lw;
use qd_runtime::{DType, KernelStacks, Memory};
use std::collections::HashMap;

pub(crate) type R<T> = Result<T, Diagnostic>;

/// What the device needs to know of one task of a compiled kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskInfo {
    /// The LLVM function's name.
    pub symbol: String,
    pub kind: lw::TaskKind,
    /// The task's stacks (id, element type), in its `adstacks` order.
    pub stacks: Vec<(u32, DType)>,
    pub loc: Location,
    /// Threads one call runs at once (SIMD lanes): 1 for scalar code.
    pub lanes: u32,
    /// Why the task is scalar code although the options vectorise; None otherwise.
    pub scalar_reason: Option<String>,
}

/// A kernel's LLVM module, not yet optimised, with its tasks in order.
pub struct KernelModule<'ctx> {
    pub module: Module<'ctx>,
    pub tasks: Vec<TaskInfo>,
}

/// Builds the LLVM module of `kernel` (a `lowered.kernel` named `name`), for launch contexts laid
/// out as `frame`, error sites `sites`, stack table `stacks` and the fields of `memory`.
#[allow(clippy::too_many_arguments)]
pub fn build_module<'ctx>(
    llcx: &'ctx LContext,
    ir: &Context,
    kernel: OpId,
    name: &str,
    frame: &FrameLayout,
    sites: &Sites,
    stacks: &KernelStacks,
    memory: &Memory,
    opts: &Options,
) -> R<KernelModule<'ctx>> {
    let Some(k) = lw::KernelOp::from_op(ir, kernel) else {
        return Err(Diagnostic::error(
            ir.loc(kernel),
            format!(
                "the LLVM backend compiles a lowered.kernel, got '{}'",
                ir.name(kernel)
            ),
        ));
    };
    let module = llcx.create_module(name);
    let mut tasks = Vec::new();
    for (i, t) in k.tasks(ir).into_iter().enumerate() {
        let symbol = task_symbol(name, i);
        let info = task::emit(
            llcx, &module, ir, t, &symbol, frame, sites, stacks, memory, opts,
        )?;
        tasks.push(info);
    }
    // A kernel holds only tasks: anything else is IR this backend does not know how to run.
    if let Some(b) = k.body_block(ir) {
        if let Some(op) = ir.block_ops(b).find(|&o| ir.name(o) != lw::TASK_OP) {
            return Err(Diagnostic::error(
                ir.loc(op),
                format!("a lowered.kernel holds only tasks, got '{}'", ir.name(op)),
            ));
        }
    }
    Ok(KernelModule { module, tasks })
}

/// The tasks of `kernel` (a `lowered.kernel` named `name`), as [`build_module`] names them.
pub fn task_infos(
    ir: &Context,
    kernel: OpId,
    name: &str,
    stacks: &KernelStacks,
    opts: &Options,
) -> R<Vec<TaskInfo>> {
    let Some(k) = lw::KernelOp::from_op(ir, kernel) else {
        return Err(Diagnostic::error(
            ir.loc(kernel),
            format!(
                "the LLVM backend compiles a lowered.kernel, got '{}'",
                ir.name(kernel)
            ),
        ));
    };
    k.tasks(ir)
        .into_iter()
        .enumerate()
        .map(|(i, t)| task::describe(ir, t, &task_symbol(name, i), stacks, opts).map(|d| d.0))
        .collect()
}

/// The LLVM function of task `i` of kernel `name`.
fn task_symbol(name: &str, i: usize) -> String {
    format!("{name}_task{i}")
}

/// The emission state of one task function.
pub(crate) struct Gen<'a, 'ctx> {
    pub ir: &'a Context,
    pub llcx: &'ctx LContext,
    pub module: &'a Module<'ctx>,
    pub b: Builder<'ctx>,
    /// Positioned before the entry block's terminator: context loads and allocas go there.
    pub entry: Builder<'ctx>,
    pub frame: &'a FrameLayout,
    pub sites: &'a Sites,
    pub memory: &'a Memory,
    pub func: FunctionValue<'ctx>,
    pub ctx_ptr: PointerValue<'ctx>,
    /// The running thread's index (0-based within the dispatch), i64.
    pub thread: IntValue<'ctx>,
    pub values: HashMap<Value, BasicValueEnum<'ctx>>,
    words: HashMap<(u32, bool), BasicValueEnum<'ctx>>,
    /// The function-local count of each adstack (by id): see `adstack`.
    pub counts: HashMap<u32, PointerValue<'ctx>>,
    /// The registers caching heap slots (see `topcache`).
    pub(crate) cache: topcache::HeapCache<'ctx>,
    /// The op being emitted (the location of builder errors).
    pub op: OpId,
    /// The lanes of a vectorised task (`simd`): None for a scalar task.
    pub(crate) simt: Option<crate::simd::Lanes<'ctx>>,
    /// Whether `while` back edges poll the cancel flag (`Options::cancel_checks`).
    pub cancel_checks: bool,
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// A located error at the op being emitted.
    pub fn err(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.ir.loc(self.op), msg)
    }

    /// An LLVM builder result, its error located at the op being emitted.
    pub fn ck<T>(&self, r: Result<T, BuilderError>) -> R<T> {
        r.map_err(|e| self.err(format!("LLVM builder: {e}")))
    }

    pub fn i64(&self) -> inkwell::types::IntType<'ctx> {
        self.llcx.i64_type()
    }
    pub fn ptr_ty(&self) -> inkwell::types::PointerType<'ctx> {
        self.llcx.ptr_type(AddressSpace::default())
    }

    /// Word `w` of the launch context, loaded once in the entry block (as a pointer when `ptr`).
    pub fn word(&mut self, w: u32, ptr: bool) -> R<BasicValueEnum<'ctx>> {
        if let Some(v) = self.words.get(&(w, ptr)) {
            return Ok(*v);
        }
        let i64t = self.i64();
        let idx = i64t.const_int(u64::from(w), false);
        // SAFETY: the context holds `frame.words` words; `w` is one of them.
        let p = self.ck(unsafe {
            self.entry
                .build_in_bounds_gep(i64t, self.ctx_ptr, &[idx], "")
        })?;
        let ty: BasicTypeEnum = if ptr {
            self.ptr_ty().into()
        } else {
            i64t.into()
        };
        let v = self.ck(self.entry.build_load(ty, p, &format!("w{w}")))?;
        self.words.insert((w, ptr), v);
        Ok(v)
    }
    pub fn word_int(&mut self, w: u32) -> R<IntValue<'ctx>> {
        Ok(self.word(w, false)?.into_int_value())
    }
    pub fn word_ptr(&mut self, w: u32) -> R<PointerValue<'ctx>> {
        Ok(self.word(w, true)?.into_pointer_value())
    }

    /// A pointer to word `w` of the launch context (for the error and overflow records).
    pub fn word_addr(&self, w: u32) -> R<PointerValue<'ctx>> {
        let i64t = self.i64();
        let idx = i64t.const_int(u64::from(w), false);
        // SAFETY: as in `word`.
        self.ck(unsafe { self.b.build_in_bounds_gep(i64t, self.ctx_ptr, &[idx], "") })
    }

    /// The LLVM value of lowered value `v` (emitted before its uses: lowered IR is in SSA form
    /// and regions see their parents' values).
    pub fn val(&self, v: Value) -> R<BasicValueEnum<'ctx>> {
        self.values
            .get(&v)
            .copied()
            .ok_or_else(|| self.err("a value is used before the LLVM backend emitted it"))
    }
    pub fn int(&self, v: Value) -> R<IntValue<'ctx>> {
        match self.val(v)? {
            BasicValueEnum::IntValue(i) => Ok(i),
            _ => Err(self.err("expected an integer operand")),
        }
    }
    pub fn ptr(&self, v: Value) -> R<PointerValue<'ctx>> {
        match self.val(v)? {
            BasicValueEnum::PointerValue(p) => Ok(p),
            _ => Err(self.err("expected a pointer operand")),
        }
    }
    pub fn operand(&self, op: OpId, i: usize) -> R<BasicValueEnum<'ctx>> {
        self.val(self.ir.operand(op, i))
    }
    /// Binds `op`'s result `i` to `v`.
    pub fn set(&mut self, op: OpId, i: usize, v: BasicValueEnum<'ctx>) {
        self.values.insert(self.ir.result(op, i), v);
    }

    /// Emits every op of `block`.
    pub fn emit_block(&mut self, block: qd_ir::BlockId) -> R<()> {
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        for op in ops {
            self.emit_op(op)?;
        }
        Ok(())
    }

    /// Emits the ops of region `i` of `op` (nothing for an empty region).
    pub fn emit_region(&mut self, op: OpId, i: usize) -> R<()> {
        match self.ir.region_entry_block(op, i) {
            Some(b) => self.emit_block(b),
            None => Ok(()),
        }
    }

    fn emit_op(&mut self, op: OpId) -> R<()> {
        self.op = op;
        if self.simt.is_some() {
            return crate::simd::emit_op(self, op);
        }
        self.emit_scalar_op(op)
    }

    /// Emits `op` as scalar code (in a vectorised task: an op on uniform values).
    pub(crate) fn emit_scalar_op(&mut self, op: OpId) -> R<()> {
        self.op = op;
        let name = self.ir.name(op);
        if name.starts_with("arith.") {
            return arith::emit(self, op, name);
        }
        if name.starts_with("math.") {
            return math::emit(self, op, name);
        }
        match name {
            lw::ARG_OP => memory::arg(self, op),
            lw::NDARRAY_PTR_OP => memory::ndarray_ptr(self, op),
            lw::NDARRAY_DIM_OP => memory::ndarray_dim(self, op),
            lw::FIELD_PTR_OP => memory::field_ptr(self, op),
            lw::TEMP_PTR_OP => memory::temp_ptr(self, op),
            lw::OFFSET_OP => memory::offset(self, op),
            lw::LOAD_OP => memory::load(self, op),
            lw::STORE_OP => memory::store(self, op),
            lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP => memory::atomic(self, op),
            lw::ALLOCA_OP => memory::alloca(self, op),
            lw::ELEM_PTR_OP => memory::elem_ptr(self, op),
            lw::MEMBER_PTR_OP => memory::member_ptr(self, op),
            lw::BOUNDS_CHECK_OP => checks::bounds_check(self, op),
            lw::FOR_OP => control::for_loop(self, op),
            lw::IF_OP => control::if_op(self, op),
            lw::WHILE_OP => control::while_loop(self, op),
            // Their parents branch on their own.
            lw::YIELD_OP | lw::CONDITION_OP | lw::RETURN_OP => Ok(()),
            lw::THREAD_ID_OP => {
                let t = self.thread;
                self.set(op, 0, t.into());
                Ok(())
            }
            lw::TASK_BEGIN_OP => {
                let b = self.word_int(crate::frame::W_BEGIN)?;
                self.set(op, 0, b.into());
                Ok(())
            }
            lw::ADSTACK_STRIDE_OP
            | lw::ADSTACK_OFFSET_OP
            | lw::ADSTACK_MAX_SIZE_OP
            | lw::ADSTACK_ROW_OP => adstack::meta(self, op, name),
            lw::HEAP_PTR_OP => adstack::heap_ptr(self, op),
            lw::ADSTACK_OVERFLOW_OP => adstack::overflow(self, op),
            _ => Err(self.err(format!("the LLVM backend does not support '{name}'"))),
        }
    }
}
