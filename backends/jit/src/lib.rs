//! `jit_compile` (issue #18): elementwise ndarray programs, traced from a Rust closure or built
//! with a [`Graph`] (the front end for bindings), fused by `fuse-elementwise` into `qd.kernel`s,
//! compiled once per (chain, shapes, dtypes, constants) on any registered device, and run
//! forward and backward (the gradient of each kernel is the runtime's reverse-mode-ad).
//!
//! ```ignore
//! let mut f = jit_compile(Jit::new("cpu")?, |[x, w, b]| (x * w + b).relu().sum());
//! let mut g = jit!(Jit::new("cpu")?, |x, w, b| (x * w + b).relu().sum());  // the same
//! let out = f.call(vec![x, w, b])?;                          // traces, fuses, compiles
//! let (out, grads) = f.call_with_grad(vec![x, w, b], &[seed])?;  // cache hit
//! println!("{:?}", f.stats());                               // hits, misses, compile time
//! ```
//!
//! - [`graph`]: [`Graph`] and [`Sym`]: inputs, ops, reductions, outputs, as data.
//! - [`trace`]: [`Tensor`] and the closure tracer (operators and methods).
//! - [`compile`]: a graph to an [`Executable`]: fused function, [`Plan`] of launches, program.
//! - [`exec`]: running an executable: bind, forward, backward.
//! - `host_copy`: a seed into its adjoint buffer, over the cores, non-temporal when large.
//! - [`jit`]: [`Jit`] (device, cache, [`CacheStats`]) and [`JitFn`].
//! - [`losses`]: the detection loss in the form the fused loss pattern recognises.

pub mod compile;
pub mod exec;
pub mod graph;
mod host_copy;
pub mod jit;
pub mod losses;
pub mod trace;

pub use compile::{compile_graph, Executable, Plan, Step};
pub use exec::Binding;
pub use graph::{Graph, Operand, Reduce, Sym};
pub use jit::{jit_compile, CacheStats, Jit, JitFn};
pub use qd_ndarray::{register_primitive, BackwardArgs, BackwardFn, ForwardFn};
pub use trace::{maximum, minimum, pow, select, trace, Outputs, Tensor};
