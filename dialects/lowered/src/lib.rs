//! The lowered dialect: what the backends (LLVM/CPU, SPIR-V/Vulkan) and the lowered interpreter
//! consume. `convert-qd-to-lowered` (passes/lowering) produces it from qd + ad + adstack.
//! Everything is explicit: tasks and their dispatch shapes, typed pointers with explicit offset
//! arithmetic, bounds checks, structured control flow without break/continue, and adstacks as
//! slices of two heaps addressed through runtime metadata.
//!
//! ```text
//! qd.field @x : !qd.field<4x10xf32> {needs_grad}          // fields stay qd.field declarations
//! lowered.kernel @compute(%w: !qd.ndarray<?xf32>, %limit: f32) attributes {temps = 2} {
//!   lowered.task @compute_0 serial {                      // one thread
//!     %n = ...
//!     %slot = lowered.temp_ptr 0 : !lowered.ptr<i64>
//!     lowered.store %n, %slot : !lowered.ptr<i64>
//!     lowered.return
//!   }
//!   lowered.task @compute_1 range(0, temp 0) adstacks [0] {   // threads 0 .. end - begin
//!     %t = lowered.thread_id : i64                         // 0-based id within the dispatch
//!     %b = lowered.task_begin : i64                        // the resolved begin
//!     ...
//!     lowered.return
//!   }
//! }
//! ```
//!
//! # Types ([`types`])
//! - `!lowered.ptr<T>`: a pointer into global memory; `T` an integer of 8..64 bits or a float
//!   (`i1` is widened to `i32` or `i8` by the producer).
//! - `!lowered.ptr<T, private>`: a pointer into the thread's private memory; `T` a scalar (`i1`
//!   included) or a qd local aggregate (`!qd.array<10xf32>`, `!qd.struct<f32, i32>`, nested).
//! - Index and offset arithmetic is `i64` (upstream `arith` ops).
//!
//! # Structure
//! - `lowered.kernel @k(%a: T, ...) attributes {temps = N} { tasks }`: a symbol with the same
//!   signature (`function_type`) as the qd.kernel it comes from; its single block (whose
//!   arguments are the kernel's, unused: tasks are isolated and read arguments with
//!   `lowered.arg` / `lowered.ndarray_ptr` / `lowered.ndarray_dim`) holds only `lowered.task`s.
//!   Property `temps`: the number of 8-byte temporaries slots of a launch (zeroed before the
//!   first task). The kernel is a symbol table of its tasks (symbol uses inside tasks such as
//!   `@x` resolve outward, in the module).
//! - `lowered.task @k_0 serial { ... lowered.return }` and
//!   `lowered.task @k_1 range(B, E) [adstacks [ids]] { ... lowered.return }`: isolated from above,
//!   one block ending in `lowered.return`. Tasks run in order, each finishing before the next
//!   starts. A serial task runs one thread. A range task runs `max(E - B, 0)` threads (B, E as
//!   signed i64); B and E are each a constant (`16`) or a temporaries slot (`temp 3`, read as an
//!   i64 at launch, after the previous tasks ran). Generic properties: `kind = "serial" | "range"`,
//!   `begin` / `end` (i64 constants) or `begin_temp` / `end_temp` (i64 slot numbers), and
//!   `adstacks` (array of the i64 ids of the adstacks this task uses, for its heap layout).
//!
//! # Kernel data (all PURE: their value is fixed for a task)
//! - `%v = lowered.arg 1 : f32`: scalar kernel argument #1 (property `index`).
//! - `%p = lowered.ndarray_ptr 0 : !lowered.ptr<f32>`: the data of ndarray argument #0.
//! - `%d = lowered.ndarray_dim 0, 1 : i64`: the extent of axis 1 of ndarray argument #0
//!   (properties `index`, `axis`).
//! - `%p = lowered.field_ptr @x : !lowered.ptr<f32>`: the root buffer of field `@x` (row-major);
//!   `lowered.field_ptr @x grad` (unit property `grad`) is its adjoint buffer.
//! - `%p = lowered.temp_ptr 3 : !lowered.ptr<i64>`: temporaries slot 3 (8 bytes; a narrower `T`
//!   uses its first bytes, as a little-endian store would).
//! - `%t = lowered.thread_id : i64` (0 in a serial task), `%b = lowered.task_begin : i64`
//!   (range tasks only).
//!
//! # Memory
//! - `%q = lowered.offset %p, %i : !lowered.ptr<f32>`: `p + i` elements (PURE; `i: i64`;
//!   pointers to scalars, either space).
//! - `%v = lowered.load %p : !lowered.ptr<f32>` (READ_ONLY), `lowered.store %v, %p : ...`:
//!   scalars only, either space.
//! - `%old = lowered.atomic_add %v, %p : !lowered.ptr<f32>`, `atomic_min`, `atomic_max`: global
//!   pointers, relaxed; the result is the element's previous value. Integers wrap (add) and
//!   compare by the pointee's signedness (signed unless `ui*`); floats add in their precision
//!   and take IEEE minNum/maxNum (a NaN loses to a number), as `qd.atomic_*`.
//! - `%p = lowered.alloca : !lowered.ptr<!qd.array<10xf32>, private>`: private memory, zeroed
//!   every time the op runs (Taichi's locals). Side effecting.
//! - `%q = lowered.elem_ptr %p[%k] : !lowered.ptr<!qd.array<10xf32>, private>` (`k: i64`, not
//!   checked: the producer emits a `bounds_check` first) and
//!   `%q = lowered.member_ptr %p[1] : !lowered.ptr<!qd.struct<f32, i32>, private>` (property
//!   `index`): GEP-like addressing of private aggregates; the type after `:` is the base's.
//! - `lowered.bounds_check [%i, %j] in [%n0, %n1] {what = "field @x"} : i64`: all the indices
//!   of one access, then their extents (one operand list, split in half; all i64). Unless
//!   `0 <= i < n` on every axis the thread stops and the launch fails with an out-of-bounds
//!   error at this op's location (the location of the qd op it guards) in the qd interpreter's
//!   words: `index [i, j] is out of bounds for field @x of shape [n0, n1]`; with the unit
//!   property `local` (one index) `index k is out of bounds for local array '...' of length n`.
//!   Side effecting.
//!
//! # Control flow (structured; no break/continue: the producer rewrites them)
//! - `lowered.for %i = %lo to %hi step %s : i32 { ... lowered.yield }`: serial, half-open;
//!   iterations `lo, lo + s, ...` while `i < hi` compared as signed integers of their type
//!   (`s` must be positive). Bounds and step have one type, a signless integer or `index`.
//! - `lowered.if %c { ... lowered.yield } else { ... lowered.yield }`: the else region may be
//!   empty (no block), then printed without `else`.
//! - `lowered.while { ... lowered.condition %c } do { ... lowered.yield }`: runs the condition
//!   region, then the body while `%c` holds (scf.while without iter args: loop-carried state
//!   lives in private memory).
//! - Region ops have no results; `lowered.yield` and `lowered.condition` carry no values but
//!   the condition.
//!
//! # Adstacks (two heaps per task row: `float` holds float stacks, `int` integer and i1 stacks)
//! - `%s = lowered.adstack_stride float : i64`: bytes per row of that heap for this task.
//! - `%o = lowered.adstack_offset 2 : i64`: byte offset of stack id 2 within its heap's row.
//! - `%c = lowered.adstack_max_size 2 : i64`: capacity of stack id 2, in entries.
//! - `%r = lowered.adstack_row : i64`: this thread's heap row (device-defined: the thread id on
//!   the interpreter and SPIR-V, the worker's index on the CPU).
//! - `%p = lowered.heap_ptr float, %byte_off : !lowered.ptr<f32>`: a typed pointer into a heap at
//!   a byte offset.
//! - `lowered.adstack_overflow 2`: records that stack id 2 overflowed (atomic, relaxed; the
//!   runtime reports it at sync with the kernel, the stack's alloca location and capacity).
//! - The ids named by the adstack ops must be in their task's `adstacks` list. All of these but
//!   `adstack_overflow` are PURE.
//!
//! A stack of entry type T and id k is the slice at byte `row * stride + offset[k]` of its heap:
//! an i64 count, then from byte 8 the entries: `[primal, adjoint]` pairs of T for float stacks,
//! the primal only for int stacks (`i1` widened to `i32`). See `passes/lowering` for how the
//! adstack ops expand into these primitives.
//!
//! # Declarations
//! Every op is declared with `qd_ir::declare_op!` in its module ([`kernel`], [`data`], [`memory`],
//! [`control`], [`adstack`]): a typed wrapper (`LoadOp(pub OpId)` with `ptr(ctx)`, `result(ctx)`),
//! a `build` at a `qd_ir::Builder`'s insertion point, the structural verifier and the custom form
//! (an assembly format, hand-written for `kernel`, `task`, `for` and `member_ptr`, whose forms
//! bind block arguments or infer a type from a property). Each op's verify hook adds what the
//! structure cannot say: pointee types, the enclosing kernel's arguments and `temps`, the task's
//! `adstacks`, terminators.
//!
//! # Generic form
//! Every op prints in MLIR's generic form (accepted by `mlir-opt --allow-unregistered-dialect`):
//! symbols are `sym_name` string properties, symbol uses flat symbol-reference properties
//! (`field = @x`), integer operands of the syntax i64 properties, keywords string properties
//! (`heap = "float"`, `kind = "range"`), unit keywords unit properties (`grad`).

pub mod adstack;
pub mod constraints;
pub mod control;
pub mod data;
pub mod kernel;
pub mod memory;
pub mod props;
pub mod types;
mod verify;

pub use adstack::{
    AdstackMaxSizeOp, AdstackOffsetOp, AdstackOverflowOp, AdstackRowOp, AdstackStrideOp, HeapPtrOp,
};
pub use control::{ConditionOp, ForOp, IfOp, WhileOp, YieldOp};
pub use data::{ArgOp, FieldPtrOp, NdarrayDimOp, NdarrayPtrOp, TaskBeginOp, TempPtrOp, ThreadIdOp};
pub use kernel::{KernelOp, ReturnOp, TaskBound, TaskKind, TaskOp};
pub use memory::{
    AllocaOp, AtomicAddOp, AtomicMaxOp, AtomicMinOp, BoundsCheckOp, ElemPtrOp, LoadOp, MemberPtrOp,
    OffsetOp, StoreOp,
};
pub use props::{Heap, HeapProp};
pub use types::{global_ptr, private_ptr, ptr_type, MemorySpace, PtrType};
pub use verify::{enclosing_kernel, enclosing_task};

pub const KERNEL_OP: &str = "lowered.kernel";
pub const TASK_OP: &str = "lowered.task";
pub const RETURN_OP: &str = "lowered.return";
pub const ARG_OP: &str = "lowered.arg";
pub const NDARRAY_PTR_OP: &str = "lowered.ndarray_ptr";
pub const NDARRAY_DIM_OP: &str = "lowered.ndarray_dim";
pub const FIELD_PTR_OP: &str = "lowered.field_ptr";
pub const TEMP_PTR_OP: &str = "lowered.temp_ptr";
pub const THREAD_ID_OP: &str = "lowered.thread_id";
pub const TASK_BEGIN_OP: &str = "lowered.task_begin";
pub const OFFSET_OP: &str = "lowered.offset";
pub const LOAD_OP: &str = "lowered.load";
pub const STORE_OP: &str = "lowered.store";
pub const ATOMIC_ADD_OP: &str = "lowered.atomic_add";
pub const ATOMIC_MIN_OP: &str = "lowered.atomic_min";
pub const ATOMIC_MAX_OP: &str = "lowered.atomic_max";
pub const ALLOCA_OP: &str = "lowered.alloca";
pub const ELEM_PTR_OP: &str = "lowered.elem_ptr";
pub const MEMBER_PTR_OP: &str = "lowered.member_ptr";
pub const BOUNDS_CHECK_OP: &str = "lowered.bounds_check";
pub const FOR_OP: &str = "lowered.for";
pub const IF_OP: &str = "lowered.if";
pub const WHILE_OP: &str = "lowered.while";
pub const CONDITION_OP: &str = "lowered.condition";
pub const YIELD_OP: &str = "lowered.yield";
pub const ADSTACK_STRIDE_OP: &str = "lowered.adstack_stride";
pub const ADSTACK_OFFSET_OP: &str = "lowered.adstack_offset";
pub const ADSTACK_MAX_SIZE_OP: &str = "lowered.adstack_max_size";
pub const ADSTACK_ROW_OP: &str = "lowered.adstack_row";
pub const HEAP_PTR_OP: &str = "lowered.heap_ptr";
pub const ADSTACK_OVERFLOW_OP: &str = "lowered.adstack_overflow";

/// The lowered dialect: its ops and its type syntax, to register in a [`qd_ir::Context`].
pub fn dialect() -> qd_ir::DialectDef {
    let mut d = qd_ir::DialectDef::new(types::DIALECT);
    d.ops = vec![
        KernelOp::op_info(),
        TaskOp::op_info(),
        ReturnOp::op_info(),
        ArgOp::op_info(),
        NdarrayPtrOp::op_info(),
        NdarrayDimOp::op_info(),
        FieldPtrOp::op_info(),
        TempPtrOp::op_info(),
        ThreadIdOp::op_info(),
        TaskBeginOp::op_info(),
        OffsetOp::op_info(),
        LoadOp::op_info(),
        StoreOp::op_info(),
        AtomicAddOp::op_info(),
        AtomicMinOp::op_info(),
        AtomicMaxOp::op_info(),
        AllocaOp::op_info(),
        ElemPtrOp::op_info(),
        MemberPtrOp::op_info(),
        BoundsCheckOp::op_info(),
        ForOp::op_info(),
        IfOp::op_info(),
        WhileOp::op_info(),
        ConditionOp::op_info(),
        YieldOp::op_info(),
        AdstackStrideOp::op_info(),
        AdstackOffsetOp::op_info(),
        AdstackMaxSizeOp::op_info(),
        AdstackRowOp::op_info(),
        HeapPtrOp::op_info(),
        AdstackOverflowOp::op_info(),
    ];
    d.parse_type = Some(types::parse_type);
    d.print_type = Some(types::print_type);
    d.types = types::IRDL_TYPES;
    d
}

#[cfg(test)]
mod tests;
