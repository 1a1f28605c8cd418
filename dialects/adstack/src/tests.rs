//! Unit tests of the builders, the typed wrappers, the traits and every verifier, on IR built in
//! Rust; plus text round trips and printing of ill-formed ops (never a panic).

use crate::*;
use qd_ir::builtin::create_module;
use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{
    BlockId, Builder, Context, DialectDef, Location, OpId, OpInfo, OpTraits, OperationState, Type,
    TypeData, TypeParam, Value,
};

/// `test.value` yields values of any type.
fn test_dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.ops = vec![OpInfo::new("test.value", "a value of any type")];
    d
}

struct Fx {
    ctx: Context,
    loc: Location,
    module: OpId,
    body: BlockId,
}

impl Fx {
    fn new() -> Self {
        let mut ctx = Context::new();
        ctx.register_dialect(dialect());
        ctx.register_dialect(test_dialect());
        let loc = ctx.file_loc("t.mlir", 3, 5);
        let (module, body) = create_module(&mut ctx, loc);
        Fx {
            ctx,
            loc,
            module,
            body,
        }
    }
    fn b(&mut self) -> Builder<'_> {
        Builder::at_end(&mut self.ctx, self.body)
    }
    fn value(&mut self, ty: Type) -> Value {
        let st = OperationState::new("test.value", self.loc).results(&[ty]);
        self.b().insert_value(st)
    }
    /// The first verifier error, if any.
    fn verify(&self) -> Option<String> {
        qd_ir::verifier::verify(&self.ctx, self.module)
            .err()
            .map(|d| d[0].message.clone())
    }
    fn raw(&mut self, name: &str, operands: &[Value], results: &[Type]) -> OpId {
        let st = OperationState::new(name, self.loc)
            .operands(operands)
            .results(results);
        self.b().insert(st)
    }
}

#[test]
fn builders_make_verified_ops_with_working_accessors() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let loc = fx.loc;
    let v = fx.value(f32t);
    let mut b = fx.b();
    let s = build_alloca(&mut b, f32t, loc);
    let push = build_push(&mut b, s, v, loc);
    let top = build_load_top(&mut b, s, loc);
    let adj = build_load_top_adj(&mut b, s, loc);
    let acc = build_acc_adjoint(&mut b, s, adj, loc);
    let pop = build_pop(&mut b, s, loc);
    let bounded = AllocaOp::build(&mut b, f32t, Some(12), loc);
    assert_eq!(fx.verify(), None);

    let ctx = &fx.ctx;
    let alloca = AllocaOp::from_op(ctx, ctx.defining_op(s).unwrap()).unwrap();
    assert_eq!(alloca.result(ctx), s);
    assert_eq!(alloca.elem(ctx), f32t);
    assert_eq!(alloca.max_size(ctx), None);
    assert_eq!(bounded.max_size(ctx), Some(12));
    assert_eq!(max_size_of(ctx, bounded.0), Some(12));
    assert_eq!(max_size_of(ctx, alloca.0), None);
    let push = PushOp::from_op(ctx, push).unwrap();
    assert_eq!((push.stack(ctx), push.value(ctx)), (s, v));
    let load = LoadTopOp::from_op(ctx, ctx.defining_op(top).unwrap()).unwrap();
    assert_eq!((load.stack(ctx), load.result(ctx)), (s, top));
    assert_eq!(ctx.value_type(top), f32t);
    let ladj = LoadTopAdjOp::from_op(ctx, ctx.defining_op(adj).unwrap()).unwrap();
    assert_eq!((ladj.stack(ctx), ladj.result(ctx)), (s, adj));
    let acc = AccAdjointOp::from_op(ctx, acc).unwrap();
    assert_eq!((acc.stack(ctx), acc.value(ctx)), (s, adj));
    assert_eq!(PopOp::from_op(ctx, pop).unwrap().stack(ctx), s);
    // from_op checks the name.
    assert!(PushOp::from_op(ctx, pop).is_none());
    assert!(AllocaOp::from_op(ctx, pop).is_none());
}

#[test]
fn alloca_bounds_can_be_set_and_cleared() {
    let mut fx = Fx::new();
    let i32t = fx.ctx.i32_type();
    let loc = fx.loc;
    let a = AllocaOp::build(&mut fx.b(), i32t, None, loc);
    a.set_max_size(&mut fx.ctx, Some(5));
    assert_eq!(a.max_size(&fx.ctx), Some(5));
    let e = crate::size_expr::SizeExpr::parse("@n[]:i32 + 1")
        .unwrap()
        .to_attr(&mut fx.ctx);
    a.set_size_expr(&mut fx.ctx, Some(e));
    assert_eq!(a.size_expr(&fx.ctx), Some(e));
    assert_eq!(fx.verify(), None);
    let text = print_op(&fx.ctx, fx.module, &PrintOptions::default());
    assert!(
        text.contains(
            "adstack.alloca : i32 {max_size = 5, size_expr = #adstack.size<@n[]:i32 + 1>}"
        ),
        "{text}"
    );
    a.set_max_size(&mut fx.ctx, None);
    a.set_size_expr(&mut fx.ctx, None);
    assert_eq!((a.max_size(&fx.ctx), a.size_expr(&fx.ctx)), (None, None));
}

#[test]
fn stack_type_views() {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    let f64t = ctx.f64_type();
    let i1 = ctx.i1_type();
    let idx = ctx.index_type();
    let s = stack_type(&mut ctx, f64t);
    let st = StackType::from_type(&ctx, s).unwrap();
    assert_eq!(st.elem(&ctx), f64t);
    assert!(st.has_adjoint(&ctx));
    let b = stack_type(&mut ctx, i1);
    assert!(!StackType::from_type(&ctx, b).unwrap().has_adjoint(&ctx));
    // Not stacks: a scalar, a stack of index, a stack with malformed parameters.
    assert!(StackType::from_type(&ctx, f64t).is_none());
    let bad = stack_type(&mut ctx, idx);
    assert!(StackType::from_type(&ctx, bad).is_none());
    let dialect = ctx.ident(types::DIALECT);
    let mnemonic = ctx.ident(types::STACK);
    let two = ctx.intern_type(TypeData::Dialect {
        dialect,
        mnemonic,
        params: vec![TypeParam::Type(f64t), TypeParam::Int(3)],
    });
    assert!(StackType::from_type(&ctx, two).is_none());
    assert_eq!(qd_ir::text::type_to_string(&ctx, s), "!adstack.stack<f64>");
}

#[test]
fn traits_follow_the_effects() {
    let ctx = {
        let mut c = Context::new();
        c.register_dialect(dialect());
        c
    };
    for (name, read_only) in [
        (ALLOCA_OP, false),
        (PUSH_OP, false),
        (POP_OP, false),
        (ACC_ADJOINT_OP, false),
        (LOAD_TOP_OP, true),
        (LOAD_TOP_ADJ_OP, true),
    ] {
        let info = ctx.lookup_op_info(name).unwrap();
        assert_eq!(info.has_trait(OpTraits::READ_ONLY), read_only, "{name}");
        assert!(!info.has_trait(OpTraits::PURE), "{name}");
        assert!(info.parse.is_some() && info.verify.is_some(), "{name}");
    }
}

#[test]
fn verifiers_report_each_mistake() {
    type Case = (&'static str, Box<dyn Fn(&mut Fx)>);
    let cases: Vec<Case> = vec![
        (
            "'adstack.alloca' op expects its result to be an !adstack.stack, got !adstack.stack<index>",
            Box::new(|fx| {
                let idx = fx.ctx.index_type();
                let t = stack_type(&mut fx.ctx, idx);
                fx.raw(ALLOCA_OP, &[], &[t]);
            }),
        ),
        (
            "'adstack.alloca' op property 'max_size' must be a non-negative i64 integer",
            Box::new(|fx| {
                let f = fx.ctx.f32_type();
                let loc = fx.loc;
                AllocaOp::build(&mut fx.b(), f, Some(-3), loc);
            }),
        ),
        (
            "'adstack.push' op expects the value type to match the stack element type f32, got i32",
            Box::new(|fx| {
                let (f, i) = (fx.ctx.f32_type(), fx.ctx.i32_type());
                let loc = fx.loc;
                let v = fx.value(i);
                let s = build_alloca(&mut fx.b(), f, loc);
                build_push(&mut fx.b(), s, v, loc);
            }),
        ),
        (
            "'adstack.load_top_adj' op expects a float stack (integer and i1 stacks carry no adjoint), got !adstack.stack<i32>",
            Box::new(|fx| {
                let i = fx.ctx.i32_type();
                let loc = fx.loc;
                let s = build_alloca(&mut fx.b(), i, loc);
                build_load_top_adj(&mut fx.b(), s, loc);
            }),
        ),
        (
            "'adstack.acc_adjoint' op expects a float stack (integer and i1 stacks carry no adjoint), got !adstack.stack<i1>",
            Box::new(|fx| {
                let i = fx.ctx.i1_type();
                let loc = fx.loc;
                let v = fx.value(i);
                let s = build_alloca(&mut fx.b(), i, loc);
                build_acc_adjoint(&mut fx.b(), s, v, loc);
            }),
        ),
        (
            "'adstack.pop' op expects operand 0 to be an !adstack.stack, got f32",
            Box::new(|fx| {
                let f = fx.ctx.f32_type();
                let loc = fx.loc;
                let v = fx.value(f);
                build_pop(&mut fx.b(), v, loc);
            }),
        ),
        (
            "'adstack.load_top' op expects 1 operand, got 0",
            Box::new(|fx| {
                let f = fx.ctx.f32_type();
                fx.raw(LOAD_TOP_OP, &[], &[f]);
            }),
        ),
        (
            "'adstack.push' op expects 2 operands, got 0",
            Box::new(|fx| {
                fx.raw(PUSH_OP, &[], &[]);
            }),
        ),
    ];
    for (want, build) in cases {
        let mut fx = Fx::new();
        build(&mut fx);
        assert_eq!(fx.verify().as_deref(), Some(want));
        // Ill-formed ops still print, in custom and generic form.
        let _ = print_op(&fx.ctx, fx.module, &PrintOptions::default());
        let generic = PrintOptions {
            generic: true,
            ..Default::default()
        };
        let _ = print_op(&fx.ctx, fx.module, &generic);
    }
}

#[test]
fn ill_formed_ops_print_generically() {
    let mut fx = Fx::new();
    let f = fx.ctx.f32_type();
    for name in [
        ALLOCA_OP,
        PUSH_OP,
        POP_OP,
        LOAD_TOP_OP,
        LOAD_TOP_ADJ_OP,
        ACC_ADJOINT_OP,
    ] {
        fx.raw(name, &[], &[]);
        let v = fx.value(f);
        fx.raw(name, &[v, v, v], &[f, f]);
    }
    let text = print_op(&fx.ctx, fx.module, &PrintOptions::default());
    // The printer falls back to the generic form for ops that fail their own verifier.
    assert!(text.contains("\"adstack.alloca\"() : () -> ()"), "{text}");
    assert!(text.contains("\"adstack.pop\"(%"), "{text}");
    assert!(fx.verify().is_some());
}

fn round_trip(src: &str) -> String {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    let m = parse_source(&mut ctx, src, "t.mlir").expect("parses");
    assert!(qd_ir::verifier::verify(&ctx, m).is_ok());
    let once = print_op(&ctx, m, &PrintOptions::default());
    let mut ctx2 = Context::new();
    ctx2.register_dialect(dialect());
    let m2 = parse_source(&mut ctx2, &once, "t2.mlir").expect("reparses");
    assert_eq!(print_op(&ctx2, m2, &PrintOptions::default()), once);
    once
}

#[test]
fn custom_and_generic_forms_round_trip() {
    let custom = round_trip(
        "%s = adstack.alloca : f32 {max_size = 4}\n\
         %t = adstack.alloca : i64 {tag, max_size = 0}\n\
         %v = adstack.load_top %s : f32\n\
         adstack.push %s, %v : f32\n\
         %a = adstack.load_top_adj %s : f32\n\
         adstack.acc_adjoint %s, %a : f32\n\
         adstack.pop %s : f32\n",
    );
    assert!(
        custom.contains("adstack.alloca : f32 {max_size = 4}"),
        "{custom}"
    );
    assert!(
        custom.contains("adstack.alloca : i64 {max_size = 0, tag}"),
        "{custom}"
    );
    let generic = round_trip(
        "%s = \"adstack.alloca\"() <{max_size = 4 : i64}> : () -> !adstack.stack<f32>\n\
         %v = \"adstack.load_top\"(%s) : (!adstack.stack<f32>) -> f32\n\
         \"adstack.push\"(%s, %v) : (!adstack.stack<f32>, f32) -> ()\n",
    );
    assert!(generic.contains("adstack.push %0, %1 : f32"), "{generic}");
}

#[test]
fn malformed_text_is_a_diagnostic() {
    for src in [
        "%s = adstack.alloca : index",
        "%s = adstack.alloca : !adstack.stack<f32>",
        "%s = adstack.alloca : f32 {max_size = }",
        "%s = adstack.alloca : f32\nadstack.push %s : f32",
        "%s = adstack.alloca : f32\n%v = adstack.load_top %s",
        "%s = \"adstack.alloca\"() : () -> !adstack.stack<>",
        "%s = \"adstack.alloca\"() : () -> !adstack.stack<f32, f32>",
        "%s = \"adstack.alloca\"() : () -> !adstack.stack",
        "%s = \"adstack.alloca\"() : () -> !adstack.stak<f32>",
    ] {
        let mut ctx = Context::new();
        ctx.register_dialect(dialect());
        assert!(parse_source(&mut ctx, src, "t.mlir").is_none(), "{src}");
        assert!(ctx.has_errors(), "{src}");
    }
}

#[test]
fn an_elided_stack_round_trips_and_must_have_no_uses() {
    let text = round_trip("%s = adstack.alloca : f32 {id = 0, max_size = 0, primal_elided}\n");
    assert!(
        text.contains("adstack.alloca : f32 {id = 0, max_size = 0, primal_elided}"),
        "{text}"
    );
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    let m = parse_source(
        &mut ctx,
        "%s = adstack.alloca : f32 {primal_elided}\nadstack.pop %s : f32\n",
        "t.mlir",
    )
    .expect("parses");
    let a = AllocaOp(ctx.walk_pre_order(m)[1]);
    assert!(a.is_primal_elided(&ctx));
    let e = qd_ir::verifier::verify(&ctx, m).unwrap_err();
    assert!(
        e[0].message
            .contains("is marked primal_elided but its stack is used by 'adstack.pop'"),
        "{}",
        e[0].message
    );
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let loc = fx.loc;
    let b = AllocaOp::build(&mut fx.b(), f32t, None, loc);
    assert!(!b.is_primal_elided(&fx.ctx));
    b.set_primal_elided(&mut fx.ctx);
    assert!(b.is_primal_elided(&fx.ctx));
    assert_eq!(fx.verify(), None);
}
