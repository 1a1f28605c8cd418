//! Tests of qd-translate (one binary: it links LLVM): the command line and the lit tests of
//! lit-tests/translate (with feature `mlir`, those of lit-tests/mlir-export and mlir-import too).

mod cli;
mod lit;
#[cfg(feature = "mlir")]
mod mlir_lit;
