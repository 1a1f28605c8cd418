//! Integration tests of the LLVM backend and the `cpu` device (one test binary: every binary that
//! links LLVM is large, so each concern is a module here).

mod bounds;
mod cache;
mod common;
mod device;
mod emit;
mod guard;
mod math;
mod math_ext;
mod semantics;
mod simd;
mod stream;
mod topcache;
