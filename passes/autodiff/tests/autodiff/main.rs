//! Integration tests of reverse-mode-ad: the IR it builds, the errors it reports, and gradients
//! checked on the interpreter against central finite differences.

mod access_rule;
mod arith_sweep;
mod common;
mod constructs;
mod corpus;
mod corpus_spec;
mod edge_cases;
mod element;
mod examples;
mod gradcheck;
mod math_sweep;
mod ndarray_outputs;
