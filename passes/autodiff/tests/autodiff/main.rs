//! Integration tests of reverse-mode-ad: the IR it builds, the errors it reports, and gradients
//! checked on the interpreter against central finite differences.

mod common;
mod constructs;
mod edge_cases;
mod examples;
mod gradcheck;
