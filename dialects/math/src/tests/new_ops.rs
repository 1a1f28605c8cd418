//! The ops of issue #14: folders (which fold, at which widths, as upstream MLIR 22's), verifiers,
//! custom and generic syntax, derivative rules.

use super::h;
use super::round_trip;
use crate::names::*;
use qd_arith::testing::Harness;

/// The transcendental functions that upstream folds in f32 and f64 only.
const F32_F64: [&str; 13] = [
    ASIN, ACOS, ATAN, SINH, COSH, ASINH, ACOSH, ATANH, LOG1P, EXPM1, LOG10, ERF, ERFC,
];

#[test]
fn transcendental_folds_use_the_operand_precision() {
    let mut h = h();
    let x = 0.7f32;
    let y = 1.3f32;
    let f32_cases: [(&str, f32, f32); 15] = [
        (ASIN, x, x.asin()),
        (ACOS, x, x.acos()),
        (ATAN, x, x.atan()),
        (SINH, x, x.sinh()),
        (COSH, x, x.cosh()),
        (ASINH, x, x.asinh()),
        (ACOSH, y, y.acosh()),
        (ATANH, x, x.atanh()),
        (LOG1P, x, x.ln_1p()),
        (EXPM1, x, x.exp_m1()),
        (LOG10, x, x.log10()),
        (ERF, x, libm::erff(x)),
        (ERFC, x, libm::erfcf(x)),
        (TRUNC, -y, -1.0),
        (ROUND, -2.5, -3.0),
    ];
    for (name, arg, want) in f32_cases {
        assert_eq!(
            h.fold_floats(name, &[arg as f64], "f32"),
            Some(want as f64),
            "{name}"
        );
    }
    let d = 0.7f64;
    let f64_cases: [(&str, f64, f64); 6] = [
        (ASIN, d, d.asin()),
        (COSH, d, d.cosh()),
        (ATANH, d, d.atanh()),
        (ERF, d, libm::erf(d)),
        (ERFC, d, libm::erfc(d)),
        (LOG1P, d, d.ln_1p()),
    ];
    for (name, arg, want) in f64_cases {
        assert_eq!(h.fold_floats(name, &[arg], "f64"), Some(want), "{name}");
    }
}

#[test]
fn narrow_widths_fold_only_exact_ops() {
    let mut h = h();
    for name in F32_F64.into_iter().chain([TRUNC, ROUND]) {
        assert_eq!(h.fold_floats(name, &[0.5], "f16"), None, "{name}");
        assert_eq!(h.fold_floats(name, &[0.5], "bf16"), None, "{name}");
    }
    assert_eq!(h.fold_floats(ROUNDEVEN, &[2.5], "f16"), Some(2.0));
    assert_eq!(h.fold_floats(ROUNDEVEN, &[3.5], "bf16"), Some(4.0));
    assert_eq!(h.fold_floats(ROUNDEVEN, &[-0.5], "f32"), Some(-0.0));
    assert_eq!(h.fold_floats(COPYSIGN, &[1.5, -2.0], "f16"), Some(-1.5));
    assert_eq!(
        h.fold_floats(COPYSIGN, &[1.5, -0.0], "f64")
            .map(f64::to_bits),
        Some((-1.5f64).to_bits())
    );
}

#[test]
fn ops_upstream_does_not_fold() {
    let mut h = h();
    // cbrt and fpowi never fold upstream.
    assert_eq!(h.fold_floats(CBRT, &[8.0], "f32"), None);
    assert_eq!(h.fold_floats(CBRT, &[8.0], "f64"), None);
    let x = h.float(2.0, "f32");
    let n = h.int(3, "i32");
    let op = h.op(FPOWI, &[x, n], "f32");
    assert_eq!(h.fold(op), None);
    // log10 of a value with its sign bit set (-0.0 too), log1p where 1 + a is negative.
    assert_eq!(h.fold_floats(LOG10, &[-2.0], "f32"), None);
    assert_eq!(h.fold_floats(LOG10, &[-0.0], "f64"), None);
    assert_eq!(h.fold_floats(LOG10, &[0.0], "f64"), Some(f64::NEG_INFINITY));
    assert_eq!(h.fold_floats(LOG1P, &[-2.0], "f32"), None);
    assert_eq!(h.fold_floats(LOG1P, &[-2.0], "f64"), None);
    assert_eq!(
        h.fold_floats(LOG1P, &[-1.0], "f32"),
        Some(f64::NEG_INFINITY)
    );
    // Outside the domain the others fold, to NaN, as upstream's acosh 0.5 does.
    assert!(h.fold_floats(ACOSH, &[0.5], "f32").unwrap().is_nan());
    assert!(h.fold_floats(ASIN, &[2.0], "f64").unwrap().is_nan());
    assert_eq!(h.fold_floats(ATANH, &[1.0], "f64"), Some(f64::INFINITY));
}

#[test]
fn classifications_fold_at_every_width() {
    let mut h = h();
    let cases = [
        (ISNAN, f64::NAN, true),
        (ISNAN, 1.0, false),
        (ISNAN, f64::INFINITY, false),
        (ISINF, f64::NEG_INFINITY, true),
        (ISINF, f64::NAN, false),
        (ISINF, 3.0, false),
        (ISFINITE, 3.0, true),
        (ISFINITE, f64::INFINITY, false),
        (ISFINITE, f64::NAN, false),
    ];
    for ty in ["f16", "bf16", "f32", "f64"] {
        for (name, v, want) in cases {
            let x = h.float(v, ty);
            let op = h.op(name, &[x], "i1");
            h.verify(op).unwrap();
            let a = h.fold_attr(op).unwrap_or_else(|| panic!("{name} {ty}"));
            assert_eq!(
                *h.ctx.attr_data(a),
                qd_ir::AttrData::Bool(want),
                "{name}({v}) {ty}"
            );
        }
    }
    // A huge f64 is finite; the same constant rounds to infinity in f16.
    let x = h.float(1e6, "f16");
    let op = h.op(ISINF, &[x], "i1");
    let a = h.fold_attr(op).unwrap();
    assert_eq!(*h.ctx.attr_data(a), qd_ir::AttrData::Bool(true));
}

#[test]
fn absi_folds_at_every_width_and_keeps_the_minimum() {
    let mut h = h();
    assert_eq!(h.fold_ints(ABSI, &[-7], "i32"), Some(7));
    assert_eq!(h.fold_ints(ABSI, &[7], "i32"), Some(7));
    assert_eq!(h.fold_ints(ABSI, &[-128], "i8"), Some(-128));
    assert_eq!(h.fold_ints(ABSI, &[-5], "i8"), Some(5));
    assert_eq!(h.fold_ints(ABSI, &[i64::MIN], "i64"), Some(i64::MIN));
    assert_eq!(h.fold_ints(ABSI, &[-3], "index"), Some(3));
    // i1: -1 (true) is the minimum.
    assert_eq!(h.fold_ints(ABSI, &[1], "i1"), Some(-1));
}

#[test]
fn verifiers_check_the_mixed_and_test_shapes() {
    let mut h = h();
    let x = h.arg("f32");
    let d = h.arg("f64");
    let i = h.arg("i32");
    let ix = h.arg("index");
    let check = |h: &mut Harness, name: &str, args: &[qd_ir::Value], ty: &str| {
        let op = h.op(name, args, ty);
        h.verify(op)
    };
    assert_eq!(check(&mut h, FPOWI, &[x, i], "f32"), Ok(()));
    assert_eq!(check(&mut h, FPOWI, &[d, ix], "f64"), Ok(()));
    assert_eq!(
        check(&mut h, FPOWI, &[x, x], "f32").unwrap_err(),
        "'math.fpowi' op operand #1 must be signless-integer-like, but got 'f32'"
    );
    assert_eq!(
        check(&mut h, FPOWI, &[i, i], "i32").unwrap_err(),
        "'math.fpowi' op operand #0 must be floating-point-like, but got 'i32'"
    );
    assert_eq!(
        check(&mut h, FPOWI, &[x, i], "f64").unwrap_err(),
        "'math.fpowi' op failed to verify that all of {lhs, result} have same type"
    );
    assert_eq!(check(&mut h, ISNAN, &[x], "i1"), Ok(()));
    assert_eq!(
        check(&mut h, ISFINITE, &[x], "i32").unwrap_err(),
        "'math.isfinite' op result #0 must be bool-like, but got 'i32'"
    );
    assert_eq!(
        check(&mut h, ISINF, &[i], "i1").unwrap_err(),
        "'math.isinf' op operand #0 must be floating-point-like, but got 'i32'"
    );
    assert_eq!(check(&mut h, ABSI, &[ix], "index"), Ok(()));
    assert_eq!(
        check(&mut h, ABSI, &[x], "f32").unwrap_err(),
        "'math.absi' op operand #0 must be signless-integer-like, but got 'f32'"
    );
    assert_eq!(
        check(&mut h, COPYSIGN, &[x, d], "f32").unwrap_err(),
        "'math.copysign' op requires the same type for all operands and results"
    );
    assert_eq!(
        check(&mut h, CBRT, &[x, x], "f32").unwrap_err(),
        "'math.cbrt' op requires a single operand"
    );
}

#[test]
fn new_ops_round_trip_in_custom_and_generic_form() {
    let src = r#"
"test.func"() ({
^bb0(%x: f32, %y: f32, %n: i32, %d: f64, %k: index):
  %0 = math.asin %x : f32
  %1 = math.acosh %d fastmath<fast> : f64
  %2 = math.erfc %x : f32
  %3 = math.copysign %x, %y fastmath<nnan> : f32
  %4 = math.fpowi %x, %n : f32, i32
  %5 = math.fpowi %d, %k fastmath<fast> {note} : f64, index
  %6 = math.roundeven %x : f32
  %7 = math.absi %n : i32
  %8 = math.isnan %x : f32
  %9 = math.isinf %d {fastmath = #arith.fastmath<ninf>} : f64
  %10 = math.isfinite %x {fastmath = #arith.fastmath<none>, note} : f32
  "test.end"() : () -> ()
}) : () -> ()
"#;
    let (c1, g1) = round_trip(src);
    for want in [
        "%1 = math.acosh %arg3 fastmath<fast> : f64",
        "%4 = math.fpowi %arg0, %arg2 : f32, i32",
        "%5 = math.fpowi %arg3, %arg4 fastmath<fast> {note} : f64, index",
        "%7 = math.absi %arg2 : i32",
        "%8 = math.isnan %arg0 : f32",
        "%9 = math.isinf %arg3 {fastmath = #arith.fastmath<ninf>} : f64",
        "%10 = math.isfinite %arg0 {note} : f32",
    ] {
        assert!(c1.contains(want), "{want}\n{c1}");
    }
    for want in [
        r#"%4 = "math.fpowi"(%arg0, %arg2) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32"#,
        r#"%7 = "math.absi"(%arg2) : (i32) -> i32"#,
        r#"%8 = "math.isnan"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1"#,
        r#"%9 = "math.isinf"(%arg3) <{fastmath = #arith.fastmath<ninf>}> : (f64) -> i1"#,
    ] {
        assert!(g1.contains(want), "{want}\n{g1}");
    }
}

/// Derivative rules against central differences of the folded ops (f64), inside each domain and
/// near its edges. cbrt and fpowi do not fold (as upstream), so their rules are checked by the
/// autodiff sweep (passes/autodiff/tests/autodiff/math_sweep.rs) through the interpreter.
#[test]
fn new_derivative_rules_match_central_differences() {
    let mut h = h();
    for x in [-0.9, -0.3, 0.2, 0.8] {
        for name in [
            ASIN, ACOS, ATAN, SINH, COSH, ASINH, ATANH, LOG1P, EXPM1, ERF, ERFC,
        ] {
            h.check_rule(name, &[x], 1e-6);
        }
    }
    for x in [1.05, 2.0, 7.5] {
        for name in [ACOSH, LOG10, LOG1P, ATAN, ASINH] {
            h.check_rule(name, &[x], 1e-6);
        }
    }
    // Near the edges (a smaller step keeps the difference inside the domain).
    for (name, x) in [
        (ASIN, 0.999),
        (ACOS, -0.999),
        (ATANH, 0.999),
        (LOG1P, -0.999),
    ] {
        let got = h.rule_gradient(name, &[x], &[true], 1.0)[0].unwrap();
        let want = h.central_difference(name, &[x], 0, 1e-8);
        assert!(
            (got - want).abs() <= 1e-5 * want.abs(),
            "{name}({x}): {got} vs {want}"
        );
    }
    for (a, b) in [(1.5, 2.0), (1.5, -2.0), (-1.5, 2.0), (-1.5, -0.5)] {
        h.check_rule(COPYSIGN, &[a, b], 1e-6);
    }
}

#[test]
fn edge_conventions_of_the_rules() {
    let mut h = h();
    // copysign at a = 0: the symmetric difference quotient, 0; no contribution to b ever.
    assert_eq!(
        h.rule_gradient(COPYSIGN, &[0.0, -1.0], &[true, true], 1.0),
        [Some(0.0), None]
    );
    // -0.0 as b counts as negative.
    assert_eq!(
        h.rule_gradient(COPYSIGN, &[2.0, -0.0], &[true, false], 1.0),
        [Some(-1.0), None]
    );
    // The vertical tangents: +inf at the edge.
    assert_eq!(
        h.rule_gradient(ACOSH, &[1.0], &[true], 1.0),
        [Some(f64::INFINITY)]
    );
    assert_eq!(
        h.rule_gradient(ASIN, &[1.0], &[true], 1.0),
        [Some(f64::INFINITY)]
    );
    assert_eq!(
        h.rule_gradient(ATANH, &[-1.0], &[true], 1.0),
        [Some(f64::INFINITY)]
    );
    // Rounding ops: no contribution, and a zero difference quotient away from the jumps.
    for name in [TRUNC, ROUND, ROUNDEVEN] {
        assert_eq!(
            h.rule_gradient(name, &[1.3], &[true], 1.0),
            [None],
            "{name}"
        );
        assert_eq!(h.central_difference(name, &[1.3], 0, 1e-6), 0.0);
    }
}

#[test]
fn rules_read_what_they_need() {
    use qd_ir::interfaces::ReverseRule;
    let mut h = h();
    let x = h.arg("f32");
    let y = h.arg("f32");
    let n = h.arg("i32");
    let mut needs = |name: &str, args: &[qd_ir::Value], active: &[bool]| {
        let op = h.op(name, args, "f32");
        let info = h.ctx.info(op).unwrap();
        let rule = info.get_interface::<dyn ReverseRule>().unwrap();
        let n = rule.primal_needs(&h.ctx, op, active);
        (n.operands, n.results)
    };
    assert_eq!(needs(EXPM1, &[x], &[true]), (vec![false], vec![true]));
    assert_eq!(needs(CBRT, &[x], &[true]), (vec![false], vec![true]));
    assert_eq!(needs(ERF, &[x], &[true]), (vec![true], vec![false]));
    assert_eq!(needs(ROUND, &[x], &[true]), (vec![false], vec![false]));
    assert_eq!(
        needs(FPOWI, &[x, n], &[true, false]),
        (vec![true, true], vec![false])
    );
    // copysign with only the sign operand active reads nothing: its derivative is zero.
    assert_eq!(
        needs(COPYSIGN, &[x, y], &[false, true]),
        (vec![false, false], vec![false])
    );
    // The integer and i1-producing ops have no rule: reverse mode treats them as constants.
    for name in [ABSI, ISNAN, ISINF, ISFINITE] {
        let info = h.ctx.lookup_op_info(name).unwrap();
        assert!(info.get_interface::<dyn ReverseRule>().is_none(), "{name}");
    }
}
