//! Integration tests of the runtime API over a mock device (the interpreter's tests cover the
//! same API on a real one).

mod adstack;
mod cancel;
mod grad;
mod memory;
mod mock;
mod pipeline;
mod program;
mod registry;
mod sizing;
mod tape;
