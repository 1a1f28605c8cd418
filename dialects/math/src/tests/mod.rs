//! Folders and verifiers of the math ops.

use crate::names::*;
use qd_arith::testing::Harness;
use qd_ir::{FloatKind, OperationState, Type, Value};

fn h() -> Harness {
    Harness::new(|ctx| ctx.register_dialect(crate::dialect()))
}

#[test]
fn f32_folds_use_f32_functions() {
    let mut h = h();
    let x = 0.7f32;
    let cases: [(&str, f32); 10] = [
        (SIN, x.sin()),
        (COS, x.cos()),
        (TAN, x.tan()),
        (EXP, x.exp()),
        (EXP2, x.exp2()),
        (LOG, x.ln()),
        (LOG2, x.log2()),
        (SQRT, x.sqrt()),
        (RSQRT, 1.0 / x.sqrt()),
        (TANH, x.tanh()),
    ];
    for (name, want) in cases {
        assert_eq!(
            h.fold_floats(name, &[x as f64], "f32"),
            Some(want as f64),
            "{name}"
        );
    }
    assert_eq!(
        h.fold_floats(POWF, &[2.0, 0.5], "f32"),
        Some(2f32.powf(0.5) as f64)
    );
    assert_eq!(
        h.fold_floats(ATAN2, &[1.0, -1.0], "f32"),
        Some(1f32.atan2(-1.0) as f64)
    );
    assert_eq!(
        h.fold_floats(FMA, &[0.1, 0.2, 0.3], "f32"),
        Some(0.1f32.mul_add(0.2, 0.3) as f64)
    );
    assert_eq!(h.fold_floats(ABSF, &[-2.5], "f32"), Some(2.5));
    assert_eq!(h.fold_floats(FLOOR, &[-2.5], "f32"), Some(-3.0));
    assert_eq!(h.fold_floats(CEIL, &[-2.5], "f32"), Some(-2.0));
}

#[test]
fn f64_folds() {
    let mut h = h();
    assert_eq!(h.fold_floats(SIN, &[1.0], "f64"), Some(1f64.sin()));
    assert_eq!(h.fold_floats(EXP, &[1.0], "f64"), Some(std::f64::consts::E));
    assert_eq!(
        h.fold_floats(FMA, &[0.1, 0.2, 0.3], "f64"),
        Some(0.1f64.mul_add(0.2, 0.3))
    );
    assert_eq!(h.fold_floats(POWF, &[2.0, 10.0], "f64"), Some(1024.0));
    assert_eq!(h.fold_floats(LOG, &[0.0], "f64"), Some(f64::NEG_INFINITY));
    // -0.0 has its sign bit set: upstream's sqrt (APFloat::isNegative) leaves it alone.
    assert_eq!(h.fold_floats(SQRT, &[-0.0], "f64"), None);
    assert_eq!(h.fold_floats(LOG, &[-0.0], "f64"), None);
}

#[test]
fn edge_cases_do_not_fold() {
    let mut h = h();
    // Negative inputs of logarithms and square roots are left alone, as upstream.
    for name in [LOG, LOG2, SQRT, RSQRT] {
        assert_eq!(h.fold_floats(name, &[-1.0], "f32"), None, "{name}");
    }
    // f16/bf16: transcendental functions do not fold; exact ones do.
    assert_eq!(h.fold_floats(SIN, &[1.0], "f16"), None);
    assert_eq!(h.fold_floats(FMA, &[1.0, 2.0, 3.0], "bf16"), None);
    assert_eq!(h.fold_floats(ABSF, &[-1.5], "f16"), Some(1.5));
    assert_eq!(h.fold_floats(FLOOR, &[1.5], "bf16"), Some(1.0));
    // A non-constant operand.
    let x = h.arg("f32");
    let op = h.op(SIN, &[x], "f32");
    assert!(h.fold(op).is_none());
    // NaN propagates.
    assert!(h.fold_floats(SIN, &[f64::NAN], "f32").unwrap().is_nan());
}

fn raw(h: &mut Harness, name: &str, operands: &[Value], results: &[Type]) -> qd_ir::OpId {
    let state = OperationState::new(name, h.loc)
        .operands(operands)
        .results(results);
    h.insert(state)
}

#[test]
fn verifiers() {
    let mut h = h();
    let [i32t, f32t, f64t] = ["i32", "f32", "f64"].map(|t| h.ty(t));
    let (a, x, d) = (h.arg("i32"), h.arg("f32"), h.arg("f64"));
    let err = |h: &Harness, op| h.verify(op).expect_err("expected an error");
    let op = raw(&mut h, SIN, &[a], &[i32t]);
    assert_eq!(
        err(&h, op),
        "'math.sin' op operand #0 must be floating-point-like, but got 'i32'"
    );
    let op = raw(&mut h, FMA, &[x, x], &[f32t]);
    assert_eq!(
        err(&h, op),
        "'math.fma' op expected 3 operands, but found 2"
    );
    let op = raw(&mut h, POWF, &[x, d], &[f32t]);
    assert_eq!(
        err(&h, op),
        "'math.powf' op requires the same type for all operands and results"
    );
    let op = raw(&mut h, SQRT, &[x], &[f64t]);
    assert_eq!(
        err(&h, op),
        "'math.sqrt' op requires the same type for all operands and results"
    );
    let ov = qd_arith::FlagKind::Overflow.attr(&mut h.ctx, 0);
    let op = raw(&mut h, EXP, &[x], &[f32t]);
    h.ctx.set_prop(op, "fastmath", ov);
    assert!(err(&h, op).contains("Invalid attribute `fastmath` in property conversion"));
    // Built ops verify and carry fastmath.
    let loc = h.loc;
    let v = qd_arith::build_elementwise(&mut h.builder(), FMA, &[x, x, x], loc);
    let op = h.ctx.defining_op(v).unwrap();
    assert_eq!(h.verify(op), Ok(()));
    assert!(h.ctx.prop(op, "fastmath").is_some());
    assert!(h.ctx.has_trait(op, qd_ir::OpTraits::PURE));
}

#[test]
fn dialect_materializes_through_arith() {
    let mut ctx = qd_ir::Context::new();
    crate::register(&mut ctx);
    let f32t = ctx.f32_type();
    let a = ctx.float_attr(1.0, f32t);
    let loc = ctx.unknown_loc();
    let make = ctx.dialect("math").unwrap().materialize_constant.unwrap();
    let state = make(&mut ctx, a, f32t, loc).unwrap();
    assert_eq!(state.name, "arith.constant");
    assert!(ctx.is_dialect_registered("arith"));
    assert_eq!(crate::ops().len(), 39);
}

#[test]
fn syntax_round_trips() {
    let src = r#"
"test.func"() ({
^bb0(%x: f32, %y: f32, %z: f32, %d: f64):
  %0 = math.sin %x : f32
  %1 = math.cos %x fastmath<fast> : f32
  %2 = math.tan %d : f64
  %3 = math.exp %x : f32
  %4 = math.exp2 %x : f32
  %5 = math.log %x : f32
  %6 = math.log2 %x : f32
  %7 = math.sqrt %x fastmath<afn> : f32
  %8 = math.rsqrt %x : f32
  %9 = math.tanh %x : f32
  %10 = math.powf %x, %y : f32
  %11 = math.atan2 %x, %y fastmath<nnan,nsz> : f32
  %12 = math.absf %x : f32
  %13 = math.floor %x : f32
  %14 = math.ceil %x : f32
  %15 = math.fma %x, %y, %z {note} : f32
  "test.end"() : () -> ()
}) : () -> ()
"#;
    let (c1, g1) = round_trip(src);
    assert!(
        c1.contains("%11 = math.atan2 %arg0, %arg1 fastmath<nnan,nsz> : f32"),
        "{c1}"
    );
    assert!(
        c1.contains("%15 = math.fma %arg0, %arg1, %arg2 {note} : f32"),
        "{c1}"
    );
    assert!(g1
        .contains(r#"%0 = "math.sin"(%arg0) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32"#));
    assert!(g1.contains(
        r#"%15 = "math.fma"(%arg0, %arg1, %arg2) <{fastmath = #arith.fastmath<none>}> {note} : (f32, f32, f32) -> f32"#
    ));
}

/// Derivative rules against central differences in f64 (emitted adjoint expressions folded with
/// constant operands; see qd_arith::testing::Harness::check_rule). Tolerance 1e-6 relative: the
/// central difference's truncation (h^2 |f'''|, h = 1e-6 |x|) and rounding (1e-16 / h) errors are
/// far below it.
#[test]
fn derivative_rules_match_central_differences() {
    let mut h = h();
    for x in [0.3, 1.7, 2.9] {
        for name in [SIN, COS, TAN, EXP, EXP2, LOG, LOG2, SQRT, RSQRT, TANH] {
            h.check_rule(name, &[x], 1e-6);
        }
    }
    for x in [-1.3, 0.6, 2.2] {
        for name in [SIN, COS, EXP, EXP2, TANH, ABSF] {
            h.check_rule(name, &[x], 1e-6);
        }
        h.check_rule(FMA, &[x, 0.7, -1.1], 1e-6);
        h.check_rule(ATAN2, &[x, 0.8], 1e-6);
        h.check_rule(ATAN2, &[0.8, x], 1e-6);
    }
    h.check_rule(POWF, &[1.7, 2.3], 1e-6);
    h.check_rule(POWF, &[0.4, -1.5], 1e-6);
    // floor and ceil: zero derivative (away from integers), and no contribution at all.
    for name in [FLOOR, CEIL] {
        assert_eq!(h.rule_gradient(name, &[1.4], &[true], 1.0), [None]);
        assert_eq!(h.central_difference(name, &[1.4], 0, 1e-6), 0.0);
    }
    // |x| at 0: the symmetric difference quotient, 0.
    assert_eq!(h.rule_gradient(ABSF, &[0.0], &[true], 1.0), [Some(0.0)]);
}

#[test]
fn rules_read_the_result_where_it_is_cheaper() {
    use qd_ir::interfaces::ReverseRule;
    let mut h = h();
    let x = h.arg("f32");
    let y = h.arg("f32");
    let needs = |h: &mut Harness, name: &str, args: &[Value], active: &[bool]| {
        let op = h.op(name, args, "f32");
        let rule = h
            .ctx
            .info(op)
            .unwrap()
            .get_interface::<dyn ReverseRule>()
            .unwrap();
        let n = rule.primal_needs(&h.ctx, op, active);
        (n.operands, n.results)
    };
    assert_eq!(needs(&mut h, EXP, &[x], &[true]), (vec![false], vec![true]));
    assert_eq!(
        needs(&mut h, TANH, &[x], &[true]),
        (vec![false], vec![true])
    );
    assert_eq!(needs(&mut h, SIN, &[x], &[true]), (vec![true], vec![false]));
    assert_eq!(
        needs(&mut h, FLOOR, &[x], &[true]),
        (vec![false], vec![false])
    );
    // powf with a constant exponent: d/dbase only, no log of the base.
    assert_eq!(
        needs(&mut h, POWF, &[x, y], &[true, false]),
        (vec![true, true], vec![false])
    );
    assert_eq!(
        needs(&mut h, FMA, &[x, y, y], &[false, false, true]),
        (vec![false, false, false], vec![false])
    );
}

mod new_ops;

/// `src` printed in custom and generic form, after checking that both parse back (verified) to
/// the same two texts.
pub(super) fn round_trip(src: &str) -> (String, String) {
    use qd_ir::text::{parse_source, print_op, PrintOptions};
    let custom = PrintOptions::default();
    let generic = PrintOptions {
        generic: true,
        debug_info: false,
    };
    let parse = |text: &str| {
        let mut ctx = qd_ir::Context::new();
        crate::register(&mut ctx);
        ctx.allow_unregistered = true;
        let m = parse_source(&mut ctx, text, "t.mlir")
            .unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
        for op in ctx.walk_pre_order(m) {
            if let Some(v) = ctx.info(op).and_then(|i| i.verify) {
                v(&ctx, op).unwrap();
            }
        }
        (print_op(&ctx, m, &custom), print_op(&ctx, m, &generic))
    };
    let (c1, g1) = parse(src);
    assert_eq!(parse(&c1), (c1.clone(), g1.clone()));
    assert_eq!(parse(&g1), (c1.clone(), g1.clone()));
    (c1, g1)
}

#[test]
fn folds_keep_nan_bits_as_upstream() {
    let mut h = h();
    let bits = |h: &mut Harness, name: &str, args: &[f64], ty: &str| {
        h.fold_floats(name, args, ty).map(f64::to_bits)
    };
    let snan32 = qd_ir::float::native_to_f64(FloatKind::F32, 0x7F80_0001);
    let quiet32 = qd_ir::float::native_to_f64(FloatKind::F32, 0x7FC0_0001);
    // Sign operations keep a signaling NaN; rounding to an integer quietens it.
    assert_eq!(bits(&mut h, ABSF, &[snan32], "f32"), Some(snan32.to_bits()));
    assert_eq!(
        bits(&mut h, FLOOR, &[snan32], "f32"),
        Some(quiet32.to_bits())
    );
    // libm sees the signaling NaN itself: powf(sNaN, 0) is NaN, not 1.
    assert!(h
        .fold_floats(POWF, &[snan32, 0.0], "f32")
        .is_some_and(f64::is_nan));
    // A NaN libm makes is kept as it is (the host's: what mlir-opt folds to there).
    let host = (f32::INFINITY).cos() as f64;
    assert_eq!(
        bits(&mut h, COS, &[f64::INFINITY], "f32"),
        Some(qd_ir::float::round_to_kind(FloatKind::F32, host).to_bits())
    );
    // atan2(0, 0) is APFloat's NaN at every width (C's atan2 gives 0).
    for ty in ["f16", "f32", "f64"] {
        let r = h.fold_floats(ATAN2, &[0.0, -0.0], ty).unwrap();
        assert!(r.is_nan() && r.is_sign_positive(), "{ty}");
    }
}
