//! math to LLVM intrinsics, each in its operand's precision: `llvm.sin`, `llvm.cos`, `llvm.tan`,
//! `llvm.exp`, `llvm.exp2`, `llvm.log`, `llvm.log2`, `llvm.sqrt`, `llvm.tanh`, `llvm.fabs`,
//! `llvm.floor`, `llvm.ceil`, `llvm.pow`, `llvm.atan2`, `llvm.fma`; `rsqrt` is `1 / sqrt` as in
//! the interpreter. The transcendental ones become calls to the platform libm, the one the
//! interpreter calls, so that scalar results are the interpreter's bit for bit.
//!
//! LLVM has no vector form of `sin`/`cos` without a vector math library, so a loop calling them
//! would not vectorize: f32 `sin`, `cos` and `tanh` are our own straight-line code instead, the
//! vectorised math's (`vmath`): sin and cos in f32 arithmetic below 4096 (0.79 ulp at most, by
//! an exhaustive test), past it an out-of-line f64 path (0.56 ulp); tanh an f32 polynomial below
//! 0.5 (0.77 ulp), in f64 and rounded once past it (0.50 ulp). Not libm's bits, but within an ulp of the exact value. f64 keeps libm.
//!
//! f32 exp and exp2 whose fast-math flags allow approximate functions (`afn`, or `fast`) are
//! vmath's f32 code (`vmath::emit_flagged`: within `AFN_MAX_ULP`, 1 ulp), scalar or vectorised.
//!
//! The ops added later (issue #14) are vmath's code in both precisions, so that scalar and
//! vectorised tasks give the same bits and loops of them vectorize: asin, acos, atan, sinh, cosh,
//! asinh, acosh, atanh, log1p, expm1, log10 and cbrt (0.5 ulp in f32, 2 ulps of glibc in f64;
//! table in `vmath`), the exact trunc, round, roundeven, copysign, absi, isnan, isinf, isfinite
//! and fpowi (libgcc's `__powisf2` multiplication for multiplication, as Rust's `powi`). erf and
//! erfc, which vmath lacks, call libm's `erf`/`erff`, `erfc`/`erfcf`, resolved by the JIT as the
//! intrinsics' calls are.

use super::arith::intrinsic;
use super::{Gen, R};
use inkwell::values::BasicValueEnum;
use qd_ir::OpId;
use qd_math::names;

pub(super) fn emit(g: &mut Gen<'_, '_>, op: OpId, name: &str) -> R<()> {
    let n = g.ir.num_operands(op);
    let args = (0..n)
        .map(|i| g.operand(op, i))
        .collect::<R<Vec<BasicValueEnum>>>()?;
    if super::vmath::allows_afn(g.ir, op) && matches!(name, names::EXP | names::EXP2) {
        // afn: f32 exp and exp2 are vmath's f32 code, as in vectorised tasks; f64 keeps libm.
        if let Some(BasicValueEnum::FloatValue(x)) = args.first() {
            if x.get_type() == g.llcx.f32_type() {
                let v = super::vmath::emit_flagged(g.llcx, g.module, &g.b, name, &args, true)
                    .map_err(|e| g.err(e))?;
                g.set(op, 0, v);
                return Ok(());
            }
        }
    }
    if OWN.contains(&name) || super::vmath::exact_op(name) {
        let v = super::vmath::emit(g.llcx, g.module, &g.b, name, &args).map_err(|e| g.err(e))?;
        g.set(op, 0, v);
        return Ok(());
    }
    let Some(BasicValueEnum::FloatValue(x)) = args.first().copied() else {
        return Err(g.err(format!("'{name}' expects float operands")));
    };
    let t = x.get_type();
    if t == g.llcx.f32_type() && matches!(name, names::SIN | names::COS | names::TANH) {
        let v = super::vmath::emit(g.llcx, g.module, &g.b, name, &args).map_err(|e| g.err(e))?;
        g.set(op, 0, v);
        return Ok(());
    }
    if let Some(base) = libm_name(name) {
        let f32 = t == g.llcx.f32_type();
        let sym = if f32 {
            format!("{base}f")
        } else {
            base.to_string()
        };
        let f = match g.module.get_function(&sym) {
            Some(f) => f,
            None => g
                .module
                .add_function(&sym, t.fn_type(&[t.into()], false), None),
        };
        let call = g.ck(g.b.build_call(f, &[x.into()], "r"))?;
        let v = call
            .try_as_basic_value()
            .basic()
            .ok_or_else(|| g.err(format!("{sym} returns nothing")))?;
        g.set(op, 0, v);
        return Ok(());
    }
    let intr = match name {
        names::SIN => "llvm.sin",
        names::COS => "llvm.cos",
        names::TAN => "llvm.tan",
        names::EXP => "llvm.exp",
        names::EXP2 => "llvm.exp2",
        names::LOG => "llvm.log",
        names::LOG2 => "llvm.log2",
        names::SQRT | names::RSQRT => "llvm.sqrt",
        names::TANH => "llvm.tanh",
        names::ABSF => "llvm.fabs",
        names::FLOOR => "llvm.floor",
        names::CEIL => "llvm.ceil",
        names::POWF => "llvm.pow",
        names::ATAN2 => "llvm.atan2",
        names::FMA => "llvm.fma",
        _ => return Err(g.err(format!("the LLVM backend does not support '{name}'"))),
    };
    let mut v = intrinsic(g, intr, &[t.into()], &args)?;
    if name == names::RSQRT {
        let one = t.const_float(1.0);
        v = g
            .ck(g.b.build_float_div(one, v.into_float_value(), "rsqrt"))?
            .into();
    }
    g.set(op, 0, v);
    Ok(())
}

/// The ops compiled by vmath in both precisions (see the module doc).
const OWN: &[&str] = &[
    names::ASIN,
    names::ACOS,
    names::ATAN,
    names::SINH,
    names::COSH,
    names::ASINH,
    names::ACOSH,
    names::ATANH,
    names::LOG1P,
    names::EXPM1,
    names::LOG10,
    names::CBRT,
    names::TRUNC,
    names::ROUND,
    names::ROUNDEVEN,
    names::COPYSIGN,
];

/// The libm function (f64 name; f32 adds `f`) of the math ops compiled as libm calls.
fn libm_name(name: &str) -> Option<&'static str> {
    Some(match name {
        names::ERF => "erf",
        names::ERFC => "erfc",
        _ => return None,
    })
}
