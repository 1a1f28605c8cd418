//! arith and math on per-lane values, with the scalar codegen's semantics (`codegen::arith`):
//! the same LLVM operations on vectors; a division by zero, a shift by the width or more and a
//! failing bounds check stop the lanes concerned (see `errors`), with divisors and shift
//! amounts made safe in the lanes that do not run them. Integer add, sub and mul by uniform
//! values, truncations and extensions keep the linear form of the thread index (see `Lin`).
//!
//! Math is the vector math library's (`codegen::vmath`, within an ulp or so of libm).

use super::{errors, ln, ln_mut, splat, vector, Lin, VVal};
use crate::codegen::{
    float_binary, int_binary, intrinsic, rounding_division, Gen, FLOAT_BINARY, INT_BINARY, R,
};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, VectorValue};
use inkwell::IntPredicate;
use qd_arith::names;
use qd_ir::{OpId, Value};

/// The linear form of operand `v`, or its uniform value as a linear form of stride 0.
fn lin_of<'ctx>(g: &Gen<'_, 'ctx>, v: Value) -> Option<Lin<'ctx>> {
    match ln(g).vals.get(&v) {
        Some(VVal::Vec(_, l)) => *l,
        Some(_) => None,
        None => g.val(v).ok().and_then(|x| match x {
            BasicValueEnum::IntValue(i) => Some(Lin {
                base: i,
                stride: 0,
                exact: true,
            }),
            _ => None,
        }),
    }
}

/// The constant value of a uniform integer operand.
fn const_of(g: &Gen<'_, '_>, v: Value) -> Option<i64> {
    if ln(g).vals.contains_key(&v) {
        return None;
    }
    g.val(v)
        .ok()
        .and_then(|x| x.into_int_value().get_sign_extended_constant())
}

fn vecs<'ctx>(g: &Gen<'_, 'ctx>, op: OpId) -> R<(VectorValue<'ctx>, VectorValue<'ctx>)> {
    Ok((
        vector(g, g.ir.operand(op, 0))?,
        vector(g, g.ir.operand(op, 1))?,
    ))
}

/// The linear form of an integer result.
fn linear<'ctx>(g: &Gen<'_, 'ctx>, op: OpId, name: &str) -> R<Option<Lin<'ctx>>> {
    let ir = g.ir;
    let a = lin_of(g, ir.operand(op, 0));
    let b = if ir.num_operands(op) > 1 {
        lin_of(g, ir.operand(op, 1))
    } else {
        None
    };
    let to = match g.ty(ir.value_type(ir.result(op, 0)))? {
        BasicTypeEnum::IntType(t) => t,
        _ => return Ok(None),
    };
    Ok(match (name, a, b) {
        (names::ADDI, Some(a), Some(b)) => Some(Lin {
            base: g.ck(g.b.build_int_add(a.base, b.base, "lb"))?,
            stride: a.stride.wrapping_add(b.stride),
            exact: a.exact && b.exact,
        }),
        (names::SUBI, Some(a), Some(b)) => Some(Lin {
            base: g.ck(g.b.build_int_sub(a.base, b.base, "lb"))?,
            stride: a.stride.wrapping_sub(b.stride),
            exact: a.exact && b.exact,
        }),
        (names::MULI, Some(a), Some(_)) | (names::MULI, Some(_), Some(a)) if a.stride != 0 => {
            let (x, y) = (ir.operand(op, 0), ir.operand(op, 1));
            let k = const_of(g, y).or_else(|| const_of(g, x));
            match k {
                Some(k) => Some(Lin {
                    base: g.ck(g
                        .b
                        .build_int_mul(a.base, to.const_int(k as u64, true), "lb"))?,
                    stride: a.stride.wrapping_mul(k),
                    exact: a.exact,
                }),
                None => None,
            }
        }
        (names::TRUNCI, Some(a), _) => Some(Lin {
            base: g.ck(g.b.build_int_truncate(a.base, to, "lb"))?,
            stride: a.stride,
            exact: a.exact,
        }),
        (names::EXTSI | names::EXTUI | names::INDEX_CAST, Some(a), _) => {
            let from = a.base.get_type().get_bit_width();
            let base = if from == to.get_bit_width() {
                a.base
            } else if from > to.get_bit_width() {
                g.ck(g.b.build_int_truncate(a.base, to, "lb"))?
            } else if name == names::EXTUI {
                g.ck(g.b.build_int_z_extend(a.base, to, "lb"))?
            } else {
                g.ck(g.b.build_int_s_extend(a.base, to, "lb"))?
            };
            // A widening may meet a wrap of the narrower sequence between two lanes.
            let exact = a.exact && from >= to.get_bit_width();
            Some(Lin {
                base,
                stride: a.stride,
                exact,
            })
        }
        _ => None,
    })
}

pub(crate) fn emit(g: &mut Gen<'_, '_>, op: OpId, name: &str) -> R<()> {
    if name.starts_with("math.") {
        return math(g, op);
    }
    let lin = linear(g, op, name)?;
    let v: VectorValue = match name {
        names::SELECT => {
            let c = vector(g, g.ir.operand(op, 0))?;
            let t = vector(g, g.ir.operand(op, 1))?;
            let e = vector(g, g.ir.operand(op, 2))?;
            g.ck(g.b.build_select(c, t, e, "sel"))?.into_vector_value()
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
            let a = vector(g, g.ir.operand(op, 0))?;
            g.ck(g.b.build_float_neg(a, "fneg"))?
        }
        _ if INT_BINARY.contains(&name) => {
            let (a, b) = vecs(g, op)?;
            int_binary(g, op, name, a, b)?.into_vector_value()
        }
        _ if FLOAT_BINARY.contains(&name) => {
            let (a, b) = vecs(g, op)?;
            float_binary(g, op, name, a, b)?.into_vector_value()
        }
        _ => cast(g, op, name)?,
    };
    let r = g.ir.result(op, 0);
    ln_mut(g).vals.insert(r, VVal::Vec(v, lin));
    Ok(())
}

fn division<'ctx>(g: &mut Gen<'_, 'ctx>, op: OpId, name: &str) -> R<VectorValue<'ctx>> {
    let (a, b) = vecs(g, op)?;
    let t = b.get_type();
    let zero = t.const_zero();
    let is_zero = g.ck(g.b.build_int_compare(IntPredicate::EQ, b, zero, "bz"))?;
    errors::fail_lanes(g, op, is_zero.into(), &[])?;
    // Lanes that do not divide (inactive, or stopped) divide by 1.
    let et = t.get_element_type().into_int_type();
    let one = splat(g, et.const_int(1, false).into())?;
    let b = g
        .ck(g.b.build_select(is_zero, one, b, "bnz"))?
        .into_vector_value();
    Ok(match name {
        names::DIVUI => g.ck(g.b.build_int_unsigned_div(a, b, "udiv"))?,
        names::REMUI => g.ck(g.b.build_int_unsigned_rem(a, b, "urem"))?,
        names::CEILDIVSI | names::FLOORDIVSI | names::CEILDIVUI => {
            let m1 = splat(g, et.const_all_ones().into())?;
            rounding_division(g, name, a, b, (zero, one, m1))?
        }
        _ => {
            let m1 = splat(g, et.const_all_ones().into())?;
            let is_m1 = g.ck(g.b.build_int_compare(IntPredicate::EQ, b, m1, "bm1"))?;
            let safe = g
                .ck(g.b.build_select(is_m1, one, b, "bs"))?
                .into_vector_value();
            if name == names::DIVSI {
                let q = g.ck(g.b.build_int_signed_div(a, safe, "sdiv"))?;
                let neg = g.ck(g.b.build_int_sub(zero, a, "neg"))?;
                g.ck(g.b.build_select(is_m1, neg, q, "q"))?
                    .into_vector_value()
            } else {
                let r = g.ck(g.b.build_int_signed_rem(a, safe, "srem"))?;
                g.ck(g.b.build_select(is_m1, zero, r, "r"))?
                    .into_vector_value()
            }
        }
    })
}

fn shift<'ctx>(g: &mut Gen<'_, 'ctx>, op: OpId, name: &str) -> R<VectorValue<'ctx>> {
    let (a, b) = vecs(g, op)?;
    let t = b.get_type();
    let et = t.get_element_type().into_int_type();
    let width = splat(g, et.const_int(u64::from(et.get_bit_width()), false).into())?;
    let too_far = g.ck(g.b.build_int_compare(IntPredicate::UGE, b, width, "far"))?;
    let amount = if et.get_bit_width() == 64 {
        b
    } else {
        g.ck(g.b.build_int_z_extend(b, g.i64().vec_type(ln(g).w), "amt"))?
    };
    errors::fail_lanes(g, op, too_far.into(), &[amount.into()])?;
    let b = g
        .ck(g.b.build_select(too_far, t.const_zero(), b, "amt"))?
        .into_vector_value();
    Ok(match name {
        names::SHLI => g.ck(g.b.build_left_shift(a, b, "shl"))?,
        names::SHRSI => g.ck(g.b.build_right_shift(a, b, true, "ashr"))?,
        _ => g.ck(g.b.build_right_shift(a, b, false, "lshr"))?,
    })
}

fn cast<'ctx>(g: &Gen<'_, 'ctx>, op: OpId, name: &str) -> R<VectorValue<'ctx>> {
    let x = vector(g, g.ir.operand(op, 0))?;
    let to = g.ty(g.ir.value_type(g.ir.result(op, 0)))?;
    let w = ln(g).w;
    let unsupported = || g.err(format!("the LLVM backend does not support '{name}'"));
    let xe = x.get_type().get_element_type();
    Ok(match (name, to) {
        (names::SITOFP, BasicTypeEnum::FloatType(t)) => {
            g.ck(g.b.build_signed_int_to_float(x, t.vec_type(w), "sitofp"))?
        }
        (names::UITOFP, BasicTypeEnum::FloatType(t)) => {
            g.ck(g.b.build_unsigned_int_to_float(x, t.vec_type(w), "uitofp"))?
        }
        (names::FPTOSI | names::FPTOUI, BasicTypeEnum::IntType(t)) => {
            let sat = if name == names::FPTOSI {
                "llvm.fptosi.sat"
            } else {
                "llvm.fptoui.sat"
            };
            let vt = t.vec_type(w);
            intrinsic(g, sat, &[vt.into(), x.get_type().into()], &[x.into()])?.into_vector_value()
        }
        (names::EXTF, BasicTypeEnum::FloatType(t)) => {
            g.ck(g.b.build_float_ext(x, t.vec_type(w), "fpext"))?
        }
        (names::TRUNCF, BasicTypeEnum::FloatType(t)) => {
            if qd_arith::elementwise::rounding_mode(g.ir, op).is_some_and(|m| m != 0) {
                return Err(g.err(
                    "the LLVM backend supports only arith.truncf's default rounding (to_nearest_even)",
                ));
            }
            g.ck(g.b.build_float_trunc(x, t.vec_type(w), "fptrunc"))?
        }
        (names::EXTSI, BasicTypeEnum::IntType(t)) => {
            g.ck(g.b.build_int_s_extend(x, t.vec_type(w), "sext"))?
        }
        (names::EXTUI, BasicTypeEnum::IntType(t)) => {
            g.ck(g.b.build_int_z_extend(x, t.vec_type(w), "zext"))?
        }
        (names::TRUNCI, BasicTypeEnum::IntType(t)) => {
            g.ck(g.b.build_int_truncate(x, t.vec_type(w), "trunc"))?
        }
        (names::INDEX_CAST, BasicTypeEnum::IntType(t)) => {
            let from = xe.into_int_type().get_bit_width();
            let to_w = t.get_bit_width();
            if from < to_w {
                g.ck(g.b.build_int_s_extend(x, t.vec_type(w), "sext"))?
            } else if from > to_w {
                g.ck(g.b.build_int_truncate(x, t.vec_type(w), "trunc"))?
            } else {
                x
            }
        }
        (names::INDEX_CASTUI, BasicTypeEnum::IntType(t)) => {
            let from = xe.into_int_type().get_bit_width();
            let to_w = t.get_bit_width();
            if from < to_w {
                g.ck(g.b.build_int_z_extend(x, t.vec_type(w), "zext"))?
            } else if from > to_w {
                g.ck(g.b.build_int_truncate(x, t.vec_type(w), "trunc"))?
            } else {
                x
            }
        }
        (names::BITCAST, t) => {
            let vt = super::vec_ty(g, t)?;
            g.ck(g.b.build_bit_cast(x, vt, "bitcast"))?
                .into_vector_value()
        }
        _ => return Err(unsupported()),
    })
}

/// `lowered.bounds_check` with per-lane indices or extents.
pub(crate) fn bounds_check(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let n = g.ir.num_operands(op);
    if n == 0 || !n.is_multiple_of(2) {
        return Err(g.err("lowered.bounds_check needs indices and as many extents"));
    }
    let w = ln(g).w;
    let v64 = g.i64().vec_type(w);
    let mut values = Vec::new();
    for i in 0..n {
        let v = vector(g, g.ir.operand(op, i))?;
        let v = if v
            .get_type()
            .get_element_type()
            .into_int_type()
            .get_bit_width()
            == 64
        {
            v
        } else {
            g.ck(g.b.build_int_s_extend(v, v64, "w"))?
        };
        values.push(v);
    }
    let zero = v64.const_zero();
    let mut ok = splat(g, g.llcx.bool_type().const_int(1, false).into())?;
    for k in 0..n / 2 {
        let (i, e) = (values[k], values[n / 2 + k]);
        let ge = g.ck(g.b.build_int_compare(IntPredicate::SGE, i, zero, "ge"))?;
        let lt = g.ck(g.b.build_int_compare(IntPredicate::SLT, i, e, "lt"))?;
        let both = g.ck(g.b.build_and(ge, lt, "in"))?;
        ok = g.ck(g.b.build_and(ok, both, "in"))?;
    }
    let fail = g.ck(g.b.build_not(ok, "out"))?;
    let vals: Vec<BasicValueEnum> = values.iter().map(|&v| v.into()).collect();
    errors::fail_lanes(g, op, fail.into(), &vals)
}

/// A math op on per-lane operands: the vector math library (`codegen::vmath`).
fn math(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let args = ir
        .operands(op)
        .map(|v| vector(g, v).map(Into::into))
        .collect::<R<Vec<BasicValueEnum>>>()?;
    let v = crate::codegen::vmath::emit(g.llcx, g.module, &g.b, ir.name(op), &args)
        .map_err(|e| g.err(e))?;
    let r = ir.result(op, 0);
    ln_mut(g)
        .vals
        .insert(r, VVal::Vec(v.into_vector_value(), None));
    Ok(())
}
