//! Tests every device runs: each module's sweeps run once per device configuration of
//! [`common::configs`] (every registered device, the cpu with several worker counts and scalar
//! tasks, vulkan with its minimal options) against one reference. A device's own behaviour (its
//! codegen, its notes on why a task runs scalar) is tested in its crate.

mod arith_ops;
mod common;
mod fpowi_wide;
mod fusion;
mod ndarray_atomics;
mod ndarray_bounds;
mod timeout;
