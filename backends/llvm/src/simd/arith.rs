//! arith and math on per-lane values, with the scalar codegen's semantics (`codegen::arith`):
//! the same LLVM operations on vectors; a division by zero, a shift by the width or more and a
//! failing bounds check stop the lanes concerned (see `errors`), with divisors and shift
//! amounts made safe in the lanes that do not run them. Integer add, sub and mul by uniform
//! values, truncations and extensions keep the linear form of the thread index (see `Lin`).
//!
//! Math is the vector math library's (`codegen::vmath`, within an ulp or so of libm).

use super::{errors, is_lanes, ln, ln_mut, splat, vector, Lin, VVal};
use crate::codegen::{
    float_binary, int_binary, intrinsic, rounding_division, Gen, FLOAT_BINARY, INT_BINARY, R,
};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{BasicValueEnum, IntValue, VectorValue};
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
                when: None,
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
        (names::ADDI, Some(a), Some(b)) => {
            let (exact, when) = super::join_exact(g, &a, &b)?;
            Some(Lin {
                base: g.ck(g.b.build_int_add(a.base, b.base, "lb"))?,
                stride: a.stride.wrapping_add(b.stride),
                exact,
                when,
            })
        }
        (names::SUBI, Some(a), Some(b)) => {
            let (exact, when) = super::join_exact(g, &a, &b)?;
            Some(Lin {
                base: g.ck(g.b.build_int_sub(a.base, b.base, "lb"))?,
                stride: a.stride.wrapping_sub(b.stride),
                exact,
                when,
            })
        }
        // A product with a constant: a per-lane form (stride != 0), or a quotient the same in
        // every lane under a run-time condition (`block`).
        (names::MULI, Some(a), Some(_)) | (names::MULI, Some(_), Some(a))
            if a.stride != 0 || !a.exact =>
        {
            let (x, y) = (ir.operand(op, 0), ir.operand(op, 1));
            let k = const_of(g, y).or_else(|| const_of(g, x));
            match k {
                Some(k) => Some(Lin {
                    base: g.ck(g
                        .b
                        .build_int_mul(a.base, to.const_int(k as u64, true), "lb"))?,
                    stride: a.stride.wrapping_mul(k),
                    exact: a.exact,
                    when: a.when,
                }),
                None => None,
            }
        }
        (names::DIVSI | names::REMSI, Some(a), _) if a.stride == 1 => {
            match const_of(g, ir.operand(op, 1)) {
                Some(c) if c > 0 && c % i64::from(ln(g).w) == 0 => block(g, &a, c, name)?,
                _ => None,
            }
        }
        (names::TRUNCI, Some(a), _) => Some(Lin {
            base: g.ck(g.b.build_int_truncate(a.base, to, "lb"))?,
            stride: a.stride,
            exact: a.exact,
            when: a.when,
        }),
        (names::EXTSI | names::EXTUI | names::INDEX_CAST, Some(a), _) => {
            let from = a.base.get_type().get_bit_width();
            if from < to.get_bit_width() {
                // A widening may meet a wrap of the narrower sequence between two lanes.
                Some(super::widen(g, &a, to, name == names::EXTUI)?)
            } else {
                let base = if from == to.get_bit_width() {
                    a.base
                } else {
                    g.ck(g.b.build_int_truncate(a.base, to, "lb"))?
                };
                Some(Lin { base, ..a })
            }
        }
        _ => None,
    })
}

/// `a / c` or `a % c` (signed) of lanes `a` = base + l, c > 0 a multiple of W: when the group's
/// lanes lie in one block of c (base >= 0 and base % c <= c - W, tested at run time), the
/// quotient is base / c in every lane (stride 0) and the remainder base % c + l (stride 1), so
/// that an index blocked by lanes (a fused partial kernel's tiles) stays a contiguous access.
fn block<'ctx>(g: &Gen<'_, 'ctx>, a: &Lin<'ctx>, c: i64, name: &str) -> R<Option<Lin<'ctx>>> {
    let Some(prev) = a.exactness() else {
        return Ok(None);
    };
    let t = a.base.get_type();
    let cc = t.const_int(c as u64, true);
    let q = g.ck(g.b.build_int_signed_div(a.base, cc, "lq"))?;
    let r = g.ck(g.b.build_int_signed_rem(a.base, cc, "lr"))?;
    let nonneg = g.ck(g
        .b
        .build_int_compare(IntPredicate::SGE, a.base, t.const_zero(), "lnn"))?;
    let room = t.const_int((c - i64::from(ln(g).w)) as u64, true);
    let fits = g.ck(g.b.build_int_compare(IntPredicate::SLE, r, room, "lfit"))?;
    let mut ok = g.ck(g.b.build_and(nonneg, fits, "lblock"))?;
    if let Some(p) = prev {
        ok = g.ck(g.b.build_and(p, ok, "lblock"))?;
    }
    let (base, stride) = if name == names::DIVSI { (q, 0) } else { (r, 1) };
    Ok(Some(Lin {
        base,
        stride,
        exact: false,
        when: Some(ok),
    }))
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
    // Linear indices against uniform extents (an ndarray's elements by thread): one scalar test
    // of the group's lowest and highest index skips the per-lane check when every lane is in
    // bounds; else the per-lane check below reports the lowest failing lane as before.
    let done = match in_bounds_now(g, op, n)? {
        // A full group yet without effect restarts as a partial group, which tests lane by lane.
        Some(ok) if super::restart_unless(g, ok)? => return Ok(()),
        Some(ok) => {
            let slow = g.llcx.append_basic_block(g.func, "bounds.lanes");
            let done = g.llcx.append_basic_block(g.func, "bounds.ok");
            g.ck(g.b.build_conditional_branch(ok, done, slow))?;
            g.b.position_at_end(slow);
            Some(done)
        }
        None => None,
    };
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
    errors::fail_lanes(g, op, fail.into(), &vals)?;
    if let Some(done) = done {
        g.ck(g.b.build_unconditional_branch(done))?;
        g.b.position_at_end(done);
    }
    Ok(())
}

/// A scalar `i1` that holds when every lane's indices of bounds check `op` (`n` operands) are
/// in bounds, where every index is uniform or linear (exact, or exact under a scalar test) and
/// every extent uniform; else `None`.
fn in_bounds_now<'ctx>(g: &Gen<'_, 'ctx>, op: OpId, n: usize) -> R<Option<IntValue<'ctx>>> {
    let i64t = g.i64();
    let mut ok = g.llcx.bool_type().const_int(1, false);
    for k in 0..n / 2 {
        let (iv, ev) = (g.ir.operand(op, k), g.ir.operand(op, n / 2 + k));
        if is_lanes(g, ev) {
            return Ok(None);
        }
        let e = g.to_i64(g.int(ev)?)?;
        let (lo, hi, c) = match ln(g).vals.get(&iv) {
            None => {
                let i = g.to_i64(g.int(iv)?)?;
                (i, i, None)
            }
            Some(VVal::Vec(_, Some(l))) => {
                let l = if l.base.get_type().get_bit_width() < 64 {
                    super::widen(g, l, i64t, false)?
                } else {
                    *l
                };
                let Some(c) = l.exactness() else {
                    return Ok(None);
                };
                let span = l.stride.wrapping_mul(i64::from(ln(g).w - 1));
                let last =
                    g.ck(g
                        .b
                        .build_int_add(l.base, i64t.const_int(span as u64, true), "hi"))?;
                // The sum must not wrap: the last lane lies on the stride's side of the first.
                let pred = if span >= 0 {
                    IntPredicate::SGE
                } else {
                    IntPredicate::SLE
                };
                let order = g.ck(g.b.build_int_compare(pred, last, l.base, "order"))?;
                let c = match c {
                    Some(c) => g.ck(g.b.build_and(c, order, "nowrap"))?,
                    None => order,
                };
                if span >= 0 {
                    (l.base, last, Some(c))
                } else {
                    (last, l.base, Some(c))
                }
            }
            Some(_) => return Ok(None),
        };
        let ge = g.ck(g
            .b
            .build_int_compare(IntPredicate::SGE, lo, i64t.const_zero(), "ge"))?;
        let lt = g.ck(g.b.build_int_compare(IntPredicate::SLT, hi, e, "lt"))?;
        let both = g.ck(g.b.build_and(ge, lt, "in"))?;
        ok = g.ck(g.b.build_and(ok, both, "in"))?;
        if let Some(c) = c {
            ok = g.ck(g.b.build_and(ok, c, "in"))?;
        }
    }
    Ok(Some(ok))
}

/// A math op on per-lane operands: the vector math library (`codegen::vmath`).
fn math(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let args = ir
        .operands(op)
        .map(|v| vector(g, v).map(Into::into))
        .collect::<R<Vec<BasicValueEnum>>>()?;
    let afn = crate::codegen::vmath::allows_afn(ir, op);
    let v = crate::codegen::vmath::emit_flagged(g.llcx, g.module, &g.b, ir.name(op), &args, afn)
        .map_err(|e| g.err(e))?;
    let r = ir.result(op, 0);
    ln_mut(g)
        .vals
        .insert(r, VVal::Vec(v.into_vector_value(), None));
    Ok(())
}
