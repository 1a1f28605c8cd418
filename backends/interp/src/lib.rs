//! The reference interpreter of qd + arith + math: the oracle that passes and backends must agree
//! with. It is a [`qd_runtime::Device`] ([`Interpreter`]).
//!
//! - `exec`: the core. A kernel is compiled once into one closure per op ([`Exec`]) over a
//!   [`Frame`] of dense registers (one per SSA value the kernel uses) and per-thread local
//!   memory; names, types, symbols and layouts are resolved at compile time.
//! - Extension point: each dialect implements [`DialectInterpreter`] (`arith`, `math`, `qd`,
//!   `ad`, `adstack` here); later dialects (lowered) register theirs with
//!   [`Interpreter::register`] without touching the core. `helpers` has the building blocks.
//! - Semantics: see the `arith`, `math` and `qd` modules. In short: integers wrap at their width,
//!   f32 computes in f32, IEEE math, checked integer division and shifts, checked indices
//!   everywhere (a located error stops the launch), atomics return the old value, parallel loops
//!   run their iterations in ascending order or in a seeded shuffled order
//!   ([`InterpOptions::shuffle_seed`]), locals are zero-initialized. `ad` reads and accumulates
//!   adjoints (`x.grad`, adjoint ndarrays); `adstack` keeps per-thread stacks, each sized
//!   exactly by the launch's adstack plan, whose overflow is recorded for the program's next
//!   sync (see the `adstack` module).

pub mod ad;
pub mod adstack;
pub mod arith;
mod device;
pub mod exec;
pub mod helpers;
pub mod lowered;
pub mod math;
pub mod num;
pub mod qd;
mod rng;

pub use device::{InterpOptions, Interpreter};
pub use exec::{
    Code, Compiler, DialectInterpreter, Exec, ExecResult, Flow, Frame, Slot, StateId,
    MAX_LOCAL_CELLS,
};
pub use num::Kind;
