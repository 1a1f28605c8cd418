//! Integer arithmetic, bitwise and shift ops on signless integers and index. Constant folding
//! wraps at the type's width (index: 64 bits); divisions by zero, `INT_MIN / -1` and shifts by
//! the width or more are left alone, as upstream does. The rounding divisions (`ceildivsi`,
//! `floordivsi`, `ceildivui`) fold only where upstream's folder does (no overflow in its
//! intermediate steps, no division by zero).

use crate::consts::{fold_attr, fold_value, int_attr, IntVal};
use crate::elementwise::ElementwiseDef;
use crate::fold::{binary, int_binary, result_type};
use crate::names;
use crate::patterns::*;
use crate::verify::TypeClass::IntLike;
use qd_ir::rewrite::RewritePattern;
use qd_ir::{Attribute, Context, FoldResult, OpId, OpInfo, Value};

type Folded = Option<Vec<FoldResult>>;
type Patterns = Vec<Box<dyn RewritePattern>>;

static ADDI: &ElementwiseDef = &ElementwiseDef::same(names::ADDI, "integer addition", 2, IntLike)
    .overflow()
    .commutative()
    .fold(fold_addi)
    .patterns(addi_patterns);
static SUBI: &ElementwiseDef =
    &ElementwiseDef::same(names::SUBI, "integer subtraction", 2, IntLike)
        .overflow()
        .fold(fold_subi)
        .patterns(subi_patterns);
static MULI: &ElementwiseDef =
    &ElementwiseDef::same(names::MULI, "integer multiplication", 2, IntLike)
        .overflow()
        .commutative()
        .fold(fold_muli)
        .patterns(muli_patterns);
static DIVSI: &ElementwiseDef = &ElementwiseDef::same(
    names::DIVSI,
    "signed integer division rounding toward zero",
    2,
    IntLike,
)
.fold(fold_divsi);
static DIVUI: &ElementwiseDef =
    &ElementwiseDef::same(names::DIVUI, "unsigned integer division", 2, IntLike).fold(fold_divui);
static REMSI: &ElementwiseDef =
    &ElementwiseDef::same(names::REMSI, "signed integer remainder", 2, IntLike).fold(fold_remsi);
static REMUI: &ElementwiseDef =
    &ElementwiseDef::same(names::REMUI, "unsigned integer remainder", 2, IntLike).fold(fold_remui);
static MINSI: &ElementwiseDef =
    &ElementwiseDef::same(names::MINSI, "signed integer minimum", 2, IntLike)
        .commutative()
        .fold(fold_minsi)
        .patterns(minsi_patterns);
static MAXSI: &ElementwiseDef =
    &ElementwiseDef::same(names::MAXSI, "signed integer maximum", 2, IntLike)
        .commutative()
        .fold(fold_maxsi)
        .patterns(maxsi_patterns);
static MINUI: &ElementwiseDef =
    &ElementwiseDef::same(names::MINUI, "unsigned integer minimum", 2, IntLike)
        .commutative()
        .fold(fold_minui)
        .patterns(minui_patterns);
static MAXUI: &ElementwiseDef =
    &ElementwiseDef::same(names::MAXUI, "unsigned integer maximum", 2, IntLike)
        .commutative()
        .fold(fold_maxui)
        .patterns(maxui_patterns);
static CEILDIVSI: &ElementwiseDef = &ElementwiseDef::same(
    names::CEILDIVSI,
    "signed integer division rounding toward positive infinity",
    2,
    IntLike,
)
.fold(fold_ceildivsi);
static CEILDIVUI: &ElementwiseDef = &ElementwiseDef::same(
    names::CEILDIVUI,
    "unsigned integer division rounding toward positive infinity",
    2,
    IntLike,
)
.fold(fold_ceildivui);
static FLOORDIVSI: &ElementwiseDef = &ElementwiseDef::same(
    names::FLOORDIVSI,
    "signed integer division rounding toward negative infinity",
    2,
    IntLike,
)
.fold(fold_floordivsi);
static ANDI: &ElementwiseDef = &ElementwiseDef::same(names::ANDI, "bitwise and", 2, IntLike)
    .commutative()
    .fold(fold_andi)
    .patterns(andi_patterns);
static ORI: &ElementwiseDef = &ElementwiseDef::same(names::ORI, "bitwise or", 2, IntLike)
    .commutative()
    .fold(fold_ori)
    .patterns(ori_patterns);
static XORI: &ElementwiseDef =
    &ElementwiseDef::same(names::XORI, "bitwise exclusive or", 2, IntLike)
        .commutative()
        .fold(fold_xori)
        .patterns(xori_patterns);
static SHLI: &ElementwiseDef = &ElementwiseDef::same(names::SHLI, "shift left", 2, IntLike)
    .overflow()
    .fold(fold_shli);
static SHRSI: &ElementwiseDef =
    &ElementwiseDef::same(names::SHRSI, "arithmetic shift right", 2, IntLike).fold(fold_shrsi);
static SHRUI: &ElementwiseDef =
    &ElementwiseDef::same(names::SHRUI, "logical shift right", 2, IntLike).fold(fold_shrui);

/// The integer ops, in registration order.
pub fn ops() -> Vec<OpInfo> {
    [
        &ADDI,
        &SUBI,
        &MULI,
        &DIVSI,
        &DIVUI,
        &REMSI,
        &REMUI,
        &MINSI,
        &MAXSI,
        &MINUI,
        &MAXUI,
        &CEILDIVSI,
        &CEILDIVUI,
        &FLOORDIVSI,
        &ANDI,
        &ORI,
        &XORI,
        &SHLI,
        &SHRSI,
        &SHRUI,
    ]
    .into_iter()
    .map(ElementwiseDef::op_info)
    .collect()
}

fn addi_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::ADDI)));
    v.push(Box::new(ADDI_ADD_CONSTANT));
    v.push(Box::new(ADDI_SUB_CONSTANT_RHS));
    v.push(Box::new(ADDI_SUB_CONSTANT_LHS));
    v.push(fn_pattern("arith-addi-of-neg", names::ADDI, addi_of_neg));
}
fn subi_patterns(v: &mut Patterns) {
    v.push(Box::new(SUBI_RHS_ADD_CONSTANT));
    v.push(Box::new(SUBI_LHS_ADD_CONSTANT));
    v.push(Box::new(SUBI_RHS_SUB_CONSTANT_RHS));
    v.push(Box::new(SUBI_RHS_SUB_CONSTANT_LHS));
    v.push(Box::new(SUBI_LHS_SUB_CONSTANT_RHS));
    v.push(Box::new(SUBI_LHS_SUB_CONSTANT_LHS));
    v.push(fn_pattern(
        "arith-subi-of-subi-lhs",
        names::SUBI,
        subi_of_subi_lhs,
    ));
}
fn muli_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MULI)));
    v.push(Box::new(MULI_MUL_CONSTANT));
}
fn minsi_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MINSI)));
}
fn maxsi_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MAXSI)));
}
fn minui_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MINUI)));
}
fn maxui_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::MAXUI)));
}
/// `name(ext x, ext y)` -> `ext(name(x, y))`, zero- then sign-extension (upstream's order).
fn logic_of_exts(v: &mut Patterns, name: &'static str) {
    v.push(fn_pattern("arith-logic-of-extui", name, logic_of_extui));
    v.push(fn_pattern("arith-logic-of-extsi", name, logic_of_extsi));
}
fn andi_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::ANDI)));
    logic_of_exts(v, names::ANDI);
}
fn ori_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::ORI)));
    logic_of_exts(v, names::ORI);
}
fn xori_patterns(v: &mut Patterns) {
    v.push(Box::new(ConstantToRhs(names::XORI)));
    logic_of_exts(v, names::XORI);
    v.push(fn_pattern(
        "arith-xori-not-cmpi",
        names::XORI,
        xori_not_cmpi,
    ));
}

/// The integer constant `value` in the op's result type.
fn constant(ctx: &mut Context, op: OpId, value: i64) -> Folded {
    let ty = result_type(ctx, op)?;
    fold_attr(int_attr(ctx, value, ty))
}

fn fold_addi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    // Upstream's order: identities (which keep existing values) before constant folding.
    if b.rhs_int(ctx).is_some_and(|y| y.is_zero()) {
        return fold_value(b.lhs);
    }
    // addi(subi(a, b), b) and addi(b, subi(a, b)) are a (wrapping arithmetic).
    for (s, other) in [(b.lhs, b.rhs), (b.rhs, b.lhs)] {
        if let Some(sub) = def_by(ctx, s, names::SUBI, 2) {
            if ctx.operand(sub, 1) == other {
                return fold_value(ctx.operand(sub, 0));
            }
        }
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext().wrapping_add(y.zext()), w))
    })
}

fn fold_subi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.lhs == b.rhs {
        return constant(ctx, op, 0);
    }
    if b.rhs_int(ctx).is_some_and(|y| y.is_zero()) {
        return fold_value(b.lhs);
    }
    // subi(addi(a, b), b) is a, subi(addi(a, b), a) is b (wrapping arithmetic).
    if let Some(add) = def_by(ctx, b.lhs, names::ADDI, 2) {
        let (x, y) = (ctx.operand(add, 0), ctx.operand(add, 1));
        if b.rhs == y {
            return fold_value(x);
        }
        if b.rhs == x {
            return fold_value(y);
        }
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext().wrapping_sub(y.zext()), w))
    })
}

fn fold_muli(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    match b.rhs_int(ctx) {
        Some(y) if y.is_zero() => return fold_value(b.rhs),
        Some(y) if y.is_one() => return fold_value(b.lhs),
        _ => {}
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext().wrapping_mul(y.zext()), w))
    })
}

fn fold_divsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_one()) {
        return fold_value(b.lhs);
    }
    div_of_mul(ctx, b.lhs, b.rhs, NSW).or_else(|| {
        int_binary(ctx, op, c, |x, y, w| {
            if y.is_zero() || (x == IntVal::signed_min(w) && y.is_all_ones()) {
                return None;
            }
            Some(IntVal::new(x.sext() / y.sext(), w))
        })
    })
}

/// `(a * b) / b` is `a` (and `(a * b) / a` is `b`) when the multiplication carries `flag`: `nuw`
/// for divui, `nsw` for divsi, which say the product did not wrap in that reading (upstream
/// foldDivMul). Without it the product may have wrapped and the quotient differs.
fn div_of_mul(ctx: &Context, lhs: Value, rhs: Value, flag: u8) -> Folded {
    let mul = def_by(ctx, lhs, names::MULI, 2)?;
    if overflow_bits(ctx, mul) & flag != flag {
        return None;
    }
    let (a, b) = (ctx.operand(mul, 0), ctx.operand(mul, 1));
    if a == rhs {
        fold_value(b)
    } else if b == rhs {
        fold_value(a)
    } else {
        None
    }
}

fn fold_divui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_one()) {
        return fold_value(b.lhs);
    }
    div_of_mul(ctx, b.lhs, b.rhs, NUW).or_else(|| {
        int_binary(ctx, op, c, |x, y, w| {
            (!y.is_zero()).then(|| IntVal::from_bits(x.zext() / y.zext(), w))
        })
    })
}

fn fold_remsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    // x rem 1 is 0 (upstream folds no other divisor: not even -1, where it is 0 too).
    if b.rhs_int(ctx).is_some_and(|y| y.is_one()) {
        return constant(ctx, op, 0);
    }
    int_binary(ctx, op, c, |x, y, w| {
        (!y.is_zero()).then(|| IntVal::new(x.sext().wrapping_rem(y.sext()), w))
    })
}

fn fold_remui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_one()) {
        return constant(ctx, op, 0);
    }
    int_binary(ctx, op, c, |x, y, w| {
        (!y.is_zero()).then(|| IntVal::from_bits(x.zext() % y.zext(), w))
    })
}

fn fold_minsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    // Upstream's order: x op x, then the extremes, then constant folding.
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    // min(x, INT_MIN) is INT_MIN; min(x, INT_MAX) is x.
    if let Some(y) = b.rhs_int(ctx) {
        if y == IntVal::signed_min(y.width()) {
            return fold_value(b.rhs);
        }
        if y == IntVal::signed_max(y.width()) {
            return fold_value(b.lhs);
        }
    }
    int_binary(ctx, op, c, |x, y, _| {
        Some(if x.sext() <= y.sext() { x } else { y })
    })
}

fn fold_maxsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    // Upstream's order: x op x, then the extremes, then constant folding.
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    // max(x, INT_MAX) is INT_MAX; max(x, INT_MIN) is x.
    if let Some(y) = b.rhs_int(ctx) {
        if y == IntVal::signed_max(y.width()) {
            return fold_value(b.rhs);
        }
        if y == IntVal::signed_min(y.width()) {
            return fold_value(b.lhs);
        }
    }
    int_binary(ctx, op, c, |x, y, _| {
        Some(if x.sext() >= y.sext() { x } else { y })
    })
}

fn fold_minui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    // Upstream's order: x op x, then the extremes, then constant folding.
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    // minui(x, 0) is 0; minui(x, UINT_MAX) is x.
    match b.rhs_int(ctx) {
        Some(y) if y.is_zero() => return fold_value(b.rhs),
        Some(y) if y.is_all_ones() => return fold_value(b.lhs),
        _ => {}
    }
    int_binary(ctx, op, c, |x, y, _| {
        Some(if x.zext() <= y.zext() { x } else { y })
    })
}

fn fold_maxui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    // Upstream's order: x op x, then the extremes, then constant folding.
    if b.lhs == b.rhs {
        return fold_value(b.lhs);
    }
    // maxui(x, UINT_MAX) is UINT_MAX; maxui(x, 0) is x.
    match b.rhs_int(ctx) {
        Some(y) if y.is_all_ones() => return fold_value(b.rhs),
        Some(y) if y.is_zero() => return fold_value(b.lhs),
        _ => {}
    }
    int_binary(ctx, op, c, |x, y, _| {
        Some(if x.zext() >= y.zext() { x } else { y })
    })
}

/// `x / 1` is `x` for every rounding division.
fn div_by_one(ctx: &Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    b.rhs_int(ctx)
        .filter(|y| y.is_one())
        .and_then(|_| fold_value(b.lhs))
}

/// `ceil(x / y)` of signed `x` and `y`, where upstream's folder gives one: not for `y = 0`, and
/// not when it would negate `INT_MIN` on the way (`x` or `y` is `INT_MIN` and `x` is not 0).
pub fn ceildivsi(x: IntVal, y: IntVal, w: u32) -> Option<IntVal> {
    let min = IntVal::signed_min(w);
    if y.is_zero() || (!x.is_zero() && (x == min || y == min)) {
        return None;
    }
    let (a, b) = (x.sext() as i128, y.sext() as i128);
    let q = a.div_euclid(b);
    // Euclidean division leaves 0 <= r < |b|; a non-zero remainder rounds up when b > 0, and
    // div_euclid already rounded up when b < 0.
    let up = b > 0 && a.rem_euclid(b) != 0;
    Some(IntVal::new((q + up as i128) as i64, w))
}

/// `floor(x / y)` of signed `x` and `y`; none for `y = 0` and `INT_MIN / -1` (it overflows).
pub fn floordivsi(x: IntVal, y: IntVal, w: u32) -> Option<IntVal> {
    if y.is_zero() || (x == IntVal::signed_min(w) && y.is_all_ones()) {
        return None;
    }
    let (a, b) = (x.sext() as i128, y.sext() as i128);
    let q = a.div_euclid(b);
    // Euclidean division rounds down when b > 0 and up (on a remainder) when b < 0.
    let down = b < 0 && a.rem_euclid(b) != 0;
    Some(IntVal::new((q - down as i128) as i64, w))
}

/// `ceil(x / y)` of unsigned `x` and `y`; none for `y = 0`.
pub fn ceildivui(x: IntVal, y: IntVal, w: u32) -> Option<IntVal> {
    if y.is_zero() {
        return None;
    }
    let (a, b) = (x.zext(), y.zext());
    Some(IntVal::from_bits(a / b + (a % b != 0) as u64, w))
}

fn fold_ceildivsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    div_by_one(ctx, op, c).or_else(|| int_binary(ctx, op, c, ceildivsi))
}

fn fold_floordivsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    div_by_one(ctx, op, c).or_else(|| int_binary(ctx, op, c, floordivsi))
}

fn fold_ceildivui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    div_by_one(ctx, op, c).or_else(|| int_binary(ctx, op, c, ceildivui))
}

fn fold_andi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    match b.rhs_int(ctx) {
        Some(y) if y.is_zero() => return fold_value(b.rhs),
        Some(y) if y.is_all_ones() => return fold_value(b.lhs),
        _ => {}
    }
    // and(x, not x) and and(not x, x) are 0.
    if not_of(ctx, b.rhs, b.lhs).is_some() || not_of(ctx, b.lhs, b.rhs).is_some() {
        return constant(ctx, op, 0);
    }
    // and(a, and(a, b)) is and(a, b), whichever side either operand is on.
    for (inner, other) in [(b.lhs, b.rhs), (b.rhs, b.lhs)] {
        if let Some(prev) = def_by(ctx, inner, names::ANDI, 2) {
            if other == ctx.operand(prev, 0) || other == ctx.operand(prev, 1) {
                return fold_value(inner);
            }
        }
    }
    if let Some(r) = int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext() & y.zext(), w))
    }) {
        return Some(r);
    }
    // and(x, x) is x: upstream's Idempotent trait, tried after the op's own folds.
    (b.lhs == b.rhs).then(|| fold_value(b.lhs)).flatten()
}

/// The all-ones constant `c` when `v` is `xori(x, c)` (`not x`), as upstream matches it: `x` on
/// the left, an integer constant on the right.
fn not_of(ctx: &Context, v: Value, x: Value) -> Option<Value> {
    let d = def_by(ctx, v, names::XORI, 2)?;
    let c = ctx.operand(d, 1);
    (ctx.operand(d, 0) == x && int_const(ctx, c)?.is_all_ones()).then_some(c)
}

fn fold_ori(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    match b.rhs_int(ctx) {
        Some(y) if y.is_zero() => return fold_value(b.lhs),
        // Upstream gives the constant's attribute here, not the value.
        Some(y) if y.is_all_ones() => return fold_attr(b.rhs_c?),
        _ => {}
    }
    // or(x, not x) and or(not x, x) are all ones: the `not`'s own constant.
    if let Some(k) = not_of(ctx, b.rhs, b.lhs).or_else(|| not_of(ctx, b.lhs, b.rhs)) {
        return fold_value(k);
    }
    if let Some(r) = int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext() | y.zext(), w))
    }) {
        return Some(r);
    }
    // or(x, x) is x (the Idempotent trait).
    (b.lhs == b.rhs).then(|| fold_value(b.lhs)).flatten()
}

fn fold_xori(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_zero()) {
        return fold_value(b.lhs);
    }
    if b.lhs == b.rhs {
        return constant(ctx, op, 0);
    }
    // xor(xor(x, a), a), xor(xor(a, x), a), xor(a, xor(x, a)), xor(a, xor(a, x)) are x.
    for (inner, other) in [(b.lhs, b.rhs), (b.rhs, b.lhs)] {
        if let Some(prev) = def_by(ctx, inner, names::XORI, 2) {
            let (p0, p1) = (ctx.operand(prev, 0), ctx.operand(prev, 1));
            if p1 == other {
                return fold_value(p0);
            }
            if p0 == other {
                return fold_value(p1);
            }
        }
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext() ^ y.zext(), w))
    })
}

/// The shift amount when it is below the width (larger shifts have no defined result).
fn shift_amount(y: IntVal, w: u32) -> Option<u32> {
    (y.zext() < w as u64).then_some(y.zext() as u32)
}

fn fold_shli(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_zero()) {
        return fold_value(b.lhs);
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext() << shift_amount(y, w)?, w))
    })
}

fn fold_shrsi(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_zero()) {
        return fold_value(b.lhs);
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::new(x.sext() >> shift_amount(y, w)?, w))
    })
}

fn fold_shrui(ctx: &mut Context, op: OpId, c: &[Option<Attribute>]) -> Folded {
    let b = binary(ctx, op, c)?;
    if b.rhs_int(ctx).is_some_and(|y| y.is_zero()) {
        return fold_value(b.lhs);
    }
    int_binary(ctx, op, c, |x, y, w| {
        Some(IntVal::from_bits(x.zext() >> shift_amount(y, w)?, w))
    })
}
