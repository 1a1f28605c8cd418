//! Integration tests of the reference interpreter (one test binary, one module per concern).

mod common;
mod examples;
mod extension;
mod runtime_api;
mod semantics;
mod shuffle;
