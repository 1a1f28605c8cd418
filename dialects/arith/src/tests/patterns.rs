use super::h;
use crate::build::*;
use crate::names::*;
use crate::patterns::*;
use crate::ConstantOp;
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::OpId;

fn apply(h: &mut crate::testing::Harness, p: &dyn RewritePattern, op: OpId) -> bool {
    let mut rw = Rewriter::new(&mut h.ctx);
    p.match_and_rewrite(op, &mut rw)
}

#[test]
fn constant_moves_right() {
    let mut h = h();
    let x = h.arg("i32");
    let k = h.int(3, "i32");
    let op = h.op(ADDI, &[k, x], "i32");
    let p = ConstantToRhs(ADDI);
    assert_eq!(p.root(), Some(ADDI));
    assert!(apply(&mut h, &p, op));
    assert_eq!(h.ctx.operand_vec(op), vec![x, k]);
    // Already canonical, or both constant: no change (no ping-pong).
    assert!(!apply(&mut h, &p, op));
    let k2 = h.int(4, "i32");
    let both = h.op(ADDI, &[k, k2], "i32");
    assert!(!apply(&mut h, &p, both));
    // Every commutative op carries it.
    for name in [
        ADDI, MULI, ANDI, ORI, XORI, MINSI, MAXSI, MINUI, MAXUI, ADDF, MULF, MINIMUMF, MAXIMUMF,
        MINNUMF, MAXNUMF,
    ] {
        let info = h.ctx.lookup_op_info(name).unwrap();
        let mut v = Vec::new();
        (info.canonicalization_patterns.expect(name))(&mut v);
        assert!(v
            .iter()
            .any(|p| p.name() == "arith-constant-to-rhs" && p.root() == Some(name)));
    }
}

#[test]
fn addi_chain() {
    let mut h = h();
    let x = h.arg("i8");
    let c1 = h.int(100, "i8");
    let c2 = h.int(100, "i8");
    let inner = h.op(ADDI, &[x, c1], "i8");
    let iv = h.ctx.result(inner, 0);
    let outer = h.op(ADDI, &[iv, c2], "i8");
    let ov = h.ctx.result(outer, 0);
    let user = h.op(NEGF, &[ov], "i8"); // any user of the result
    assert!(apply(&mut h, &ADDI_ADD_CONSTANT, outer));
    assert!(!h.ctx.is_alive(outer));
    let new = h.ctx.defining_op(h.ctx.operand(user, 0)).unwrap();
    assert_eq!(h.ctx.name(new), ADDI);
    assert_eq!(h.ctx.operand(new, 0), x);
    let k = ConstantOp::from_value(&h.ctx, h.ctx.operand(new, 1)).unwrap();
    assert_eq!(k.int_value(&h.ctx), Some(-56)); // 200 wraps in i8
    assert_eq!(h.verify(new), Ok(()));
    // No constant on the inner add: no match.
    let y = h.arg("i8");
    let inner = h.op(ADDI, &[x, y], "i8");
    let iv = h.ctx.result(inner, 0);
    let outer = h.op(ADDI, &[iv, c2], "i8");
    assert!(!apply(&mut h, &ADDI_ADD_CONSTANT, outer));
}

#[test]
fn double_negation() {
    let mut h = h();
    let loc = h.loc;
    let x = h.arg("f32");
    let n1 = build_unary(&mut h.builder(), NEGF, x, loc);
    let n2 = build_unary(&mut h.builder(), NEGF, n1, loc);
    let op = h.ctx.defining_op(n2).unwrap();
    assert_eq!(h.fold_value(op), Some(x));
    // A single negation does not fold.
    let n1op = h.ctx.defining_op(n1).unwrap();
    assert_eq!(h.fold(n1op), None);
}

#[test]
fn select_of_bools() {
    let mut h = h();
    let loc = h.loc;
    let c = h.arg("i1");
    let t = h.int(1, "i1");
    let f = h.int(0, "i1");
    let s = build_select(&mut h.builder(), c, t, f, loc);
    let user = h.op(XORI, &[s, s], "i1");
    let op = h.ctx.defining_op(s).unwrap();
    assert!(apply(&mut h, &SelectI1ToCond, op));
    assert_eq!(h.ctx.operand(user, 0), c);
    // select(c, false, true) is not c.
    let s = build_select(&mut h.builder(), c, f, t, loc);
    let op = h.ctx.defining_op(s).unwrap();
    assert!(!apply(&mut h, &SelectI1ToCond, op));
}
