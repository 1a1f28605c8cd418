//! Unit tests: folders (with their non-folding edge cases), verifiers, patterns, builders.

mod canon;
mod cast_fold;
mod cmp_select;
mod float_fold;
mod int_fold;
mod patterns;
mod reverse_rules;
mod syntax;
mod verify;

use crate::testing::Harness;

fn h() -> Harness {
    Harness::new(|_| {})
}
