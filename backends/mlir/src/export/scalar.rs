//! arith and math: qd uses upstream's ops, so most are rebuilt as they are (their operands and
//! result types; the comparison predicate kept, `fastmath` and `overflowFlags` dropped, as the
//! other backends ignore them). Where upstream leaves a case undefined that qd defines, the
//! interpreter's semantics are spelled out with upstream ops: integer division and remainder by
//! zero and shifts by the width or more stop the thread with their error site; `divsi`, `remsi`,
//! `ceildivsi` and `floordivsi` by -1 are done apart (wrapping `-a`, or 0); `fptosi`/`fptoui`
//! saturate (NaN gives 0); `maxnumf`/`minnumf` are IEEE 754-2019 maximumNumber/minimumNumber
//! (-0 below +0, where LLVM's maxnum may return either zero); `math.fpowi` is repeated
//! multiplication as Rust's `powi` (libgcc's `__powisf2`) for exponents that fit in i32 and
//! `powf` in f64 past them, as the interpreter (MLIR's own expansion differs on both).

use super::{Emit, Val, R};
use crate::ir::{self, Blk, V};
use melior::ir::attribute::{FloatAttribute, IntegerAttribute};
use melior::ir::r#type::TypeLike;
use melior::ir::{Attribute, Type};
use qd_arith::names as a;
use qd_ir::{AttrData, OpId};
use qd_math::names as m;

pub(super) fn emit(e: &mut Emit<'_, '_>, op: OpId, name: &str, block: Blk) -> R<()> {
    let ir = e.ir;
    let operands = ir
        .operands(op)
        .map(|v| e.scalar(v))
        .collect::<R<Vec<V>>>()?;
    let results = ir
        .results(op)
        .iter()
        .map(|&r| e.ty(ir.value_type(r)))
        .collect::<R<Vec<Type>>>()?;
    // Verified IR has these arities; anything else is refused rather than indexed.
    let special = matches!(
        name,
        a::DIVSI
            | a::DIVUI
            | a::REMSI
            | a::REMUI
            | a::CEILDIVSI
            | a::FLOORDIVSI
            | a::CEILDIVUI
            | a::SHLI
            | a::SHRSI
            | a::SHRUI
    );
    let unary = matches!(name, a::FPTOSI | a::FPTOUI | a::TRUNCF);
    if (special && operands.len() != 2)
        || (unary && operands.len() != 1)
        || ((special || unary) && results.len() != 1)
    {
        return Err(e.err(format!(
            "'{name}' with an unexpected number of operands or results"
        )));
    }
    let v = match name {
        a::CONSTANT => constant(e, op, block, results.first().copied())?,
        a::DIVSI | a::DIVUI | a::REMSI | a::REMUI | a::CEILDIVSI | a::FLOORDIVSI | a::CEILDIVUI => {
            division(e, op, name, block, &operands)?
        }
        a::SHLI | a::SHRSI | a::SHRUI => {
            let (x, s) = (operands[0], operands[1]);
            let t = ir::type_of(x);
            let width = int_width(e, t)?;
            let w = e.const_int(t, i64::from(width))?;
            // uge = 9.
            let far = e.cmpi(block, 9, s, w)?;
            let amount = if width == 64 {
                s
            } else {
                e.op1(block, "arith.extui", &[s], e.i64(), &[])?
            };
            e.fail_if(block, op, far, &[amount])?;
            e.op1(block, name, &[x, s], t, &[])?
        }
        a::FPTOSI | a::FPTOUI => saturating(e, name, block, operands[0], results[0])?,
        a::MAXNUMF | a::MINNUMF if operands.len() == 2 => {
            number_min_max(e, name == a::MINNUMF, block, operands[0], operands[1])?
        }
        m::FPOWI if operands.len() == 2 && results.len() == 1 => {
            fpowi(e, block, operands[0], operands[1])?
        }
        a::TRUNCF => {
            let mode = ir.prop(op, "roundingmode").map(|m| ir.attr_data(m));
            if matches!(mode, Some(AttrData::Integer { value, .. }) if *value != 0) {
                return Err(e.err(
                    "the MLIR export supports only arith.truncf's default rounding (to_nearest_even)",
                ));
            }
            e.op1(block, name, &operands, results[0], &[])?
        }
        _ => {
            let mut attrs: Vec<(&str, Attribute)> = Vec::new();
            if let Some(p) = ir.prop(op, "predicate") {
                let AttrData::Integer { value, .. } = ir.attr_data(p) else {
                    return Err(e.err(format!("'{name}' has a predicate that is not an integer")));
                };
                attrs.push(("predicate", IntegerAttribute::new(e.i64(), *value).into()));
            }
            if !(name.starts_with("arith.") || name.starts_with("math.")) {
                return Err(e.err(format!("the MLIR export does not support '{name}'")));
            }
            if !e.b.cx.is_registered_operation(name) {
                return Err(e.err(format!("'{name}' is not an upstream MLIR op")));
            }
            let o = e.append(block, name, &operands, &results, &attrs)?;
            for i in 0..results.len() {
                e.set(op, i, Val::S(ir::result(o, i)));
            }
            return Ok(());
        }
    };
    e.set(op, 0, Val::S(v));
    Ok(())
}

fn int_width(e: &Emit<'_, '_>, t: Type<'_>) -> R<u32> {
    if t.is_index() {
        return Ok(64);
    }
    melior::ir::r#type::IntegerType::try_from(t)
        .map(|i| i.width())
        .map_err(|_| e.err("expected an integer type"))
}

fn constant<'c>(e: &mut Emit<'_, 'c>, op: OpId, block: Blk, t: Option<Type<'c>>) -> R<V> {
    let ir = e.ir;
    let t = t.ok_or_else(|| e.err("arith.constant without a result"))?;
    let attr: Attribute = match ir.prop(op, "value").map(|v| ir.attr_data(v)) {
        Some(AttrData::Integer { value, .. }) => IntegerAttribute::new(t, *value).into(),
        Some(AttrData::Bool(b)) => IntegerAttribute::new(t, i64::from(*b)).into(),
        Some(AttrData::Float { bits, .. }) => {
            FloatAttribute::new(e.b.cx, t, f64::from_bits(*bits)).into()
        }
        _ => return Err(e.err("the MLIR export supports only scalar integer and float constants")),
    };
    e.op1(block, "arith.constant", &[], t, &[("value", attr)])
}

fn division(e: &mut Emit<'_, '_>, op: OpId, name: &str, block: Blk, xs: &[V]) -> R<V> {
    let (x, y) = (xs[0], xs[1]);
    let t = ir::type_of(x);
    let zero = e.const_int(t, 0)?;
    // eq = 0.
    let is_zero = e.cmpi(block, 0, y, zero)?;
    e.fail_if(block, op, is_zero, &[])?;
    if matches!(name, a::DIVUI | a::REMUI | a::CEILDIVUI) {
        return e.op1(block, name, &[x, y], t, &[]);
    }
    // By -1 apart: -x (wrapping) for the quotients, 0 for the remainder.
    let m1 = e.const_int(t, -1)?;
    let one = e.const_int(t, 1)?;
    let is_m1 = e.cmpi(block, 0, y, m1)?;
    let safe = e.op1(block, "arith.select", &[is_m1, one, y], t, &[])?;
    let q = e.op1(block, name, &[x, safe], t, &[])?;
    let special = if name == a::REMSI {
        zero
    } else {
        e.op1(block, "arith.subi", &[zero, x], t, &[])?
    };
    e.op1(block, "arith.select", &[is_m1, special, q], t, &[])
}

/// `fptosi`/`fptoui` saturating: NaN -> 0, past the range -> its nearest end.
fn saturating<'c>(e: &mut Emit<'_, 'c>, name: &str, block: Blk, x: V, to: Type<'c>) -> R<V> {
    let width = int_width(e, to)?;
    let ft = ir::type_of(x);
    let signed = name == a::FPTOSI;
    let fc = |e: &mut Emit<'_, 'c>, v: f64| -> R<V> {
        let a = FloatAttribute::new(e.b.cx, ft, v).into();
        e.op1(block, "arith.constant", &[], ft, &[("value", a)])
    };
    let raw = e.op1(block, name, &[x], to, &[])?;
    let (lo_f, hi_f, lo_i, hi_i) = if signed {
        let h = 2f64.powi(width as i32 - 1);
        let (min, max) = if width == 64 {
            (i64::MIN, i64::MAX)
        } else {
            (-(1i64 << (width - 1)), (1i64 << (width - 1)) - 1)
        };
        (-h, h, min, max)
    } else {
        let max = if width == 64 {
            -1
        } else {
            ((1u64 << width) - 1) as i64
        };
        (-1.0, 2f64.powi(width as i32), 0, max)
    };
    let lo = fc(e, lo_f)?;
    let hi = fc(e, hi_f)?;
    let lo_c = e.const_int(to, lo_i)?;
    let hi_c = e.const_int(to, hi_i)?;
    let zero = e.const_int(to, 0)?;
    let pred = |e: &mut Emit<'_, 'c>, p: i64, a: V, b: V| -> R<V> {
        let attr = IntegerAttribute::new(e.i64(), p).into();
        e.op1(block, "arith.cmpf", &[a, b], e.i1(), &[("predicate", attr)])
    };
    // oge = 3, ole = 5 (signed low end: x <= -2^(w-1) gives MIN, which it is when equal),
    // uno = 14.
    let too_high = pred(e, 3, x, hi)?;
    let too_low = pred(e, 5, x, lo)?;
    let nan = pred(e, 14, x, x)?;
    let v = e.op1(block, "arith.select", &[too_high, hi_c, raw], to, &[])?;
    let v = e.op1(block, "arith.select", &[too_low, lo_c, v], to, &[])?;
    let v = e.op1(block, "arith.select", &[nan, zero, v], to, &[])?;
    Ok(v)
}

/// `cmpf` with predicate `p` (MLIR's number).
fn cmpf(e: &mut Emit<'_, '_>, block: Blk, p: i64, x: V, y: V) -> R<V> {
    let attr = IntegerAttribute::new(e.i64(), p).into();
    e.op1(block, "arith.cmpf", &[x, y], e.i1(), &[("predicate", attr)])
}

/// IEEE 754-2019 minimumNumber (`min`) or maximumNumber of `x` and `y`: a NaN loses to a number,
/// -0 is below +0. y wins when x is NaN, or y is a number and beyond x (or equal to it with the
/// sign that wins).
fn number_min_max(e: &mut Emit<'_, '_>, min: bool, block: Blk, x: V, y: V) -> R<V> {
    let t = ir::type_of(x);
    let width = if t.is_f32() {
        32
    } else if t.is_f64() {
        64
    } else {
        16
    };
    let it: Type = melior::ir::r#type::IntegerType::new(e.b.cx, width).into();
    // uno = 14, ord = 7, olt = 4, ogt = 2, oeq = 1; slt = 2, sge = 5.
    let x_nan = cmpf(e, block, 14, x, x)?;
    let y_num = cmpf(e, block, 7, y, y)?;
    let beyond = cmpf(e, block, if min { 4 } else { 2 }, y, x)?;
    let equal = cmpf(e, block, 1, y, x)?;
    let bits = e.op1(block, "arith.bitcast", &[y], it, &[])?;
    let zero = e.const_int(it, 0)?;
    let sign = e.cmpi(block, if min { 2 } else { 5 }, bits, zero)?;
    let i1 = e.i1();
    let tie = e.op1(block, "arith.andi", &[equal, sign], i1, &[])?;
    let better = e.op1(block, "arith.ori", &[beyond, tie], i1, &[])?;
    let num_better = e.op1(block, "arith.andi", &[y_num, better], i1, &[])?;
    let take_y = e.op1(block, "arith.ori", &[x_nan, num_better], i1, &[])?;
    e.op1(block, "arith.select", &[take_y, y, x], t, &[])
}

/// `math.fpowi x, n`: for n in i32, `__powisf2`'s loop (u = |n| as unsigned; y = u odd ? x : 1;
/// while (u >>= 1) { x *= x; if (u odd) y *= x; }; n < 0 ? 1 / y : y); past i32, `powf` in f64.
fn fpowi(e: &mut Emit<'_, '_>, block: Blk, x: V, n: V) -> R<V> {
    let ft = ir::type_of(x);
    let nt = ir::type_of(n);
    let width = int_width(e, nt)?;
    let i32t: Type = melior::ir::r#type::IntegerType::new(e.b.cx, 32).into();
    let m = match width.cmp(&32) {
        std::cmp::Ordering::Less => e.op1(block, "arith.extsi", &[n], i32t, &[])?,
        std::cmp::Ordering::Equal => n,
        std::cmp::Ordering::Greater => e.op1(block, "arith.trunci", &[n], i32t, &[])?,
    };
    let zero = e.const_int(i32t, 0)?;
    let one_i = e.const_int(i32t, 1)?;
    let fone = FloatAttribute::new(e.b.cx, ft, 1.0).into();
    let one_f = e.op1(block, "arith.constant", &[], ft, &[("value", fone)])?;
    // slt = 2, ne = 1.
    let neg = e.cmpi(block, 2, m, zero)?;
    let minus = e.op1(block, "arith.subi", &[zero, m], i32t, &[])?;
    let u = e.op1(block, "arith.select", &[neg, minus, m], i32t, &[])?;
    let low = e.op1(block, "arith.andi", &[u, one_i], i32t, &[])?;
    let odd = e.cmpi(block, 1, low, zero)?;
    let y0 = e.op1(block, "arith.select", &[odd, x, one_f], ft, &[])?;
    // scf.while (x, y, u): before: u >>= 1, go on while it is not 0; after: x *= x, y *= x when
    // u is odd.
    let carried = [ft, ft, i32t];
    let (before_r, before) = e.b.region(&carried);
    let (after_r, after) = e.b.region(&carried);
    let w =
        e.b.append(
            block,
            "scf.while",
            &[x, y0, u],
            &carried,
            &[],
            vec![before_r, after_r],
        )
        .map_err(|msg| e.err(msg))?;
    let (bx, by, bu) = (
        ir::block_arg(before, 0),
        ir::block_arg(before, 1),
        ir::block_arg(before, 2),
    );
    let shifted = e.op1(before, "arith.shrui", &[bu, one_i], i32t, &[])?;
    let more = e.cmpi(before, 1, shifted, zero)?;
    e.append(before, "scf.condition", &[more, bx, by, shifted], &[], &[])?;
    let (ax, ay, au) = (
        ir::block_arg(after, 0),
        ir::block_arg(after, 1),
        ir::block_arg(after, 2),
    );
    let x2 = e.op1(after, "arith.mulf", &[ax, ax], ft, &[])?;
    let yx = e.op1(after, "arith.mulf", &[ay, x2], ft, &[])?;
    let bit = e.op1(after, "arith.andi", &[au, one_i], i32t, &[])?;
    let set = e.cmpi(after, 1, bit, zero)?;
    let y2 = e.op1(after, "arith.select", &[set, yx, ay], ft, &[])?;
    e.yield_(after, &[x2, y2, au])?;
    let y = ir::result(w, 1);
    let inv = e.op1(block, "arith.divf", &[one_f, y], ft, &[])?;
    let small = e.op1(block, "arith.select", &[neg, inv, y], ft, &[])?;
    if width <= 32 {
        return Ok(small);
    }
    // Past i32: powf in f64 (exact integers up to 2^53 keep an odd power's sign).
    let f64t = Type::float64(e.b.cx);
    let xd = if ft == f64t {
        x
    } else {
        e.op1(block, "arith.extf", &[x], f64t, &[])?
    };
    let nd = e.op1(block, "arith.sitofp", &[n], f64t, &[])?;
    let p = e.op1(block, "math.powf", &[xd, nd], f64t, &[])?;
    let wide = if ft == f64t {
        p
    } else {
        e.op1(block, "arith.truncf", &[p], ft, &[])?
    };
    let back = e.op1(block, "arith.extsi", &[m], nt, &[])?;
    let fits = e.cmpi(block, 0, back, n)?;
    e.op1(block, "arith.select", &[fits, small, wide], ft, &[])
}
