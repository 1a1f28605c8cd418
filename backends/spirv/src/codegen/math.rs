//! math to GLSL.std.450 extended instructions, each in its operand's precision; `rsqrt` is
//! `1 / sqrt`, as in the interpreter. GLSL.std.450's transcendental instructions exist for
//! 16/32-bit floats only: f64 sin, cos, exp and tanh are our own code (`libm64`); f64 tan,
//! exp2, log, log2, pow and atan2 are a located compile error (not emulated yet).
//!
//! trunc and roundeven are GLSL's (any width); `absi` is `SAbs` (i1 is its own absolute value);
//! isnan and isinf are core `OpIsNan`/`OpIsInf`, isfinite neither. f32 asin, acos, atan, log10,
//! log1p, expm1, cbrt, erf, erfc, sinh, cosh, asinh, acosh and atanh are our own code (`libm32`, with its accuracy table), as are copysign, round (half away from zero) and
//! fpowi at both widths; f64 ones of the former list are a located compile error, as is an f64
//! fpowi with an i64 exponent (the interpreter's pow in f64 past i32).

use super::{Gen, Scalar, R};
use qd_ir::OpId;
use qd_math::names;
use rspirv::dr::Operand;

// GLSL.std.450 instruction numbers.
const FABS: u32 = 4;
const ROUND_EVEN: u32 = 2;
const TRUNC: u32 = 3;
const SABS: u32 = 5;
const FLOOR: u32 = 8;
const CEIL: u32 = 9;
const SIN: u32 = 13;
const COS: u32 = 14;
const TAN: u32 = 15;
const TANH: u32 = 21;
const ATAN2: u32 = 25;
const POW: u32 = 26;
const EXP: u32 = 27;
const LOG: u32 = 28;
const EXP2: u32 = 29;
const LOG2: u32 = 30;
const SQRT: u32 = 31;
const FMA: u32 = 50;

pub(super) fn emit(g: &mut Gen<'_>, op: OpId, name: &str) -> R<()> {
    match name {
        names::ABSI => return absi(g, op),
        names::ISNAN | names::ISINF | names::ISFINITE => return classify(g, op, name),
        names::FPOWI => return fpowi(g, op),
        _ => {}
    }
    let s = g.scalar(g.ir.value_type(g.ir.result(op, 0)))?;
    if !s.is_float() {
        return Err(g.err(format!("'{name}' expects float operands")));
    }
    if name == names::COPYSIGN || name == names::ROUND {
        let x = g.operand(op, 0)?;
        let v = if name == names::ROUND {
            super::libm32::round(g, s, x)?
        } else {
            let y = g.operand(op, 1)?;
            super::libm32::copysign(g, s, x, y)?
        };
        g.set_id(op, v);
        return Ok(());
    }
    if EMULATED32.contains(&name) {
        if s != Scalar::F(32) {
            return Err(g.err(format!(
                "the SPIR-V backend has no f64 '{name}' (GLSL.std.450 lacks it; it is emulated in f32 only)"
            )));
        }
        let x = g.operand(op, 0)?;
        let mut m = super::libm32::M::new(g);
        let v = match name {
            names::LOG10 => m.log10(x)?,
            names::LOG1P => m.log1p(x)?,
            names::EXPM1 => m.expm1(x)?,
            names::CBRT => m.cbrt(x)?,
            names::ERF => m.erf(x)?,
            names::ERFC => m.erfc(x)?,
            names::SINH => m.sinh(x)?,
            names::COSH => m.cosh(x)?,
            names::ASINH => m.asinh(x)?,
            names::ASIN => m.asin(x)?,
            names::ACOS => m.acos(x)?,
            names::ATAN => m.atan(x)?,
            names::ACOSH => m.acosh(x)?,
            _ => m.atanh(x)?,
        };
        g.set_id(op, v);
        return Ok(());
    }
    let (inst, only32) = match name {
        names::TRUNC => (TRUNC, false),
        names::ROUNDEVEN => (ROUND_EVEN, false),
        names::SIN => (SIN, true),
        names::COS => (COS, true),
        names::TAN => (TAN, true),
        names::EXP => (EXP, true),
        names::EXP2 => (EXP2, true),
        names::LOG => (LOG, true),
        names::LOG2 => (LOG2, true),
        names::TANH => (TANH, true),
        names::POWF => (POW, true),
        names::ATAN2 => (ATAN2, true),
        names::SQRT | names::RSQRT => (SQRT, false),
        names::ABSF => (FABS, false),
        names::FLOOR => (FLOOR, false),
        names::CEIL => (CEIL, false),
        names::FMA => (FMA, false),
        _ => return Err(g.err(format!("the SPIR-V backend does not support '{name}'"))),
    };
    if s == Scalar::F(64) && matches!(name, names::SIN | names::COS | names::EXP | names::TANH) {
        let x = g.operand(op, 0)?;
        let v = match name {
            names::SIN => super::libm64::sin_cos(g, x, false)?,
            names::COS => super::libm64::sin_cos(g, x, true)?,
            names::EXP => super::libm64::exp(g, x)?,
            _ => super::libm64::tanh(g, x)?,
        };
        g.set_id(op, v);
        return Ok(());
    }
    if only32 && s == Scalar::F(64) {
        return Err(g.err(format!(
            "the SPIR-V backend has no f64 '{name}' (GLSL.std.450 defines it for 32-bit floats only)"
        )));
    }
    let args = (0..g.ir.num_operands(op))
        .map(|i| g.operand(op, i).map(Operand::IdRef))
        .collect::<R<Vec<_>>>()?;
    let ty = g.scalar_ty(s);
    let glsl = g.glsl;
    let mut v = ck!(g, g.b.ext_inst(ty, None, glsl, inst, args))?;
    if name == names::RSQRT {
        let one = g.constant(
            s,
            if s.width() == 32 {
                1f32.to_bits().into()
            } else {
                1f64.to_bits()
            },
        );
        v = ck!(g, g.b.f_div(ty, None, one, v))?;
    }
    g.set_id(op, v);
    Ok(())
}

/// The f32 ops of `libm32`.
const EMULATED32: &[&str] = &[
    names::ASIN,
    names::ACOS,
    names::ATAN,
    names::LOG10,
    names::LOG1P,
    names::EXPM1,
    names::CBRT,
    names::ERF,
    names::ERFC,
    names::SINH,
    names::COSH,
    names::ASINH,
    names::ACOSH,
    names::ATANH,
];

/// `math.absi`: GLSL's `SAbs` (the minimum stays itself); an i1 is its own absolute value.
fn absi(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let s = g.scalar(g.ir.value_type(g.ir.result(op, 0)))?;
    let x = g.operand(op, 0)?;
    let v = match s {
        Scalar::Bool => x,
        Scalar::I(_) => {
            let ty = g.scalar_ty(s);
            let glsl = g.glsl;
            ck!(g, g.b.ext_inst(ty, None, glsl, SABS, [Operand::IdRef(x)]))?
        }
        Scalar::F(_) => return Err(g.err("'math.absi' expects an integer operand")),
    };
    g.set_id(op, v);
    Ok(())
}

/// isnan, isinf (core instructions) and isfinite (neither).
fn classify(g: &mut Gen<'_>, op: OpId, name: &str) -> R<()> {
    let s = g.scalar(g.ir.value_type(g.ir.operand(op, 0)))?;
    if !s.is_float() {
        return Err(g.err(format!("'{name}' expects a float operand")));
    }
    let x = g.operand(op, 0)?;
    let bt = g.scalar_ty(Scalar::Bool);
    let v = match name {
        names::ISNAN => ck!(g, g.b.is_nan(bt, None, x))?,
        names::ISINF => ck!(g, g.b.is_inf(bt, None, x))?,
        _ => {
            let nan = ck!(g, g.b.is_nan(bt, None, x))?;
            let inf = ck!(g, g.b.is_inf(bt, None, x))?;
            let either = ck!(g, g.b.logical_or(bt, None, nan, inf))?;
            ck!(g, g.b.logical_not(bt, None, either))?
        }
    };
    g.set_id(op, v);
    Ok(())
}

/// `math.fpowi %a, %n`: repeated squaring over the exponent's bits (`libm32::fpowi`).
fn fpowi(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let s = g.scalar(g.ir.value_type(g.ir.result(op, 0)))?;
    let ns = g.scalar(g.ir.value_type(g.ir.operand(op, 1)))?;
    let width = match (s, ns) {
        (Scalar::F(_), Scalar::I(w)) => w,
        _ => return Err(g.err("'math.fpowi' expects a float and an integer")),
    };
    if s == Scalar::F(64) && width == 64 {
        return Err(g.err(
            "the SPIR-V backend has no f64 'math.fpowi' with a 64-bit exponent (the interpreter's pow in f64 past i32's range is not emulated)",
        ));
    }
    let (x, n) = (g.operand(op, 0)?, g.operand(op, 1)?);
    let v = super::libm32::fpowi(g, s, x, n, width)?;
    g.set_id(op, v);
    Ok(())
}
