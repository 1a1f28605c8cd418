//! math to GLSL.std.450 extended instructions, each in its operand's precision; `rsqrt` is
//! `1 / sqrt`, as in the interpreter. GLSL.std.450's transcendental instructions exist for
//! 16/32-bit floats only: f64 sin, cos, exp and tanh are our own code (`libm64`); f64 tan,
//! exp2, log, log2, pow and atan2 are a located compile error (not emulated yet).

use super::{Gen, Scalar, R};
use qd_ir::OpId;
use qd_math::names;
use rspirv::dr::Operand;

// GLSL.std.450 instruction numbers.
const FABS: u32 = 4;
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
    let s = g.scalar(g.ir.value_type(g.ir.result(op, 0)))?;
    if !s.is_float() {
        return Err(g.err(format!("'{name}' expects float operands")));
    }
    let (inst, only32) = match name {
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
