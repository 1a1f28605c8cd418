//! Dialect conversion in the manner of MLIR: a [`ConversionTarget`] says which ops are legal, a
//! [`TypeConverter`] how types change, [`ConversionPattern`]s turn illegal ops into legal ones,
//! and the driver ([`apply_partial_conversion`], [`apply_full_conversion`],
//! [`apply_analysis_conversion`]) applies them and reports, located, the ops left illegal.
//!
//! Why a driver of its own and not the greedy one: conversion is goal-directed (legality, not a
//! fixed point), patterns see their operands already converted, and type changes need
//! materializations between the old and the new types while the IR is half converted.
//! Unlike MLIR, there is no rollback: a pattern that fails must not have changed the IR.

mod driver;
mod pattern;
mod rewriter;
mod target;
mod type_converter;

pub use driver::{
    apply_analysis_conversion, apply_full_conversion, apply_partial_conversion, ConversionResult,
};
pub use pattern::ConversionPattern;
pub use rewriter::ConversionRewriter;
pub use target::{ConversionTarget, Legality, LegalityFn};
pub use type_converter::{ConversionFn, MaterializationFn, SignatureConversion, TypeConverter};

#[cfg(test)]
mod tests;
