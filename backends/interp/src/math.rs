//! The interpreter of upstream MLIR's math dialect: every op in its operand's precision through
//! Rust's `f32`/`f64` functions (the platform libm: IEEE-correct where IEEE requires it, such as
//! sqrt and fma; within an ulp or so for the transcendental functions), and the `libm` crate's
//! erf/erfc, which std lacks. `rsqrt` is `1 / sqrt`.

use crate::exec::{Compiler, DialectInterpreter, Exec, Flow};
use crate::helpers::{float_ternary, int_unary, int_width, is_f32, operand_kind, unary_slots};
use crate::num::{bool_bits, canon, sext, Kind};
use crate::{float_bin, float_un};
use qd_ir::{Diagnostic, OpId};
use qd_math::names;

/// Runs `math.*` ops.
#[derive(Default)]
pub struct MathInterpreter;

impl DialectInterpreter for MathInterpreter {
    fn dialect(&self) -> &'static str {
        "math"
    }

    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        Ok(match c.ctx().name(op) {
            names::SIN => float_un!(c, op, |a| a.sin()),
            names::COS => float_un!(c, op, |a| a.cos()),
            names::TAN => float_un!(c, op, |a| a.tan()),
            names::EXP => float_un!(c, op, |a| a.exp()),
            names::EXP2 => float_un!(c, op, |a| a.exp2()),
            names::LOG => float_un!(c, op, |a| a.ln()),
            names::LOG2 => float_un!(c, op, |a| a.log2()),
            names::SQRT => float_un!(c, op, |a| a.sqrt()),
            names::RSQRT => float_un!(c, op, |a| 1.0 / a.sqrt()),
            names::TANH => float_un!(c, op, |a| a.tanh()),
            names::ABSF => float_un!(c, op, |a| a.abs()),
            names::FLOOR => float_un!(c, op, |a| a.floor()),
            names::CEIL => float_un!(c, op, |a| a.ceil()),
            names::POWF => float_bin!(c, op, |a, b| a.powf(b)),
            // math.atan2 %y, %x
            names::ATAN2 => float_bin!(c, op, |y, x| y.atan2(x)),
            names::FMA => {
                let ctx = c.ctx();
                let (x, y, z) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
                let (x, y, z) = (c.slot(x), c.slot(y), c.slot(z));
                let d = c.slot(ctx.result(op, 0));
                if is_f32(c, op)? {
                    float_ternary::<f32>(x, y, z, d, |a, b, c| a.mul_add(b, c))
                } else {
                    float_ternary::<f64>(x, y, z, d, |a, b, c| a.mul_add(b, c))
                }
            }
            names::ASIN => float_un!(c, op, |a| a.asin()),
            names::ACOS => float_un!(c, op, |a| a.acos()),
            names::ATAN => float_un!(c, op, |a| a.atan()),
            names::SINH => float_un!(c, op, |a| a.sinh()),
            names::COSH => float_un!(c, op, |a| a.cosh()),
            names::ASINH => float_un!(c, op, |a| a.asinh()),
            names::ACOSH => float_un!(c, op, |a| a.acosh()),
            names::ATANH => float_un!(c, op, |a| a.atanh()),
            names::LOG1P => float_un!(c, op, |a| a.ln_1p()),
            names::EXPM1 => float_un!(c, op, |a| a.exp_m1()),
            names::LOG10 => float_un!(c, op, |a| a.log10()),
            names::CBRT => float_un!(c, op, |a| a.cbrt()),
            names::TRUNC => float_un!(c, op, |a| a.trunc()),
            // Ties away from zero, as C's round.
            names::ROUND => float_un!(c, op, |a| a.round()),
            names::ROUNDEVEN => float_un!(c, op, |a| a.round_ties_even()),
            names::COPYSIGN => float_bin!(c, op, |a, b| a.copysign(b)),
            names::ERF => libm_un(c, op, libm::erff, libm::erf)?,
            names::ERFC => libm_un(c, op, libm::erfcf, libm::erfc)?,
            names::FPOWI => fpowi(c, op)?,
            names::ABSI => {
                let w = int_width(c, op)?;
                let (x, d) = unary_slots(c, op);
                // The minimum value is its own absolute value (wrapping, as LLVM's abs without
                // its poison flag).
                int_unary(x, d, move |a| canon(sext(a, w).wrapping_abs() as u64, w))
            }
            names::ISNAN => classify(c, op, f64::is_nan)?,
            names::ISINF => classify(c, op, f64::is_infinite)?,
            names::ISFINITE => classify(c, op, f64::is_finite)?,
            _ => return Err(c.unsupported(op)),
        })
    }
}

/// A unary float op through separate f32 and f64 functions.
fn libm_un(
    c: &mut Compiler<'_>,
    op: OpId,
    f32op: fn(f32) -> f32,
    f64op: fn(f64) -> f64,
) -> Result<Exec, Diagnostic> {
    let (x, d) = unary_slots(c, op);
    Ok(if is_f32(c, op)? {
        crate::helpers::float_unary::<f32>(x, d, f32op)
    } else {
        crate::helpers::float_unary::<f64>(x, d, f64op)
    })
}

/// `math.fpowi %a, %n`: repeated multiplication (Rust's `powi`, LLVM's `llvm.powi`) for
/// exponents that fit in i32; wider ones through `powf` in f64, where every integer up to 2^53 is
/// exact, so the sign of a negative base's odd power survives.
fn fpowi(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let w = match operand_kind(c, op, 1)? {
        Kind::Int { width, .. } => width,
        _ => return Err(c.error(op, "'math.fpowi' expects an integer exponent")),
    };
    let f32_ = is_f32(c, op)?;
    let (x, n, d) = crate::helpers::binary_slots(c, op);
    Ok(Box::new(move |f| {
        let n = sext(f.get(n), w);
        let r = match (f32_, i32::try_from(n)) {
            (true, Ok(k)) => (f32::from_bits(f.get(x) as u32).powi(k)).to_bits() as u64,
            (true, Err(_)) => {
                let a = f32::from_bits(f.get(x) as u32) as f64;
                (a.powf(n as f64) as f32).to_bits() as u64
            }
            (false, Ok(k)) => f64::from_bits(f.get(x)).powi(k).to_bits(),
            (false, Err(_)) => f64::from_bits(f.get(x)).powf(n as f64).to_bits(),
        };
        f.set(d, r);
        Ok(Flow::Next)
    }))
}

/// isnan, isinf, isfinite: an i1 from an f32 or f64 (widening to f64 keeps the class).
fn classify(c: &mut Compiler<'_>, op: OpId, test: fn(f64) -> bool) -> Result<Exec, Diagnostic> {
    let (x, d) = unary_slots(c, op);
    Ok(match operand_kind(c, op, 0)? {
        Kind::F32 => int_unary(x, d, move |a| {
            bool_bits(test(f32::from_bits(a as u32) as f64))
        }),
        Kind::F64 => int_unary(x, d, move |a| bool_bits(test(f64::from_bits(a)))),
        Kind::Int { .. } => {
            let msg = format!("'{}' expects a float", c.ctx().name(op));
            return Err(c.error(op, msg));
        }
    })
}
