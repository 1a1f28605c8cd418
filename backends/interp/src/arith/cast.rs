//! arith's casts between integer widths, floats and index.

use crate::exec::{Compiler, Exec};
use crate::helpers::{int_unary, operand_kind, result_kind, unary_slots};
use crate::num::{canon, sext, zext, Kind};
use qd_arith::{elementwise::rounding_mode, names};
use qd_ir::{Diagnostic, OpId};

/// Truncates toward zero and saturates to the signed range of width `w` (NaN gives 0).
fn float_to_signed(v: f64, w: u32) -> u64 {
    let (lo, hi) = (i64::MIN >> (64 - w), i64::MAX >> (64 - w));
    ((v as i64).clamp(lo, hi)) as u64
}

/// Truncates toward zero and saturates to the unsigned range of width `w` (NaN gives 0).
fn float_to_unsigned(v: f64, w: u32) -> u64 {
    canon((v as u64).min(u64::MAX >> (64 - w)), w)
}

fn as_f64(bits: u64, k: Kind) -> f64 {
    match k {
        Kind::F32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

/// An f64 value encoded as a float of kind `k` (rounding to nearest for f32).
fn from_f64(v: f64, k: Kind) -> u64 {
    match k {
        Kind::F32 => (v as f32).to_bits() as u64,
        _ => v.to_bits(),
    }
}

/// The cast `name`, or None when `name` is not one.
pub(super) fn compile(
    c: &mut Compiler<'_>,
    op: OpId,
    name: &str,
) -> Result<Option<Exec>, Diagnostic> {
    let is_cast = matches!(
        name,
        names::SITOFP
            | names::UITOFP
            | names::FPTOSI
            | names::FPTOUI
            | names::EXTF
            | names::TRUNCF
            | names::EXTSI
            | names::EXTUI
            | names::TRUNCI
            | names::INDEX_CAST
            | names::INDEX_CASTUI
            | names::BITCAST
    );
    if !is_cast {
        return Ok(None);
    }
    let (from, to) = (operand_kind(c, op, 0)?, result_kind(c, op, 0)?);
    if name == names::TRUNCF && rounding_mode(c.ctx(), op).is_some_and(|m| m != 0) {
        return Err(c.error(
            op,
            "the interpreter supports only arith.truncf's default rounding (to_nearest_even)",
        ));
    }
    let (x, d) = unary_slots(c, op);
    let (fw, tw) = (width(from), width(to));
    let exec = match name {
        // Rust's int-to-float `as` rounds to nearest even, as IEEE conversion does.
        names::SITOFP => int_unary(x, d, move |a| from_f64_exact_int(sext(a, fw) as i128, to)),
        names::UITOFP => int_unary(x, d, move |a| from_f64_exact_int(zext(a, fw) as i128, to)),
        names::FPTOSI => int_unary(x, d, move |a| float_to_signed(as_f64(a, from), tw)),
        names::FPTOUI => int_unary(x, d, move |a| float_to_unsigned(as_f64(a, from), tw)),
        // Widening is exact; narrowing rounds to nearest even.
        names::EXTF | names::TRUNCF => int_unary(x, d, move |a| from_f64(as_f64(a, from), to)),
        names::EXTSI | names::INDEX_CAST | names::TRUNCI => int_unary(x, d, move |a| canon(a, tw)),
        names::EXTUI | names::INDEX_CASTUI => int_unary(x, d, move |a| canon(zext(a, fw), tw)),
        // The low bits are the value's raw bits in every encoding.
        names::BITCAST => int_unary(x, d, move |a| match to {
            Kind::Int { width, .. } => canon(a, width),
            Kind::F32 => zext(a, 32),
            Kind::F64 => a,
        }),
        _ => return Ok(None),
    };
    Ok(Some(exec))
}

/// The integer `v` converted to float kind `k` with a single rounding.
fn from_f64_exact_int(v: i128, k: Kind) -> u64 {
    match k {
        Kind::F32 => (v as f32).to_bits() as u64,
        _ => (v as f64).to_bits(),
    }
}

fn width(k: Kind) -> u32 {
    match k {
        Kind::Int { width, .. } => width,
        Kind::F32 => 32,
        Kind::F64 => 64,
    }
}
