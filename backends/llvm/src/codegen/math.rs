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
    let Some(BasicValueEnum::FloatValue(x)) = args.first().copied() else {
        return Err(g.err(format!("'{name}' expects float operands")));
    };
    let t = x.get_type();
    if t == g.llcx.f32_type() && matches!(name, names::SIN | names::COS | names::TANH) {
        let v = super::vmath::emit(g.llcx, g.module, &g.b, name, &args).map_err(|e| g.err(e))?;
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
