//! The compile cache: JIT-compiled kernels for the whole process, keyed by the kernel's printed
//! IR, the layout it was compiled for (fields, stacks, launch context) and the [`Options`]
//! (target CPU and features, optimisation). A kernel compiled once is found again, by any device
//! of the process, and not compiled again. The key's full text is kept and compared, so that a
//! hash collision cannot hand out the wrong code.
//!
//! Compiled code lives as long as the process: each entry owns its LLVM context and MCJIT engine
//! (leaked on purpose, as the code they hold is called until exit).

use crate::jit::Options;
use inkwell::execution_engine::ExecutionEngine;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// A task function: `(ctx, first, last) -> 0 | 1` (see the crate doc).
pub type TaskFn = unsafe extern "C" fn(*mut u64, i64, i64) -> i32;

/// Keeps a kernel's MCJIT engine (and so its code) alive.
struct Engine(#[allow(dead_code)] ExecutionEngine<'static>);
// SAFETY: the engine is never used after the function addresses were taken; it is only kept so
// that the code stays mapped. Nothing reaches it from another thread.
unsafe impl Send for Engine {}
unsafe impl Sync for Engine {}

/// A JIT-compiled kernel: one function per task, in task order.
pub struct CompiledCode {
    pub tasks: Vec<TaskFn>,
    _engine: Engine,
}

impl CompiledCode {
    /// Takes the addresses of `symbols` from `engine` and keeps the engine.
    pub fn new(engine: ExecutionEngine<'static>, symbols: &[String]) -> Result<Self, String> {
        let mut tasks = Vec::new();
        for s in symbols {
            let addr = engine
                .get_function_address(s)
                .map_err(|e| format!("the JIT has no function {s}: {e}"))?;
            // SAFETY: the codegen gave every task this signature.
            tasks.push(unsafe { std::mem::transmute::<usize, TaskFn>(addr) });
        }
        Ok(CompiledCode {
            tasks,
            _engine: Engine(engine),
        })
    }
}

type Entries = HashMap<u64, Vec<(String, Arc<CompiledCode>)>>;

fn cache() -> &'static Mutex<Entries> {
    static CACHE: OnceLock<Mutex<Entries>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

static COMPILES: AtomicU64 = AtomicU64::new(0);

/// How many kernels this process compiled (cache misses).
pub fn compiles() -> u64 {
    COMPILES.load(Ordering::Relaxed)
}

/// How many kernels in the cache have a key for which `pred` holds (each was compiled once).
pub fn count_matching(pred: impl Fn(&str) -> bool) -> usize {
    let map = cache().lock().unwrap_or_else(|e| e.into_inner());
    map.values().flatten().filter(|(k, _)| pred(k)).count()
}

/// The cache key of `text` (the kernel and its layout) compiled with `opts`.
pub fn key(text: &str, opts: &Options) -> String {
    format!("{opts:?}\n{text}")
}

/// The code for `key`, compiled by `compile` on a miss. Returns whether it was found.
pub fn get_or_compile<E>(
    key: String,
    compile: impl FnOnce() -> Result<CompiledCode, E>,
) -> Result<(Arc<CompiledCode>, bool), E> {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    let hash = h.finish();
    // Compiling under the lock keeps two devices from compiling one kernel twice.
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, code)) = map
        .get(&hash)
        .and_then(|v| v.iter().find(|(k, _)| *k == key))
    {
        return Ok((code.clone(), true));
    }
    let code = Arc::new(compile()?);
    COMPILES.fetch_add(1, Ordering::Relaxed);
    map.entry(hash).or_default().push((key, code.clone()));
    Ok((code, false))
}
