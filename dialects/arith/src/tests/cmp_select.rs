use super::h;
use crate::build::*;
use crate::names::*;
use crate::predicates::{CmpFPredicate, CmpIPredicate};
use crate::testing::Harness;
use crate::{materialize_constant, CmpFOp, CmpIOp, ConstantOp};
use qd_ir::{AttrData, Value};

fn cmpi(h: &mut Harness, p: CmpIPredicate, a: Value, b: Value) -> qd_ir::OpId {
    let loc = h.loc;
    let v = build_cmpi(&mut h.builder(), p, a, b, loc);
    h.ctx.defining_op(v).unwrap()
}

fn cmpf(h: &mut Harness, p: CmpFPredicate, a: Value, b: Value) -> qd_ir::OpId {
    let loc = h.loc;
    let v = build_cmpf(&mut h.builder(), p, a, b, loc);
    h.ctx.defining_op(v).unwrap()
}

fn folded_bool(h: &mut Harness, op: qd_ir::OpId) -> Option<bool> {
    let a = h.fold_attr(op)?;
    match h.ctx.attr_data(a) {
        AttrData::Bool(b) => Some(*b),
        other => panic!("not a bool: {other:?}"),
    }
}

#[test]
fn cmpi_folds() {
    let mut h = h();
    let m1 = h.int(-1, "i8");
    let one = h.int(1, "i8");
    let op = cmpi(&mut h, CmpIPredicate::Slt, m1, one);
    assert_eq!(folded_bool(&mut h, op), Some(true));
    let op = cmpi(&mut h, CmpIPredicate::Ult, m1, one);
    assert_eq!(folded_bool(&mut h, op), Some(false));
    assert_eq!(CmpIOp(op).predicate(&h.ctx), Some(CmpIPredicate::Ult));
    // A value compared with itself folds for every predicate.
    let x = h.arg("i32");
    let op = cmpi(&mut h, CmpIPredicate::Sge, x, x);
    assert_eq!(folded_bool(&mut h, op), Some(true));
    let op = cmpi(&mut h, CmpIPredicate::Ne, x, x);
    assert_eq!(folded_bool(&mut h, op), Some(false));
    let y = h.arg("i32");
    let op = cmpi(&mut h, CmpIPredicate::Eq, x, y);
    assert_eq!(h.fold(op), None);
}

#[test]
fn cmpf_folds() {
    let mut h = h();
    let a = h.float(1.0, "f32");
    let nan = h.float(f64::NAN, "f32");
    let op = cmpf(&mut h, CmpFPredicate::Olt, a, nan);
    assert_eq!(folded_bool(&mut h, op), Some(false));
    let op = cmpf(&mut h, CmpFPredicate::Ult, a, nan);
    assert_eq!(folded_bool(&mut h, op), Some(true));
    assert_eq!(CmpFOp(op).predicate(&h.ctx), Some(CmpFPredicate::Ult));
    // x == x is not known for floats (NaN); the constant predicates fold only on constant
    // operands, as upstream's folder does.
    let x = h.arg("f32");
    let op = cmpf(&mut h, CmpFPredicate::Oeq, x, x);
    assert_eq!(h.fold(op), None);
    let op = cmpf(&mut h, CmpFPredicate::AlwaysTrue, x, x);
    assert_eq!(h.fold(op), None);
    let op = cmpf(&mut h, CmpFPredicate::AlwaysFalse, a, a);
    assert_eq!(folded_bool(&mut h, op), Some(false));
}

#[test]
fn select_folds() {
    let mut h = h();
    let loc = h.loc;
    let (a, b) = (h.arg("f32"), h.arg("f32"));
    let t = h.int(1, "i1");
    let f = h.int(0, "i1");
    let c = h.arg("i1");
    for (cond, want) in [(t, a), (f, b)] {
        let v = build_select(&mut h.builder(), cond, a, b, loc);
        let op = h.ctx.defining_op(v).unwrap();
        assert_eq!(h.fold_value(op), Some(want));
    }
    let v = build_select(&mut h.builder(), c, a, a, loc);
    let op = h.ctx.defining_op(v).unwrap();
    assert_eq!(h.fold_value(op), Some(a));
    let (k1, k2) = (h.float(2.0, "f32"), h.float(2.0, "f32"));
    let v = build_select(&mut h.builder(), c, k1, k2, loc);
    let op = h.ctx.defining_op(v).unwrap();
    assert!(h.fold_attr(op).is_some());
    let v = build_select(&mut h.builder(), c, a, b, loc);
    let op = h.ctx.defining_op(v).unwrap();
    assert_eq!(h.fold(op), None);
}

#[test]
fn constants_and_materialization() {
    let mut h = h();
    let loc = h.loc;
    let v = build_constant_f32(&mut h.builder(), 1.5, loc);
    let c = ConstantOp::from_value(&h.ctx, v).unwrap();
    assert_eq!(c.float_value(&h.ctx), Some(1.5));
    assert_eq!(c.result(&h.ctx), v);
    let op = h.ctx.defining_op(v).unwrap();
    assert_eq!(h.fold_attr(op), c.value(&h.ctx));
    let i = build_constant_index(&mut h.builder(), -3, loc);
    assert_eq!(
        ConstantOp::from_value(&h.ctx, i).unwrap().int_value(&h.ctx),
        Some(-3)
    );
    let b = build_constant_bool(&mut h.builder(), true, loc);
    assert_eq!(
        ConstantOp::from_value(&h.ctx, b).unwrap().int_value(&h.ctx),
        Some(-1)
    );
    let d = build_constant_f64(&mut h.builder(), 0.1, loc);
    assert_eq!(
        ConstantOp::from_value(&h.ctx, d)
            .unwrap()
            .float_value(&h.ctx),
        Some(0.1)
    );
    let x = h.arg("i32");
    assert!(ConstantOp::from_value(&h.ctx, x).is_none());
    for v in [v, i, b, d] {
        let op = h.ctx.defining_op(v).unwrap();
        assert_eq!(h.verify(op), Ok(()));
    }

    // The materializer accepts matching numeric constants only; i1 integers become bools.
    let (i1, i32t, f32t) = (h.ty("i1"), h.ty("i32"), h.ty("f32"));
    let one_i1 = h.ctx.integer_attr(1, i1);
    let s = materialize_constant(&mut h.ctx, one_i1, i1, loc).unwrap();
    assert_eq!(h.ctx.attr_data(s.properties[0].1), &AttrData::Bool(true));
    let k = h.ctx.integer_attr(7, i32t);
    assert!(materialize_constant(&mut h.ctx, k, i32t, loc).is_some());
    assert!(materialize_constant(&mut h.ctx, k, f32t, loc).is_none());
    let s = h.ctx.string_attr("x");
    assert!(materialize_constant(&mut h.ctx, s, i32t, loc).is_none());
    let ui = h.ctx.intern_type(qd_ir::TypeData::Integer {
        width: 32,
        signedness: qd_ir::Signedness::Unsigned,
    });
    let u = h.ctx.integer_attr(7, ui);
    assert!(materialize_constant(&mut h.ctx, u, ui, loc).is_none());
    // Registered for the dialect.
    assert!(h
        .ctx
        .dialect("arith")
        .unwrap()
        .materialize_constant
        .is_some());
}

#[test]
fn builders_set_default_properties() {
    let mut h = h();
    let loc = h.loc;
    let a = h.arg("i32");
    let f = h.arg("f32");
    let add = build_binary(&mut h.builder(), ADDI, a, a, loc);
    let add = h.ctx.defining_op(add).unwrap();
    assert!(h.ctx.prop(add, "overflowFlags").is_some());
    let neg = build_unary(&mut h.builder(), NEGF, f, loc);
    let neg = h.ctx.defining_op(neg).unwrap();
    assert!(h.ctx.prop(neg, "fastmath").is_some());
    let f64t = h.ty("f64");
    let ext = build_cast(&mut h.builder(), EXTF, f, f64t, loc);
    let ext = h.ctx.defining_op(ext).unwrap();
    assert!(
        h.ctx.properties(ext).is_empty(),
        "extf's fastmath is optional"
    );
    let div = build_binary(&mut h.builder(), DIVSI, a, a, loc);
    let div = h.ctx.defining_op(div).unwrap();
    assert!(h.ctx.properties(div).is_empty());
    let c = cmpf(&mut h, CmpFPredicate::Olt, f, f);
    for op in [add, neg, ext, div, c] {
        assert_eq!(h.verify(op), Ok(()), "{}", h.ctx.name(op));
    }
    assert!(h
        .ctx
        .has_trait(add, qd_ir::OpTraits::COMMUTATIVE | qd_ir::OpTraits::PURE));
    assert!(!h.ctx.has_trait(div, qd_ir::OpTraits::COMMUTATIVE));
    assert!(h.ctx.has_trait(div, qd_ir::OpTraits::PURE));
}
