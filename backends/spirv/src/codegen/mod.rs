//! Lowered IR to SPIR-V 1.5 (rspirv): one module per `lowered.kernel`, one `GLCompute` entry
//! point (a `void()` function with everything inlined) per `lowered.task`, one file per concern
//! (`types`, `buffers`, `control`, `arith`, `math`, `adstack`, `checks`, `loop_limit`, `task`). [`Gen`] holds
//! the module being built and what the task being emitted shares.
//!
//! Values: a lowered SSA value is a SPIR-V id, or (for a pointer) a [`Val::Global`] /
//! [`Val::Private`] descriptor that loads and stores turn into an `OpAccessChain` where they
//! are used. Pointers are pure in lowered IR and never cross a block argument, so no pointer
//! ever needs to be a SPIR-V value (logical addressing, no variable pointers).

/// `$g.ck($e)` with `$e` evaluated first (it borrows the builder mutably).
macro_rules! ck {
    ($g:expr, $e:expr) => {{
        let r = $e;
        $g.ck(r)
    }};
}

mod adstack;
mod arith;
mod buffers;
mod checks;
mod control;
mod libm32;
mod libm64;
mod loop_limit;
mod math;
mod task;
mod types;

use crate::abi::{self, ArgSlot, BindingKind, DataBuffer, Options, SpirvKernel};
use crate::sites::Sites;
use qd_frontend::NdarrayType;
use qd_ir::{AttrData, Context, Diagnostic, OpId, Value};
use qd_lowered as lw;
use qd_runtime::{DType, KernelStacks};
use rspirv::dr::{Builder, Instruction, Operand};
use rspirv::spirv::{self, Capability, Word};
use std::collections::{BTreeMap, BTreeSet, HashMap};

pub(crate) use types::Scalar;

pub(crate) type R<T> = Result<T, Diagnostic>;

/// A pointer into a storage buffer: element `index` (of the index type) of the binding's view
/// of `view` elements. `scale` view elements make one element of the lowered pointee (2 for an
/// i64 read as its low word without `Int64`, else 1).
#[derive(Clone, Debug)]
pub(crate) struct GPtr {
    pub binding: u32,
    pub view: Scalar,
    pub index: Word,
    pub scale: u32,
}

/// A pointer into a private (`Function`) variable: `var`, then `chain` (array indices and
/// struct member constants) down to an element of lowered type `pointee`.
#[derive(Clone, Debug)]
pub(crate) struct PPtr {
    pub var: Word,
    pub chain: Vec<Word>,
    pub pointee: qd_ir::Type,
}

#[derive(Clone, Debug)]
pub(crate) enum Val {
    Id(Word),
    Global(GPtr),
    Private(PPtr),
}

/// Builds the SPIR-V module of `kernel` (a `lowered.kernel` named `name`) for a device with
/// `opts`; `stacks` is the kernel's stack table (entry types of the tasks' stacks).
pub fn compile_kernel(
    ir: &Context,
    kernel: OpId,
    name: &str,
    stacks: &KernelStacks,
    opts: &Options,
) -> R<SpirvKernel> {
    let Some(k) = lw::KernelOp::from_op(ir, kernel) else {
        return Err(Diagnostic::error(
            ir.loc(kernel),
            format!(
                "the SPIR-V backend compiles a lowered.kernel, got '{}'",
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
    if opts.workgroup_size == 0 {
        return Err(Diagnostic::error(
            ir.loc(kernel),
            "the SPIR-V workgroup size must be positive",
        ));
    }
    // Stacks of 64-bit entries need the capability; refuse them at their allocas.
    for s in &stacks.stacks {
        let missing = match s.elem {
            DType::F64 if !opts.float64 => Some("Float64"),
            DType::I64 | DType::U64 if !opts.int64 => Some("Int64"),
            _ => None,
        };
        if let Some(cap) = missing {
            return Err(Diagnostic::error(
                s.loc,
                format!(
                    "an adstack of {} entries needs the SPIR-V capability {cap}, which the target lacks",
                    s.elem.name()
                ),
            ));
        }
    }
    let (args, arg_slots, mut data) = arg_layout(ir, k)?;
    add_fields(ir, kernel, &mut data)?;
    let sites = Sites::collect(ir, kernel);
    let mut g = Gen::new(ir, opts, sites, data, args.clone(), kernel);
    let mut tasks = Vec::new();
    for (i, t) in k.tasks(ir).into_iter().enumerate() {
        let entry = format!("{name}_task{i}");
        tasks.push(task::emit(&mut g, t, &entry, stacks)?);
    }
    let capabilities: Vec<String> = g.caps.iter().map(|c| format!("{c:?}")).collect();
    let Gen { b, sites, data, .. } = g;
    let words = rspirv::binary::Assemble::assemble(&b.module());
    Ok(SpirvKernel {
        name: name.to_string(),
        words,
        tasks,
        args,
        arg_slots,
        temps: k.temps_checked(ir).unwrap_or(0),
        data,
        sites,
        capabilities,
        options: opts.clone(),
    })
}

/// The args buffer's slots per kernel argument, and a data binding per ndarray argument.
fn arg_layout(ir: &Context, k: lw::KernelOp) -> R<(Vec<ArgSlot>, u32, Vec<DataBuffer>)> {
    let mut slots = Vec::new();
    let mut data = Vec::new();
    let mut next = 0u32;
    for (i, ty) in k.arg_types(ir).into_iter().enumerate() {
        let bad = |m: String| Diagnostic::error(ir.loc(k.0), format!("argument #{i}: {m}"));
        if let Some(nd) = NdarrayType::from_type(ir, ty) {
            let dtype = DType::from_type(ir, nd.elem(ir)).map_err(bad)?;
            let binding = abi::FIRST_DATA_BINDING + data.len() as u32;
            let rank = nd.rank(ir) as u32;
            data.push(DataBuffer {
                binding,
                kind: BindingKind::Ndarray(i as u32),
                dtype,
            });
            slots.push(ArgSlot::Ndarray {
                binding,
                dims: next,
                rank,
                dtype,
            });
            next += rank;
        } else {
            let dtype = DType::from_type(ir, ty).map_err(bad)?;
            slots.push(ArgSlot::Scalar { slot: next, dtype });
            next += 1;
        }
    }
    Ok((slots, next, data))
}

/// A data binding per field (and adjoint) the kernel uses, in pre-order of first use.
fn add_fields(ir: &Context, kernel: OpId, data: &mut Vec<DataBuffer>) -> R<()> {
    for op in ir.walk_pre_order(kernel) {
        if ir.name(op) != lw::FIELD_PTR_OP {
            continue;
        }
        let kind = field_kind(ir, op)?;
        if data.iter().any(|d| d.kind == kind) {
            continue;
        }
        let pointee = lw::types::pointee(ir, ir.value_type(ir.result(op, 0)))
            .ok_or_else(|| Diagnostic::error(ir.loc(op), "lowered.field_ptr needs a pointer"))?;
        let dtype = DType::from_type(ir, pointee).map_err(|m| Diagnostic::error(ir.loc(op), m))?;
        data.push(DataBuffer {
            binding: abi::FIRST_DATA_BINDING + data.len() as u32,
            kind,
            dtype,
        });
    }
    Ok(())
}

/// `lowered.field_ptr @x [grad]` as a binding kind.
pub(crate) fn field_kind(ir: &Context, op: OpId) -> R<BindingKind> {
    let name = match ir.prop(op, "field").map(|a| ir.attr_data(a)) {
        Some(AttrData::SymbolRef { root, nested }) if nested.is_empty() => {
            ir.ident_str(*root).to_string()
        }
        _ => {
            return Err(Diagnostic::error(
                ir.loc(op),
                "lowered.field_ptr needs a field symbol",
            ))
        }
    };
    Ok(if ir.prop(op, "grad").is_some() {
        BindingKind::FieldGrad(name)
    } else {
        BindingKind::Field(name)
    })
}

/// The module being built, and the emission state of the task being emitted.
pub(crate) struct Gen<'a> {
    pub ir: &'a Context,
    pub opts: &'a Options,
    pub b: Builder,
    pub sites: Sites,
    pub data: Vec<DataBuffer>,
    pub args: Vec<ArgSlot>,
    pub caps: BTreeSet<Capability>,
    exts: BTreeSet<&'static str>,
    pub glsl: Word,
    consts: HashMap<(Scalar, u64), Word>,
    /// Storage-buffer variables by (binding, element view).
    views: BTreeMap<(u32, Scalar), Word>,
    decorated: BTreeSet<Word>,
    builtins: HashMap<spirv::BuiltIn, Word>,
    // ---- per task ----
    pub values: HashMap<Value, Val>,
    /// Global variables the task's entry point uses (its interface).
    pub interface: BTreeSet<Word>,
    /// Bindings the task uses, and whether it writes them.
    pub used: BTreeMap<u32, bool>,
    /// `OpVariable`s of the task's function, placed in its first block at the end.
    pub locals: Vec<Instruction>,
    /// The linear invocation id within the dispatch (index type): the thread's heap row and
    /// the test against the dispatch's thread count.
    pub row: Word,
    /// The task's thread id (index type): `row` plus the dispatch's first thread, as a task may
    /// run as several dispatches.
    pub thread: Word,
    /// The task's stack ids, in its `adstacks` order.
    pub task_stacks: Vec<u32>,
    /// The op being emitted (the location of errors).
    pub op: OpId,
    /// The per-subgroup loop-pass counters and the `SubgroupId` input (with a loop limit).
    group_counts: Option<(Word, Word)>,
    /// The task's pointer to its subgroup's loop-pass counter, with a loop limit.
    loop_count: Option<Word>,
    /// The loop-limit error site of each op that has one (added as loops are emitted).
    limit_sites: HashMap<OpId, u32>,
    /// The private pass counts of the loops being emitted, outermost first (loop limit only).
    open_loops: Vec<Word>,
}

impl<'a> Gen<'a> {
    fn new(
        ir: &'a Context,
        opts: &'a Options,
        sites: Sites,
        data: Vec<DataBuffer>,
        args: Vec<ArgSlot>,
        kernel: OpId,
    ) -> Self {
        let mut b = Builder::new();
        b.set_version(1, 5);
        b.capability(Capability::Shader);
        let glsl = b.ext_inst_import("GLSL.std.450");
        b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        let mut caps = BTreeSet::new();
        caps.insert(Capability::Shader);
        Gen {
            ir,
            opts,
            b,
            sites,
            data,
            args,
            caps,
            exts: BTreeSet::new(),
            glsl,
            consts: HashMap::new(),
            views: BTreeMap::new(),
            decorated: BTreeSet::new(),
            builtins: HashMap::new(),
            values: HashMap::new(),
            interface: BTreeSet::new(),
            used: BTreeMap::new(),
            locals: Vec::new(),
            row: 0,
            thread: 0,
            task_stacks: Vec::new(),
            op: kernel,
            group_counts: None,
            loop_count: None,
            limit_sites: HashMap::new(),
            open_loops: Vec::new(),
        }
    }

    /// A located error at the op being emitted.
    pub fn err(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.ir.loc(self.op), msg)
    }

    /// An rspirv builder result, its error located at the op being emitted.
    pub fn ck<T>(&self, r: Result<T, rspirv::dr::Error>) -> R<T> {
        r.map_err(|e| self.err(format!("SPIR-V builder: {e}")))
    }

    /// Declares capability `c` (once).
    pub fn need(&mut self, c: Capability) {
        if self.caps.insert(c) {
            self.b.capability(c);
        }
    }

    /// Decorates float op result `r` `NoContraction`, so that a driver keeps it exact: no fusing
    /// into an FMA and no reassociation (Mesa's NIR marks such ops `exact`).
    pub fn exact(&mut self, r: Word) -> Word {
        self.b.decorate(r, spirv::Decoration::NoContraction, []);
        r
    }

    /// Declares extension `e` (once).
    pub fn extension(&mut self, e: &'static str) {
        if self.exts.insert(e) {
            self.b.extension(e);
        }
    }

    /// A constant of scalar type `s` with bits `bits` (truncated to the width), made once.
    pub fn constant(&mut self, s: Scalar, bits: u64) -> Word {
        let bits = s.truncate(bits);
        if let Some(&c) = self.consts.get(&(s, bits)) {
            return c;
        }
        let ty = self.scalar_ty(s);
        let c = match s {
            Scalar::Bool if bits != 0 => self.b.constant_true(ty),
            Scalar::Bool => self.b.constant_false(ty),
            _ if s.width() == 64 => self.b.constant_bit64(ty, bits),
            _ => self.b.constant_bit32(ty, bits as u32),
        };
        self.consts.insert((s, bits), c);
        c
    }

    /// A u32 constant.
    pub fn u32c(&mut self, v: u32) -> Word {
        self.constant(Scalar::I(32), u64::from(v))
    }

    /// An index-typed constant.
    pub fn idx_const(&mut self, v: i64) -> Word {
        let s = self.index();
        self.constant(s, v as u64)
    }

    /// The SPIR-V value of lowered value `v`.
    pub fn val(&self, v: Value) -> R<Val> {
        self.values
            .get(&v)
            .cloned()
            .ok_or_else(|| self.err("a value is used before the SPIR-V backend emitted it"))
    }
    /// The SPIR-V id of a non-pointer lowered value.
    pub fn id(&self, v: Value) -> R<Word> {
        match self.val(v)? {
            Val::Id(i) => Ok(i),
            _ => Err(self.err("expected a scalar operand, got a pointer")),
        }
    }
    pub fn operand(&self, op: OpId, i: usize) -> R<Word> {
        self.id(self.ir.operand(op, i))
    }
    /// Binds `op`'s result `i`.
    pub fn set(&mut self, op: OpId, i: usize, v: Val) {
        self.values.insert(self.ir.result(op, i), v);
    }
    pub fn set_id(&mut self, op: OpId, v: Word) {
        self.set(op, 0, Val::Id(v));
    }

    /// A `Function` variable of type `ty` (its pointer type `ptr_ty`), declared at the start of
    /// the task's function.
    pub fn local_var(&mut self, ptr_ty: Word) -> Word {
        let id = self.b.id();
        self.locals.push(Instruction::new(
            spirv::Op::Variable,
            Some(ptr_ty),
            Some(id),
            vec![Operand::StorageClass(spirv::StorageClass::Function)],
        ));
        id
    }

    /// A module-scope variable of pointer type `ptr_ty` in `class` (not `Builder::variable`:
    /// inside a function it would put the variable in the block being emitted).
    pub fn global_var(&mut self, ptr_ty: Word, class: spirv::StorageClass) -> Word {
        let var = self.b.id();
        self.b
            .module_mut()
            .types_global_values
            .push(Instruction::new(
                spirv::Op::Variable,
                Some(ptr_ty),
                Some(var),
                vec![Operand::StorageClass(class)],
            ));
        var
    }

    /// The `Input` variable of built-in `bi` (a uvec3), made once and added to the interface.
    pub fn builtin(&mut self, bi: spirv::BuiltIn) -> Word {
        if let Some(&v) = self.builtins.get(&bi) {
            self.interface.insert(v);
            return v;
        }
        let u = self.scalar_ty(Scalar::I(32));
        let v3 = self.b.type_vector(u, 3);
        let p = self.b.type_pointer(None, spirv::StorageClass::Input, v3);
        let var = self.global_var(p, spirv::StorageClass::Input);
        self.b
            .decorate(var, spirv::Decoration::BuiltIn, [Operand::BuiltIn(bi)]);
        self.builtins.insert(bi, var);
        self.interface.insert(var);
        var
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
        let name = self.ir.name(op);
        if name.starts_with("arith.") {
            return arith::emit(self, op, name);
        }
        if name.starts_with("math.") {
            return math::emit(self, op, name);
        }
        match name {
            lw::ARG_OP => buffers::arg(self, op),
            lw::NDARRAY_PTR_OP => buffers::ndarray_ptr(self, op),
            lw::NDARRAY_DIM_OP => buffers::ndarray_dim(self, op),
            lw::FIELD_PTR_OP => buffers::field_ptr(self, op),
            lw::TEMP_PTR_OP => buffers::temp_ptr(self, op),
            lw::OFFSET_OP => buffers::offset(self, op),
            lw::LOAD_OP => buffers::load_op(self, op),
            lw::STORE_OP => buffers::store_op(self, op),
            lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP => {
                buffers::atomic(self, op, name)
            }
            lw::ALLOCA_OP => buffers::alloca(self, op),
            lw::ELEM_PTR_OP => buffers::elem_ptr(self, op),
            lw::MEMBER_PTR_OP => buffers::member_ptr(self, op),
            lw::BOUNDS_CHECK_OP => checks::bounds_check(self, op),
            lw::FOR_OP => control::for_loop(self, op),
            lw::IF_OP => control::if_op(self, op),
            lw::WHILE_OP => control::while_loop(self, op),
            // Their parents branch on their own.
            lw::YIELD_OP | lw::CONDITION_OP | lw::RETURN_OP => Ok(()),
            lw::THREAD_ID_OP => {
                let t = self.thread;
                self.set_id(op, t);
                Ok(())
            }
            lw::TASK_BEGIN_OP => {
                let v = buffers::metadata(self, abi::META_BEGIN)?;
                self.set_id(op, v);
                Ok(())
            }
            lw::ADSTACK_STRIDE_OP
            | lw::ADSTACK_OFFSET_OP
            | lw::ADSTACK_MAX_SIZE_OP
            | lw::ADSTACK_ROW_OP => adstack::meta(self, op, name),
            lw::HEAP_PTR_OP => adstack::heap_ptr(self, op),
            lw::ADSTACK_OVERFLOW_OP => adstack::overflow(self, op),
            _ => Err(self.err(format!("the SPIR-V backend does not support '{name}'"))),
        }
    }
}
