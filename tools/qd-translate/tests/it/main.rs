//! Tests of qd-translate (one binary: it links LLVM): the command line and the lit tests of
//! lit-tests/translate.

mod cli;
mod lit;
