//! The binding contract between the SPIR-V code generator and the Vulkan device (also written
//! in prose in /work/notes/SPIRV_ABI.md). Everything a device needs to run a compiled kernel is
//! in [`SpirvKernel`]; the layout constants below are what the generated code reads and writes.
//!
//! - One SPIR-V module per kernel ([`SpirvKernel::words`]), one `GLCompute` entry point per
//!   `lowered.task` ([`SpirvTask::entry`]), in task order. Every buffer is a storage buffer
//!   (`StorageBuffer` storage class, `Block` struct of one runtime array) in descriptor set
//!   [`SET`]; binding numbers are fixed per kernel ([`BINDING_ARGS`] .. [`BINDING_OVERFLOW`],
//!   then fields and ndarrays from [`FIRST_DATA_BINDING`]); a task's [`SpirvTask::bindings`]
//!   lists only those its entry point uses (its descriptor set layout).
//! - Thread ids: a task's workgroup is `workgroup_size x 1 x 1`. The device dispatches
//!   `(gx, gy, 1)` workgroups with `gx <= 65535`; the linear thread id is
//!   `gid.x + gid.y * (NumWorkgroups.x * workgroup_size)`; threads with id `>= n_threads`
//!   (metadata word [`META_THREADS`]) return at once, so any grid covering `n_threads` works.
//!   A device may run a task as several dispatches over consecutive threads (when its heaps
//!   would not fit one binding): the linear id is the dispatch's row, and the task's thread id
//!   (`lowered.thread_id`, the error and overflow records) is [`META_FIRST`] plus it.
//! - Slot buffers (args, temps, metadata) are arrays of little-endian 8-byte slots; a value
//!   narrower than 8 bytes lives in a slot's first bytes (as the interpreter and the LLVM frame).
//!   Without `Int64` the code reads only the low 32 bits of 64-bit slots (and writes a 64-bit
//!   temporary as low word + sign-extension high word).
//! - Heaps are byte-addressed (the `lowered` contract: a stack of id k is at
//!   `row * stride + offset[k]`, an 8-byte count then the entries); `row` is the linear id
//!   within the dispatch, so each heap must hold `n_threads * stride` bytes.
//! - Records are arrays of u32 words the device zeroes before a launch and reads back after each
//!   task (or at sync); see [`ERR_CLAIM`] and [`OVF_CLAIM`].

use qd_ir::Location;
use qd_runtime::{DType, SourceMap};

/// The descriptor set of every binding.
pub const SET: u32 = 0;
/// Scalar arguments and ndarray extents ([`SpirvKernel::args`]), 8-byte slots. Read only.
pub const BINDING_ARGS: u32 = 0;
/// The kernel's temporaries, `temps` 8-byte slots, zeroed before the first task; shared by
/// every task of the launch (a task reads what earlier tasks stored).
pub const BINDING_TEMPS: u32 = 1;
/// The task's metadata, 8-byte slots (`META_*`), written before the task's dispatch, fresh per
/// task (never shared between tasks in flight).
pub const BINDING_METADATA: u32 = 2;
/// The float adstack heap (f32/f64 stacks), bytes.
pub const BINDING_HEAP_FLOAT: u32 = 3;
/// The int adstack heap (integer stacks, i1 as i32), bytes.
pub const BINDING_HEAP_INT: u32 = 4;
/// The error record (u32 words, `ERR_*`).
pub const BINDING_ERRORS: u32 = 5;
/// The adstack overflow record (u32 words, `OVF_*`).
pub const BINDING_OVERFLOW: u32 = 6;
/// Fields and ndarrays take bindings from here on, one each, in [`SpirvKernel::data`] order.
pub const FIRST_DATA_BINDING: u32 = 7;

/// Metadata slot: the task's resolved `begin` (i64; 0 for a serial task), the same for every
/// dispatch of the task (`lowered.task_begin`).
pub const META_BEGIN: u32 = 0;
/// Metadata slot: the threads of this dispatch, `max(end - begin, 0)` (1 for a serial task)
/// when the task runs as one dispatch.
pub const META_THREADS: u32 = 1;
/// Metadata slot: bytes per row of the float heap (the runtime's `HeapLayout`).
pub const META_STRIDE_FLOAT: u32 = 2;
/// Metadata slot: bytes per row of the int heap.
pub const META_STRIDE_INT: u32 = 3;
/// Metadata slot: the task's thread id of this dispatch's first thread (0 unless the task runs
/// as several dispatches; a lowering folds a constant `begin` into the iteration, so the offset
/// must reach the thread id, not only `META_BEGIN`).
pub const META_FIRST: u32 = 4;
/// Metadata slots from here: per stack of the task, in [`SpirvTask::stacks`] order, its byte
/// offset within its heap's row, then its capacity in entries (`META_STACKS + 2 * j` and
/// `META_STACKS + 2 * j + 1`).
pub const META_STACKS: u32 = 5;

/// Error record word: 0 while no thread failed; the first failing thread sets it to 1
/// (compare-exchange) and alone writes the words below, so the record is never torn. (Which of
/// several failing threads wins is not defined; the record names it.)
pub const ERR_CLAIM: u32 = 0;
/// Error record word: the site number ([`SpirvKernel::sites`] index).
pub const ERR_SITE: u32 = 1;
/// Error record word: the failing thread's id.
pub const ERR_THREAD: u32 = 2;
/// Error record words from here: the site's values as i64, low word then high word
/// (`ERR_VALUES + 2 * i`, `+ 1`); at most [`MAX_ERR_VALUES`] values.
pub const ERR_VALUES: u32 = 4;
/// The most values an error site records (a bounds check of 8 indices and their extents).
pub const MAX_ERR_VALUES: u32 = 16;
/// Words of the error record buffer.
pub const ERR_WORDS: u32 = ERR_VALUES + 2 * MAX_ERR_VALUES;

/// Overflow record word: 0 while no push overflowed; the first overflowing thread sets it to 1
/// (compare-exchange) and alone writes the words below. The thread goes on (the push is
/// skipped), as on every device; the runtime reports the overflow at sync.
pub const OVF_CLAIM: u32 = 0;
/// Overflow record word: the id of the stack that overflowed.
pub const OVF_STACK: u32 = 1;
/// Overflow record word: the thread that overflowed.
pub const OVF_THREAD: u32 = 2;
/// Words of the overflow record buffer.
pub const OVF_WORDS: u32 = 4;

/// Code generation options: what the target device supports.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// `Int64` (and 64-bit atomics): i64 values and 64-bit index arithmetic. Without it, index
    /// arithmetic (lowered i64) is 32-bit and i64 data (fields, ndarrays, arguments, stacks,
    /// atomics) is a compile error.
    pub int64: bool,
    /// `Float64`: f64 data; without it f64 is a compile error.
    pub float64: bool,
    /// `Int8`/`Int16` with 8/16-bit storage buffer access: i8/i16 data; without them it is a
    /// compile error.
    pub int8: bool,
    pub int16: bool,
    /// `SPV_EXT_shader_atomic_float_add` (`AtomicFloat32AddEXT`, and `AtomicFloat64AddEXT` with
    /// `float64`): float atomic add as `OpAtomicFAddEXT`; else a compare-exchange loop.
    pub atomic_float_add: bool,
    /// Threads per workgroup of range tasks (serial tasks use 1).
    pub workgroup_size: u32,
    /// The driver's cap on the loop iterations of one shader invocation, if it has one: with
    /// it, every task counts its loop iterations and fails after a loop that ended at the cap
    /// (see [`LoopLimit`]); without it no counter is emitted.
    pub loop_limit: Option<LoopLimit>,
}

/// A driver that silently stops a shader invocation's loops after `iterations` loop iterations
/// in all (every loop of the invocation counts; Mesa's llvmpipe, `LP_MAX_TGSI_LOOP_ITERATIONS`
/// = 65535, counted per SIMD program, i.e. per subgroup). The code counts as the driver does,
/// per subgroup, every pass through a loop header (one per iteration and one per loop exit),
/// and after each loop fails with the loop's error site when the count reached `iterations`:
/// a cut-short loop is a located error, never a wrong result (a subgroup that genuinely ran
/// exactly that many is reported too). The counters need `GroupNonUniform` (Vulkan 1.1 gives
/// it to compute shaders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LoopLimit {
    pub iterations: u32,
    /// The driver as the error names it.
    pub driver: &'static str,
}

impl LoopLimit {
    /// lavapipe's (Mesa gallivm's loop limiter, shared between every loop of a shader).
    pub const LAVAPIPE: LoopLimit = LoopLimit {
        iterations: 65535,
        driver: "the Vulkan driver lavapipe (Mesa llvmpipe)",
    };
}

impl Default for Options {
    /// What lavapipe supports (every capability above), workgroups of 64, no loop limit (the
    /// Vulkan device sets lavapipe's from the driver it finds).
    fn default() -> Self {
        Options {
            int64: true,
            float64: true,
            int8: true,
            int16: true,
            atomic_float_add: true,
            workgroup_size: 64,
            loop_limit: None,
        }
    }
}

impl Options {
    /// The bare minimum: 32-bit only, no float atomics.
    pub fn minimal() -> Self {
        Options {
            int64: false,
            float64: false,
            int8: false,
            int16: false,
            atomic_float_add: false,
            workgroup_size: 64,
            loop_limit: None,
        }
    }
}

/// Where a task's begin/end comes from (as `lowered.task`'s `range(B, E)`). The device resolves
/// both before the dispatch (a temporaries slot read back after the previous task finished) and
/// writes `begin` and `max(end - begin, 0)` into the task's metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Const(i64),
    /// A temporaries slot (i64).
    Temp(u32),
}

/// How many threads a task runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dispatch {
    /// One thread (workgroup size 1).
    Serial,
    /// Threads `0 .. max(end - begin, 0)`.
    Range { begin: Bound, end: Bound },
}

/// What a binding holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BindingKind {
    /// A field's values (row-major, its dtype's size per element), by symbol name.
    Field(String),
    /// A field's adjoint buffer.
    FieldGrad(String),
    /// The data of ndarray argument `n` (row-major, its dtype).
    Ndarray(u32),
    Args,
    Temps,
    Metadata,
    HeapFloat,
    HeapInt,
    Errors,
    Overflow,
}

/// One descriptor of a task: a storage buffer at (`set`, `binding`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub set: u32,
    pub binding: u32,
    pub kind: BindingKind,
    /// Whether the task writes it (stores or atomics).
    pub writes: bool,
}

/// One kernel argument's place in the args buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSlot {
    /// A scalar: its value in slot `slot` (its bits in the slot's first bytes).
    Scalar { slot: u32, dtype: DType },
    /// An ndarray: its data at `binding`, its extents (i64) in slots `dims .. dims + rank`.
    Ndarray {
        binding: u32,
        dims: u32,
        rank: u32,
        dtype: DType,
    },
}

/// A field or ndarray buffer of the kernel (what [`FIRST_DATA_BINDING`] + i is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataBuffer {
    pub binding: u32,
    pub kind: BindingKind,
    pub dtype: DType,
}

/// One task: an entry point of the kernel's module.
#[derive(Clone, Debug, PartialEq)]
pub struct SpirvTask {
    /// The entry point's name (`<kernel>_task<i>`).
    pub entry: String,
    pub dispatch: Dispatch,
    /// Threads per workgroup (x); y = z = 1.
    pub workgroup_size: u32,
    /// The descriptors the entry point uses, by binding number.
    pub bindings: Vec<Binding>,
    /// The task's stacks (id, entry type) in its `adstacks` order: metadata slots
    /// `META_STACKS + 2 * j` (offset) and `+ 1` (capacity) belong to stack `stacks[j]`.
    pub stacks: Vec<(u32, DType)>,
    pub loc: Location,
}

/// A compiled kernel.
#[derive(Clone, Debug)]
pub struct SpirvKernel {
    pub name: String,
    /// The SPIR-V 1.5 module (every task an entry point).
    pub words: Vec<u32>,
    pub tasks: Vec<SpirvTask>,
    /// Per kernel argument, where it lives in the args buffer.
    pub args: Vec<ArgSlot>,
    /// Slots of the args buffer.
    pub arg_slots: u32,
    /// Slots of the temporaries buffer.
    pub temps: u32,
    /// Fields and ndarrays, by binding.
    pub data: Vec<DataBuffer>,
    /// The error sites (the error record's `ERR_SITE` indexes them) and their source map.
    pub sites: crate::sites::Sites,
    /// The SPIR-V capabilities the module declares (the device refuses a kernel needing one it
    /// lacks before creating any pipeline).
    pub capabilities: Vec<String>,
    /// The options it was compiled with.
    pub options: Options,
}

impl SpirvKernel {
    /// The source map of the kernel's error codes.
    pub fn source_map(&self) -> &SourceMap {
        &self.sites.source_map
    }
}
