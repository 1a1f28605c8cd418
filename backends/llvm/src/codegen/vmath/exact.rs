//! The exact math ops whose operands or result are not all one float type: `absi` (an
//! integer), `isnan`, `isinf`, `isfinite` (float to i1) and `fpowi` (float to an integer
//! power). Scalar or vector, as the rest of vmath; the scalar codegen uses them too.
//!
//! `fpowi` is libgcc's `__powisf2`/`__powidf2` (what `llvm.powi` and Rust's `powi` call, so the
//! interpreter's): r = 1; for each bit of |n| from the lowest, r *= a when it is set, a *= a;
//! then 1 / r for negative n. The same multiplications in the same order, so the same bits. A
//! loop that runs while any lane has bits left; not `llvm.powi`, whose exponent is one scalar
//! for all lanes. An i64 exponent outside i32's range is pow(x, n) in f64 (vmath's pow), as in
//! the interpreter: every integer up to 2^53 is exact there, so a negative base keeps the sign
//! of its odd powers.

use super::{Vb, R, V};
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::module::Module;
use inkwell::types::BasicTypeEnum;
use inkwell::values::InstructionOpcode as Op;
use inkwell::{FloatPredicate, IntPredicate};
use qd_math::names;

/// The ops this file emits.
pub(super) const MIXED: &[&str] = &[
    names::ABSI,
    names::ISNAN,
    names::ISINF,
    names::ISFINITE,
    names::FPOWI,
];

/// (element type, lanes) of a scalar or vector type.
pub(super) fn shape_of(t: BasicTypeEnum<'_>) -> (BasicTypeEnum<'_>, Option<u32>) {
    match t {
        BasicTypeEnum::VectorType(v) => (v.get_element_type(), Some(v.get_size())),
        t => (t, None),
    }
}

pub(super) fn emit<'ctx>(
    llcx: &'ctx Context,
    module: &Module<'ctx>,
    b: &Builder<'ctx>,
    name: &str,
    args: &[V<'ctx>],
) -> R<V<'ctx>> {
    let want = if name == names::FPOWI { 2 } else { 1 };
    if args.len() != want {
        return Err(format!(
            "'{name}' takes {want} operands, got {}",
            args.len()
        ));
    }
    let x = args[0];
    let (elem, lanes) = shape_of(x.get_type());
    let v = Vb {
        llcx,
        module,
        b,
        lanes,
    };
    if name == names::ABSI {
        if !elem.is_int_type() {
            return Err(format!("'{name}' expects integer operands"));
        }
        // Not poison at the minimum: it stays itself, as in two's complement.
        let no_poison = llcx.bool_type().const_zero().into();
        return v.call("llvm.abs", &[x, no_poison]);
    }
    let f32 = elem == llcx.f32_type().into();
    if !f32 && elem != llcx.f64_type().into() {
        return Err(format!("'{name}' expects f32 or f64 operands"));
    }
    let k = |c: f64| if f32 { v.c32(c as f32) } else { v.c(c) };
    match name {
        names::ISNAN => v.is_nan(x),
        names::ISINF => v.fcmp(FloatPredicate::OEQ, v.abs(x)?, k(f64::INFINITY)),
        names::ISFINITE => v.fcmp(FloatPredicate::ONE, v.abs(x)?, k(f64::INFINITY)),
        _ => fpowi(&v, x, args[1], k(1.0), f32),
    }
}

/// x^n by repeated squaring (see the module doc); `one` is 1 in x's type.
fn fpowi<'ctx>(v: &Vb<'_, 'ctx>, x: V<'ctx>, n: V<'ctx>, one: V<'ctx>, f32: bool) -> R<V<'ctx>> {
    let (ne, nl) = shape_of(n.get_type());
    let bits = match ne {
        BasicTypeEnum::IntType(t) if nl == v.lanes => t.get_bit_width(),
        _ => return Err("'math.fpowi' takes a float and an integer of its shape".into()),
    };
    // Narrow exponents widen (their value is kept), wide ones are at most 64 bits.
    let (n, bits) = match bits {
        32 | 64 => (n, bits),
        1..=31 => (v.cast(Op::SExt, n, v.it(32))?, 32),
        _ => return Err("'math.fpowi' takes an exponent of at most 64 bits".into()),
    };
    let bad = |e: inkwell::builder::BuilderError| e.to_string();
    let zero = v.ci(bits, 0);
    let neg = v.icmp(IntPredicate::SLT, n, zero)?;
    // |n| as an unsigned number (the minimum negates to itself, which is its magnitude).
    let m = v.sel(neg, v.isub(zero, n)?, n)?;
    // i64 exponents past i32's range: no squaring (m = 0), pow at the end.
    let wide = if bits == 64 {
        let lo = v.icmp(IntPredicate::SLT, n, v.ci(64, i32::MIN as i64 as u64))?;
        let hi = v.icmp(IntPredicate::SGT, n, v.ci(64, i32::MAX as u64))?;
        Some(v.mor(lo, hi)?)
    } else {
        None
    };
    let m = match wide {
        Some(w) => v.sel(w, zero, m)?,
        None => m,
    };
    let func = v.func()?;
    let pre = v.b.get_insert_block().ok_or("no insertion block")?;
    let body = v.llcx.append_basic_block(func, "vm.powi");
    let done = v.llcx.append_basic_block(func, "vm.powi.done");
    v.b.build_unconditional_branch(body).map_err(bad)?;
    v.b.position_at_end(body);
    let pa = v.b.build_phi(x.get_type(), "a").map_err(bad)?;
    let pr = v.b.build_phi(x.get_type(), "r").map_err(bad)?;
    let pm = v.b.build_phi(m.get_type(), "m").map_err(bad)?;
    let (a, r, mm) = (
        pa.as_basic_value(),
        pr.as_basic_value(),
        pm.as_basic_value(),
    );
    let odd = v.icmp(IntPredicate::NE, v.and(mm, v.ci(bits, 1))?, zero)?;
    let r2 = v.sel(odd, v.mul(r, a)?, r)?;
    let m2 = v.lshr(mm, v.ci(bits, 1))?;
    let a2 = v.mul(a, a)?;
    let more = v.any(v.icmp(IntPredicate::NE, m2, zero)?)?;
    pa.add_incoming(&[(&x, pre), (&a2, body)]);
    pr.add_incoming(&[(&one, pre), (&r2, body)]);
    pm.add_incoming(&[(&m, pre), (&m2, body)]);
    v.b.build_conditional_branch(more, body, done)
        .map_err(bad)?;
    v.b.position_at_end(done);
    let r = v.sel(neg, v.div(one, r2)?, r2)?;
    let Some(wide) = wide else {
        return Ok(r);
    };
    let nf = v.cast(Op::SIToFP, n, v.f64t())?;
    let p = v.narrow(super::pow::pow(v, v.widen(x, f32)?, nf)?, f32)?;
    v.sel(wide, p, r)
}
