use super::*;
use std::collections::HashMap;

pub(super) fn p(s: &str) -> SizeExpr {
    SizeExpr::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

pub(super) fn perr(s: &str) -> String {
    match SizeExpr::parse(s) {
        Ok(e) => panic!("{s} parsed as {e}"),
        Err(e) => e.message,
    }
}

/// A launch: fields, ndarray shapes and elements (row-major), scalar arguments.
#[derive(Default)]
pub(super) struct Env {
    fields: HashMap<String, (Vec<i64>, Vec<i64>)>,
    arrays: HashMap<u32, (Vec<i64>, Vec<i64>)>,
    scalars: HashMap<u32, i64>,
}

fn linear(shape: &[i64], idx: &[i64]) -> Result<usize, String> {
    if shape.len() != idx.len() {
        return Err(format!("rank {} indexed with {}", shape.len(), idx.len()));
    }
    let mut off = 0i64;
    for (&s, &i) in shape.iter().zip(idx) {
        if i < 0 || i >= s {
            return Err(format!("index {i} out of bounds for size {s}"));
        }
        off = off * s + i;
    }
    Ok(off as usize)
}

impl EvalEnv for Env {
    fn field_element(&self, f: &str, idx: &[i64]) -> Result<i64, String> {
        let (shape, data) = self.fields.get(f).ok_or("no such field")?;
        Ok(data[linear(shape, idx)?])
    }
    fn ndarray_shape(&self, arg: u32, axis: u32) -> Result<i64, String> {
        let (shape, _) = self.arrays.get(&arg).ok_or("no such argument")?;
        shape
            .get(axis as usize)
            .copied()
            .ok_or_else(|| "no such axis".into())
    }
    fn ndarray_element(&self, arg: u32, idx: &[i64]) -> Result<i64, String> {
        let (shape, data) = self.arrays.get(&arg).ok_or("no such argument")?;
        Ok(data[linear(shape, idx)?])
    }
    fn scalar_arg(&self, arg: u32) -> Result<i64, String> {
        self.scalars
            .get(&arg)
            .copied()
            .ok_or_else(|| "no such scalar argument".into())
    }
}

pub(super) fn env() -> Env {
    let mut e = Env::default();
    e.fields.insert("n".into(), (vec![], vec![12]));
    e.fields
        .insert("starts".into(), (vec![4], vec![0, 2, 3, 6]));
    e.arrays.insert(0, (vec![4], vec![0, 0, 0, 100]));
    e.arrays.insert(1, (vec![2], vec![1, 1]));
    e.arrays.insert(2, (vec![2, 3], vec![1, 2, 3, 4, 5, 6]));
    e.scalars.insert(3, 15);
    e.scalars.insert(4, -7);
    e
}

pub(super) fn ev(s: &str) -> i64 {
    p(s).eval(&env()).unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn text_round_trips_with_fewest_parentheses() {
    for s in [
        "7",
        "-3",
        "@n[]:i32",
        "@starts[v0 + 1]:i32 - @starts[v0]:i32",
        "arg0.shape[0]",
        "arg2[1, v0]:i64",
        "max(1, min(2, 3))",
        "max(v0 * 2 for v0 in range(0, arg0.shape[0]))",
        "max(max(v0 + v1 for v1 in range(v0, 10)) for v0 in range(-2, @n[]:i32))",
    ] {
        let s = if s.contains("v0") && !s.starts_with("max(") {
            format!("max({s} for v0 in range(0, 3))")
        } else {
            s.to_string()
        };
        let e = p(&s);
        assert_eq!(e.to_string(), s, "print(parse(s)) != s");
        assert_eq!(p(&e.to_string()), e);
    }
    for s in [
        "@a[]:i32 - (@b[]:i32 + @c[]:i32)",
        "(@a[]:i32 + @b[]:i32) * @c[]:i32",
        "@a[]:i32 - @b[]:i32 - @c[]:i32",
        "@a[]:i32 * (@b[]:i32 * @c[]:i32)",
        "v0 - -5",
        "-5 * @a[]:i32",
        "@\"odd name\"[]:ui8 + @\"q\\\"\\\\\\0A\"[]:ui32",
    ] {
        let s = if s.starts_with("v0") {
            format!("max({s} for v0 in range(0, 3))")
        } else {
            s.to_string()
        };
        let e = p(&s);
        assert_eq!(e.to_string(), s);
    }
    // Spacing and redundant parentheses are not kept.
    assert_eq!(p(" ( 1+2 )*3 ").to_string(), "(1 + 2) * 3");
    assert_eq!(p("((1)) - (2 - 3)").to_string(), "1 - (2 - 3)");
}

#[test]
fn nodes_are_shared_and_post_ordered() {
    let e = p("@n[]:i32 * @n[]:i32 + @n[]:i32");
    assert_eq!(e.len(), 3);
    assert_eq!(
        e.nodes(),
        &[
            Node::FieldLoad {
                field: "n".into(),
                ty: IntTy::I32,
                indices: vec![]
            },
            Node::Binary(BinOp::Mul, NodeId(0), NodeId(0)),
            Node::Binary(BinOp::Add, NodeId(1), NodeId(0)),
        ]
    );
    for (i, n) in e.nodes().iter().enumerate() {
        assert!(n.operands().iter().all(|o| o.index() < i));
    }
    // The range comes before the body in the flat form, whatever the text order.
    let m = p("max(v0 for v0 in range(2, 5))");
    assert_eq!(m.nodes()[0], Node::Const(2));
    assert_eq!(m.nodes()[2], Node::BoundVar(0));
    assert_eq!(m.subexpr(NodeId(1)), SizeExpr::constant(5));
}

#[test]
fn parse_errors_say_what_is_wrong() {
    assert!(perr("v0 + 1").contains("v0 is not bound"));
    assert!(
        perr("max(max(v0 for v0 in range(0, 2)) for v0 in range(0, 3))").contains("bound again")
    );
    assert!(perr("max(v0 for v0 in range(0, v0))").contains("outer v0"));
    assert!(perr("@x[]:f32").contains("element type"));
    assert!(perr("arg0[]:i32").contains("at least one index"));
    assert!(perr("foo").contains("unknown name 'foo'"));
    assert!(perr("1 2").contains("end of the expression"));
    assert!(perr("99999999999999999999").contains("does not fit"));
    assert!(perr("max(1 for x in range(0, 1))").contains("bound variable"));
    assert!(perr("max(1 for v64 in range(0, 1))").contains("v0 to v63"));
    assert!(perr("").contains("expected an expression"));
    assert!(perr("@\"abc").contains("unterminated"));
    assert!(perr(&"(".repeat(300)).contains("deeper"));
    let long = vec!["1"; 400].join(" + ");
    assert!(perr(&long).contains("deeper"));
}

#[test]
fn evaluation_saturates_and_follows_the_semantics() {
    assert_eq!(ev("3 - 5"), 0);
    assert_eq!(ev("5 - 3"), 2);
    assert_eq!(ev("9223372036854775807 + 1"), i64::MAX);
    assert_eq!(ev("-9223372036854775808 + -1"), i64::MIN);
    assert_eq!(ev("4611686018427387904 * 4"), i64::MAX);
    assert_eq!(ev("-3"), -3);
    assert_eq!(ev("max(-3, -5)"), -3);
    assert_eq!(ev("min(4, @n[]:i32)"), 4);
    // Empty ranges give 0; a negative body gives 0.
    assert_eq!(ev("max(7 for v0 in range(3, 3))"), 0);
    assert_eq!(ev("max(-7 for v0 in range(0, 3))"), 0);
    assert_eq!(ev("max(7 for v0 in range(0, 3))"), 7);
    // The triangular case: 6 - j over j in [0, 6).
    assert_eq!(ev("6 * max(6 - v0 for v0 in range(0, 6))"), 36);
    // Ragged segments do not collapse to 0.
    assert_eq!(
        ev("max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))"),
        3
    );
    // Independent maxima do not fuse: a = [0,0,0,100], b = [1,1].
    assert_eq!(
        ev("max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0])) - max(arg1[v1]:i32 for v1 in range(0, arg1.shape[0]))"),
        99
    );
    assert_eq!(ev("max(max(arg2[v0, v1]:i32 for v1 in range(0, arg2.shape[1])) for v0 in range(0, arg2.shape[0]))"), 6);
    assert_eq!(p("-4").eval_capacity(&env()), Ok(0));
    assert_eq!(p("@n[]:i32 + 1").eval_capacity(&env()), Ok(13));
}

#[test]
fn evaluation_errors_are_clear() {
    let e = p("max(v0 for v0 in range(0, 16777217))")
        .eval(&env())
        .unwrap_err();
    assert_eq!(
        e,
        EvalError::RangeTooLong {
            var: 0,
            begin: 0,
            end: 16777217
        }
    );
    assert!(e.to_string().contains("cap of 16777216"));
    // A body that does not depend on the variable is evaluated once, whatever the range.
    assert_eq!(ev("max(@n[]:i32 for v0 in range(0, 1000000000000))"), 12);
    let e = p("@starts[4]:i32").eval(&env()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot read @starts[4]: index 4 out of bounds for size 4"
    );
    let e = p("arg9.shape[0]").eval(&env()).unwrap_err();
    assert_eq!(e.to_string(), "cannot read arg9.shape[0]: no such argument");
    let nested = "max(max(max(1 + v0 + v1 + v2 for v2 in range(0, 4096)) for v1 in range(0, 4096)) for v0 in range(0, 4096))";
    assert_eq!(p(nested).eval(&env()), Err(EvalError::TooMuchWork));
}

#[test]
fn intervals_bound_every_node() {
    let e = p("max(6 - v0 for v0 in range(0, 6))");
    let iv = e.intervals();
    // v0 in [0, 5], 6 - v0 in [1, 6].
    assert_eq!(iv[2], Interval::new(0, 5));
    assert_eq!(iv[3], Interval::new(1, 6));
    assert_eq!(e.interval(), Interval::new(1, 6));
    // Sub uses the subtrahend's lower bound for its upper bound.
    assert_eq!(p("@a[]:ui8 - @b[]:ui8").interval(), Interval::new(0, 255));
    assert_eq!(p("@a[]:i8 * -2").interval(), Interval::new(-254, 256));
    assert_eq!(
        p("arg0.shape[0] + 1").interval(),
        Interval::new(1, i32::MAX as i64 + 1)
    );
    // Maybe-empty range: 0 is possible.
    assert_eq!(
        p("max(5 for v0 in range(0, @n[]:ui8))").interval(),
        Interval::new(0, 5)
    );
    // Nested ranges settle: v1 in [0, 9].
    let n = p("max(max(v1 for v1 in range(v0, 10)) for v0 in range(0, 4))");
    assert_eq!(n.interval(), Interval::new(0, 9));
    // Free variables may be given ranges.
    let open = SizeExpr::binary(BinOp::Sub, &SizeExpr::bound_var(2), &SizeExpr::constant(1));
    assert_eq!(open.interval(), Interval::new(0, i64::MAX - 1));
    let given = open.interval_with(&|v| {
        if v == 2 {
            Interval::new(3, 9)
        } else {
            Interval::FULL
        }
    });
    assert_eq!(given, Interval::new(2, 8));
    // Every evaluation lies in the root interval.
    for s in [
        "3 - 5",
        "max(6 - v0 for v0 in range(0, 6))",
        "@n[]:i32 * 2 - 30",
    ] {
        assert!(p(s).interval().contains(ev(s)), "{s}");
    }
}

#[test]
fn folding_keeps_values() {
    let n = p("@n[]:i32");
    let u = p("@u[]:ui8");
    let zero = SizeExpr::constant(0);
    assert_eq!(SizeExpr::constant(3).sub(&SizeExpr::constant(5)), zero);
    // x - 0 is max(x, 0): kept unless x is known non-negative.
    assert_eq!(n.sub(&zero).to_string(), "@n[]:i32 - 0");
    assert_eq!(u.sub(&zero), u);
    assert_eq!(n.sub(&n), zero);
    assert_eq!(n.add(&zero), n);
    let one = SizeExpr::constant(1);
    assert_eq!(n.add(&one).add(&one).to_string(), "@n[]:i32 + 2");
    // Literals of opposite signs stay apart (saturation could tell them apart).
    let m1 = SizeExpr::constant(-1);
    assert_eq!(n.add(&one).add(&m1).to_string(), "@n[]:i32 + 1 + -1");
    assert_eq!(n.mul(&zero), zero);
    assert_eq!(n.mul(&SizeExpr::constant(1)), n);
    assert_eq!(u.max(&SizeExpr::constant(300)), SizeExpr::constant(300));
    assert_eq!(u.min(&SizeExpr::constant(-1)), SizeExpr::constant(-1));
    let v = SizeExpr::bound_var(0);
    // A range over a read stays; one that reads nothing folds to its value.
    let r = SizeExpr::max_over_range(0, &zero, &n, &v);
    assert_eq!(r.to_string(), "max(v0 for v0 in range(0, @n[]:i32))");
    let r = SizeExpr::max_over_range(0, &zero, &SizeExpr::constant(4), &v);
    assert_eq!(r, SizeExpr::constant(3));
    assert_eq!(
        SizeExpr::max_over_range(0, &SizeExpr::constant(4), &zero, &v),
        zero
    );
    assert_eq!(
        SizeExpr::max_over_range(0, &zero, &SizeExpr::constant(4), &u),
        u
    );
    let s = SizeExpr::sum(&[
        SizeExpr::constant(2),
        n.clone(),
        SizeExpr::constant(3),
        u.clone(),
    ]);
    assert_eq!(s.to_string(), "5 + (@n[]:i32 + @u[]:ui8)");
    assert_eq!(SizeExpr::sum(&[]), zero);
    assert_eq!(SizeExpr::product(&[n.clone(), SizeExpr::constant(1)]), n);
    assert_eq!(n.free_vars(), Vec::<u32>::new());
    let open = SizeExpr::binary(BinOp::Add, &SizeExpr::bound_var(0), &n);
    assert_eq!(open.free_vars(), vec![0]);
    assert!(open.validate().unwrap_err().contains("v0 is not bound"));
}

#[test]
fn binary_form_round_trips() {
    for s in [
        "7",
        "@n[]:i32 * @n[]:i32 + @\"x y\"[2, 3]:ui16",
        "max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3)) * arg2[1, 2]:i64",
        "max(max(v1 for v1 in range(v0, arg0.shape[1])) for v0 in range(-2, 9)) - min(1, 2)",
    ] {
        let e = p(s);
        let b = e.to_bytes();
        let d = SizeExpr::from_bytes(&b).unwrap_or_else(|m| panic!("{s}: {m}"));
        assert_eq!(d, e);
        assert_eq!(d.to_bytes(), b);
        assert_eq!(d.to_string(), s);
        assert_eq!(&b[..4], b"QDSZ");
    }
    assert_eq!(p("5").to_bytes().len(), 20 + 32);
}

#[test]
fn binary_decoding_rejects_bad_input_without_panicking() {
    let good = p("max(@starts[v0 + 1]:i32 - arg0[v0]:i8 for v0 in range(0, 3))").to_bytes();
    for n in 0..good.len() {
        assert!(SizeExpr::from_bytes(&good[..n]).is_err(), "prefix {n}");
    }
    // Every single-byte corruption either fails cleanly or decodes to a valid expression.
    for i in 0..good.len() {
        for x in [1u8, 0x80, 0xff] {
            let mut b = good.clone();
            b[i] ^= x;
            if let Ok(e) = SizeExpr::from_bytes(&b) {
                assert!(e.validate().is_ok());
                let _ = e.eval(&env());
            }
        }
    }
    let mut extra = good.clone();
    extra.push(0);
    assert!(SizeExpr::from_bytes(&extra)
        .unwrap_err()
        .contains("trailing"));
    // A forward operand, a free variable.
    let fwd = vec![
        Node::Binary(BinOp::Add, NodeId(1), NodeId(0)),
        Node::Const(1),
    ];
    assert!(SizeExpr::from_nodes(fwd).unwrap_err().contains("backwards"));
    assert!(SizeExpr::from_nodes(vec![Node::BoundVar(3)])
        .unwrap_err()
        .contains("v3 is not bound"));
    assert!(SizeExpr::from_nodes(vec![]).is_err());
    // Non-canonical lists come back canonical (shared, unreachable nodes dropped).
    let loose = vec![
        Node::Const(9),
        Node::Const(2),
        Node::Const(2),
        Node::Binary(BinOp::Mul, NodeId(1), NodeId(2)),
    ];
    let c = SizeExpr::from_nodes(loose).unwrap();
    assert_eq!(c.nodes(), p("2 * 2").nodes());
}

#[test]
fn the_attribute_round_trips_through_the_ir_text() {
    let mut ctx = qd_ir::Context::new();
    ctx.register_dialect(crate::dialect());
    ctx.allow_unregistered = true;
    let e = p("max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3)) + 2");
    let a = e.to_attr(&mut ctx);
    assert_eq!(
        qd_ir::text::attr_to_string(&ctx, a),
        format!("#adstack.size<{e}>")
    );
    assert_eq!(SizeExpr::from_attr(&ctx, a), Ok(&e));
    let src = format!("\"test.op\"() {{s = #adstack.size<{e}>}} : () -> ()\n");
    let m = qd_ir::text::parse_source(&mut ctx, &src, "t.mlir").expect("parses");
    let text = qd_ir::text::print_op(&ctx, m, &Default::default());
    assert!(text.contains(&format!("#adstack.size<{e}>")), "{text}");
    // The dialect rejects a malformed body at parse time.
    let bad = "\"test.op\"() {s = #adstack.size<v0>} : () -> ()\n";
    assert!(qd_ir::text::parse_source(&mut ctx, bad, "t.mlir").is_none());
    let msg = ctx.take_diagnostics().pop().unwrap().message;
    assert!(
        msg.contains("invalid #adstack.size: v0 is not bound"),
        "{msg}"
    );
    let other = "\"test.op\"() {s = #adstack.other<1>} : () -> ()\n";
    assert!(qd_ir::text::parse_source(&mut ctx, other, "t.mlir").is_none());
    let s = ctx.string_attr("n");
    assert!(SizeExpr::from_attr(&ctx, s)
        .unwrap_err()
        .contains("expected a #adstack.size"));
    assert!(parse_attr(&ctx, "size<1 +>").is_err());
    assert!(parse_attr_body("size<3>").is_ok());
}

#[test]
fn closed_ranges_that_read_nothing_fold_to_literals() {
    let six = SizeExpr::constant(6);
    let body = six.sub(&SizeExpr::bound_var(0));
    let r = SizeExpr::max_over_range(0, &SizeExpr::constant(0), &six, &body);
    assert_eq!(r, SizeExpr::constant(6));
    assert_eq!(
        p("max(v0 * v0 for v0 in range(0, 5)) + 1").eval_literal(1000),
        Some(17)
    );
    // Too much work, a read or a free variable: no literal.
    assert_eq!(
        p("max(v0 for v0 in range(0, 100000))").eval_literal(1000),
        None
    );
    assert_eq!(p("@n[]:i32 + 1").eval_literal(1000), None);
    let open = SizeExpr::binary(BinOp::Add, &SizeExpr::bound_var(1), &six);
    assert_eq!(open.eval_literal(1000), None);
}

#[test]
fn tidy_rewrites_what_intervals_prove() {
    let t = |s: &str| p(s).tidy().to_string();
    // v0 >= 0 inside its range: `v0 - 0` is v0; `n - 0` stays (n may be negative).
    assert_eq!(
        t("max(v0 - 0 for v0 in range(0, @n[]:i32)) + (@n[]:i32 - 0)"),
        "max(v0 for v0 in range(0, @n[]:i32)) + (@n[]:i32 - 0)"
    );
    assert_eq!(t("max(@u[]:ui8, 300)"), "300");
    assert_eq!(t("min(@u[]:ui8, -1) + @u[]:ui8 * 1"), "-1 + @u[]:ui8");
    assert_eq!(t("@u[]:ui8 - 300"), "0");
    assert_eq!(t("0 + @n[]:i32"), "@n[]:i32");
    assert_eq!(t("max(v0 - 5 for v0 in range(0, 3))"), "0");
    // Tidying keeps values.
    for s in [
        "max(6 - v0 for v0 in range(0, 6)) * (@n[]:i32 - 0)",
        "max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))",
    ] {
        assert_eq!(p(s).tidy().eval(&env()), p(s).eval(&env()), "{s}");
    }
}

#[test]
fn a_range_over_a_body_that_rebinds_its_variable_renames_the_inner_binder() {
    // body = max(arg0[v1] for v1 in range(0, 5)) + v1: the inner v1 is another variable.
    let inner = p("max(arg0[v1]:i32 for v1 in range(0, 5))");
    let body = inner.add(&SizeExpr::bound_var(1));
    let e = SizeExpr::max_over_range(1, &SizeExpr::constant(0), &SizeExpr::constant(3), &body);
    assert_eq!(
        e.to_string(),
        "max(max(arg0[v63]:i32 for v63 in range(0, 5)) + v1 for v1 in range(0, 3))"
    );
    assert!(e.validate().is_ok());
    let mut d = env();
    d.arrays.insert(0, (vec![5], vec![1, 9, 2, 0, 4]));
    assert_eq!(e.eval(&d), Ok(11));
}

#[test]
fn scalar_arguments_are_leaves() {
    // Text: `argN:T`, next to the ndarray forms of the same argument numbering.
    for s in [
        "arg3:i32",
        "arg3:i32 + 2",
        "arg1:ui8 * arg0.shape[0]",
        "max(arg2[v0, 1]:i64 - arg3:i32 for v0 in range(0, arg3:i64))",
    ] {
        let e = p(s);
        assert_eq!(e.to_string(), s);
        let b = e.to_bytes();
        let d = SizeExpr::from_bytes(&b).unwrap_or_else(|m| panic!("{s}: {m}"));
        assert_eq!(d, e);
        assert_eq!(d.to_bytes(), b);
    }
    assert_eq!(
        p("arg3:i32").nodes(),
        &[Node::ScalarArg {
            arg: 3,
            ty: IntTy::I32
        }]
    );
    // Different types are different leaves.
    assert_ne!(p("arg3:i32"), p("arg3:i64"));
    assert!(perr("arg3:f32").contains("element type"));
    assert!(perr("arg3").contains("expected '['"));
    // Binary: kind 11, arg in a, the type code in b; unused fields must be 0.
    let mut b = p("arg3:ui16").to_bytes();
    assert_eq!(&b[20..32], &[11, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0]);
    b[36] = 1;
    assert!(SizeExpr::from_bytes(&b).unwrap_err().contains("unused"));
    let mut b = p("arg3:ui16").to_bytes();
    b[28] = 9;
    assert!(SizeExpr::from_bytes(&b)
        .unwrap_err()
        .contains("unknown element type 9"));
    // Evaluation reads the launch's value; a negative value is kept, as a field's is, and only
    // `Sub` and the capacity clamp it.
    assert_eq!(ev("arg3:i32 + 2"), 17);
    assert_eq!(ev("arg4:i32"), -7);
    assert_eq!(ev("arg4:i32 + 10"), 3);
    assert_eq!(ev("arg4:i32 - 0"), 0);
    assert_eq!(p("arg4:i32").eval_capacity(&env()), Ok(0));
    assert_eq!(ev("max(v0 for v0 in range(0, arg3:i32))"), 14);
    assert_eq!(ev("max(1 for v0 in range(0, arg4:i32))"), 0);
    let e = p("arg0:i32").eval(&env()).unwrap_err();
    assert_eq!(e.to_string(), "cannot read arg0: no such scalar argument");
    // A read is not a literal.
    assert_eq!(p("arg3:i32 * 0 + 1").eval_literal(100), None);
    // Interval: the type's range.
    assert_eq!(p("arg3:ui8").interval(), Interval::new(0, 255));
    assert_eq!(
        p("arg3:i32 + 1").interval(),
        Interval::new(i32::MIN as i64 + 1, i32::MAX as i64 + 1)
    );
    assert_eq!(p("arg3:ui8 - arg4:i8").interval(), Interval::new(0, 383));
    for s in ["arg3:i32 * 2 - 3", "max(arg4:i32, arg3:i32)"] {
        assert!(p(s).interval().contains(ev(s)), "{s}");
    }
}
