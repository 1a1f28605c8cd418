//! The compile cache and `jit_compile`. [`Jit`] compiles graphs on one device kind, caching each
//! [`Executable`] by the traced function's text (the chain of ops, the shapes, the dtypes and
//! every constant); [`JitFn`] is a traced closure, which maps the input shapes and dtypes of a
//! call to that key without tracing again, so a repeated call costs two hash lookups.

use crate::compile::{compile_graph, Executable};
use crate::graph::Graph;
use crate::trace::{trace, Outputs, Tensor};
use qd_runtime::{DType, Device, DeviceOptions, Ndarray};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// What the cache did so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CacheStats {
    pub hits: u64,
    pub misses: u64,
    /// Time spent tracing, fusing and compiling (misses only).
    pub compile_time: Duration,
}

type Factory = Box<dyn Fn() -> Result<Box<dyn Device>, String>>;
/// A traced function of a slice of tensors.
type Traced = Box<dyn Fn(&[Tensor]) -> Vec<Tensor>>;

/// Compiles graphs for one device kind and caches them.
pub struct Jit {
    factory: Factory,
    device: String,
    options: qd_fusion::FuseOptions,
    cache: HashMap<String, Executable>,
    pub stats: CacheStats,
}

impl Jit {
    /// A JIT for the registered device `name` (interp, interp-lowered, cpu, vulkan, ...).
    pub fn new(name: &str) -> Result<Jit, String> {
        let reg = qd_devices::all_devices();
        if !reg.contains(name) {
            return Err(format!(
                "no device '{name}' (known: {})",
                reg.names().join(", ")
            ));
        }
        let n = name.to_string();
        Ok(Jit::with_factory(
            name,
            Box::new(move || {
                qd_devices::all_devices()
                    .create(&n, &DeviceOptions::default())
                    .map_err(|e| e.to_string())
            }),
        ))
    }

    /// A JIT whose programs get their devices from `factory` (one per compiled graph).
    pub fn with_factory(name: &str, factory: Factory) -> Jit {
        Jit {
            factory,
            device: name.to_string(),
            options: qd_fusion::FuseOptions::default(),
            cache: HashMap::new(),
            stats: CacheStats::default(),
        }
    }

    /// Turns fusion off (one kernel per op): the unfused baseline, same results.
    pub fn unfused(mut self) -> Jit {
        self.options.fuse = false;
        self
    }

    /// Leaves the fused loss patterns out (generic fusion only).
    pub fn without_patterns(mut self) -> Jit {
        self.options.patterns = false;
        self
    }

    /// Allows approximate functions in the kernels (fuse-elementwise's `approx-functions`:
    /// `fastmath<afn>` on their math ops). On the cpu device f32 exp and exp2, and so sigmoid,
    /// are then within 1 ulp of the exact value (`qd_llvm::AFN_MAX_ULP`) instead of 0.5, and
    /// about 3x cheaper; the interpreters keep libm's. Gradients use the same exp. Off by
    /// default; part of the cache key.
    pub fn approx_functions(mut self) -> Jit {
        self.options.approx_functions = true;
        self
    }

    pub fn device_name(&self) -> &str {
        &self.device
    }

    /// The cache key of `g`: its function's text.
    pub fn key(g: &Graph) -> Result<String, String> {
        let mut ctx = qd_dialects::context();
        let (m, _) = g.to_module(&mut ctx, "jit")?;
        Ok(qd_ir::text::print_op(
            &ctx,
            m,
            &qd_ir::text::PrintOptions::default(),
        ))
    }

    /// The cache key of `g` compiled by this JIT: [`Jit::key`] after a line naming the options
    /// that are not the default (the same graph compiles to other kernels under them, and the
    /// builder methods may change them after something was cached).
    pub fn key_of(&self, g: &Graph) -> Result<String, String> {
        let key = Jit::key(g)?;
        let o = &self.options;
        let d = qd_fusion::FuseOptions::default();
        let mut tags = Vec::new();
        if o.fuse != d.fuse {
            tags.push(format!("fuse={}", o.fuse));
        }
        if o.patterns != d.patterns {
            tags.push(format!("patterns={}", o.patterns));
        }
        if o.lanes != d.lanes {
            tags.push(format!("lanes={}", o.lanes));
        }
        if o.approx_functions != d.approx_functions {
            tags.push("approx-functions".to_string());
        }
        Ok(if tags.is_empty() {
            key
        } else {
            format!("// {}\n{key}", tags.join(" "))
        })
    }

    /// The executable of `g`: from the cache, or compiled now.
    pub fn compile(&mut self, g: &Graph) -> Result<&mut Executable, String> {
        let start = Instant::now();
        let key = self.key_of(g)?;
        self.compile_keyed(key, g, start)
    }

    fn compile_keyed(
        &mut self,
        key: String,
        g: &Graph,
        start: Instant,
    ) -> Result<&mut Executable, String> {
        if self.cache.contains_key(&key) {
            self.stats.hits += 1;
        } else {
            let e = compile_graph(g, (self.factory)()?, self.options)?;
            self.stats.misses += 1;
            self.stats.compile_time += start.elapsed();
            self.cache.insert(key.clone(), e);
        }
        Ok(self.cache.get_mut(&key).expect("inserted above"))
    }

    /// The cached executable of `key`, counting a hit.
    pub fn cached(&mut self, key: &str) -> Option<&mut Executable> {
        let e = self.cache.get_mut(key)?;
        self.stats.hits += 1;
        Some(e)
    }
}

/// A traced closure with its per-shape compilations.
pub struct JitFn {
    pub jit: Jit,
    f: Traced,
    arity: usize,
    /// (shapes, dtypes) of a call to the cache key of its trace.
    keys: HashMap<Vec<(Vec<usize>, DType)>, String>,
}

/// Traces `f`, a closure of N tensors (`|[x, w, b]| (x * w + b).relu()`), on first use with
/// each new set of input shapes and dtypes, fuses and compiles it on `jit`'s device; later calls
/// with the same shapes hit the cache.
pub fn jit_compile<const N: usize, R: Outputs>(
    jit: Jit,
    f: impl Fn([Tensor; N]) -> R + 'static,
) -> JitFn {
    JitFn {
        jit,
        arity: N,
        f: Box::new(move |a: &[Tensor]| {
            let args: [Tensor; N] = std::array::from_fn(|i| a[i]);
            f(args).tensors()
        }),
        keys: HashMap::new(),
    }
}

/// `jit!(jit, |x, w, b| (x * w + b).relu())`: [`jit_compile`] of a closure written with one
/// parameter per input (the function itself takes `|[x, w, b]| ...`, whose arity Rust infers).
#[macro_export]
macro_rules! jit {
    ($jit:expr, |$($arg:ident),+ $(,)?| $body:expr) => {
        $crate::jit_compile($jit, move |[$($arg),+]: [$crate::Tensor; $crate::jit!(@count $($arg)+)]| $body)
    };
    (@count $($arg:ident)+) => { <[()]>::len(&[$($crate::jit!(@unit $arg)),+]) };
    (@unit $arg:ident) => { () };
}

impl JitFn {
    /// The executable for inputs of these shapes and dtypes (traced and compiled on a miss).
    pub fn executable(&mut self, sig: &[(Vec<usize>, DType)]) -> Result<&mut Executable, String> {
        if sig.len() != self.arity {
            return Err(format!("expects {} inputs, got {}", self.arity, sig.len()));
        }
        if let Some(k) = self.keys.get(sig) {
            // Two lookups: the signature's key, then the executable.
            let k = k.clone();
            return self
                .jit
                .cached(&k)
                .ok_or_else(|| "cache entry vanished".to_string());
        }
        let start = Instant::now();
        let g = trace(sig, &*self.f);
        let key = self.jit.key_of(&g)?;
        self.keys.insert(sig.to_vec(), key.clone());
        self.jit.compile_keyed(key, &g, start)
    }

    fn signature(inputs: &[Ndarray]) -> Vec<(Vec<usize>, DType)> {
        inputs
            .iter()
            .map(|a| (a.shape().to_vec(), a.dtype()))
            .collect()
    }

    /// Runs the function on `inputs`; returns its outputs.
    pub fn call(&mut self, inputs: Vec<Ndarray>) -> Result<Vec<Ndarray>, String> {
        let sig = Self::signature(&inputs);
        self.executable(&sig)?.run(inputs)
    }

    /// Runs the function and its backward: the outputs, and each input's gradient given each
    /// output's seed.
    pub fn call_with_grad(
        &mut self,
        inputs: Vec<Ndarray>,
        seeds: &[Ndarray],
    ) -> Result<(Vec<Ndarray>, Vec<Ndarray>), String> {
        let sig = Self::signature(&inputs);
        self.executable(&sig)?.run_with_grad(inputs, seeds)
    }

    pub fn stats(&self) -> &CacheStats {
        &self.jit.stats
    }
}
