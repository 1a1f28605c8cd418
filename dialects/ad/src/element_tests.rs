//! Unit tests of `ad.load_element` / `ad.store_element`: builders, accessors, path types, the
//! verifier on IR built in Rust, and text round trips of both forms.

use crate::*;
use qd_frontend::{array_type, struct_type, AllocaOp, KernelOp};
use qd_ir::builtin::create_module;
use qd_ir::text::{parse_source, print_op, PrintOptions};
use qd_ir::{Builder, Context, DialectDef, OpInfo, OpTraits};

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(dialect());
    let mut d = DialectDef::new("test");
    d.ops =
        vec![OpInfo::new("test.constant", "a constant")
            .traits(OpTraits::PURE | OpTraits::CONSTANT_LIKE)];
    ctx.register_dialect(d);
    ctx
}

#[test]
fn builders_make_verified_ops_with_working_accessors() {
    let mut ctx = context();
    let loc = ctx.unknown_loc();
    let (module, body) = create_module(&mut ctx, loc);
    let (f32t, f64t, i32t) = (ctx.f32_type(), ctx.f64_type(), ctx.i32_type());
    // !qd.array<4x!qd.struct<f32, !qd.array<3xf64>>>
    let inner = array_type(&mut ctx, 3, f64t);
    let st = struct_type(&mut ctx, &[f32t, inner]);
    let arr = array_type(&mut ctx, 4, st);
    let k = KernelOp::build(
        &mut Builder::at_end(&mut ctx, body),
        "k",
        &[i32t, i32t],
        loc,
    );
    let kb = k.ensure_body(&mut ctx);
    let args = k.args(&ctx);
    let (i, j) = (args[0], args[1]);
    let mut b = Builder::at_end(&mut ctx, kb);
    let a = AllocaOp::build(&mut b, arr, loc).result(b.ctx);
    let path = [
        PathIndex::Value(i),
        PathIndex::Const(1),
        PathIndex::Value(j),
    ];
    let v = build_load_element(&mut b, a, &path, loc);
    let spath = [PathIndex::Const(2), PathIndex::Const(0)];
    let m = build_load_element(&mut b, a, &spath, loc);
    let store = build_store_element(
        &mut b,
        v,
        a,
        &[
            PathIndex::Const(0),
            PathIndex::Const(1),
            PathIndex::Value(i),
        ],
        loc,
    );
    assert!(qd_ir::verifier::verify(&ctx, module).is_ok());

    assert_eq!(ctx.value_type(v), f64t);
    assert_eq!(ctx.value_type(m), f32t);
    assert_eq!(element_type(&ctx, arr, &path), Some(f64t));
    assert_eq!(element_type(&ctx, arr, &spath), Some(f32t));
    // Paths that do not fit: too short, out of range, a value for a struct member.
    assert_eq!(element_type(&ctx, arr, &[PathIndex::Value(i)]), None);
    assert_eq!(
        element_type(&ctx, arr, &[PathIndex::Const(4), PathIndex::Const(0)]),
        None
    );
    assert_eq!(
        element_type(&ctx, arr, &[PathIndex::Const(0), PathIndex::Value(i)]),
        None
    );

    let l = LoadElementOp::from_op(&ctx, ctx.defining_op(v).unwrap()).unwrap();
    assert_eq!(
        (l.base(&ctx), l.path(&ctx), l.indices(&ctx)),
        (a, path.to_vec(), vec![i, j])
    );
    assert_eq!(l.result(&ctx), v);
    let s = StoreElementOp::from_op(&ctx, store).unwrap();
    assert_eq!(
        (s.value(&ctx), s.base(&ctx), s.indices(&ctx)),
        (v, a, vec![i])
    );
    assert_eq!(
        element_access(&ctx, store),
        Some((
            a,
            vec![
                PathIndex::Const(0),
                PathIndex::Const(1),
                PathIndex::Value(i)
            ]
        ))
    );
    assert!(LoadElementOp::from_op(&ctx, store).is_none());
    assert!(StoreElementOp::from_op(&ctx, l.0).is_none());
    // The generic form holds the path as an array<i64> with kDynamic markers.
    let generic = print_op(
        &ctx,
        module,
        &PrintOptions {
            generic: true,
            debug_info: false,
        },
    );
    assert!(
        generic.contains(&format!("path = array<i64: {DYNAMIC}, 1, {DYNAMIC}>")),
        "{generic}"
    );
}

#[test]
fn verifier_rejects_a_path_through_a_struct_by_value() {
    let mut ctx = context();
    let loc = ctx.unknown_loc();
    let (module, body) = create_module(&mut ctx, loc);
    let (f32t, i32t) = (ctx.f32_type(), ctx.i32_type());
    let st = struct_type(&mut ctx, &[f32t, i32t]);
    let k = KernelOp::build(&mut Builder::at_end(&mut ctx, body), "k", &[i32t], loc);
    let kb = k.ensure_body(&mut ctx);
    let i = k.args(&ctx)[0];
    let mut b = Builder::at_end(&mut ctx, kb);
    let a = AllocaOp::build(&mut b, st, loc).result(b.ctx);
    // The builder falls back to the pointee type; the verifier names the mistake.
    LoadElementOp::build(&mut b, a, &[PathIndex::Value(i)], loc);
    let e = qd_ir::verifier::verify(&ctx, module).unwrap_err();
    assert_eq!(
        e[0].message,
        "'ad.load_element' op path entry 0 addresses a struct member: it must be a literal, not a value"
    );
}

#[test]
fn text_round_trips_and_rejects_malformed_paths() {
    let src = "qd.kernel @k(%i: i32) {\n\
                 %a = qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<i32, f32>>>\n\
                 %v = ad.load_element %a[%i, 1] : !qd.ptr<!qd.array<2x!qd.struct<i32, f32>>>\n\
                 ad.store_element %v, %a[1, 1] {t} : !qd.ptr<!qd.array<2x!qd.struct<i32, f32>>>\n\
               }\n";
    let mut ctx = context();
    let m = parse_source(&mut ctx, src, "t.mlir").expect("parses");
    assert!(qd_ir::verifier::verify(&ctx, m).is_ok());
    let once = print_op(&ctx, m, &PrintOptions::default());
    assert!(once.contains("[1, 1] {t} : !qd.ptr<"), "{once}");
    let mut ctx2 = context();
    let m2 = parse_source(&mut ctx2, &once, "t2.mlir").expect("reparses");
    assert_eq!(print_op(&ctx2, m2, &PrintOptions::default()), once);
    for bad in [
        "%v = ad.load_element %a : !qd.ptr<!qd.array<2xf32>>",
        "%v = ad.load_element %a[0 : !qd.ptr<!qd.array<2xf32>>",
        "%v = ad.load_element %a[0,] : !qd.ptr<!qd.array<2xf32>>",
        "%v = ad.load_element %a[0] !qd.ptr<!qd.array<2xf32>>",
        "ad.store_element %v %a[0] : !qd.ptr<!qd.array<2xf32>>",
    ] {
        let mut ctx = context();
        let text = format!(
            "qd.kernel @k(%v: f32) {{\n %a = qd.alloca : !qd.ptr<!qd.array<2xf32>>\n {bad}\n}}\n"
        );
        assert!(parse_source(&mut ctx, &text, "t.mlir").is_none(), "{bad}");
        assert!(ctx.has_errors(), "{bad}");
    }
}

#[test]
fn traits_follow_the_effects() {
    let ctx = context();
    let load = ctx.lookup_op_info(LOAD_ELEMENT_OP).unwrap();
    let store = ctx.lookup_op_info(STORE_ELEMENT_OP).unwrap();
    assert!(load.has_trait(OpTraits::READ_ONLY) && !load.has_trait(OpTraits::PURE));
    assert!(!store.has_trait(OpTraits::READ_ONLY) && !store.has_trait(OpTraits::PURE));
}
