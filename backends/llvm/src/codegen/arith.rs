//! arith to LLVM, with the interpreter's semantics: integers wrap at their width; a division or
//! remainder by zero and a shift by the width or more stop the thread with the interpreter's
//! error (`INT_MIN / -1` wraps to `INT_MIN`, its remainder is 0, never LLVM's undefined
//! behaviour); float ops are IEEE in their own precision, without fast-math flags (so no
//! contraction into FMA); `minimumf`/`maximumf` are `llvm.minimum`/`llvm.maximum`;
//! `minnumf`/`maxnumf` are `llvm.minimumnum`/`llvm.maximumnum` (IEEE 754-2019 minimumNumber and
//! maximumNumber: the interpreter's NaN and signed-zero rules, where `llvm.minnum` leaves the
//! sign of a zero result open); `ceildivsi`/`floordivsi`/`ceildivui` adjust the truncated
//! quotient by one (see `rounding_division`); `fptosi`/`fptoui` saturate (`llvm.fpto*i.sat`: NaN
//! gives 0).

use super::{Gen, R};
use inkwell::types::{BasicTypeEnum, IntMathType};
use inkwell::values::{
    BasicValue, BasicValueEnum, FloatMathValue, FloatValue, IntMathValue, IntValue,
};
use inkwell::{FloatPredicate, IntPredicate};
use qd_arith::predicates::{CmpFPredicate as F, CmpIPredicate as I};
use qd_arith::{names, CmpFOp, CmpIOp, ConstantOp};
use qd_ir::{AttrData, OpId};

fn float_bin<'ctx>(g: &Gen<'_, 'ctx>, op: OpId) -> R<(FloatValue<'ctx>, FloatValue<'ctx>)> {
    match (g.operand(op, 0)?, g.operand(op, 1)?) {
        (BasicValueEnum::FloatValue(a), BasicValueEnum::FloatValue(b)) => Ok((a, b)),
        _ => Err(g.err("expected float operands")),
    }
}

fn int_bin<'ctx>(g: &Gen<'_, 'ctx>, op: OpId) -> R<(IntValue<'ctx>, IntValue<'ctx>)> {
    Ok((g.int(g.ir.operand(op, 0))?, g.int(g.ir.operand(op, 1))?))
}

/// Calls intrinsic `name` overloaded on `tys` with `args`.
pub(crate) fn intrinsic<'ctx>(
    g: &Gen<'_, 'ctx>,
    name: &str,
    tys: &[BasicTypeEnum<'ctx>],
    args: &[BasicValueEnum<'ctx>],
) -> R<BasicValueEnum<'ctx>> {
    let f = inkwell::intrinsics::Intrinsic::find(name)
        .and_then(|i| i.get_declaration(g.module, tys))
        .ok_or_else(|| g.err(format!("LLVM has no intrinsic {name}")))?;
    let args: Vec<_> = args.iter().map(|&a| a.into()).collect();
    let call = g.ck(g.b.build_call(f, &args, "r"))?;
    call.try_as_basic_value()
        .basic()
        .ok_or_else(|| g.err(format!("{name} returns nothing")))
}

pub(super) fn emit(g: &mut Gen<'_, '_>, op: OpId, name: &str) -> R<()> {
    let v: BasicValueEnum = match name {
        names::CONSTANT => constant(g, op)?,
        names::SELECT => {
            let c = g.int(g.ir.operand(op, 0))?;
            let (t, e) = (g.operand(op, 1)?, g.operand(op, 2)?);
            g.ck(g.b.build_select(c, t, e, "sel"))?
        }
        names::DIVSI
        | names::REMSI
        | names::DIVUI
        | names::REMUI
        | names::CEILDIVSI
        | names::FLOORDIVSI
        | names::CEILDIVUI => division(g, op, name)?,
        names::SHLI | names::SHRSI | names::SHRUI => shift(g, op, name)?,
        names::NEGF => {
            let BasicValueEnum::FloatValue(a) = g.operand(op, 0)? else {
                return Err(g.err("expected a float operand"));
            };
            g.ck(g.b.build_float_neg(a, "fneg"))?.into()
        }
        _ if INT_BINARY.contains(&name) => {
            let (a, b) = int_bin(g, op)?;
            int_binary(g, op, name, a, b)?
        }
        _ if FLOAT_BINARY.contains(&name) => {
            let (a, b) = float_bin(g, op)?;
            float_binary(g, op, name, a, b)?
        }
        _ => cast(g, op, name)?,
    };
    g.set(op, 0, v);
    Ok(())
}

/// The integer ops that are one LLVM operation (or a compare and a select) on scalars and,
/// lane by lane, on vectors: `int_binary` emits them for both codegens.
pub(crate) const INT_BINARY: &[&str] = &[
    names::CMPI,
    names::ADDI,
    names::SUBI,
    names::MULI,
    names::MINSI,
    names::MAXSI,
    names::MINUI,
    names::MAXUI,
    names::ANDI,
    names::ORI,
    names::XORI,
];

/// The float ops that `float_binary` emits, as `INT_BINARY`.
pub(crate) const FLOAT_BINARY: &[&str] = &[
    names::CMPF,
    names::ADDF,
    names::SUBF,
    names::MULF,
    names::DIVF,
    names::REMF,
    names::MINIMUMF,
    names::MAXIMUMF,
    names::MINNUMF,
    names::MAXNUMF,
];

/// Integer op `name` (one of `INT_BINARY`) of `op` on `a` and `b`, scalars or vectors.
pub(crate) fn int_binary<'ctx, T: IntMathValue<'ctx> + Copy>(
    g: &Gen<'_, 'ctx>,
    op: OpId,
    name: &str,
    a: T,
    b: T,
) -> R<BasicValueEnum<'ctx>> {
    let v = match name {
        names::CMPI => {
            let p = CmpIOp(op)
                .predicate(g.ir)
                .ok_or_else(|| g.err("arith.cmpi without a valid predicate"))?;
            let pred = match p {
                I::Eq => IntPredicate::EQ,
                I::Ne => IntPredicate::NE,
                I::Slt => IntPredicate::SLT,
                I::Sle => IntPredicate::SLE,
                I::Sgt => IntPredicate::SGT,
                I::Sge => IntPredicate::SGE,
                I::Ult => IntPredicate::ULT,
                I::Ule => IntPredicate::ULE,
                I::Ugt => IntPredicate::UGT,
                I::Uge => IntPredicate::UGE,
            };
            let c = g.ck(g.b.build_int_compare(pred, a, b, "cmp"))?;
            return Ok(c.as_basic_value_enum());
        }
        names::MINSI | names::MAXSI | names::MINUI | names::MAXUI => {
            let pred = match name {
                names::MINSI => IntPredicate::SLT,
                names::MAXSI => IntPredicate::SGT,
                names::MINUI => IntPredicate::ULT,
                _ => IntPredicate::UGT,
            };
            let c = g.ck(g.b.build_int_compare(pred, b, a, "c"))?;
            return g.ck(g.b.build_select(c, b, a, "m"));
        }
        names::ADDI => g.b.build_int_add(a, b, "add"),
        names::SUBI => g.b.build_int_sub(a, b, "sub"),
        names::MULI => g.b.build_int_mul(a, b, "mul"),
        names::ANDI => g.b.build_and(a, b, "and"),
        names::ORI => g.b.build_or(a, b, "or"),
        names::XORI => g.b.build_xor(a, b, "xor"),
        _ => return Err(g.err(format!("'{name}' is not an integer binary op"))),
    };
    Ok(g.ck(v)?.as_basic_value_enum())
}

/// Float op `name` (one of `FLOAT_BINARY`) of `op` on `a` and `b`, scalars or vectors.
pub(crate) fn float_binary<'ctx, T: FloatMathValue<'ctx>>(
    g: &Gen<'_, 'ctx>,
    op: OpId,
    name: &str,
    a: T,
    b: T,
) -> R<BasicValueEnum<'ctx>> {
    let v = match name {
        names::CMPF => {
            let p = CmpFOp(op)
                .predicate(g.ir)
                .ok_or_else(|| g.err("arith.cmpf without a valid predicate"))?;
            let pred = match p {
                F::AlwaysFalse => FloatPredicate::PredicateFalse,
                F::Oeq => FloatPredicate::OEQ,
                F::Ogt => FloatPredicate::OGT,
                F::Oge => FloatPredicate::OGE,
                F::Olt => FloatPredicate::OLT,
                F::Ole => FloatPredicate::OLE,
                F::One => FloatPredicate::ONE,
                F::Ord => FloatPredicate::ORD,
                F::Ueq => FloatPredicate::UEQ,
                F::Ugt => FloatPredicate::UGT,
                F::Uge => FloatPredicate::UGE,
                F::Ult => FloatPredicate::ULT,
                F::Ule => FloatPredicate::ULE,
                F::Une => FloatPredicate::UNE,
                F::Uno => FloatPredicate::UNO,
                F::AlwaysTrue => FloatPredicate::PredicateTrue,
            };
            let c = g.ck(g.b.build_float_compare(pred, a, b, "cmp"))?;
            return Ok(c.as_basic_value_enum());
        }
        names::MINIMUMF | names::MAXIMUMF | names::MINNUMF | names::MAXNUMF => {
            let f = match name {
                names::MINIMUMF => "llvm.minimum",
                names::MAXIMUMF => "llvm.maximum",
                names::MINNUMF => "llvm.minimumnum",
                _ => "llvm.maximumnum",
            };
            let (a, b) = (a.as_basic_value_enum(), b.as_basic_value_enum());
            return intrinsic(g, f, &[a.get_type()], &[a, b]);
        }
        names::ADDF => g.b.build_float_add(a, b, "fadd"),
        names::SUBF => g.b.build_float_sub(a, b, "fsub"),
        names::MULF => g.b.build_float_mul(a, b, "fmul"),
        names::DIVF => g.b.build_float_div(a, b, "fdiv"),
        // LLVM's frem is C's fmod, as arith.remf.
        names::REMF => g.b.build_float_rem(a, b, "frem"),
        _ => return Err(g.err(format!("'{name}' is not a float binary op"))),
    };
    Ok(g.ck(v)?.as_basic_value_enum())
}

fn constant<'ctx>(g: &Gen<'_, 'ctx>, op: OpId) -> R<BasicValueEnum<'ctx>> {
    let ty = g.ty(g.ir.value_type(g.ir.result(op, 0)))?;
    let value = ConstantOp(op).value(g.ir).map(|a| g.ir.attr_data(a));
    Ok(match (value, ty) {
        (Some(AttrData::Integer { value, .. }), BasicTypeEnum::IntType(t)) => {
            t.const_int(*value as u64, true).into()
        }
        (Some(AttrData::Bool(b)), BasicTypeEnum::IntType(t)) => {
            t.const_int(u64::from(*b), false).into()
        }
        (Some(AttrData::Float { bits, .. }), BasicTypeEnum::FloatType(t)) => {
            let v = f64::from_bits(*bits);
            if t == g.llcx.f32_type() {
                // The f32 nearest the attribute's value, as the interpreter reads it.
                t.const_float(f64::from(v as f32)).into()
            } else {
                t.const_float(v).into()
            }
        }
        _ => return Err(g.err("the LLVM backend supports only scalar integer and float constants")),
    })
}

fn division<'ctx>(g: &mut Gen<'_, 'ctx>, op: OpId, name: &str) -> R<BasicValueEnum<'ctx>> {
    let (a, b) = int_bin(g, op)?;
    let t = a.get_type();
    let zero = t.const_zero();
    let is_zero = g.ck(g.b.build_int_compare(IntPredicate::EQ, b, zero, "bz"))?;
    g.fail_if(op, is_zero, &[])?;
    Ok(match name {
        names::DIVUI => g.ck(g.b.build_int_unsigned_div(a, b, "udiv"))?.into(),
        names::REMUI => g.ck(g.b.build_int_unsigned_rem(a, b, "urem"))?.into(),
        names::CEILDIVSI | names::FLOORDIVSI | names::CEILDIVUI => {
            let consts = (zero, t.const_int(1, false), t.const_all_ones());
            rounding_division(g, name, a, b, consts)?.into()
        }
        _ => {
            // b = -1 is done apart: a / -1 = -a (wrapping), a % -1 = 0.
            let m1 = t.const_all_ones();
            let is_m1 = g.ck(g.b.build_int_compare(IntPredicate::EQ, b, m1, "bm1"))?;
            let one = t.const_int(1, false);
            let safe = g
                .ck(g.b.build_select(is_m1, one, b, "bs"))?
                .into_int_value();
            if name == names::DIVSI {
                let q = g.ck(g.b.build_int_signed_div(a, safe, "sdiv"))?;
                let neg = g.ck(g.b.build_int_sub(zero, a, "neg"))?;
                g.ck(g.b.build_select(is_m1, neg, q, "q"))?
            } else {
                let r = g.ck(g.b.build_int_signed_rem(a, safe, "srem"))?;
                g.ck(g.b.build_select(is_m1, zero, r, "r"))?
            }
        }
    })
}

/// `ceildivsi`, `floordivsi` or `ceildivui` of `a` by `b`, which is not 0 (in the lanes that
/// run), on scalars or vectors; `consts` are 0, 1 and -1 of their type. The truncated quotient
/// moves by one toward the rounding direction when the remainder is not 0: up for ceil when the
/// exact quotient is positive (remainder and divisor of one sign), down for floor when it is
/// negative. `b = -1` is done apart (`-a`, wrapping as the interpreter) so that `sdiv` never
/// meets `INT_MIN / -1`.
pub(crate) fn rounding_division<'ctx, T>(
    g: &Gen<'_, 'ctx>,
    name: &str,
    a: T,
    b: T,
    (zero, one, m1): (T, T, T),
) -> R<T>
where
    T: IntMathValue<'ctx> + Copy + TryFrom<BasicValueEnum<'ctx>>,
    <T::BaseType as IntMathType<'ctx>>::ValueType: IntMathValue<'ctx> + Copy,
{
    let back = |v: BasicValueEnum<'ctx>| T::try_from(v).map_err(|_| g.err("unexpected type"));
    let bump = |c, q: T, up: bool| -> R<T> {
        let moved = if up {
            g.ck(g.b.build_int_add(q, one, "up"))?
        } else {
            g.ck(g.b.build_int_sub(q, one, "down"))?
        };
        back(g.ck(g.b.build_select(c, moved, q, "round"))?)
    };
    if name == names::CEILDIVUI {
        let q = g.ck(g.b.build_int_unsigned_div(a, b, "udiv"))?;
        let r = g.ck(g.b.build_int_unsigned_rem(a, b, "urem"))?;
        let inexact = g.ck(g.b.build_int_compare(IntPredicate::NE, r, zero, "inexact"))?;
        return bump(inexact, q, true);
    }
    let is_m1 = g.ck(g.b.build_int_compare(IntPredicate::EQ, b, m1, "bm1"))?;
    let safe = back(g.ck(g.b.build_select(is_m1, one, b, "bs"))?)?;
    let q = g.ck(g.b.build_int_signed_div(a, safe, "sdiv"))?;
    let r = g.ck(g.b.build_int_signed_rem(a, safe, "srem"))?;
    let inexact = g.ck(g.b.build_int_compare(IntPredicate::NE, r, zero, "inexact"))?;
    // The sign bit of r ^ b says whether the exact quotient is negative.
    let signs = g.ck(g.b.build_xor(r, safe, "signs"))?;
    let ceil = name == names::CEILDIVSI;
    let pred = if ceil {
        IntPredicate::SGE
    } else {
        IntPredicate::SLT
    };
    let toward = g.ck(g.b.build_int_compare(pred, signs, zero, "toward"))?;
    let c = g.ck(g.b.build_and(inexact, toward, "c"))?;
    let rounded = bump(c, q, ceil)?;
    let neg = g.ck(g.b.build_int_sub(zero, a, "neg"))?;
    back(g.ck(g.b.build_select(is_m1, neg, rounded, "q"))?)
}

fn shift<'ctx>(g: &mut Gen<'_, 'ctx>, op: OpId, name: &str) -> R<BasicValueEnum<'ctx>> {
    let (a, b) = int_bin(g, op)?;
    let t = a.get_type();
    let width = t.const_int(u64::from(t.get_bit_width()), false);
    let too_far = g.ck(g.b.build_int_compare(IntPredicate::UGE, b, width, "far"))?;
    let amount = if t.get_bit_width() == 64 {
        b
    } else {
        g.ck(g.b.build_int_z_extend(b, g.i64(), "amt"))?
    };
    g.fail_if(op, too_far, &[amount])?;
    Ok(match name {
        names::SHLI => g.ck(g.b.build_left_shift(a, b, "shl"))?,
        names::SHRSI => g.ck(g.b.build_right_shift(a, b, true, "ashr"))?,
        _ => g.ck(g.b.build_right_shift(a, b, false, "lshr"))?,
    }
    .into())
}

fn cast<'ctx>(g: &Gen<'_, 'ctx>, op: OpId, name: &str) -> R<BasicValueEnum<'ctx>> {
    let x = g.operand(op, 0)?;
    let to = g.ty(g.ir.value_type(g.ir.result(op, 0)))?;
    let unsupported = || g.err(format!("the LLVM backend does not support '{name}'"));
    Ok(match (name, x, to) {
        (names::SITOFP, BasicValueEnum::IntValue(i), BasicTypeEnum::FloatType(t)) => {
            g.ck(g.b.build_signed_int_to_float(i, t, "sitofp"))?.into()
        }
        (names::UITOFP, BasicValueEnum::IntValue(i), BasicTypeEnum::FloatType(t)) => g
            .ck(g.b.build_unsigned_int_to_float(i, t, "uitofp"))?
            .into(),
        (
            names::FPTOSI | names::FPTOUI,
            BasicValueEnum::FloatValue(f),
            BasicTypeEnum::IntType(t),
        ) => {
            let sat = if name == names::FPTOSI {
                "llvm.fptosi.sat"
            } else {
                "llvm.fptoui.sat"
            };
            intrinsic(g, sat, &[t.into(), f.get_type().into()], &[f.into()])?
        }
        (names::EXTF, BasicValueEnum::FloatValue(f), BasicTypeEnum::FloatType(t)) => {
            g.ck(g.b.build_float_ext(f, t, "fpext"))?.into()
        }
        (names::TRUNCF, BasicValueEnum::FloatValue(f), BasicTypeEnum::FloatType(t)) => {
            if qd_arith::elementwise::rounding_mode(g.ir, op).is_some_and(|m| m != 0) {
                return Err(g.err(
                    "the LLVM backend supports only arith.truncf's default rounding (to_nearest_even)",
                ));
            }
            g.ck(g.b.build_float_trunc(f, t, "fptrunc"))?.into()
        }
        (names::EXTSI, BasicValueEnum::IntValue(i), BasicTypeEnum::IntType(t)) => {
            g.ck(g.b.build_int_s_extend(i, t, "sext"))?.into()
        }
        (names::EXTUI, BasicValueEnum::IntValue(i), BasicTypeEnum::IntType(t)) => {
            g.ck(g.b.build_int_z_extend(i, t, "zext"))?.into()
        }
        (names::TRUNCI, BasicValueEnum::IntValue(i), BasicTypeEnum::IntType(t)) => {
            g.ck(g.b.build_int_truncate(i, t, "trunc"))?.into()
        }
        // Widening sign-extends (the interpreter's canonical reading), narrowing truncates.
        (names::INDEX_CAST, BasicValueEnum::IntValue(i), BasicTypeEnum::IntType(t)) => {
            let (from, to_w) = (i.get_type().get_bit_width(), t.get_bit_width());
            if from < to_w {
                g.ck(g.b.build_int_s_extend(i, t, "sext"))?.into()
            } else if from > to_w {
                g.ck(g.b.build_int_truncate(i, t, "trunc"))?.into()
            } else {
                i.into()
            }
        }
        // Widening zero-extends, narrowing truncates.
        (names::INDEX_CASTUI, BasicValueEnum::IntValue(i), BasicTypeEnum::IntType(t)) => {
            let (from, to_w) = (i.get_type().get_bit_width(), t.get_bit_width());
            if from < to_w {
                g.ck(g.b.build_int_z_extend(i, t, "zext"))?.into()
            } else if from > to_w {
                g.ck(g.b.build_int_truncate(i, t, "trunc"))?.into()
            } else {
                i.into()
            }
        }
        (names::BITCAST, x, t) => g.ck(g.b.build_bit_cast(x, t, "bitcast"))?,
        _ => return Err(unsupported()),
    })
}
