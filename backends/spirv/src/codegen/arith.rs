//! arith to SPIR-V, with the interpreter's semantics: integers wrap at their width; a division
//! or remainder by zero and a shift by the width or more stop the thread with the interpreter's
//! error (`INT_MIN / -1` wraps, its remainder is 0); float ops are IEEE in their own precision
//! (each float op is `NoContraction`: drivers neither fuse nor reassociate it, Mesa included); `minimumf`/`maximumf` propagate NaN and
//! order -0 below +0; `minnumf`/`maxnumf` return the number when one operand is NaN and order -0
//! below +0 (built from compares and selects: GLSL's NMin/NMax leave zeros' order open);
//! `ceildivsi`/`floordivsi`/`ceildivui` adjust the truncated quotient by one; `fptosi`/`fptoui`
//! saturate (NaN gives 0). `i1` is `OpTypeBool`: its
//! bitwise ops are logical ops and its extensions selects. Without `Int64`, i64 is the 32-bit
//! index type and conversions between i64 and i32 are no-ops.

use super::checks::ErrValue;
use super::{Gen, Scalar, R};
use qd_arith::predicates::{CmpFPredicate as F, CmpIPredicate as I};
use qd_arith::{names, CmpFOp, CmpIOp, ConstantOp};
use qd_ir::{AttrData, OpId};
use rspirv::spirv::Word;

fn operand_scalar(g: &Gen<'_>, op: OpId, i: usize) -> R<Scalar> {
    g.scalar(g.ir.value_type(g.ir.operand(op, i)))
}

fn result_scalar(g: &Gen<'_>, op: OpId) -> R<Scalar> {
    g.scalar(g.ir.value_type(g.ir.result(op, 0)))
}

pub(super) fn emit(g: &mut Gen<'_>, op: OpId, name: &str) -> R<()> {
    let v = match name {
        names::CONSTANT => constant(g, op)?,
        names::CMPI => cmpi(g, op)?,
        names::CMPF => cmpf(g, op)?,
        names::SELECT => {
            let s = result_scalar(g, op)?;
            let ty = g.scalar_ty(s);
            let (c, t, e) = (g.operand(op, 0)?, g.operand(op, 1)?, g.operand(op, 2)?);
            ck!(g, g.b.select(ty, None, c, t, e))?
        }
        names::ADDI | names::SUBI | names::MULI | names::ANDI | names::ORI | names::XORI => {
            int_bin(g, op, name)?
        }
        names::MINUI | names::MAXUI if result_scalar(g, op)? == Scalar::Bool => {
            // Unsigned i1 order is 0 < 1: min is and, max is or.
            let ty = g.scalar_ty(Scalar::Bool);
            let (a, b) = (g.operand(op, 0)?, g.operand(op, 1)?);
            if name == names::MINUI {
                ck!(g, g.b.logical_and(ty, None, a, b))?
            } else {
                ck!(g, g.b.logical_or(ty, None, a, b))?
            }
        }
        names::MINSI | names::MAXSI | names::MINUI | names::MAXUI => {
            let s = result_scalar(g, op)?;
            let ty = g.scalar_ty(s);
            let bool_t = g.scalar_ty(Scalar::Bool);
            let (a, b) = (g.operand(op, 0)?, g.operand(op, 1)?);
            let c = match name {
                names::MINSI => ck!(g, g.b.s_less_than(bool_t, None, b, a))?,
                names::MAXSI => ck!(g, g.b.s_greater_than(bool_t, None, b, a))?,
                names::MINUI => ck!(g, g.b.u_less_than(bool_t, None, b, a))?,
                _ => ck!(g, g.b.u_greater_than(bool_t, None, b, a))?,
            };
            ck!(g, g.b.select(ty, None, c, b, a))?
        }
        names::DIVSI
        | names::REMSI
        | names::DIVUI
        | names::REMUI
        | names::CEILDIVSI
        | names::FLOORDIVSI
        | names::CEILDIVUI => division(g, op, name)?,
        names::SHLI | names::SHRSI | names::SHRUI => shift(g, op, name)?,
        names::ADDF | names::SUBF | names::MULF | names::DIVF | names::REMF => {
            let s = result_scalar(g, op)?;
            let ty = g.scalar_ty(s);
            let (a, b) = (g.operand(op, 0)?, g.operand(op, 1)?);
            let r = match name {
                names::ADDF => g.b.f_add(ty, None, a, b),
                names::SUBF => g.b.f_sub(ty, None, a, b),
                names::MULF => g.b.f_mul(ty, None, a, b),
                names::DIVF => g.b.f_div(ty, None, a, b),
                // OpFRem takes the dividend's sign: C's fmod, as arith.remf.
                _ => g.b.f_rem(ty, None, a, b),
            };
            let r = g.ck(r)?;
            g.exact(r)
        }
        names::NEGF => {
            let s = result_scalar(g, op)?;
            let ty = g.scalar_ty(s);
            let a = g.operand(op, 0)?;
            ck!(g, g.b.f_negate(ty, None, a))?
        }
        names::MINIMUMF | names::MAXIMUMF => min_max_f(g, op, name == names::MINIMUMF, false)?,
        names::MINNUMF | names::MAXNUMF => min_max_f(g, op, name == names::MINNUMF, true)?,
        _ => cast(g, op, name)?,
    };
    g.set_id(op, v);
    Ok(())
}

fn constant(g: &mut Gen<'_>, op: OpId) -> R<Word> {
    let s = result_scalar(g, op)?;
    let value = ConstantOp(op)
        .value(g.ir)
        .map(|a| g.ir.attr_data(a))
        .cloned();
    let bits = match (value, s) {
        (Some(AttrData::Integer { value, .. }), Scalar::I(_) | Scalar::Bool) => value as u64,
        (Some(AttrData::Bool(b)), Scalar::Bool | Scalar::I(_)) => u64::from(b),
        (Some(AttrData::Float { bits, .. }), Scalar::F(32)) => {
            // The f32 nearest the attribute's value, as the interpreter reads it.
            u64::from((f64::from_bits(bits) as f32).to_bits())
        }
        (Some(AttrData::Float { bits, .. }), Scalar::F(64)) => bits,
        _ => {
            return Err(g.err("the SPIR-V backend supports only scalar integer and float constants"))
        }
    };
    Ok(g.constant(s, bits))
}

fn cmpi(g: &mut Gen<'_>, op: OpId) -> R<Word> {
    let p = CmpIOp(op)
        .predicate(g.ir)
        .ok_or_else(|| g.err("arith.cmpi without a valid predicate"))?;
    let s = operand_scalar(g, op, 0)?;
    let bt = g.scalar_ty(Scalar::Bool);
    let (a, c) = (g.operand(op, 0)?, g.operand(op, 1)?);
    let b = &mut g.b;
    let r = if s == Scalar::Bool {
        match p {
            I::Eq => b.logical_equal(bt, None, a, c),
            I::Ne => b.logical_not_equal(bt, None, a, c),
            _ => return Err(g.err("the SPIR-V backend orders no i1 values")),
        }
    } else {
        match p {
            I::Eq => b.i_equal(bt, None, a, c),
            I::Ne => b.i_not_equal(bt, None, a, c),
            I::Slt => b.s_less_than(bt, None, a, c),
            I::Sle => b.s_less_than_equal(bt, None, a, c),
            I::Sgt => b.s_greater_than(bt, None, a, c),
            I::Sge => b.s_greater_than_equal(bt, None, a, c),
            I::Ult => b.u_less_than(bt, None, a, c),
            I::Ule => b.u_less_than_equal(bt, None, a, c),
            I::Ugt => b.u_greater_than(bt, None, a, c),
            I::Uge => b.u_greater_than_equal(bt, None, a, c),
        }
    };
    g.ck(r)
}

fn cmpf(g: &mut Gen<'_>, op: OpId) -> R<Word> {
    let p = CmpFOp(op)
        .predicate(g.ir)
        .ok_or_else(|| g.err("arith.cmpf without a valid predicate"))?;
    let bt = g.scalar_ty(Scalar::Bool);
    let (a, c) = (g.operand(op, 0)?, g.operand(op, 1)?);
    let r = match p {
        F::AlwaysFalse => return Ok(g.constant(Scalar::Bool, 0)),
        F::AlwaysTrue => return Ok(g.constant(Scalar::Bool, 1)),
        F::Ord | F::Uno => {
            let na = ck!(g, g.b.is_nan(bt, None, a))?;
            let nc = ck!(g, g.b.is_nan(bt, None, c))?;
            let any = ck!(g, g.b.logical_or(bt, None, na, nc))?;
            if p == F::Uno {
                return Ok(any);
            }
            g.b.logical_not(bt, None, any)
        }
        F::Oeq => g.b.f_ord_equal(bt, None, a, c),
        F::Ogt => g.b.f_ord_greater_than(bt, None, a, c),
        F::Oge => g.b.f_ord_greater_than_equal(bt, None, a, c),
        F::Olt => g.b.f_ord_less_than(bt, None, a, c),
        F::Ole => g.b.f_ord_less_than_equal(bt, None, a, c),
        F::One => g.b.f_ord_not_equal(bt, None, a, c),
        F::Ueq => g.b.f_unord_equal(bt, None, a, c),
        F::Ugt => g.b.f_unord_greater_than(bt, None, a, c),
        F::Uge => g.b.f_unord_greater_than_equal(bt, None, a, c),
        F::Ult => g.b.f_unord_less_than(bt, None, a, c),
        F::Ule => g.b.f_unord_less_than_equal(bt, None, a, c),
        F::Une => g.b.f_unord_not_equal(bt, None, a, c),
    };
    g.ck(r)
}

fn int_bin(g: &mut Gen<'_>, op: OpId, name: &str) -> R<Word> {
    let s = result_scalar(g, op)?;
    let ty = g.scalar_ty(s);
    let (a, c) = (g.operand(op, 0)?, g.operand(op, 1)?);
    let b = &mut g.b;
    let r = if s == Scalar::Bool {
        // i1 arithmetic wraps modulo 2: add and sub are xor, mul is and.
        match name {
            names::ANDI | names::MULI => b.logical_and(ty, None, a, c),
            names::ORI => b.logical_or(ty, None, a, c),
            _ => b.logical_not_equal(ty, None, a, c),
        }
    } else {
        match name {
            names::ADDI => b.i_add(ty, None, a, c),
            names::SUBI => b.i_sub(ty, None, a, c),
            names::MULI => b.i_mul(ty, None, a, c),
            names::ANDI => b.bitwise_and(ty, None, a, c),
            names::ORI => b.bitwise_or(ty, None, a, c),
            _ => b.bitwise_xor(ty, None, a, c),
        }
    };
    g.ck(r)
}

fn division(g: &mut Gen<'_>, op: OpId, name: &str) -> R<Word> {
    let s = result_scalar(g, op)?;
    if s == Scalar::Bool {
        return Err(g.err(format!("the SPIR-V backend does not divide i1 ('{name}')")));
    }
    let ty = g.scalar_ty(s);
    let bt = g.scalar_ty(Scalar::Bool);
    let (a, b) = (g.operand(op, 0)?, g.operand(op, 1)?);
    let zero = g.constant(s, 0);
    let is_zero = ck!(g, g.b.i_equal(bt, None, b, zero))?;
    g.fail_if(op, is_zero, &[])?;
    Ok(match name {
        names::DIVUI => ck!(g, g.b.u_div(ty, None, a, b))?,
        names::REMUI => ck!(g, g.b.u_mod(ty, None, a, b))?,
        names::CEILDIVSI | names::FLOORDIVSI | names::CEILDIVUI => {
            rounding_division(g, name, s, a, b)?
        }
        _ => {
            // b = -1 is done apart: a / -1 = -a (wrapping), a % -1 = 0.
            let m1 = g.constant(s, u64::MAX);
            let is_m1 = ck!(g, g.b.i_equal(bt, None, b, m1))?;
            let one = g.constant(s, 1);
            let safe = ck!(g, g.b.select(ty, None, is_m1, one, b))?;
            if name == names::DIVSI {
                let q = ck!(g, g.b.s_div(ty, None, a, safe))?;
                let neg = ck!(g, g.b.i_sub(ty, None, zero, a))?;
                ck!(g, g.b.select(ty, None, is_m1, neg, q))?
            } else {
                // OpSRem takes the dividend's sign, as arith.remsi.
                let r = ck!(g, g.b.s_rem(ty, None, a, safe))?;
                ck!(g, g.b.select(ty, None, is_m1, zero, r))?
            }
        }
    })
}

/// `ceildivsi`, `floordivsi` or `ceildivui` of `a` by `b` (not 0) of scalar type `s`: the
/// truncated quotient moves by one toward the rounding direction when the remainder is not 0
/// (up for ceil when remainder and divisor have one sign, down for floor when they differ);
/// `b = -1` is done apart (`-a`, wrapping) as in divsi.
fn rounding_division(g: &mut Gen<'_>, name: &str, s: Scalar, a: Word, b: Word) -> R<Word> {
    let ty = g.scalar_ty(s);
    let bt = g.scalar_ty(Scalar::Bool);
    let (zero, one) = (g.constant(s, 0), g.constant(s, 1));
    if name == names::CEILDIVUI {
        let q = ck!(g, g.b.u_div(ty, None, a, b))?;
        let r = ck!(g, g.b.u_mod(ty, None, a, b))?;
        let inexact = ck!(g, g.b.i_not_equal(bt, None, r, zero))?;
        let up = ck!(g, g.b.i_add(ty, None, q, one))?;
        return ck!(g, g.b.select(ty, None, inexact, up, q));
    }
    let m1 = g.constant(s, u64::MAX);
    let is_m1 = ck!(g, g.b.i_equal(bt, None, b, m1))?;
    let safe = ck!(g, g.b.select(ty, None, is_m1, one, b))?;
    let q = ck!(g, g.b.s_div(ty, None, a, safe))?;
    // OpSRem takes the dividend's sign, so r ^ b is negative when the exact quotient is.
    let r = ck!(g, g.b.s_rem(ty, None, a, safe))?;
    let inexact = ck!(g, g.b.i_not_equal(bt, None, r, zero))?;
    let signs = ck!(g, g.b.bitwise_xor(ty, None, r, safe))?;
    let (toward, moved) = if name == names::CEILDIVSI {
        (
            ck!(g, g.b.s_greater_than_equal(bt, None, signs, zero))?,
            ck!(g, g.b.i_add(ty, None, q, one))?,
        )
    } else {
        (
            ck!(g, g.b.s_less_than(bt, None, signs, zero))?,
            ck!(g, g.b.i_sub(ty, None, q, one))?,
        )
    };
    let c = ck!(g, g.b.logical_and(bt, None, inexact, toward))?;
    let rounded = ck!(g, g.b.select(ty, None, c, moved, q))?;
    let neg = ck!(g, g.b.i_sub(ty, None, zero, a))?;
    ck!(g, g.b.select(ty, None, is_m1, neg, rounded))
}

fn shift(g: &mut Gen<'_>, op: OpId, name: &str) -> R<Word> {
    let s = result_scalar(g, op)?;
    if s == Scalar::Bool {
        return Err(g.err(format!("the SPIR-V backend does not shift i1 ('{name}')")));
    }
    let ty = g.scalar_ty(s);
    let bt = g.scalar_ty(Scalar::Bool);
    let (a, b) = (g.operand(op, 0)?, g.operand(op, 1)?);
    // The width of the SPIR-V type (a narrowed i64 shifts as 32 bits: beyond is undefined).
    let width = g.constant(s, u64::from(s.width()));
    let too_far = ck!(g, g.b.u_greater_than_equal(bt, None, b, width))?;
    g.fail_if(
        op,
        too_far,
        &[ErrValue {
            id: b,
            scalar: s,
            signed: false,
        }],
    )?;
    let r = match name {
        names::SHLI => g.b.shift_left_logical(ty, None, a, b),
        names::SHRSI => g.b.shift_right_arithmetic(ty, None, a, b),
        _ => g.b.shift_right_logical(ty, None, a, b),
    };
    g.ck(r)
}

/// `minimumf`/`maximumf` (NaN if either is NaN) or, with `num`, `minnumf`/`maxnumf` (a NaN
/// operand gives the other one); -0 below +0 in both.
fn min_max_f(g: &mut Gen<'_>, op: OpId, min: bool, num: bool) -> R<Word> {
    let s = result_scalar(g, op)?;
    let ty = g.scalar_ty(s);
    let bits = Scalar::I(s.width());
    let ity = g.scalar_ty(bits);
    let bt = g.scalar_ty(Scalar::Bool);
    let (a, b) = (g.operand(op, 0)?, g.operand(op, 1)?);
    let lt = if min {
        ck!(g, g.b.f_ord_less_than(bt, None, a, b))?
    } else {
        ck!(g, g.b.f_ord_greater_than(bt, None, a, b))?
    };
    let m = ck!(g, g.b.select(ty, None, lt, a, b))?;
    // Equal values differ only as zeros: min takes the sign (or of the bits), max drops it.
    let ab = ck!(g, g.b.bitcast(ity, None, a))?;
    let bb = ck!(g, g.b.bitcast(ity, None, b))?;
    let zb = if min {
        ck!(g, g.b.bitwise_or(ity, None, ab, bb))?
    } else {
        ck!(g, g.b.bitwise_and(ity, None, ab, bb))?
    };
    let z = ck!(g, g.b.bitcast(ty, None, zb))?;
    let eq = ck!(g, g.b.f_ord_equal(bt, None, a, b))?;
    let m = ck!(g, g.b.select(ty, None, eq, z, m))?;
    let na = ck!(g, g.b.is_nan(bt, None, a))?;
    let nb = ck!(g, g.b.is_nan(bt, None, b))?;
    if num {
        let m = ck!(g, g.b.select(ty, None, nb, a, m))?;
        return ck!(g, g.b.select(ty, None, na, b, m));
    }
    let nan = ck!(g, g.b.logical_or(bt, None, na, nb))?;
    let sum = ck!(g, g.b.f_add(ty, None, a, b))?;
    ck!(g, g.b.select(ty, None, nan, sum, m))
}

/// A float to integer conversion that saturates (NaN gives 0).
fn fp_to_int(g: &mut Gen<'_>, x: Word, from: Scalar, to: Scalar, signed: bool) -> R<Word> {
    let fty = g.scalar_ty(from);
    let ity = g.scalar_ty(to);
    let bt = g.scalar_ty(Scalar::Bool);
    let w = to.width();
    let f = |v: f64| -> u64 {
        if from.width() == 32 {
            u64::from((v as f32).to_bits())
        } else {
            v.to_bits()
        }
    };
    let (hi_f, lo_f, max, min) = if signed {
        let p = 2f64.powi(w as i32 - 1);
        (p, -p, (1u64 << (w - 1)) - 1, 1u64 << (w - 1))
    } else {
        let max = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        (2f64.powi(w as i32), 0.0, max, 0)
    };
    let hi_c = g.constant(from, f(hi_f));
    let lo_c = g.constant(from, f(lo_f));
    let too_big = ck!(g, g.b.f_ord_greater_than_equal(bt, None, x, hi_c))?;
    let too_small = ck!(g, g.b.f_ord_less_than(bt, None, x, lo_c))?;
    let nan = ck!(g, g.b.is_nan(bt, None, x))?;
    let out = ck!(g, g.b.logical_or(bt, None, too_big, too_small))?;
    let out = ck!(g, g.b.logical_or(bt, None, out, nan))?;
    let fzero = g.constant(from, 0);
    let safe = ck!(g, g.b.select(fty, None, out, fzero, x))?;
    let conv = if signed {
        ck!(g, g.b.convert_f_to_s(ity, None, safe))?
    } else {
        ck!(g, g.b.convert_f_to_u(ity, None, safe))?
    };
    let maxc = g.constant(to, max);
    let minc = g.constant(to, min);
    let zero = g.constant(to, 0);
    let r = ck!(g, g.b.select(ity, None, too_small, minc, conv))?;
    let r = ck!(g, g.b.select(ity, None, too_big, maxc, r))?;
    ck!(g, g.b.select(ity, None, nan, zero, r))
}

/// An integer conversion between SPIR-V scalars (signed: sign-extending).
fn int_convert(g: &mut Gen<'_>, x: Word, from: Scalar, to: Scalar, signed: bool) -> R<Word> {
    let ty = g.scalar_ty(to);
    if from == to {
        return Ok(x);
    }
    if from == Scalar::Bool {
        let one = g.constant(to, if signed { u64::MAX } else { 1 });
        let zero = g.constant(to, 0);
        return ck!(g, g.b.select(ty, None, x, one, zero));
    }
    if to == Scalar::Bool {
        let fty = g.scalar_ty(from);
        let one = g.constant(from, 1);
        let zero = g.constant(from, 0);
        let low = ck!(g, g.b.bitwise_and(fty, None, x, one))?;
        return ck!(g, g.b.i_not_equal(ty, None, low, zero));
    }
    if signed && from.width() < to.width() {
        ck!(g, g.b.s_convert(ty, None, x))
    } else {
        ck!(g, g.b.u_convert(ty, None, x))
    }
}

fn cast(g: &mut Gen<'_>, op: OpId, name: &str) -> R<Word> {
    let x = g.operand(op, 0)?;
    let from = operand_scalar(g, op, 0)?;
    let to = result_scalar(g, op)?;
    let ty = g.scalar_ty(to);
    let unsupported = || g.err(format!("the SPIR-V backend does not support '{name}'"));
    Ok(match (name, from, to) {
        (names::SITOFP | names::UITOFP, Scalar::Bool, Scalar::F(_)) => {
            let signed = name == names::SITOFP;
            let i = int_convert(g, x, from, Scalar::I(32), signed)?;
            ck!(g, g.b.convert_s_to_f(ty, None, i))?
        }
        (names::SITOFP, Scalar::I(_), Scalar::F(_)) => ck!(g, g.b.convert_s_to_f(ty, None, x))?,
        (names::UITOFP, Scalar::I(_), Scalar::F(_)) => ck!(g, g.b.convert_u_to_f(ty, None, x))?,
        (names::FPTOSI | names::FPTOUI, Scalar::F(_), Scalar::I(_)) => {
            fp_to_int(g, x, from, to, name == names::FPTOSI)?
        }
        (names::FPTOSI | names::FPTOUI, Scalar::F(_), Scalar::Bool) => {
            let i = fp_to_int(g, x, from, Scalar::I(32), name == names::FPTOSI)?;
            int_convert(g, i, Scalar::I(32), Scalar::Bool, false)?
        }
        (names::EXTF, Scalar::F(_), Scalar::F(_)) => ck!(g, g.b.f_convert(ty, None, x))?,
        (names::TRUNCF, Scalar::F(_), Scalar::F(_)) => {
            if qd_arith::elementwise::rounding_mode(g.ir, op).is_some_and(|m| m != 0) {
                return Err(g.err(
                    "the SPIR-V backend supports only arith.truncf's default rounding (to_nearest_even)",
                ));
            }
            ck!(g, g.b.f_convert(ty, None, x))?
        }
        (names::EXTSI | names::INDEX_CAST, _, _) if !from.is_float() && !to.is_float() => {
            int_convert(g, x, from, to, true)?
        }
        (names::EXTUI | names::TRUNCI | names::INDEX_CASTUI, _, _)
            if !from.is_float() && !to.is_float() =>
        {
            int_convert(g, x, from, to, false)?
        }
        (names::BITCAST, a, b) if a.width() == b.width() && a != Scalar::Bool => {
            if a == b {
                x
            } else {
                ck!(g, g.b.bitcast(ty, None, x))?
            }
        }
        _ => return Err(unsupported()),
    })
}
