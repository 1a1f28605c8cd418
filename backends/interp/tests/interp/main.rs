//! Integration tests of the reference interpreter (one test binary, one module per concern).

mod adjoint;
mod adstack;
mod common;
mod element;
mod examples;
mod extension;
mod lowered;
mod math_ops;
mod runtime_api;
mod semantics;
mod shuffle;
mod sizing;
mod tape;
