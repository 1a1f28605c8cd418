//! qd-lowering: `convert-qd-to-lowered`, from qd kernels (with their ad and adstack ops) to the
//! lowered dialect that devices run (see `qd_lowered` for the target's semantics).
//!
//! One concept per module:
//! - [`convert_qd_to_lowered`]: the pass and its steps for one kernel;
//! - `facts`: constant and in-range indices, adstack ids, gathered before restructuring;
//! - `jumps`: where break and continue sit; `structurize`: their removal (qd to qd);
//! - `precheck`: which kernels cannot fail to lower, so are lowered in place (no copy);
//! - `partition`: which top-level code becomes which task, which values cross tasks;
//! - `marks`: the values found defined inside a loop or task being walked, one bit each;
//! - `remat`: values recomputed in each task instead of passed, integer constants;
//! - `outline`: the lowered kernel and its tasks, the qd code moved into them;
//! - `spill`: values passed between tasks through temporaries slots;
//! - `patterns`: the per-op conversions the dialect-conversion driver applies (with `access`
//!   for field/ndarray addressing and bounds checks, `emit` for the task prologue).

pub mod convert_qd_to_lowered;
mod facts;
mod jumps;
mod marks;
mod op_table;
mod outline;
mod partition;
mod patterns;
mod precheck;
mod remat;
mod spill;
mod structurize;

pub use convert_qd_to_lowered::{
    convert_qd_to_lowered_pass_info, lower_kernel, ConvertQdToLowered, LoweringOptions,
    CHECK_BOUNDS_OPTION, PASS_NAME,
};

#[cfg(test)]
mod tests;
