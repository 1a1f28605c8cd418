//! Elementwise fusion (issue #18): the `fuse-elementwise` pass over the ndarray dialect, and the
//! fused loss patterns.
//!
//! - [`group`]: which ops share a kernel (maximal same-shape chains and DAGs; a reduction joins
//!   the group that feeds it; a non-fusible primitive runs alone).
//! - [`codegen`]: a group to `qd.kernel`s: one parallel loop that loads each input once per
//!   element at its broadcast index, computes the chain in registers from each primitive's
//!   scalar body and stores each output once; with reductions, a partial kernel (lanes that each
//!   reduce every lanes-th element of a row) and a reduce kernel.
//! - [`fuse_elementwise`]: the pass; the function is left holding `ndarray.launch` ops.
//! - [`exclusive`]: in gradients of generated kernels, adjoints of parameters that each thread
//!   owns elementwise are accumulated without atomics.
//! - [`dead_loops`]: gradient kernels drop the replayed forward loops nothing reads.
//! - [`overwrite`]: gradient kernels write adjoints each iteration owns instead of accumulating
//!   into zeroed buffers, and leave output adjoints unreset, where the caller allows it.
//! - [`approx`]: the `approx-functions` option: `fastmath<afn>` on the kernels' math ops.
//! - [`patterns`]: the fused-loss pattern registry (matcher + planner), first pattern the
//!   weighted BCE + weighted smooth-L1 detection loss.
//!
//! Gradients are not written here: each generated kernel is an ordinary `qd.kernel`, which the
//! runtime differentiates with reverse-mode-ad; a primitive with a hand-written backward is kept
//! as one `ndarray.scalar_apply` so that reverse-mode-ad uses that backward.

pub mod approx;
pub mod codegen;
pub mod dead_loops;
pub mod exclusive;
pub mod fuse_elementwise;
pub mod group;
pub mod overwrite;
pub mod patterns;

pub use approx::mark_approx_functions;
pub use dead_loops::erase_dead_loops;
pub use exclusive::privatize_adjoints;
pub use fuse_elementwise::{
    fuse_elementwise_pass_info, fuse_function, FuseElementwise, FuseOptions,
};
pub use overwrite::{overwrite_adjoints, AdjointUse, AdjointWrite};
pub use patterns::{apply_patterns, register_pattern, Match, Pattern};
pub use qd_ndarray::{register_primitive, BackwardArgs, BackwardFn, ForwardFn};
