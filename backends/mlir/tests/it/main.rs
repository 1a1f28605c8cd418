//! Integration tests of qd-mlir (one test binary: every binary that links MLIR is large, so each
//! concern is a module here).

mod common;
mod device;
mod export;
mod import;
