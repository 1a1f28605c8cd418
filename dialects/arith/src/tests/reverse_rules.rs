//! Derivative rules, checked numerically against central differences in f64 (the emitted adjoint
//! expressions are folded with constant operands), plus what each rule reads and which ops have
//! none. Tolerance 1e-6 relative: the central difference with h = 1e-6 |x| has a truncation error
//! of order h^2 |f'''| and a rounding error of order 1e-16 / h = 1e-10, both far below it.

use super::h;
use crate::names::*;
use qd_ir::interfaces::{PrimalNeeds, ReverseRule};
use qd_ir::Value;

const TOL: f64 = 1e-6;

#[test]
fn float_arithmetic_rules_match_central_differences() {
    let mut h = h();
    for args in [[1.3, -0.7], [-2.5, 4.0], [0.25, 3.5]] {
        for name in [ADDF, SUBF, MULF, DIVF] {
            h.check_rule(name, &args, TOL);
        }
    }
    // fmod: away from the jumps of trunc(a / b).
    h.check_rule(REMF, &[7.3, 2.1], TOL);
    h.check_rule(REMF, &[-7.3, 2.1], TOL);
    h.check_rule(NEGF, &[1.7], TOL);
    // min/max route the adjoint to the chosen operand, either way round.
    for args in [[1.0, 2.0], [3.0, -2.0]] {
        h.check_rule(MINIMUMF, &args, TOL);
        h.check_rule(MAXIMUMF, &args, TOL);
    }
}

#[test]
fn min_max_ties_go_to_the_left_operand() {
    let mut h = h();
    assert_eq!(
        h.rule_gradient(MINIMUMF, &[2.0, 2.0], &[true, true], 1.0),
        [Some(1.0), Some(0.0)]
    );
    assert_eq!(
        h.rule_gradient(MAXIMUMF, &[2.0, 2.0], &[true, true], 1.0),
        [Some(1.0), Some(0.0)]
    );
}

fn needs_of(name: &str, arity: usize, active: &[bool]) -> PrimalNeeds {
    let mut h = h();
    let vals: Vec<Value> = (0..arity).map(|_| h.arg("f32")).collect();
    let op = h.op(name, &vals, "f32");
    let rule = h
        .ctx
        .info(op)
        .unwrap()
        .get_interface::<dyn ReverseRule>()
        .unwrap();
    rule.primal_needs(&h.ctx, op, active)
}

#[test]
fn rules_read_only_what_the_active_operands_need() {
    // mulf %a, %c with %c inactive reads %c only.
    assert_eq!(needs_of(MULF, 2, &[true, false]).operands, [false, true]);
    assert_eq!(needs_of(MULF, 2, &[false, true]).operands, [true, false]);
    assert_eq!(needs_of(ADDF, 2, &[true, true]).operands, [false, false]);
    assert_eq!(needs_of(SUBF, 2, &[true, true]).results, [false]);
    assert_eq!(needs_of(DIVF, 2, &[true, false]).operands, [false, true]);
    assert_eq!(needs_of(DIVF, 2, &[false, true]).operands, [true, true]);
    assert_eq!(needs_of(REMF, 2, &[true, false]).operands, [false, false]);
    assert_eq!(needs_of(MINIMUMF, 2, &[true, false]).operands, [true, true]);
}

#[test]
fn select_routes_the_adjoint_by_its_condition() {
    for cond in [true, false] {
        let mut h = h();
        let c = {
            let loc = h.loc;
            crate::build::build_constant_bool(&mut h.builder(), cond, loc)
        };
        let a = h.float(1.5, "f64");
        let b = h.float(-2.5, "f64");
        let op = {
            let loc = h.loc;
            let mut bld = h.builder();
            let v = crate::build::build_select(&mut bld, c, a, b, loc);
            bld.ctx.defining_op(v).unwrap()
        };
        let rule = h
            .ctx
            .info(op)
            .unwrap()
            .get_interface::<dyn ReverseRule>()
            .unwrap();
        let active = [false, true, true];
        let needs = rule.primal_needs(&h.ctx, op, &active);
        assert_eq!(needs.operands, [true, false, false]);
        let g = h.float(2.0, "f64");
        let out = {
            let mut bld = h.builder();
            rule.emit_adjoints(&mut bld, op, &[Some(c), None, None], &[None], &[g], &active)
        };
        assert_eq!(out[0], None, "the condition gets no adjoint");
        let fold = |h: &mut crate::testing::Harness, v: Value| {
            let op = h.ctx.defining_op(v).unwrap();
            match h.fold(op).unwrap()[0] {
                qd_ir::FoldResult::Attr(a) => h.ctx.attr_data(a).as_float().unwrap(),
                qd_ir::FoldResult::Value(v) => {
                    let c = crate::consts::constant_value(&h.ctx, v).unwrap();
                    h.ctx.attr_data(c).as_float().unwrap()
                }
            }
        };
        let (ga, gb) = (fold(&mut h, out[1].unwrap()), fold(&mut h, out[2].unwrap()));
        assert_eq!((ga, gb), if cond { (2.0, 0.0) } else { (0.0, 2.0) });
    }
}

#[test]
fn float_casts_convert_the_adjoint_back() {
    for (from, to, cast, back) in [("f32", "f64", EXTF, TRUNCF), ("f64", "f32", TRUNCF, EXTF)] {
        let mut h = h();
        let x = h.float(0.5, from);
        let to_ty = h.ty(to);
        let op = {
            let loc = h.loc;
            let mut b = h.builder();
            let v = crate::build::build_cast(&mut b, cast, x, to_ty, loc);
            b.ctx.defining_op(v).unwrap()
        };
        let rule = h
            .ctx
            .info(op)
            .unwrap()
            .get_interface::<dyn ReverseRule>()
            .unwrap();
        let g = h.float(0.25, to);
        let out = {
            let mut b = h.builder();
            rule.emit_adjoints(&mut b, op, &[None], &[None], &[g], &[true])
        };
        let d = h.ctx.defining_op(out[0].unwrap()).unwrap();
        assert_eq!(h.ctx.name(d), back);
        assert_eq!(h.ctx.value_type(out[0].unwrap()), h.ctx.value_type(x));
        let a = h.fold_attr(d).unwrap();
        assert_eq!(h.ctx.attr_data(a).as_float(), Some(0.25));
    }
}

#[test]
fn integer_ops_and_integer_casts_have_no_rule() {
    let h = h();
    for name in [
        ADDI,
        MULI,
        SUBI,
        CMPF,
        CMPI,
        SITOFP,
        UITOFP,
        FPTOSI,
        FPTOUI,
        BITCAST,
        EXTSI,
        TRUNCI,
        INDEX_CAST,
        CONSTANT,
        MINUI,
        MAXUI,
        CEILDIVSI,
        CEILDIVUI,
        FLOORDIVSI,
        INDEX_CASTUI,
    ] {
        let info = h.ctx.lookup_op_info(name).unwrap();
        assert!(
            info.get_interface::<dyn ReverseRule>().is_none(),
            "{name} must stop the gradient"
        );
    }
    for name in [
        ADDF, SUBF, MULF, DIVF, REMF, NEGF, MINIMUMF, MAXIMUMF, MINNUMF, MAXNUMF, SELECT, EXTF,
        TRUNCF,
    ] {
        let info = h.ctx.lookup_op_info(name).unwrap();
        assert!(info.get_interface::<dyn ReverseRule>().is_some(), "{name}");
    }
}

#[test]
fn minnum_maxnum_route_to_the_number_that_was_chosen() {
    let mut h = h();
    for args in [[1.0, 2.0], [3.0, -2.0], [-0.5, -0.25]] {
        h.check_rule(MINNUMF, &args, TOL);
        h.check_rule(MAXNUMF, &args, TOL);
    }
    let nan = f64::NAN;
    for name in [MINNUMF, MAXNUMF] {
        // Ties go to the left operand.
        assert_eq!(
            h.rule_gradient(name, &[2.0, 2.0], &[true, true], 1.0),
            [Some(1.0), Some(0.0)],
            "{name}"
        );
        // A NaN operand loses: the number gets the adjoint, the NaN gets 0.
        assert_eq!(
            h.rule_gradient(name, &[nan, 2.0], &[true, true], 3.0),
            [Some(0.0), Some(1.0)],
            "{name}"
        );
        assert_eq!(
            h.rule_gradient(name, &[2.0, nan], &[true, true], 3.0),
            [Some(1.0), Some(0.0)],
            "{name}"
        );
        assert_eq!(
            h.rule_gradient(name, &[nan, nan], &[true, true], 3.0),
            [Some(0.0), Some(0.0)],
            "{name}"
        );
        // One active operand.
        assert_eq!(
            h.rule_gradient(name, &[1.0, 1.5], &[false, true], 1.0),
            [None, Some(if name == MAXNUMF { 1.0 } else { 0.0 })],
            "{name}"
        );
    }
}
