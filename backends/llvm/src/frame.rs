//! The launch context of a compiled kernel ([`FrameLayout`]): a flat array of 64-bit words that
//! every task function reads through its `ctx` pointer. Each worker thread gets its own copy (its
//! heap row and its error and overflow records differ); the rest is the same for every worker.
//!
//! | words | what |
//! |---|---|
//! | [`W_TEMPS`] | the temporaries buffer (8 bytes per slot) |
//! | [`W_HEAP_FLOAT`], [`W_HEAP_INT`] | the adstack heaps of the running task |
//! | [`W_STRIDE_FLOAT`], [`W_STRIDE_INT`] | bytes per heap row, for the running task |
//! | [`W_ROW`] | the worker's heap row |
//! | [`W_BEGIN`] | the running task's resolved `begin` |
//! | [`W_ERR_SITE`], [`W_ERR_THREAD`], [`W_ERR_VALUES`].. | the error record: site, thread, values |
//! | [`W_OVF_THREAD`], [`W_OVF_STACK`] | the first overflow: thread ([`NONE`] when none), stack id |
//! | [`W_CANCEL`] | the address of the launch's cancel flag (a 32-bit integer, nonzero: stop) |
//! | [`W_STREAM`] | the running task's streaming bound: see [`W_STREAM`] |
//! | fields | per field of the program (module order): its values, its adjoint (or 0) |
//! | arguments | per kernel argument: a scalar's canonical bits, or an ndarray's data then its extents |
//! | stacks | per stack of the kernel (by id): its byte offset in its heap's row, its capacity |

use qd_frontend::NdarrayType;
use qd_ir::{Context, Type};
use qd_runtime::{KernelStacks, Memory};
use std::collections::HashMap;

pub const W_TEMPS: u32 = 0;
pub const W_HEAP_FLOAT: u32 = 1;
pub const W_HEAP_INT: u32 = 2;
pub const W_STRIDE_FLOAT: u32 = 3;
pub const W_STRIDE_INT: u32 = 4;
pub const W_ROW: u32 = 5;
pub const W_BEGIN: u32 = 6;
pub const W_ERR_SITE: u32 = 7;
pub const W_ERR_THREAD: u32 = 8;
pub const W_OVF_THREAD: u32 = 9;
pub const W_OVF_STACK: u32 = 10;
pub const W_ERR_VALUES: u32 = 11;
/// The most values an error records (a bounds check of 8 indices and their extents).
pub const MAX_ERR_VALUES: u32 = 16;
/// The address of the launch's cancel flag (`qd_runtime::CancelFlag`), polled at `while` back
/// edges: always a valid flag (`CancelFlag::never()` for a launch without a deadline), as the
/// poll does not test it for null.
pub const W_CANCEL: u32 = W_ERR_VALUES + MAX_ERR_VALUES;
/// The least bytes a thread of the running task must write to streamed buffers (see
/// `simd::driver`) for its full groups' stores to be non-temporal: the launch's threshold
/// divided by its threads, rounded up (a task writing `b` bytes a thread streams when
/// `threads * b` reaches the threshold); [`NONE`]: never.
pub const W_STREAM: u32 = W_CANCEL + 1;
const W_FIELDS: u32 = W_STREAM + 1;
/// An empty record (no error, no overflow).
pub const NONE: u64 = u64::MAX;

/// Where each datum of one kernel's launch context lives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameLayout {
    pub num_fields: u32,
    /// The first word of each kernel argument.
    pub args: Vec<u32>,
    /// Each ndarray argument's rank (None for a scalar).
    pub ranks: Vec<Option<usize>>,
    /// The words of each stack: offset, then capacity.
    pub stacks: HashMap<u32, u32>,
    /// The number of words.
    pub words: u32,
}

impl FrameLayout {
    /// The layout for a kernel of parameter types `params` and stack table `stacks`, in a
    /// program whose fields are `memory`'s.
    pub fn new(ctx: &Context, params: &[Type], stacks: &KernelStacks, memory: &Memory) -> Self {
        let num_fields = memory.num_fields() as u32;
        let mut w = W_FIELDS + 2 * num_fields;
        let mut args = Vec::new();
        let mut ranks = Vec::new();
        for &p in params {
            args.push(w);
            match NdarrayType::from_type(ctx, p) {
                Some(nd) => {
                    let rank = nd.rank(ctx);
                    ranks.push(Some(rank));
                    w += 1 + rank as u32;
                }
                None => {
                    ranks.push(None);
                    w += 1;
                }
            }
        }
        let mut map = HashMap::new();
        for s in &stacks.stacks {
            map.insert(s.id, w);
            w += 2;
        }
        FrameLayout {
            num_fields,
            args,
            ranks,
            stacks: map,
            words: w,
        }
    }

    /// The word of field `index`'s values (`grad`: its adjoint).
    pub fn field(&self, index: usize, grad: bool) -> u32 {
        W_FIELDS + 2 * index as u32 + u32::from(grad)
    }
}
