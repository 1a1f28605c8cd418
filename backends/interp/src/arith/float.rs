//! arith's float ops, each computed in its own precision.

use crate::exec::{Compiler, Exec};
use crate::num::Float;
use crate::{float_bin, float_un};
use qd_arith::names;
use qd_ir::{Diagnostic, OpId};

/// The float op `name`, or None when `name` is not one.
pub(super) fn compile(
    c: &mut Compiler<'_>,
    op: OpId,
    name: &str,
) -> Result<Option<Exec>, Diagnostic> {
    Ok(Some(match name {
        names::ADDF => float_bin!(c, op, |a, b| a + b),
        names::SUBF => float_bin!(c, op, |a, b| a - b),
        names::MULF => float_bin!(c, op, |a, b| a * b),
        names::DIVF => float_bin!(c, op, |a, b| a / b),
        // Rust's `%` on floats is C's fmod (the sign of the dividend), as arith.remf.
        names::REMF => float_bin!(c, op, |a, b| a % b),
        names::NEGF => float_un!(c, op, |a| -a),
        names::MINIMUMF => float_bin!(c, op, |a, b| a.ieee_minimum(b)),
        names::MAXIMUMF => float_bin!(c, op, |a, b| a.ieee_maximum(b)),
        names::MINNUMF => float_bin!(c, op, |a, b| minimum_number(a, b)),
        names::MAXNUMF => float_bin!(c, op, |a, b| maximum_number(a, b)),
        _ => return Ok(None),
    }))
}

/// IEEE 754-2019 minimumNumber (arith.minnumf, as qd-arith's folder): a NaN operand loses to a
/// number, and -0 is below +0.
fn minimum_number<T: Float>(a: T, b: T) -> T {
    if a.is_nan() || (!b.is_nan() && (b < a || (b == a && b.is_sign_negative()))) {
        b
    } else {
        a
    }
}

/// IEEE 754-2019 maximumNumber (arith.maxnumf): a NaN operand loses to a number, and +0 is above
/// -0.
fn maximum_number<T: Float>(a: T, b: T) -> T {
    if a.is_nan() || (!b.is_nan() && (b > a || (b == a && !b.is_sign_negative()))) {
        b
    } else {
        a
    }
}
