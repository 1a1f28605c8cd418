//! Upstream's canonicalizations (#17): each fold and pattern on the inputs it must rewrite, and
//! on the near misses its side conditions exclude.

use super::h;
use crate::build::*;
use crate::consts::IntVal;
use crate::flags::FlagKind;
use crate::names::*;
use crate::patterns::*;
use crate::predicates::{CmpFPredicate, CmpIPredicate};
use crate::testing::Harness;
use crate::{CmpIOp, ConstantOp};
use qd_ir::rewrite::Rewriter;
use qd_ir::{AttrData, OpId, Value};

type PatFn = fn(OpId, &mut Rewriter<'_>) -> bool;

fn apply(h: &mut Harness, f: PatFn, op: OpId) -> bool {
    f(op, &mut Rewriter::new(&mut h.ctx))
}

/// `apply` on the op defining `v`.
fn apply_v(h: &mut Harness, f: PatFn, v: Value) -> bool {
    let op = def(h, v);
    apply(h, f, op)
}

fn def(h: &Harness, v: Value) -> OpId {
    h.ctx.defining_op(v).unwrap()
}

fn cmpi(h: &mut Harness, p: CmpIPredicate, a: Value, b: Value) -> OpId {
    let loc = h.loc;
    let v = build_cmpi(&mut h.builder(), p, a, b, loc);
    def(h, v)
}

fn cmpf(h: &mut Harness, p: CmpFPredicate, a: Value, b: Value) -> OpId {
    let loc = h.loc;
    let v = build_cmpf(&mut h.builder(), p, a, b, loc);
    def(h, v)
}

fn cast(h: &mut Harness, name: &str, x: Value, ty: &str) -> Value {
    let op = h.op(name, &[x], ty);
    h.ctx.result(op, 0)
}

fn bin(h: &mut Harness, name: &str, a: Value, b: Value, ty: &str) -> Value {
    let op = h.op(name, &[a, b], ty);
    h.ctx.result(op, 0)
}

fn set_overflow(h: &mut Harness, v: Value, bits: u8) {
    let op = def(h, v);
    let a = FlagKind::Overflow.attr(&mut h.ctx, bits);
    h.ctx.set_prop(op, "overflowFlags", a);
}

/// The op now defining the single use of the result of the rewritten op, through a user.
fn user_of(h: &mut Harness, v: Value) -> OpId {
    h.op(NEGF, &[v], "f32")
}

#[test]
fn cmpi_constant_moves_right_with_mirrored_predicate() {
    let mut h = h();
    let x = h.arg("i32");
    let k = h.int(7, "i32");
    for (p, q) in [
        (CmpIPredicate::Slt, CmpIPredicate::Sgt),
        (CmpIPredicate::Uge, CmpIPredicate::Ule),
        (CmpIPredicate::Eq, CmpIPredicate::Eq),
        (CmpIPredicate::Ne, CmpIPredicate::Ne),
    ] {
        let op = cmpi(&mut h, p, k, x);
        assert!(apply(&mut h, cmpi_constant_to_rhs, op));
        assert_eq!(h.ctx.operand_vec(op), vec![x, k]);
        assert_eq!(CmpIOp(op).predicate(&h.ctx), Some(q));
        // Canonical now: no second change.
        assert!(!apply(&mut h, cmpi_constant_to_rhs, op));
    }
    let k2 = h.int(8, "i32");
    let both = cmpi(&mut h, CmpIPredicate::Slt, k, k2);
    assert!(!apply(&mut h, cmpi_constant_to_rhs, both));
}

#[test]
fn cmpi_of_two_exts_only_for_eq_ne_and_one_kind() {
    let mut h = h();
    let (a, b, c) = (h.arg("i8"), h.arg("i8"), h.arg("i16"));
    let (sa, sb) = (cast(&mut h, EXTSI, a, "i32"), cast(&mut h, EXTSI, b, "i32"));
    let (ua, uc) = (cast(&mut h, EXTUI, a, "i32"), cast(&mut h, EXTUI, c, "i32"));
    let eq = cmpi(&mut h, CmpIPredicate::Eq, sa, sb);
    let r = h.ctx.result(eq, 0);
    let u = h.op(XORI, &[r, r], "i1");
    assert!(apply(&mut h, cmpi_of_extsi, eq));
    let new = def(&h, h.ctx.operand(u, 0));
    assert_eq!(h.ctx.operand_vec(new), vec![a, b]);
    assert_eq!(CmpIOp(new).predicate(&h.ctx), Some(CmpIPredicate::Eq));
    assert_eq!(h.verify(new), Ok(()));
    // Order predicates are not kept by an extension of the other signedness.
    let slt = cmpi(&mut h, CmpIPredicate::Slt, sa, sb);
    assert!(!apply(&mut h, cmpi_of_extsi, slt));
    // Mixed kinds, or sources of different types: no.
    let mixed = cmpi(&mut h, CmpIPredicate::Ne, sa, ua);
    assert!(!apply(&mut h, cmpi_of_extsi, mixed) && !apply(&mut h, cmpi_of_extui, mixed));
    let types = cmpi(&mut h, CmpIPredicate::Ne, ua, uc);
    assert!(!apply(&mut h, cmpi_of_extui, types));
}

#[test]
fn cmpi_folds_of_i1() {
    let mut h = h();
    let b = h.arg("i1");
    let (z32, z1, one1) = (h.int(0, "i32"), h.int(0, "i1"), h.int(1, "i1"));
    for ext in [EXTSI, EXTUI] {
        let e = cast(&mut h, ext, b, "i32");
        let ne = cmpi(&mut h, CmpIPredicate::Ne, e, z32);
        assert_eq!(h.fold_value(ne), Some(b), "{ext}");
        // eq 0 is the negation: not folded.
        let eq = cmpi(&mut h, CmpIPredicate::Eq, e, z32);
        assert_eq!(h.fold(eq), None, "{ext}");
    }
    // Only an extension of an i1.
    let x8 = h.arg("i8");
    let e8 = cast(&mut h, EXTUI, x8, "i32");
    let ne8 = cmpi(&mut h, CmpIPredicate::Ne, e8, z32);
    assert_eq!(h.fold(ne8), None);
    let ne = cmpi(&mut h, CmpIPredicate::Ne, b, z1);
    assert_eq!(h.fold_value(ne), Some(b));
    let eq = cmpi(&mut h, CmpIPredicate::Eq, b, one1);
    assert_eq!(h.fold_value(eq), Some(b));
    let eq0 = cmpi(&mut h, CmpIPredicate::Eq, b, z1);
    assert_eq!(h.fold(eq0), None);
}

#[test]
fn cmpf_with_one_nan_folds() {
    let mut h = h();
    let x = h.arg("f32");
    let nan = h.float(f64::NAN, "f32");
    let cases = [
        (CmpFPredicate::Oeq, x, nan, false),
        (CmpFPredicate::Une, nan, x, true),
        (CmpFPredicate::Ord, x, nan, false),
        (CmpFPredicate::Uno, nan, x, true),
        (CmpFPredicate::Olt, nan, x, false),
        (CmpFPredicate::Ule, x, nan, true),
    ];
    for (p, a, b, want) in cases {
        let op = cmpf(&mut h, p, a, b);
        let got = h.fold_attr(op).map(|a| h.ctx.attr_data(a).clone());
        assert_eq!(got, Some(AttrData::Bool(want)), "{p:?}");
    }
    // x may itself be NaN: oeq x, x is not folded.
    let op = cmpf(&mut h, CmpFPredicate::Oeq, x, x);
    assert_eq!(h.fold(op), None);
}

#[test]
fn ext_of_ext() {
    let mut h = h();
    let b = h.arg("i1");
    let u8v = cast(&mut h, EXTUI, b, "i8");
    let s8v = cast(&mut h, EXTSI, b, "i8");
    // extui(extui) and extsi(extsi): the operand becomes the inner one's.
    let uu = cast(&mut h, EXTUI, u8v, "i64");
    let uu_op = def(&h, uu);
    assert!(apply(&mut h, ext_of_same_ext, uu_op));
    assert_eq!(h.ctx.operand(uu_op, 0), b);
    let ss = cast(&mut h, EXTSI, s8v, "i64");
    let ss_op = def(&h, ss);
    assert!(apply(&mut h, ext_of_same_ext, ss_op));
    assert_eq!(h.ctx.operand(ss_op, 0), b);
    // extui(extsi) is neither (the sign bits are not zeros).
    let us = cast(&mut h, EXTUI, s8v, "i64");
    let us_op = def(&h, us);
    assert!(!apply(&mut h, ext_of_same_ext, us_op));
    // extsi(extui x) is extui x.
    let su = cast(&mut h, EXTSI, u8v, "i64");
    let user = h.op(XORI, &[su, su], "i64");
    let su_op = def(&h, su);
    assert!(!apply(&mut h, ext_of_same_ext, su_op));
    assert!(apply(&mut h, extsi_of_extui, su_op));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!(h.ctx.name(new), EXTUI);
    assert_eq!(h.ctx.operand(new, 0), b);
    assert_eq!(h.verify(new), Ok(()));
}

#[test]
fn logic_over_matching_exts() {
    let mut h = h();
    let (a, b, c) = (h.arg("i8"), h.arg("i8"), h.arg("i16"));
    let (ua, ub, uc) = (
        cast(&mut h, EXTUI, a, "i32"),
        cast(&mut h, EXTUI, b, "i32"),
        cast(&mut h, EXTUI, c, "i32"),
    );
    let sa = cast(&mut h, EXTSI, a, "i32");
    for name in [ANDI, ORI, XORI] {
        let r = bin(&mut h, name, ua, ub, "i32");
        let user = h.op(XORI, &[r, r], "i32");
        let op = def(&h, r);
        assert!(!apply(&mut h, logic_of_extsi, op), "{name}");
        assert!(apply(&mut h, logic_of_extui, op), "{name}");
        let outer = def(&h, h.ctx.operand(user, 0));
        assert_eq!(h.ctx.name(outer), EXTUI);
        let inner = def(&h, h.ctx.operand(outer, 0));
        assert_eq!(h.ctx.name(inner), name);
        assert_eq!(h.ctx.operand_vec(inner), vec![a, b]);
        assert_eq!((h.verify(inner), h.verify(outer)), (Ok(()), Ok(())));
    }
    // Different source types, or different extensions: no.
    let r = bin(&mut h, ANDI, ua, uc, "i32");
    assert!(!apply_v(&mut h, logic_of_extui, r));
    let r = bin(&mut h, ORI, ua, sa, "i32");
    let op = def(&h, r);
    assert!(!apply(&mut h, logic_of_extui, op) && !apply(&mut h, logic_of_extsi, op));
}

#[test]
fn xor_of_xor_folds_in_every_operand_order() {
    let mut h = h();
    let (x, a) = (h.arg("i32"), h.arg("i32"));
    let xa = bin(&mut h, XORI, x, a, "i32");
    let ax = bin(&mut h, XORI, a, x, "i32");
    for (l, r) in [(xa, a), (ax, a), (a, xa), (a, ax)] {
        let op = h.op(XORI, &[l, r], "i32");
        assert_eq!(h.fold_value(op), Some(x));
    }
    // Not for an unrelated operand, and not for subi (x - a - a is not x).
    let y = h.arg("i32");
    let op = h.op(XORI, &[xa, y], "i32");
    assert_eq!(h.fold(op), None);
    let s = bin(&mut h, SUBI, x, a, "i32");
    let op = h.op(SUBI, &[s, a], "i32");
    assert_eq!(h.fold(op), None);
}

#[test]
fn and_or_with_their_negation() {
    let mut h = h();
    let (x, y) = (h.arg("i32"), h.arg("i32"));
    let m1 = h.int(-1, "i32");
    let m2 = h.int(-2, "i32");
    let nx = bin(&mut h, XORI, x, m1, "i32");
    for (l, r) in [(x, nx), (nx, x)] {
        let op = h.op(ANDI, &[l, r], "i32");
        let a = h.fold_attr(op).unwrap();
        assert_eq!(h.ctx.attr_data(a).as_int(), Some(0));
        let op = h.op(ORI, &[l, r], "i32");
        assert_eq!(h.fold_value(op), Some(m1));
    }
    // A mask that is not all ones, the negation of another value, or `not` written with the
    // constant first: no.
    let not_quite = bin(&mut h, XORI, x, m2, "i32");
    let ny = bin(&mut h, XORI, y, m1, "i32");
    let flipped = bin(&mut h, XORI, m1, x, "i32");
    for r in [not_quite, ny, flipped] {
        let op = h.op(ANDI, &[x, r], "i32");
        assert_eq!(h.fold(op), None);
        let op = h.op(ORI, &[x, r], "i32");
        assert_eq!(h.fold(op), None);
    }
}

#[test]
fn and_of_and_sharing_an_operand() {
    let mut h = h();
    let (a, b, c) = (h.arg("i32"), h.arg("i32"), h.arg("i32"));
    let ab = bin(&mut h, ANDI, a, b, "i32");
    for (l, r) in [(a, ab), (ab, b), (ab, a), (b, ab)] {
        let op = h.op(ANDI, &[l, r], "i32");
        assert_eq!(h.fold_value(op), Some(ab));
    }
    let op = h.op(ANDI, &[ab, c], "i32");
    assert_eq!(h.fold(op), None);
    // or/xor have no such fold.
    let op = h.op(XORI, &[a, ab], "i32");
    assert_eq!(h.fold(op), None);
}

#[test]
fn division_of_a_product_needs_the_matching_flag() {
    let mut h = h();
    let (a, b) = (h.arg("index"), h.arg("index"));
    let plain = bin(&mut h, MULI, a, b, "index");
    let nuw = bin(&mut h, MULI, a, b, "index");
    set_overflow(&mut h, nuw, NUW);
    let nsw = bin(&mut h, MULI, a, b, "index");
    set_overflow(&mut h, nsw, NSW);
    let both = bin(&mut h, MULI, a, b, "index");
    set_overflow(&mut h, both, NSW | NUW);
    let fold = |h: &mut Harness, name: &str, m: Value, d: Value| {
        let op = h.op(name, &[m, d], "index");
        h.fold_value(op)
    };
    assert_eq!(fold(&mut h, DIVUI, nuw, b), Some(a));
    assert_eq!(fold(&mut h, DIVUI, nuw, a), Some(b));
    assert_eq!(fold(&mut h, DIVUI, both, a), Some(b));
    assert_eq!(fold(&mut h, DIVUI, nsw, b), None);
    assert_eq!(fold(&mut h, DIVUI, plain, b), None);
    assert_eq!(fold(&mut h, DIVSI, nsw, a), Some(b));
    assert_eq!(fold(&mut h, DIVSI, nuw, a), None);
    assert_eq!(fold(&mut h, DIVSI, plain, a), None);
    let c = h.arg("index");
    assert_eq!(fold(&mut h, DIVUI, nuw, c), None);
}

#[test]
fn min_max_with_infinities() {
    let mut h = h();
    let x = h.arg("f32");
    let pinf = h.float(f64::INFINITY, "f32");
    let ninf = h.float(f64::NEG_INFINITY, "f32");
    let cases = [
        (MINIMUMF, x, pinf, true),
        (MINIMUMF, pinf, x, true),
        (MAXIMUMF, x, ninf, true),
        (MAXIMUMF, ninf, x, true),
        // min(x, -inf) is -inf unless x is NaN; max(x, +inf) likewise: not folded.
        (MINIMUMF, x, ninf, false),
        (MAXIMUMF, x, pinf, false),
    ];
    for (name, a, b, folds) in cases {
        let op = h.op(name, &[a, b], "f32");
        let want = folds.then_some(x);
        assert_eq!(h.fold_value(op), want, "{name}");
    }
}

#[test]
fn mulf_divf_of_two_negations_keep_their_own_flags() {
    let mut h = h();
    let (x, y) = (h.arg("f32"), h.arg("f32"));
    let (nx, ny) = (cast(&mut h, NEGF, x, "f32"), cast(&mut h, NEGF, y, "f32"));
    for name in [MULF, DIVF] {
        let r = bin(&mut h, name, nx, ny, "f32");
        let op = def(&h, r);
        let fast = FlagKind::FastMath.attr(&mut h.ctx, 0x7F);
        h.ctx.set_prop(op, "fastmath", fast);
        let user = user_of(&mut h, r);
        assert!(apply(&mut h, of_two_negf, op));
        let new = def(&h, h.ctx.operand(user, 0));
        assert_eq!(h.ctx.operand_vec(new), vec![x, y]);
        assert_eq!(h.ctx.prop_or_attr(new, "fastmath"), Some(fast));
        // One negation only: no.
        let r = bin(&mut h, name, nx, y, "f32");
        assert!(!apply_v(&mut h, of_two_negf, r));
    }
}

#[test]
fn bitcast_and_index_cast_chains() {
    let mut h = h();
    let x = h.arg("i16");
    let b = cast(&mut h, BITCAST, x, "bf16");
    let f = cast(&mut h, BITCAST, b, "f16");
    let user = user_of(&mut h, f);
    assert!(apply_v(&mut h, bitcast_of_bitcast, f));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!((h.ctx.name(new), h.ctx.operand(new, 0)), (BITCAST, x));
    assert!(!apply_v(&mut h, bitcast_of_bitcast, b));
    let i = h.arg("i8");
    let s = cast(&mut h, EXTSI, i, "i32");
    let u = cast(&mut h, EXTUI, i, "i32");
    let cs = cast(&mut h, INDEX_CAST, s, "index");
    let cu = cast(&mut h, INDEX_CASTUI, u, "index");
    assert!(apply_v(&mut h, index_cast_of_extsi, cs));
    assert!(apply_v(&mut h, index_castui_of_extui, cu));
    // The signedness must agree: index_cast(extui) sign-extends something else.
    let cm = cast(&mut h, INDEX_CAST, u, "index");
    assert!(!apply_v(&mut h, index_cast_of_extsi, cm));
}

#[test]
fn not_of_cmpi_inverts_the_predicate() {
    let mut h = h();
    let (a, b) = (h.arg("i32"), h.arg("i32"));
    let t = h.int(1, "i1");
    let f = h.int(0, "i1");
    let c = cmpi(&mut h, CmpIPredicate::Slt, a, b);
    let cv = h.ctx.result(c, 0);
    let n = bin(&mut h, XORI, cv, t, "i1");
    let user = h.op(XORI, &[n, n], "i1");
    assert!(apply_v(&mut h, xori_not_cmpi, n));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!(CmpIOp(new).predicate(&h.ctx), Some(CmpIPredicate::Sge));
    assert_eq!(h.ctx.operand_vec(new), vec![a, b]);
    let n = bin(&mut h, XORI, cv, f, "i1");
    assert!(!apply_v(&mut h, xori_not_cmpi, n));
    let n = bin(&mut h, XORI, t, cv, "i1");
    assert!(!apply_v(&mut h, xori_not_cmpi, n));
}

#[test]
fn add_chain_keeps_only_the_flags_that_stay_true() {
    let mut h = h();
    let x = h.arg("i8");
    let run = |h: &mut Harness, c0: i64, c1: i64, f0: u8, f1: u8| -> u8 {
        let k0 = h.int(c0, "i8");
        let k1 = h.int(c1, "i8");
        let inner = bin(h, ADDI, x, k0, "i8");
        set_overflow(h, inner, f0);
        let outer = bin(h, ADDI, inner, k1, "i8");
        set_overflow(h, outer, f1);
        let user = h.op(XORI, &[outer, outer], "i8");
        let op = def(h, outer);
        assert!(apply(
            h,
            |o, rw| ADDI_ADD_CONSTANT.match_and_rewrite(o, rw),
            op
        ));
        let new = def(h, h.ctx.operand(user, 0));
        let a = h.ctx.prop_or_attr(new, "overflowFlags").unwrap();
        FlagKind::Overflow.bits_of(&h.ctx, a).unwrap()
    };
    use qd_ir::rewrite::RewritePattern;
    assert_eq!(run(&mut h, 1, 2, NSW | NUW, NSW | NUW), NSW | NUW);
    assert_eq!(run(&mut h, 1, 2, NSW, NUW), 0);
    // 127 + 127 overflows i8: (-128 + 127) + 127 did not, x + (-2) does: nsw must go.
    assert_eq!(run(&mut h, 127, 127, NSW | NUW, NSW | NUW), NUW);
}

#[test]
fn cmpf_of_int_to_float_becomes_cmpi() {
    let mut h = h();
    let i32v = h.arg("i32");
    let i8v = h.arg("i8");
    let i64v = h.arg("i64");
    let u = cast(&mut h, UITOFP, i32v, "f64");
    let s = cast(&mut h, SITOFP, i8v, "f32");
    let big = cast(&mut h, SITOFP, i64v, "f32");
    // Each case: (lhs, predicate, constant, constant's type) -> a cmpi (pred, value) or a bool.
    enum Want {
        Cmp(CmpIPredicate, i64),
        Bool(bool),
        Nothing,
    }
    use CmpFPredicate as F;
    use CmpIPredicate as I;
    let cases = [
        (u, F::Ole, 0.0, "f64", Want::Cmp(I::Ule, 0)),
        (u, F::Oge, 3.2, "f64", Want::Cmp(I::Ugt, 3)),
        (u, F::Ogt, -4.4, "f64", Want::Bool(true)),
        (u, F::Olt, -4.4, "f64", Want::Bool(false)),
        (s, F::Olt, 4.4, "f32", Want::Cmp(I::Sle, 4)),
        (s, F::Ogt, -4.4, "f32", Want::Cmp(I::Sge, -4)),
        (s, F::Oeq, 4.4, "f32", Want::Bool(false)),
        (s, F::Une, 4.4, "f32", Want::Bool(true)),
        (s, F::Olt, 1000.0, "f32", Want::Bool(true)),
        (s, F::Ord, 1.0, "f32", Want::Bool(true)),
        (s, F::Uno, 1.0, "f32", Want::Bool(false)),
        // i64 -> f32 rounds; a constant with an exponent in [24, 63] could compare differently.
        (big, F::Olt, 1099511627776.0, "f32", Want::Nothing),
        (s, F::Olt, f64::NAN, "f32", Want::Nothing),
    ];
    for (k, (lhs, p, c, ty, want)) in cases.into_iter().enumerate() {
        let cst = h.float(c, ty);
        let op = cmpf(&mut h, p, lhs, cst);
        let r = h.ctx.result(op, 0);
        let user = h.op(XORI, &[r, r], "i1");
        let changed = apply(&mut h, cmpf_int_to_fp_const, op);
        let new = h.ctx.defining_op(h.ctx.operand(user, 0)).unwrap();
        match want {
            Want::Nothing => assert!(!changed, "case {k}"),
            Want::Bool(b) => {
                assert!(changed, "case {k}");
                let v = ConstantOp::new(&h.ctx, new).unwrap().value(&h.ctx).unwrap();
                assert_eq!(h.ctx.attr_data(v), &AttrData::Bool(b), "case {k}");
            }
            Want::Cmp(q, v) => {
                assert!(changed, "case {k}");
                assert_eq!(CmpIOp(new).predicate(&h.ctx), Some(q), "case {k}");
                let rhs = ConstantOp::from_value(&h.ctx, h.ctx.operand(new, 1)).unwrap();
                assert_eq!(rhs.int_value(&h.ctx), Some(v), "case {k}");
                assert_eq!(h.verify(new), Ok(()), "case {k}");
            }
        }
    }
}

/// `name(a, b)` on integers of a's width with overflow flags: None where a flag is violated
/// (poison).
fn eval_flagged(name: &str, a: IntVal, b: IntVal, flags: u8) -> Option<IntVal> {
    let w = a.width();
    let (sa, sb, ua, ub) = (
        a.sext() as i128,
        b.sext() as i128,
        a.zext() as i128,
        b.zext() as i128,
    );
    let (s, u) = match name {
        ADDI => (sa + sb, ua + ub),
        SUBI => (sa - sb, ua - ub),
        MULI => (sa * sb, ua * ub),
        _ => unreachable!(),
    };
    let smin = IntVal::signed_min(w).sext() as i128;
    let smax = IntVal::signed_max(w).sext() as i128;
    if flags & NSW != 0 && !(smin..=smax).contains(&s) {
        return None;
    }
    if flags & NUW != 0 && !(0..(1i128 << w)).contains(&u) {
        return None;
    }
    Some(IntVal::from_bits(u as u64, w))
}

#[test]
fn reassociation_is_sound_for_every_i4_input_and_flag() {
    // Wherever the two old ops are defined (no flag violated), the new op with the flags the
    // rule keeps is defined and equal: exhaustive over i4 values and flag sets.
    for rule in REASSOC_RULES {
        for c0 in 0..16 {
            for c1 in 0..16 {
                for fi in 0..4u8 {
                    for fo in 0..4u8 {
                        let (c0, c1) = (IntVal::new(c0, 4), IntVal::new(c1, 4));
                        let (k, flags) = rule.fold_constants(c0, c1, fo, fi);
                        for x in 0..16 {
                            let x = IntVal::new(x, 4);
                            let (ia, ib) = if rule.inner_const_left {
                                (c0, x)
                            } else {
                                (x, c0)
                            };
                            let Some(inner) = eval_flagged(rule.inner, ia, ib, fi) else {
                                continue;
                            };
                            let (ra, rb) = if rule.root_const_left {
                                (c1, inner)
                            } else {
                                (inner, c1)
                            };
                            let Some(old) = eval_flagged(rule.root, ra, rb, fo) else {
                                continue;
                            };
                            let (na, nb) = if rule.new_const_left { (k, x) } else { (x, k) };
                            assert_eq!(
                                eval_flagged(rule.new, na, nb, flags),
                                Some(old),
                                "{} x={x:?} c0={c0:?} c1={c1:?} flags {fi}/{fo} -> {flags}",
                                rule.name
                            );
                        }
                    }
                }
            }
        }
    }
    // Upstream's own tests keep both flags where the constants are small.
    let (k, f) = SUBI_RHS_SUB_CONSTANT_LHS.fold_constants(
        IntVal::new(17, 64),
        IntVal::new(42, 64),
        NSW | NUW,
        NSW | NUW,
    );
    assert_eq!((k.sext(), f), (-25, NSW | NUW));
    let (_, f) = ADDI_SUB_CONSTANT_RHS.fold_constants(
        IntVal::new(3, 8),
        IntVal::new(1, 8),
        NSW | NUW,
        NSW | NUW,
    );
    assert_eq!(
        f, NSW,
        "1 - 3 wraps unsigned: (5 - 3) + 1 is defined, 5 + 254 is not"
    );
}

#[test]
fn add_sub_identities_fold() {
    let mut h = h();
    let (a, b) = (h.arg("i32"), h.arg("i32"));
    let s = bin(&mut h, SUBI, a, b, "i32");
    for (l, r) in [(s, b), (b, s)] {
        let op = h.op(ADDI, &[l, r], "i32");
        assert_eq!(h.fold_value(op), Some(a));
    }
    let op = h.op(ADDI, &[s, a], "i32");
    assert_eq!(h.fold(op), None);
    let add = bin(&mut h, ADDI, a, b, "i32");
    let op = h.op(SUBI, &[add, b], "i32");
    assert_eq!(h.fold_value(op), Some(a));
    let op = h.op(SUBI, &[add, a], "i32");
    assert_eq!(h.fold_value(op), Some(b));
    let op = h.op(SUBI, &[b, add], "i32");
    assert_eq!(h.fold(op), None);
}

#[test]
fn subi_of_subi_and_negated_products() {
    let mut h = h();
    let (x, y) = (h.arg("i32"), h.arg("i32"));
    let m1 = h.int(-1, "i32");
    let s = bin(&mut h, SUBI, x, y, "i32");
    let r = bin(&mut h, SUBI, s, x, "i32");
    let user = h.op(XORI, &[r, r], "i32");
    assert!(apply_v(&mut h, subi_of_subi_lhs, r));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!(h.ctx.operand(new, 1), y);
    let r = bin(&mut h, SUBI, s, y, "i32");
    assert!(!apply_v(&mut h, subi_of_subi_lhs, r));
    let p = bin(&mut h, MULI, y, m1, "i32");
    for (l, r, want) in [(x, p, [x, y]), (p, x, [x, y])] {
        let a = bin(&mut h, ADDI, l, r, "i32");
        let user = h.op(XORI, &[a, a], "i32");
        assert!(apply_v(&mut h, addi_of_neg, a));
        let new = def(&h, h.ctx.operand(user, 0));
        assert_eq!(
            (h.ctx.name(new), h.ctx.operand_vec(new)),
            (SUBI, want.to_vec())
        );
    }
    let m2 = h.int(-2, "i32");
    let p2 = bin(&mut h, MULI, y, m2, "i32");
    let a = bin(&mut h, ADDI, x, p2, "i32");
    assert!(!apply_v(&mut h, addi_of_neg, a));
}

#[test]
fn trunci_rewrites() {
    let mut h = h();
    let x64 = h.arg("i64");
    let x8 = h.arg("i8");
    // trunci(ext a) with a wider than the result: in place, keeping the flags.
    let e = cast(&mut h, EXTSI, x64, "i128");
    let t = cast(&mut h, TRUNCI, e, "i32");
    set_overflow(&mut h, t, NUW);
    let top = def(&h, t);
    assert!(apply(&mut h, trunci_in_place, top));
    assert_eq!(h.ctx.operand(top, 0), x64);
    // ... with a of the result's type: a (a fold).
    let e = cast(&mut h, EXTUI, x8, "i32");
    let t = cast(&mut h, TRUNCI, e, "i8");
    let top = def(&h, t);
    assert_eq!(h.fold_value(top), Some(x8));
    // ... with a narrower: trunci(extui a) is extui a.
    let t = cast(&mut h, TRUNCI, e, "i16");
    let top = def(&h, t);
    assert!(!apply(&mut h, trunci_in_place, top));
    let user = h.op(XORI, &[t, t], "i16");
    assert!(apply(&mut h, trunci_of_ext_to_ext, top));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!((h.ctx.name(new), h.ctx.operand(new, 0)), (EXTUI, x8));
    // trunci(trunci a): in place, with the flags both carry.
    let t1 = cast(&mut h, TRUNCI, x64, "i32");
    set_overflow(&mut h, t1, NSW);
    let t2 = cast(&mut h, TRUNCI, t1, "i8");
    set_overflow(&mut h, t2, NSW | NUW);
    let t2op = def(&h, t2);
    assert!(apply(&mut h, trunci_in_place, t2op));
    assert_eq!(h.ctx.operand(t2op, 0), x64);
    let a = h.ctx.prop_or_attr(t2op, "overflowFlags").unwrap();
    assert_eq!(FlagKind::Overflow.bits_of(&h.ctx, a), Some(NSW));
    // trunci(shrsi(x, 32)) to i32 becomes shrui; another shift amount does not.
    for (amount, ok) in [(32, true), (31, false)] {
        let c = h.int(amount, "i64");
        let s = bin(&mut h, SHRSI, x64, c, "i64");
        let t = cast(&mut h, TRUNCI, s, "i32");
        set_overflow(&mut h, t, NSW | NUW);
        let user = h.op(XORI, &[t, t], "i32");
        assert_eq!(apply_v(&mut h, trunci_shrsi_to_shrui, t), ok);
        if ok {
            let new = def(&h, h.ctx.operand(user, 0));
            let a = h.ctx.prop_or_attr(new, "overflowFlags").unwrap();
            assert_eq!(FlagKind::Overflow.bits_of(&h.ctx, a), Some(NUW));
            let shr = def(&h, h.ctx.operand(new, 0));
            assert_eq!(h.ctx.name(shr), SHRUI);
        }
    }
}

#[test]
fn truncf_rewrites() {
    let mut h = h();
    let a = h.arg("f32");
    let e = cast(&mut h, EXTF, a, "f64");
    let t = cast(&mut h, TRUNCF, e, "f16");
    let top = def(&h, t);
    assert!(apply(&mut h, truncf_of_extf, top));
    assert_eq!(h.ctx.operand(top, 0), a);
    // truncf(sitofp i32 to f64) to f32 is one sitofp: i32 is exact in f64.
    let i = h.arg("i32");
    let s = cast(&mut h, SITOFP, i, "f64");
    let t = cast(&mut h, TRUNCF, s, "f32");
    assert!(apply_v(&mut h, truncf_of_itofp, t));
    // i64 is not exact in f64: two roundings may differ from one...
    let l = h.arg("i64");
    let s = cast(&mut h, UITOFP, l, "f64");
    let t = cast(&mut h, TRUNCF, s, "f32");
    assert!(!apply_v(&mut h, truncf_of_itofp, t));
    let i = h.arg("i32");
    let s = cast(&mut h, SITOFP, i, "f32");
    let t = cast(&mut h, TRUNCF, s, "bf16");
    assert!(!apply_v(&mut h, truncf_of_itofp, t));
    // ... except into f16, where whatever f32 rounds overflows anyway.
    let s = cast(&mut h, SITOFP, l, "f32");
    let t = cast(&mut h, TRUNCF, s, "f16");
    assert!(apply_v(&mut h, truncf_of_itofp, t));
    // extf(truncf a) is a only when both allow `contract`.
    let d = h.arg("f64");
    let t = cast(&mut h, TRUNCF, d, "f32");
    let e = cast(&mut h, EXTF, t, "f64");
    let eop = def(&h, e);
    assert_eq!(h.fold(eop), None);
    let contract = FlagKind::FastMath.attr(&mut h.ctx, 1 << 5);
    let top = def(&h, t);
    h.ctx.set_prop(top, "fastmath", contract);
    assert_eq!(h.fold(eop), None);
    h.ctx.set_prop(eop, "fastmath", contract);
    assert_eq!(h.fold_value(eop), Some(d));
}

#[test]
fn select_rewrites() {
    let mut h = h();
    let (p, q) = (h.arg("i1"), h.arg("i1"));
    let (a, b, c) = (h.arg("i32"), h.arg("i32"), h.arg("i32"));
    let loc = h.loc;
    let sel = |h: &mut Harness, c: Value, t: Value, f: Value| {
        build_select(&mut h.builder(), c, t, f, loc)
    };
    // Redundant inner selects on the same condition.
    let inner = sel(&mut h, p, a, b);
    let s = sel(&mut h, p, inner, c);
    assert!(apply_v(&mut h, redundant_select_true, s));
    let s = sel(&mut h, p, c, inner);
    assert!(apply_v(&mut h, redundant_select_false, s));
    let s = sel(&mut h, q, inner, c);
    assert!(!apply_v(&mut h, redundant_select_true, s));
    // select(not p, a, b) swaps; `not` is xori with all ones.
    let t = h.int(1, "i1");
    let np = bin(&mut h, XORI, p, t, "i1");
    let s = sel(&mut h, np, a, b);
    let user = h.op(XORI, &[s, s], "i32");
    assert!(apply_v(&mut h, select_not_cond, s));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!(h.ctx.operand_vec(new), vec![p, b, a]);
    // select(p, false, true) is not p; select(p, 1, 0) is extui p, (p, 0, 1) extui(not p).
    let f = h.int(0, "i1");
    let s = sel(&mut h, p, f, t);
    assert!(apply_v(&mut h, select_i1_to_not, s));
    let s = sel(&mut h, p, t, f);
    assert!(!apply_v(&mut h, select_i1_to_not, s));
    let (one, zero) = (h.int(1, "i32"), h.int(0, "i32"));
    let s = sel(&mut h, p, one, zero);
    let user = h.op(XORI, &[s, s], "i32");
    assert!(apply_v(&mut h, select_to_extui, s));
    let new = def(&h, h.ctx.operand(user, 0));
    assert_eq!((h.ctx.name(new), h.ctx.operand(new, 0)), (EXTUI, p));
    let s = sel(&mut h, p, zero, one);
    assert!(apply_v(&mut h, select_to_extui, s));
    let two = h.int(2, "i32");
    let s = sel(&mut h, p, two, zero);
    assert!(!apply_v(&mut h, select_to_extui, s));
    // An i1 select is not an extension.
    let s = sel(&mut h, p, t, f);
    assert!(!apply_v(&mut h, select_to_extui, s));
    // Fold: select(cmpi eq a b, a, b) is b, ne gives a; another predicate does not fold.
    for (pred, want) in [
        (CmpIPredicate::Eq, Some(b)),
        (CmpIPredicate::Ne, Some(a)),
        (CmpIPredicate::Slt, None),
    ] {
        let c = cmpi(&mut h, pred, a, b);
        let cv = h.ctx.result(c, 0);
        let s = sel(&mut h, cv, a, b);
        let sop = def(&h, s);
        assert_eq!(h.fold_value(sop), want, "{pred:?}");
    }
}

#[test]
fn zero_width_integers_fold() {
    // i0 has one value, 0 (upstream's i0 tests): extensions of it fold to 0, truncations to it
    // fold, and the identities hold; nothing panics on the width.
    let mut h = h();
    let c = h.int(0, "i0");
    let x = h.arg("i0");
    for ext in [EXTSI, EXTUI] {
        let op = h.op(ext, &[c], "i16");
        let a = h.fold_attr(op).unwrap();
        assert_eq!(h.ctx.attr_data(a).as_int(), Some(0), "{ext}");
    }
    let k = h.int(5, "i8");
    let op = h.op(TRUNCI, &[k], "i0");
    assert!(h.fold_attr(op).is_some());
    for name in [SHLI, SHRSI, SHRUI, ADDI, SUBI, ORI, XORI] {
        let op = h.op(name, &[x, c], "i0");
        assert_eq!(h.fold_value(op), Some(x), "{name}");
    }
    for name in [DIVSI, DIVUI, CEILDIVSI, FLOORDIVSI, CEILDIVUI] {
        let op = h.op(name, &[x, c], "i0");
        assert_eq!(h.fold(op), None, "{name}: division by zero");
    }
}
