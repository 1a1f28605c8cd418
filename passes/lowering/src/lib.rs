//! qd-lowering: `convert-qd-to-lowered`, from qd kernels (with their ad and adstack ops) to the
//! lowered dialect that devices run (see `qd_lowered` for the target's semantics).
//!
//! One concept per module:
//! - [`convert_qd_to_lowered`]: the pass and the lowering of a kernel into tasks;
//! - `partition`: which top-level code becomes which task, which values cross tasks;
//! - `remat`: values recomputed in each task instead of passed, integer constants;
//! - `spill`: values passed between tasks through temporaries slots;
//! - `lowerer`: the conversion state (insertion point, task prologue, value map);
//! - `convert`: the table of per-op conversions, and what is legal as it is (arith, math);
//! - `access`: field and ndarray element addressing and bounds checks;
//! - `memory`, `locals`, `control`, `adstack`: the conversions of each kind of op;
//! - `jumps`: where break and continue sit;
//! - `emit`: builders of the lowered ops.

mod access;
mod adstack;
mod control;
mod convert;
pub mod convert_qd_to_lowered;
mod emit;
mod jumps;
mod locals;
mod lowerer;
mod memory;
mod partition;
mod remat;
mod spill;

pub use convert_qd_to_lowered::{
    convert_qd_to_lowered_pass_info, lower_kernel, ConvertQdToLowered, PASS_NAME,
};

#[cfg(test)]
mod tests;
