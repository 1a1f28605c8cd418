//! arith's integer ops: wrapping arithmetic at the type's width, checked division and shifts.

use crate::exec::{Compiler, Exec};
use crate::helpers::{binary_slots, int_binary, int_binary_checked, int_width};
use crate::num::{canon, sext, zext};
use qd_arith::names;
use qd_ir::{Diagnostic, OpId};
use qd_runtime::RuntimeErrorKind;

type Failure = (RuntimeErrorKind, String);

fn div_by_zero() -> Failure {
    (
        RuntimeErrorKind::DivisionByZero,
        "integer division by zero".to_string(),
    )
}

/// The shift amount `b` (read unsigned), or an error when it is not below the width.
fn shift_amount(b: u64, w: u32) -> Result<u32, Failure> {
    let amt = zext(b, w);
    if amt >= w as u64 {
        return Err((
            RuntimeErrorKind::InvalidOperation,
            format!("shift amount {amt} is not less than the bit width {w}"),
        ));
    }
    Ok(amt as u32)
}

/// `a / b` rounded toward negative infinity (`b` is not 0).
fn floor_div(a: i128, b: i128) -> i128 {
    let (q, r) = (a / b, a % b);
    // Truncation rounded up exactly when the remainder's sign differs from the divisor's.
    q - i128::from(r != 0 && (r < 0) != (b < 0))
}

/// `a / b` rounded toward positive infinity (`b` is not 0).
fn ceil_div(a: i128, b: i128) -> i128 {
    let (q, r) = (a / b, a % b);
    q + i128::from(r != 0 && (r < 0) == (b < 0))
}

/// The integer op `name`, or None when `name` is not one.
pub(super) fn compile(
    c: &mut Compiler<'_>,
    op: OpId,
    name: &str,
) -> Result<Option<Exec>, Diagnostic> {
    let is_int_op = matches!(
        name,
        names::ADDI
            | names::SUBI
            | names::MULI
            | names::DIVSI
            | names::DIVUI
            | names::REMSI
            | names::REMUI
            | names::MINSI
            | names::MAXSI
            | names::MINUI
            | names::MAXUI
            | names::CEILDIVSI
            | names::FLOORDIVSI
            | names::CEILDIVUI
            | names::ANDI
            | names::ORI
            | names::XORI
            | names::SHLI
            | names::SHRSI
            | names::SHRUI
    );
    if !is_int_op {
        return Ok(None);
    }
    let w = int_width(c, op)?;
    let loc = c.ctx().loc(op);
    let (x, y, d) = binary_slots(c, op);
    let bin = |f: fn(u64, u64, u32) -> u64| int_binary(x, y, d, move |a, b| f(a, b, w));
    let checked = |f: fn(u64, u64, u32) -> Result<u64, Failure>| {
        int_binary_checked(x, y, d, loc, move |a, b| f(a, b, w))
    };
    Ok(Some(match name {
        names::ADDI => bin(|a, b, w| canon(a.wrapping_add(b), w)),
        names::SUBI => bin(|a, b, w| canon(a.wrapping_sub(b), w)),
        names::MULI => bin(|a, b, w| canon(a.wrapping_mul(b), w)),
        names::MINSI => bin(|a, b, w| if sext(b, w) < sext(a, w) { b } else { a }),
        names::MAXSI => bin(|a, b, w| if sext(b, w) > sext(a, w) { b } else { a }),
        names::MINUI => bin(|a, b, w| if zext(b, w) < zext(a, w) { b } else { a }),
        names::MAXUI => bin(|a, b, w| if zext(b, w) > zext(a, w) { b } else { a }),
        // Canonical (sign-extended) inputs give canonical results for bitwise ops.
        names::ANDI => bin(|a, b, _| a & b),
        names::ORI => bin(|a, b, _| a | b),
        names::XORI => bin(|a, b, _| a ^ b),
        names::DIVSI => checked(|a, b, w| match sext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(sext(a, w).wrapping_div(b) as u64, w)),
        }),
        names::REMSI => checked(|a, b, w| match sext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(sext(a, w).wrapping_rem(b) as u64, w)),
        }),
        names::DIVUI => checked(|a, b, w| match zext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(zext(a, w) / b, w)),
        }),
        names::REMUI => checked(|a, b, w| match zext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(zext(a, w) % b, w)),
        }),
        // The exact quotient rounded, then wrapped (INT_MIN / -1 gives INT_MIN, as divsi).
        names::CEILDIVSI => checked(|a, b, w| match sext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(ceil_div(sext(a, w) as i128, b as i128) as u64, w)),
        }),
        names::FLOORDIVSI => checked(|a, b, w| match sext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(floor_div(sext(a, w) as i128, b as i128) as u64, w)),
        }),
        names::CEILDIVUI => checked(|a, b, w| match zext(b, w) {
            0 => Err(div_by_zero()),
            b => Ok(canon(ceil_div(zext(a, w) as i128, b as i128) as u64, w)),
        }),
        names::SHLI => checked(|a, b, w| Ok(canon(a << shift_amount(b, w)?, w))),
        names::SHRSI => checked(|a, b, w| Ok(canon((sext(a, w) >> shift_amount(b, w)?) as u64, w))),
        names::SHRUI => checked(|a, b, w| Ok(canon(zext(a, w) >> shift_amount(b, w)?, w))),
        _ => return Ok(None),
    }))
}
