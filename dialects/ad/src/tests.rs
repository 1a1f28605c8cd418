//! Unit tests of the builders, the typed wrappers, the gradient-kernel convention and the
//! verifiers, on IR built in Rust; plus text round trips.

use crate::*;
use qd_frontend::{field_type, ndarray_type, FieldOp, KernelOp};
use qd_ir::builtin::create_module;
use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{
    BlockId, Builder, Context, DialectDef, Location, OpId, OpInfo, OpTraits, OperationState, Type,
    Value,
};

/// A constant-like op standing in for `arith.constant` (the bound checks key on the trait).
fn test_dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.ops =
        vec![OpInfo::new("test.constant", "a constant")
            .traits(OpTraits::PURE | OpTraits::CONSTANT_LIKE)];
    d
}

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(dialect());
    ctx.register_dialect(test_dialect());
    ctx
}

struct Fx {
    ctx: Context,
    loc: Location,
    module: OpId,
    body: BlockId,
}

impl Fx {
    fn new() -> Self {
        let mut ctx = context();
        let loc = ctx.file_loc("t.mlir", 2, 3);
        let (module, body) = create_module(&mut ctx, loc);
        Fx {
            ctx,
            loc,
            module,
            body,
        }
    }
    fn field(&mut self, name: &str, shape: &[i64], elem: Type, grad: bool) {
        let ty = field_type(&mut self.ctx, shape, elem);
        let loc = self.loc;
        FieldOp::build(
            &mut Builder::at_end(&mut self.ctx, self.body),
            name,
            ty,
            grad,
            loc,
        );
    }
    fn kernel(&mut self, name: &str, args: &[Type]) -> (KernelOp, BlockId) {
        let loc = self.loc;
        let k = KernelOp::build(
            &mut Builder::at_end(&mut self.ctx, self.body),
            name,
            args,
            loc,
        );
        let kb = k.ensure_body(&mut self.ctx);
        (k, kb)
    }
    fn cst(&mut self, block: BlockId, v: i64) -> Value {
        let i32t = self.ctx.i32_type();
        let a = self.ctx.integer_attr(v, i32t);
        let st = OperationState::new("test.constant", self.loc)
            .results(&[i32t])
            .prop(&mut self.ctx, "value", a);
        Builder::at_end(&mut self.ctx, block).insert_value(st)
    }
    fn verify(&self) -> Option<String> {
        qd_ir::verifier::verify(&self.ctx, self.module)
            .err()
            .map(|d| d[0].message.clone())
    }
}

#[test]
fn access_builders_make_verified_ops_with_working_accessors() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    fx.field("x", &[8], f32t, true);
    fx.field("y", &[], f32t, true);
    let nd = ndarray_type(&mut fx.ctx, 1, f32t);
    let (k, kb) = fx.kernel("k", &[nd]);
    let g = k.args(&fx.ctx)[0];
    let i = fx.cst(kb, 3);
    let loc = fx.loc;
    let mut b = Builder::at_end(&mut fx.ctx, kb);
    let dy = build_load_field_adjoint(&mut b, "y", &[], f32t, loc);
    let acc = build_acc_field_adjoint(&mut b, dy, "x", &[i], loc);
    let store = build_store_field_adjoint(&mut b, dy, "x", &[i], loc);
    let nacc = build_acc_ndarray_adjoint(&mut b, dy, g, &[i], loc);
    assert_eq!(fx.verify(), None);

    let ctx = &fx.ctx;
    let load = LoadFieldAdjointOp::from_op(ctx, ctx.defining_op(dy).unwrap()).unwrap();
    assert_eq!(load.field_name(ctx), "y");
    assert!(load.indices(ctx).is_empty());
    assert_eq!(load.result(ctx), dy);
    let acc = FieldAdjointWriteOp::from_op(ctx, acc).unwrap();
    assert!(acc.is_accumulate(ctx));
    assert_eq!(
        (acc.field_name(ctx), acc.value(ctx), acc.indices(ctx)),
        ("x", dy, vec![i])
    );
    let store = FieldAdjointWriteOp::from_op(ctx, store).unwrap();
    assert!(!store.is_accumulate(ctx));
    let nacc = AccNdarrayAdjointOp::from_op(ctx, nacc).unwrap();
    assert_eq!(
        (nacc.value(ctx), nacc.array(ctx), nacc.indices(ctx)),
        (dy, g, vec![i])
    );
    assert!(LoadFieldAdjointOp::from_op(ctx, nacc.0).is_none());
    assert!(FieldAdjointWriteOp::from_op(ctx, nacc.0).is_none());
}

/// The `_ref` builders (the field as its symbol reference attribute) make the same ops as the
/// builders taking the field's name: same name, operands, results and properties, in the same
/// order, so the printed kernels match line for line.
#[test]
fn field_reference_builders_match_the_name_builders() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    fx.field("x", &[8], f32t, true);
    let (_, by_name) = fx.kernel("by_name", &[]);
    let (_, by_ref) = fx.kernel("by_ref", &[]);
    let loc = fx.loc;
    for (kb, with_ref) in [(by_name, false), (by_ref, true)] {
        let i = fx.cst(kb, 3);
        let x = fx.ctx.symbol_ref_attr("x");
        let mut b = Builder::at_end(&mut fx.ctx, kb);
        if with_ref {
            let d = build_load_field_adjoint_ref(&mut b, x, &[i], f32t, loc);
            build_acc_field_adjoint_ref(&mut b, d, x, &[i], loc);
            build_store_field_adjoint_ref(&mut b, d, x, &[i], loc);
        } else {
            let d = build_load_field_adjoint(&mut b, "x", &[i], f32t, loc);
            build_acc_field_adjoint(&mut b, d, "x", &[i], loc);
            build_store_field_adjoint(&mut b, d, "x", &[i], loc);
        }
    }
    assert_eq!(fx.verify(), None);
    let ctx = &fx.ctx;
    let ops = |kb| ctx.block_op_vec(kb);
    let (a, b) = (ops(by_name), ops(by_ref));
    assert_eq!(a.len(), 4);
    assert_eq!(a.len(), b.len());
    for (&x, &y) in a.iter().zip(&b) {
        assert_eq!(ctx.name(x), ctx.name(y));
        assert_eq!(ctx.properties(x), ctx.properties(y));
        assert_eq!(ctx.attrs(x), ctx.attrs(y));
        assert_eq!(ctx.operand_vec(x).len(), ctx.operand_vec(y).len());
        let types = |o: OpId| {
            ctx.results(o)
                .iter()
                .map(|&r| ctx.value_type(r))
                .collect::<Vec<_>>()
        };
        assert_eq!(types(x), types(y));
    }
    let text = print_op(ctx, fx.module, &PrintOptions::default());
    let body = |k: &str| -> Vec<String> {
        let start = text.find(&format!("@{k}")).unwrap();
        text[start..]
            .lines()
            .skip(1)
            .take(4)
            .map(|l| l.trim().to_string())
            .collect()
    };
    assert_eq!(body("by_name"), body("by_ref"));
}

#[test]
fn reverse_declaration_and_gradient_convention() {
    let mut fx = Fx::new();
    let (f32t, i32t) = (fx.ctx.f32_type(), fx.ctx.i32_type());
    let a = ndarray_type(&mut fx.ctx, 1, f32t);
    let n = ndarray_type(&mut fx.ctx, 1, i32t);
    let args = [a, n, f32t, a];
    fx.kernel("k", &args);
    let loc = fx.loc;
    let r = ReverseOp::build(&mut Builder::at_end(&mut fx.ctx, fx.body), "k", loc);
    assert_eq!(fx.verify(), None);
    let ctx = &fx.ctx;
    assert_eq!(r.kernel_name(ctx), "k");
    assert_eq!(r.gradient_name(ctx), None);
    assert_eq!(r.active(ctx), None);
    assert_eq!(
        r.kernel(ctx).map(|k| k.name(ctx).to_string()),
        Some("k".into())
    );
    assert!(r.gradient(ctx).is_none());
    // Default activity: float ndarrays only.
    assert_eq!(default_activity(ctx, &args), vec![true, false, false, true]);
    assert_eq!(r.activity(ctx, &args), vec![true, false, false, true]);
    assert_eq!(
        gradient_arg_types(&args, &[true, false, false, true]),
        vec![a, n, f32t, a, a, a]
    );
    assert!(is_differentiable_arg(ctx, a) && !is_differentiable_arg(ctx, n));
    assert_eq!(find_reverse(ctx, fx.module, "k"), Some(r));
    assert_eq!(find_reverse(ctx, fx.module, "other"), None);

    // Explicit activity, then the gradient kernel that matches it.
    r.set_active(&mut fx.ctx, &[false, false, false, true]);
    assert_eq!(r.active(&fx.ctx), Some(vec![false, false, false, true]));
    let grad_args = gradient_arg_types(&args, &r.activity(&fx.ctx, &args));
    assert_eq!(grad_args.len(), 5);
    fx.kernel("k_grad", &grad_args);
    r.set_gradient(&mut fx.ctx, "k_grad");
    assert_eq!(fx.verify(), None);
    assert_eq!(r.gradient_name(&fx.ctx).as_deref(), Some("k_grad"));
    assert_eq!(
        r.gradient(&fx.ctx).map(|k| k.name(&fx.ctx).to_string()),
        Some("k_grad".into())
    );
    let text = print_op(&fx.ctx, fx.module, &PrintOptions::default());
    assert!(
        text.contains("ad.reverse @k -> @k_grad {active = [false, false, false, true]}"),
        "{text}"
    );
    // Changing the activity back to the default makes the signature wrong.
    r.set_active(&mut fx.ctx, &[true, false, false, true]);
    let e = fx.verify().unwrap();
    assert!(
        e.starts_with("'ad.reverse' op expects gradient kernel @k_grad to take"),
        "{e}"
    );
}

/// A constant index out of bounds verifies (it fails at run time): folding may make one from an
/// index that verified, and every pass must leave IR that verifies.
#[test]
fn a_constant_index_out_of_bounds_verifies() {
    let mut fx = Fx::new();
    let f = fx.ctx.f32_type();
    fx.field("x", &[4], f, true);
    fx.field("y", &[], f, true);
    let (_, kb) = fx.kernel("k", &[]);
    let c = fx.cst(kb, 4);
    let loc = fx.loc;
    let mut b = Builder::at_end(&mut fx.ctx, kb);
    let v = build_load_field_adjoint(&mut b, "y", &[], f, loc);
    build_acc_field_adjoint(&mut b, v, "x", &[c], loc);
    build_load_field_adjoint(&mut b, "x", &[c], f, loc);
    assert_eq!(fx.verify(), None);
}

#[test]
fn verifiers_report_each_mistake() {
    type Case = (&'static str, Box<dyn Fn(&mut Fx)>);
    let cases: Vec<Case> = vec![
        (
            "'ad.load_field_adjoint' op expects field @x to be needs_grad (only those have an adjoint field)",
            Box::new(|fx| {
                let f = fx.ctx.f32_type();
                fx.field("x", &[], f, false);
                let (_, kb) = fx.kernel("k", &[]);
                let loc = fx.loc;
                build_load_field_adjoint(&mut Builder::at_end(&mut fx.ctx, kb), "x", &[], f, loc);
            }),
        ),
        (
            "'ad.store_field_adjoint' op expects 1 index for field @x of rank 1, got 0",
            Box::new(|fx| {
                let f = fx.ctx.f32_type();
                fx.field("x", &[4], f, true);
                fx.field("y", &[], f, true);
                let (_, kb) = fx.kernel("k", &[]);
                let loc = fx.loc;
                let mut b = Builder::at_end(&mut fx.ctx, kb);
                let v = build_load_field_adjoint(&mut b, "y", &[], f, loc);
                build_store_field_adjoint(&mut b, v, "x", &[], loc);
            }),
        ),
        (
            "'ad.acc_ndarray_adjoint' op expects an ndarray with a float element type, got !qd.ndarray<?xi32>",
            Box::new(|fx| {
                let (f, i) = (fx.ctx.f32_type(), fx.ctx.i32_type());
                fx.field("y", &[], f, true);
                let n = ndarray_type(&mut fx.ctx, 1, i);
                let (k, kb) = fx.kernel("k", &[n]);
                let g = k.args(&fx.ctx)[0];
                let c = fx.cst(kb, 0);
                let loc = fx.loc;
                let mut b = Builder::at_end(&mut fx.ctx, kb);
                let v = build_load_field_adjoint(&mut b, "y", &[], f, loc);
                build_acc_ndarray_adjoint(&mut b, v, g, &[c], loc);
            }),
        ),
        (
            "'ad.reverse' op expects @x to be a 'qd.kernel', got 'qd.field'",
            Box::new(|fx| {
                let f = fx.ctx.f32_type();
                fx.field("x", &[], f, true);
                let loc = fx.loc;
                ReverseOp::build(&mut Builder::at_end(&mut fx.ctx, fx.body), "x", loc);
            }),
        ),
        (
            "'ad.reverse' op expects one 'active' entry per argument of @k (0), got 2",
            Box::new(|fx| {
                fx.kernel("k", &[]);
                let loc = fx.loc;
                let r = ReverseOp::build(&mut Builder::at_end(&mut fx.ctx, fx.body), "k", loc);
                r.set_active(&mut fx.ctx, &[true, false]);
            }),
        ),
    ];
    for (want, build) in cases {
        let mut fx = Fx::new();
        build(&mut fx);
        assert_eq!(fx.verify().as_deref(), Some(want));
        let generic = PrintOptions {
            generic: true,
            ..Default::default()
        };
        let _ = print_op(&fx.ctx, fx.module, &generic);
        let _ = print_op(&fx.ctx, fx.module, &PrintOptions::default());
    }
}

#[test]
fn ops_outside_a_module_name_the_undefined_symbol() {
    // Detached ops (no symbol table to resolve in) get the op's own message.
    let mut ctx = context();
    let loc = ctx.unknown_loc();
    let f32t = ctx.f32_type();
    let mut b = Builder::new(&mut ctx, qd_ir::InsertPoint::Detached);
    let v = build_load_field_adjoint(&mut b, "x", &[], f32t, loc);
    let r = ReverseOp::build(&mut b, "k", loc);
    let load = ctx.defining_op(v).unwrap();
    let e = qd_ir::verifier::verify(&ctx, load).unwrap_err();
    assert_eq!(
        e[0].message,
        "'ad.load_field_adjoint' op references undefined field @x"
    );
    let e = qd_ir::verifier::verify(&ctx, r.0).unwrap_err();
    assert_eq!(
        e[0].message,
        "'ad.reverse' op references undefined kernel @k"
    );
}

#[test]
fn traits_follow_the_effects() {
    let ctx = context();
    for (name, read_only) in [
        (REVERSE_OP, false),
        (LOAD_FIELD_ADJOINT_OP, true),
        (ACC_FIELD_ADJOINT_OP, false),
        (STORE_FIELD_ADJOINT_OP, false),
        (ACC_NDARRAY_ADJOINT_OP, false),
    ] {
        let info = ctx.lookup_op_info(name).unwrap();
        assert_eq!(info.has_trait(OpTraits::READ_ONLY), read_only, "{name}");
        assert!(!info.has_trait(OpTraits::PURE), "{name}");
        assert!(info.parse.is_some() && info.verify.is_some(), "{name}");
    }
}

#[test]
fn text_round_trips_and_rejects_malformed_input() {
    let src = "qd.field @x : !qd.field<4xf32> {needs_grad}\n\
               qd.kernel @k(%a: !qd.ndarray<?xf32>) {\n\
                 %c = \"test.constant\"() <{value = 1 : i32}> : () -> i32\n\
                 %d = ad.load_field_adjoint @x[%c] : f32\n\
                 ad.acc_field_adjoint %d, @x[%c] {t} : f32\n\
                 ad.acc_ndarray_adjoint %d, %a[%c] : !qd.ndarray<?xf32>\n\
               }\n\
               ad.reverse @k {active = [true], note}\n";
    let mut ctx = context();
    let m = parse_source(&mut ctx, src, "t.mlir").expect("parses");
    assert!(qd_ir::verifier::verify(&ctx, m).is_ok());
    let once = print_op(&ctx, m, &PrintOptions::default());
    assert!(
        once.contains("ad.reverse @k {active = [true], note}"),
        "{once}"
    );
    let mut ctx2 = context();
    let m2 = parse_source(&mut ctx2, &once, "t2.mlir").expect("reparses");
    assert_eq!(print_op(&ctx2, m2, &PrintOptions::default()), once);

    for bad in [
        "ad.reverse",
        "ad.reverse @k ->",
        "ad.reverse @k -> k",
        "ad.reverse @k {active = [true}",
        "%d = ad.load_field_adjoint @x : f32",
        "%d = ad.load_field_adjoint @x[] f32",
        "ad.acc_ndarray_adjoint %d, %a[] : f32",
    ] {
        let mut ctx = context();
        assert!(parse_source(&mut ctx, bad, "t.mlir").is_none(), "{bad}");
        assert!(ctx.has_errors(), "{bad}");
    }
}
