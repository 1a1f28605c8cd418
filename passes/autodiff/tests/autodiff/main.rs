//! Integration tests of reverse-mode-ad: the IR it builds, the errors it reports, and gradients
//! checked on the interpreter against central finite differences.

mod common;
mod gradcheck;
mod constructs;
mod examples;
