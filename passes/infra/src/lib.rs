//! qd-pass: MLIR's pass infrastructure for qd. A [`Pass`] runs on one op; an [`OpPassManager`]
//! holds passes and nested managers anchored on op names; the root [`PassManager`] verifies after
//! each pass, calls [`PassInstrumentation`]s and keeps timing and statistics. Passes are found by
//! name in a [`PassRegistry`], with typed options ([`OptionDecl`], [`ParsedOptions`]), and
//! pipelines are written in MLIR's textual grammar (`builtin.module(qd.kernel(cse),symbol-dce)`).
//!
//! Layout: `pass` (the trait), `options`, `registry`, `pipeline` (the grammar), `manager`
//! (nesting, building), `runner` (running), `instrument` (hooks, IR printing), `timing` (the report).

pub mod instrument;
pub mod manager;
pub mod options;
pub mod pass;
pub mod pipeline;
pub mod registry;
mod runner;
pub mod timing;

pub use instrument::{PassInstrumentation, PrintIrInstrumentation};
pub use manager::{Anchor, OpPassManager, PassManager};
pub use options::{OptionDecl, OptionError, OptionKind, OptionValue, ParsedOptions, PassOptions};
pub use pass::{Pass, PassFailure, PassOutcome, PassResult, Statistic};
pub use pipeline::{PipelineElement, PipelineError};
pub use registry::{PassCreateFn, PassInfo, PassRegistry};
pub use timing::{TimingReport, TimingRow};

#[cfg(test)]
mod manager_tests;
