//! The interpreter of upstream MLIR's math dialect: every op in its operand's precision through
//! Rust's `f32`/`f64` functions (the platform libm: IEEE-correct where IEEE requires it, such as
//! sqrt and fma; within an ulp or so for the transcendental functions). `rsqrt` is `1 / sqrt`.

use crate::exec::{Compiler, DialectInterpreter, Exec};
use crate::helpers::{float_ternary, is_f32};
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
            _ => return Err(c.unsupported(op)),
        })
    }
}
