//! Unit tests of the builders, the typed wrappers and every verifier, on IR built in Rust (the
//! text round trips live in tests/).

use crate::*;
use qd_ir::builtin::create_module;
use qd_ir::{
    BlockId, Builder, Context, DialectDef, InsertPoint, Location, OpId, OpInfo, OpTraits,
    OperationState, Type, Value,
};

/// A constant-like op standing in for `arith.constant` (the checks key on the trait).
fn test_dialect() -> DialectDef {
    let mut d = DialectDef::new("test");
    d.ops =
        vec![OpInfo::new("test.constant", "a constant")
            .traits(OpTraits::PURE | OpTraits::CONSTANT_LIKE)];
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
        let loc = ctx.file_loc("t.mlir", 1, 1);
        let (module, body) = create_module(&mut ctx, loc);
        Fx {
            ctx,
            loc,
            module,
            body,
        }
    }
    fn b(&mut self, block: BlockId) -> Builder<'_> {
        Builder::at_end(&mut self.ctx, block)
    }
    fn field(&mut self, name: &str, shape: &[i64], elem: Type, grad: bool) -> FieldOp {
        let ty = field_type(&mut self.ctx, shape, elem);
        let (body, loc) = (self.body, self.loc);
        FieldOp::build(&mut self.b(body), name, ty, grad, loc)
    }
    fn kernel(&mut self, args: &[Type]) -> (KernelOp, BlockId) {
        let (body, loc) = (self.body, self.loc);
        let k = KernelOp::build(&mut self.b(body), "k", args, loc);
        let kb = k.body(&self.ctx).unwrap();
        (k, kb)
    }
    fn cst(&mut self, block: BlockId, v: i64, ty: Type) -> Value {
        let a = self.ctx.integer_attr(v, ty);
        let st = OperationState::new("test.constant", self.loc)
            .results(&[ty])
            .prop(&mut self.ctx, "value", a);
        self.b(block).insert_value(st)
    }
    /// Runs the IR verifier on the module; returns the messages.
    fn errors(&self) -> Vec<String> {
        match qd_ir::verifier::verify(&self.ctx, self.module) {
            Ok(()) => Vec::new(),
            Err(ds) => ds.into_iter().map(|d| d.message).collect(),
        }
    }
    /// The op's own hooks (verify, then its symbol-use checks).
    fn verify_op(&self, op: OpId) -> Result<(), String> {
        let mut symbols = qd_ir::symbol_table::SymbolTableCollection::new();
        qd_ir::verifier::verify_op_hooks(&self.ctx, op, &mut symbols).map_err(|d| d.message)
    }
}

/// dynamic_loop.mlir, built through the wrappers.
fn dynamic_loop(fx: &mut Fx) -> (KernelOp, StructForOp, RangeForOp) {
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    fx.field("n", &[], i32t, false);
    fx.field("x", &[16], f32t, true);
    fx.field("y", &[], f32t, true);
    let (k, kb) = fx.kernel(&[]);
    let loc = fx.loc;
    let sf = StructForOp::build(&mut fx.b(kb), "x", 1, loc);
    let sb = sf.body(&fx.ctx).unwrap();
    let i = sf.induction_vars(&fx.ctx)[0];
    let xi = LoadOp::build(&mut fx.b(sb), "x", &[i], f32t, loc).result(&fx.ctx);
    let v = AllocaOp::build(&mut fx.b(sb), f32t, loc).result(&fx.ctx);
    LocalStoreOp::build(&mut fx.b(sb), xi, v, loc);
    let n = LoadOp::build(&mut fx.b(sb), "n", &[], i32t, loc).result(&fx.ctx);
    let c0 = fx.cst(sb, 0, i32t);
    let rf = RangeForOp::build(&mut fx.b(sb), c0, n, loc);
    let rb = rf.body(&fx.ctx);
    let a = LocalLoadOp::build(&mut fx.b(rb), v, loc).result(&fx.ctx);
    LocalStoreOp::build(&mut fx.b(rb), a, v, loc);
    let r = LocalLoadOp::build(&mut fx.b(sb), v, loc).result(&fx.ctx);
    AtomicOp::build(&mut fx.b(sb), AtomicKind::Add, r, "y", &[], false, loc);
    (k, sf, rf)
}

#[test]
fn dialect_registers_every_op_with_syntax_and_verifier() {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    let ops: Vec<_> = ctx
        .registered_ops()
        .filter(|i| i.name.starts_with("qd."))
        .collect();
    assert_eq!(ops.len(), 26);
    for i in ops {
        assert!(
            i.verify.is_some() && i.parse.is_some() && i.print.is_some(),
            "{}",
            i.name
        );
    }
    let traits = |n: &str| ctx.lookup_op_info(n).unwrap().traits;
    assert!(traits(KERNEL_OP).contains(
        OpTraits::ISOLATED_FROM_ABOVE
            | OpTraits::SYMBOL
            | OpTraits::NO_TERMINATOR
            | OpTraits::SINGLE_BLOCK
    ));
    assert!(traits(FIELD_OP).contains(OpTraits::SYMBOL));
    for l in [RANGE_FOR_OP, STRUCT_FOR_OP, WHILE_OP, IF_OP] {
        assert!(traits(l).contains(
            OpTraits::NO_TERMINATOR | OpTraits::SINGLE_BLOCK | OpTraits::RECURSIVE_EFFECTS
        ));
    }
    for t in [BREAK_OP, CONTINUE_OP, CONDITION_OP] {
        assert!(traits(t).contains(OpTraits::TERMINATOR));
    }
    for r in [LOAD_OP, NDARRAY_LOAD_OP, LOCAL_LOAD_OP] {
        assert!(traits(r).contains(OpTraits::READ_ONLY));
    }
    for p in [NDARRAY_SHAPE_OP, ELEM_PTR_OP, MEMBER_PTR_OP] {
        assert!(traits(p).contains(OpTraits::PURE));
    }
    for s in [
        STORE_OP,
        ATOMIC_ADD_OP,
        ATOMIC_MIN_OP,
        ATOMIC_MAX_OP,
        NDARRAY_STORE_OP,
        NDARRAY_ATOMIC_ADD_OP,
        NDARRAY_ATOMIC_SUB_OP,
        NDARRAY_ATOMIC_MIN_OP,
        NDARRAY_ATOMIC_MAX_OP,
        LOCAL_STORE_OP,
        ALLOCA_OP,
    ] {
        assert_eq!(traits(s), OpTraits::NONE, "{s}");
    }
}

#[test]
fn built_kernel_verifies_and_wrappers_read_it() {
    let mut fx = Fx::new();
    let (k, sf, rf) = dynamic_loop(&mut fx);
    assert_eq!(fx.errors(), Vec::<String>::new());
    assert_eq!(k.name(&fx.ctx), "k");
    assert!(k.args(&fx.ctx).is_empty());
    assert_eq!(sf.field_name(&fx.ctx), "x");
    assert!(sf.is_parallel(&fx.ctx));
    assert!(!rf.is_parallel(&fx.ctx));
    assert_eq!(parallel_loops(&fx.ctx, k), vec![sf.0]);
    assert_eq!(enclosing_loop(&fx.ctx, rf.0), Some(sf.0));
    assert_eq!(enclosing_kernel(&fx.ctx, rf.0), Some(k));
    let iv = rf.induction_var(&fx.ctx);
    assert_eq!(fx.ctx.value_type(iv), fx.ctx.value_type(rf.lower(&fx.ctx)));
    let x = lookup_field(&fx.ctx, rf.0, "x").unwrap();
    assert_eq!((x.shape(&fx.ctx), x.needs_grad(&fx.ctx)), (vec![16], true));
    x.set_needs_grad(&mut fx.ctx, false);
    assert!(!x.needs_grad(&fx.ctx));
    assert!(lookup_field(&fx.ctx, rf.0, "k").is_none());
    assert!(lookup_field(&fx.ctx, rf.0, "nope").is_none());
    // Through a collection (as passes resolve many uses): the same answers.
    let mut symbols = qd_ir::symbol_table::SymbolTableCollection::new();
    for name in ["x", "k", "nope"] {
        let got = crate::lookup_field_in(&fx.ctx, &mut symbols, rf.0, name).map(|f| f.0);
        assert_eq!(
            got,
            lookup_field(&fx.ctx, rf.0, name).map(|f| f.0),
            "{name}"
        );
    }
    assert_eq!(
        crate::lookup_field_in(&fx.ctx, &mut symbols, rf.0, "x").map(|f| f.0),
        Some(x.0)
    );
}

#[test]
fn field_access_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    let i64t = fx.ctx.i64_type();
    fx.field("x", &[4, 10], f32t, false);
    let (_, kb) = fx.kernel(&[]);
    let loc = fx.loc;
    let c1 = fx.cst(kb, 1, i32t);
    let c10 = fx.cst(kb, 10, i32t);
    let cneg = fx.cst(kb, -1, i32t);
    let wide = fx.cst(kb, 1, i64t);

    let op = LoadOp::build(&mut fx.b(kb), "x", &[c1], f32t, loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.load' op expects 2 indices for field @x of rank 2, got 1"
    );
    // Constant indices out of bounds verify: they fail at run time, as folding may make them
    // from indices that verified.
    let op = LoadOp::build(&mut fx.b(kb), "x", &[c1, c10], f32t, loc).0;
    assert_eq!(fx.verify_op(op), Ok(()));
    let op = LoadOp::build(&mut fx.b(kb), "x", &[cneg, c1], f32t, loc).0;
    assert_eq!(fx.verify_op(op), Ok(()));
    let op = LoadOp::build(&mut fx.b(kb), "x", &[c1, wide], f32t, loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.load' op expects index 1 to be i32, got i64"
    );
    let op = LoadOp::build(&mut fx.b(kb), "x", &[c1, c1], i32t, loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.load' op expects the result type to match the field element type f32, got i32"
    );
    // An unresolved field inside a module is the IR verifier's to report (once).
    let op = LoadOp::build(&mut fx.b(kb), "z", &[], f32t, loc).0;
    assert_eq!(fx.verify_op(op), Ok(()));
    let all = qd_ir::verifier::verify(&fx.ctx, fx.module).unwrap_err();
    let on_z: Vec<_> = all
        .iter()
        .filter(|d| d.message.contains("@z"))
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        on_z,
        vec!["'qd.load' op '@z' does not reference a valid symbol"]
    );
    // Outside any symbol table the hook reports it itself.
    let zref = fx.ctx.prop(op, "field").unwrap();
    let st = OperationState::new(LOAD_OP, loc)
        .results(&[f32t])
        .prop(&mut fx.ctx, "field", zref);
    let detached = fx.ctx.create_op(st);
    assert_eq!(
        fx.verify_op(detached).unwrap_err(),
        "'qd.load' op references undefined field @z"
    );
    fx.ctx.erase_op(op);
    let op = LoadOp::build(&mut fx.b(kb), "k", &[], f32t, loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.load' op expects @k to be a 'qd.field', got 'qd.kernel'"
    );
    let op = StoreOp::build(&mut fx.b(kb), c1, "x", &[c1, c1], loc).0;
    assert!(fx
        .verify_op(op)
        .unwrap_err()
        .contains("value type to match the field element type f32, got i32"));
    let ld = LoadOp::build(&mut fx.b(kb), "x", &[c1, c1], f32t, loc);
    let v = ld.result(&fx.ctx);
    let op = StoreOp::build(&mut fx.b(kb), v, "x", &[c1, c1], loc).0;
    assert_eq!(fx.verify_op(op), Ok(()));
    let op = AtomicOp::build(&mut fx.b(kb), AtomicKind::Max, v, "x", &[c1, c1], true, loc);
    assert_eq!(fx.verify_op(op.0), Ok(()));
    assert_eq!(op.kind(&fx.ctx), AtomicKind::Max);
    assert!(op.old_value(&fx.ctx).is_some());
}

#[test]
fn atomics_reject_bool_fields() {
    let mut fx = Fx::new();
    let i1 = fx.ctx.i1_type();
    fx.field("b", &[], i1, false);
    let (_, kb) = fx.kernel(&[]);
    let t = fx.cst(kb, 1, i1);
    let loc = fx.loc;
    let op = AtomicOp::build(&mut fx.b(kb), AtomicKind::Add, t, "b", &[], false, loc).0;
    assert!(fx.verify_op(op).unwrap_err().contains("wider than i1"));
}

#[test]
fn ndarray_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    let nd = ndarray_type(&mut fx.ctx, 2, f32t);
    let (k, kb) = fx.kernel(&[nd, f32t]);
    let a = k.args(&fx.ctx)[0];
    let s = k.args(&fx.ctx)[1];
    let loc = fx.loc;
    let c0 = fx.cst(kb, 0, i32t);
    let ld = NdarrayLoadOp::build(&mut fx.b(kb), a, &[c0, c0], loc);
    assert_eq!(fx.verify_op(ld.0), Ok(()));
    assert_eq!(fx.ctx.value_type(ld.result(&fx.ctx)), f32t);
    let op = NdarrayLoadOp::build(&mut fx.b(kb), a, &[c0], loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.ndarray_load' op expects 2 indices for an ndarray of rank 2, got 1"
    );
    let op = NdarrayLoadOp::build(&mut fx.b(kb), s, &[], loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.ndarray_load' op expects a !qd.ndarray operand, got f32"
    );
    let st = NdarrayStoreOp::build(&mut fx.b(kb), s, a, &[c0, c0], loc);
    assert_eq!(fx.verify_op(st.0), Ok(()));
    assert_eq!(
        (st.value(&fx.ctx), st.array(&fx.ctx), st.indices(&fx.ctx)),
        (s, a, vec![c0, c0])
    );
    let op = NdarrayStoreOp::build(&mut fx.b(kb), c0, a, &[c0, c0], loc).0;
    assert!(fx
        .verify_op(op)
        .unwrap_err()
        .contains("ndarray element type f32, got i32"));
    let sh = NdarrayShapeOp::build(&mut fx.b(kb), a, 1, loc);
    assert_eq!(fx.verify_op(sh.0), Ok(()));
    assert_eq!(sh.axis(&fx.ctx), 1);
    let op = NdarrayShapeOp::build(&mut fx.b(kb), a, 2, loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.ndarray_shape' op axis 2 is out of bounds for an ndarray of rank 2"
    );
}

#[test]
fn ndarray_atomic_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    let i64t = fx.ctx.i64_type();
    let i1 = fx.ctx.i1_type();
    let nd = ndarray_type(&mut fx.ctx, 2, f32t);
    let ndi = ndarray_type(&mut fx.ctx, 1, i32t);
    let ndb = ndarray_type(&mut fx.ctx, 1, i1);
    let u32t = fx.ctx.intern_type(qd_ir::TypeData::Integer {
        width: 32,
        signedness: qd_ir::Signedness::Unsigned,
    });
    let ndu = ndarray_type(&mut fx.ctx, 1, u32t);
    let (k, kb) = fx.kernel(&[nd, f32t, ndi, ndb, u32t, ndu]);
    let [a, s, ai, ab, _, _] = k.args(&fx.ctx)[..] else {
        unreachable!()
    };
    let loc = fx.loc;
    let c0 = fx.cst(kb, 0, i32t);
    for kind in [
        AtomicKind::Add,
        AtomicKind::Sub,
        AtomicKind::Min,
        AtomicKind::Max,
    ] {
        let op = NdarrayAtomicOp::build(&mut fx.b(kb), kind, s, a, &[c0, c0], true, loc);
        assert_eq!(fx.verify_op(op.0), Ok(()));
        assert_eq!(fx.ctx.name(op.0), kind.ndarray_op_name());
        assert_eq!(NdarrayAtomicOp::from_op(&fx.ctx, op.0), Some(op));
        assert_eq!(AtomicOp::from_op(&fx.ctx, op.0), None);
        assert_eq!(op.kind(&fx.ctx), kind);
        assert_eq!(
            (op.value(&fx.ctx), op.array(&fx.ctx), op.indices(&fx.ctx)),
            (s, a, vec![c0, c0])
        );
        let old = op.old_value(&fx.ctx).unwrap();
        assert_eq!(fx.ctx.value_type(old), f32t);
        let op = NdarrayAtomicOp::build(&mut fx.b(kb), kind, c0, ai, &[c0], false, loc);
        assert_eq!(fx.verify_op(op.0), Ok(()));
        assert_eq!(op.old_value(&fx.ctx), None);
    }
    assert_eq!(AtomicKind::Sub.field_op_name(), None);
    assert_eq!(AtomicKind::Max.field_op_name(), Some(ATOMIC_MAX_OP));
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Add, s, a, &[c0], false, loc).0;
    assert_eq!(
        fx.verify_op(op).unwrap_err(),
        "'qd.ndarray_atomic_add' op expects 2 indices for an ndarray of rank 2, got 1"
    );
    let c64 = fx.cst(kb, 0, i64t);
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Sub, s, a, &[c0, c64], false, loc);
    assert_eq!(
        fx.verify_op(op.0).unwrap_err(),
        "'qd.ndarray_atomic_sub' op expects index 1 to be i32, got i64"
    );
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Min, c0, a, &[c0, c0], false, loc);
    assert!(fx
        .verify_op(op.0)
        .unwrap_err()
        .contains("value type to match the ndarray element type f32, got i32"));
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Max, s, s, &[], false, loc);
    assert_eq!(
        fx.verify_op(op.0).unwrap_err(),
        "'qd.ndarray_atomic_max' op expects a !qd.ndarray operand, got f32"
    );
    let u = fx.ctx.value_type(k.args(&fx.ctx)[4]);
    let w = k.args(&fx.ctx)[4];
    let ndu = k.args(&fx.ctx)[5];
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Sub, w, ndu, &[c0], false, loc);
    assert_eq!(
        fx.verify_op(op.0).unwrap_err(),
        "'qd.ndarray_atomic_sub' op expects a signless integer or float element, got ui32"
    );
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Add, w, ndu, &[c0], false, loc);
    assert_eq!(fx.verify_op(op.0), Ok(()));
    assert_eq!(fx.ctx.value_type(w), u);
    let t = fx.cst(kb, 1, i1);
    let op = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Add, t, ab, &[c0], false, loc);
    assert_eq!(
        fx.verify_op(op.0).unwrap_err(),
        "'qd.ndarray_atomic_add' op expects an integer (wider than i1) or float element, got i1"
    );
}

/// `global_write` describes field and ndarray stores and atomics alike, and nothing else.
#[test]
fn global_write_covers_every_write() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    fx.field("x", &[4], f32t, false);
    let nd = ndarray_type(&mut fx.ctx, 1, f32t);
    let (k, kb) = fx.kernel(&[nd, f32t]);
    let [a, v] = k.args(&fx.ctx)[..] else {
        unreachable!()
    };
    let loc = fx.loc;
    let i = fx.cst(kb, 1, i32t);
    let st = StoreOp::build(&mut fx.b(kb), v, "x", &[i], loc).0;
    let at = AtomicOp::build(&mut fx.b(kb), AtomicKind::Min, v, "x", &[i], true, loc);
    let nst = NdarrayStoreOp::build(&mut fx.b(kb), v, a, &[i], loc).0;
    let nat = NdarrayAtomicOp::build(&mut fx.b(kb), AtomicKind::Sub, v, a, &[i], false, loc).0;
    let ld = LoadOp::build(&mut fx.b(kb), "x", &[i], f32t, loc).0;
    let ctx = &fx.ctx;
    let w = |op| global_write(ctx, op).unwrap();
    let field = WriteTarget::Field("x");
    let arr = WriteTarget::Ndarray(a);
    assert_eq!(
        (w(st).target, w(st).kind, w(st).old),
        (field, WriteKind::Store, None)
    );
    let old = at.old_value(ctx);
    assert!(old.is_some());
    assert_eq!(
        (w(at.0).target, w(at.0).kind, w(at.0).old),
        (field, WriteKind::Atomic(AtomicKind::Min), old)
    );
    assert_eq!((w(nst).target, w(nst).kind), (arr, WriteKind::Store));
    assert_eq!(
        (w(nat).target, w(nat).kind, w(nat).old),
        (arr, WriteKind::Atomic(AtomicKind::Sub), None)
    );
    for op in [st, at.0, nst, nat] {
        assert_eq!((w(op).op, w(op).value, w(op).indices), (op, v, vec![i]));
    }
    assert_eq!(global_write(ctx, ld), None);
}

#[test]
fn kernel_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let idx = fx.ctx.index_type();
    let p = ptr_type(&mut fx.ctx, f32t);
    let (k, _) = fx.kernel(&[p]);
    assert!(fx
        .verify_op(k.0)
        .unwrap_err()
        .contains("argument 0 to be an integer or float scalar or a !qd.ndarray"));
    let (k, _) = fx.kernel(&[idx]);
    assert!(fx.verify_op(k.0).is_err());
    let (k, kb) = fx.kernel(&[f32t]);
    assert_eq!(fx.verify_op(k.0), Ok(()));
    // Block arguments must match function_type.
    let i32t = fx.ctx.i32_type();
    fx.ctx.add_block_arg(kb, i32t, fx.loc);
    assert_eq!(
        fx.verify_op(k.0).unwrap_err(),
        "'qd.kernel' op expects its body block to have 1 argument, got 2"
    );
    // A kernel returns nothing.
    let ft = fx.ctx.function_type(vec![], vec![f32t]);
    let fta = fx.ctx.type_attr(ft);
    let (k, _) = fx.kernel(&[]);
    fx.ctx.set_prop(k.0, "function_type", fta);
    assert!(fx.verify_op(k.0).unwrap_err().contains("return nothing"));
    // Symbols live in a symbol table.
    let (k2, kb2) = fx.kernel(&[]);
    let loc = fx.loc;
    let inner = KernelOp::build(&mut fx.b(kb2), "inner", &[], loc);
    assert!(fx
        .verify_op(inner.0)
        .unwrap_err()
        .contains("parent to be a symbol table"));
    assert_eq!(enclosing_kernel(&fx.ctx, inner.0), Some(inner));
    let _ = k2;
}

#[test]
fn field_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let f = fx.field("x", &[3], f32t, true);
    assert_eq!(fx.verify_op(f.0), Ok(()));
    let bad = fx.field("z", &[0], f32t, false);
    assert!(fx
        .verify_op(bad.0)
        .unwrap_err()
        .contains("field dimensions must be positive"));
    let one = fx.ctx.integer_attr(1, f32t);
    fx.ctx.set_prop(f.0, "needs_grad", one);
    assert!(fx.verify_op(f.0).unwrap_err().contains("unit attribute"));
    let nd = ndarray_type(&mut fx.ctx, 1, f32t);
    let nda = fx.ctx.type_attr(nd);
    let g = fx.field("g", &[2], f32t, false);
    fx.ctx.set_prop(g.0, "type", nda);
    assert_eq!(
        fx.verify_op(g.0).unwrap_err(),
        "'qd.field' op expects a !qd.field type, got !qd.ndarray<?xf32>"
    );
    let s = fx.ctx.string_attr("oops");
    fx.ctx.set_prop(g.0, "extra", s);
    assert_eq!(
        fx.verify_op(g.0).unwrap_err(),
        "'qd.field' op has unknown property 'extra'"
    );
}

#[test]
fn struct_for_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    fx.field("x", &[4, 10], f32t, false);
    fx.field("s", &[], f32t, false);
    let (_, kb) = fx.kernel(&[]);
    let loc = fx.loc;
    let ok = StructForOp::build(&mut fx.b(kb), "x", 2, loc);
    assert_eq!(fx.verify_op(ok.0), Ok(()));
    let bad = StructForOp::build(&mut fx.b(kb), "x", 1, loc);
    assert_eq!(
        fx.verify_op(bad.0).unwrap_err(),
        "'qd.struct_for' op expects 2 induction variables for field @x of rank 2, got 1"
    );
    let scalar = StructForOp::build(&mut fx.b(kb), "s", 0, loc);
    assert_eq!(fx.verify_op(scalar.0), Ok(()));
    // An empty body region is fine for a scalar field (as MLIR prints an empty block).
    let b = scalar.body(&fx.ctx).unwrap();
    fx.ctx.erase_block(b);
    assert_eq!(fx.verify_op(scalar.0), Ok(()));
    assert_eq!(scalar.body(&fx.ctx), None);
    let nb = scalar.ensure_body(&mut fx.ctx);
    assert_eq!(scalar.body(&fx.ctx), Some(nb));
    // Induction variables are i32.
    let f32_arg = StructForOp::build(&mut fx.b(kb), "s", 0, loc);
    let blk = f32_arg.body(&fx.ctx).unwrap();
    fx.ctx.add_block_arg(blk, f32t, loc);
    fx.ctx
        .set_prop(f32_arg.0, "field", fx.ctx.prop(ok.0, "field").unwrap());
    let a2 = fx.ctx.f32_type();
    fx.ctx.add_block_arg(blk, a2, loc);
    assert_eq!(
        fx.verify_op(f32_arg.0).unwrap_err(),
        "'qd.struct_for' op expects body block argument 0 to have type i32, got f32"
    );
}

#[test]
fn range_for_rules() {
    let mut fx = Fx::new();
    let i32t = fx.ctx.i32_type();
    let i64t = fx.ctx.i64_type();
    let f32t = fx.ctx.f32_type();
    let (_, kb) = fx.kernel(&[]);
    let loc = fx.loc;
    let a = fx.cst(kb, 0, i32t);
    let b64 = fx.cst(kb, 0, i64t);
    let f = {
        let at = fx.ctx.float_attr(1.0, f32t);
        let st = OperationState::new("test.constant", loc)
            .results(&[f32t])
            .prop(&mut fx.ctx, "value", at);
        fx.b(kb).insert_value(st)
    };
    let mixed = RangeForOp::build(&mut fx.b(kb), a, b64, loc);
    assert_eq!(
        fx.verify_op(mixed.0).unwrap_err(),
        "'qd.range_for' op expects both bounds to have the same type, got i32 and i64"
    );
    let float = RangeForOp::build(&mut fx.b(kb), f, f, loc);
    assert_eq!(
        fx.verify_op(float.0).unwrap_err(),
        "'qd.range_for' op expects integer or index bounds, got f32"
    );
    let wide = RangeForOp::build(&mut fx.b(kb), b64, b64, loc);
    assert_eq!(fx.verify_op(wide.0), Ok(()));
    assert_eq!(fx.ctx.value_type(wide.induction_var(&fx.ctx)), i64t);
}

#[test]
fn while_if_and_jumps() {
    let mut fx = Fx::new();
    let i1 = fx.ctx.i1_type();
    let i32t = fx.ctx.i32_type();
    fx.field("x", &[4], i32t, false);
    let (_, kb) = fx.kernel(&[]);
    let loc = fx.loc;
    let sf = StructForOp::build(&mut fx.b(kb), "x", 1, loc);
    let sb = sf.body(&fx.ctx).unwrap();
    // A break directly in the parallel loop, and in an if in it, is rejected.
    let brk = BreakOp::build(&mut fx.b(sb), loc);
    assert!(fx
        .verify_op(brk.0)
        .unwrap_err()
        .contains("cannot leave the parallel loop 'qd.struct_for'"));
    fx.ctx.erase_op(brk.0);
    let t = fx.cst(sb, 1, i1);
    let w = WhileOp::build(&mut fx.b(sb), loc);
    let before = w.before(&fx.ctx);
    assert_eq!(
        fx.verify_op(w.0).unwrap_err(),
        "'qd.while' op expects its condition region to end with 'qd.condition'"
    );
    let cond = fx.cst(before, 1, i1);
    let c = ConditionOp::build(&mut fx.b(before), cond, loc);
    assert_eq!(fx.verify_op(w.0), Ok(()));
    assert_eq!(fx.verify_op(c.0), Ok(()));
    assert_eq!(w.condition(&fx.ctx), cond);
    let after = w.after(&fx.ctx).unwrap();
    let iff = IfOp::build(&mut fx.b(after), t, true, loc);
    assert_eq!(fx.verify_op(iff.0), Ok(()));
    let tb = iff.then_block(&fx.ctx).unwrap();
    let brk = BreakOp::build(&mut fx.b(tb), loc);
    assert_eq!(fx.verify_op(brk.0), Ok(()));
    assert_eq!(brk.target_loop(&fx.ctx), Some(w.0));
    let eb = iff.else_block(&fx.ctx).unwrap();
    let cont = ContinueOp::build(&mut fx.b(eb), loc);
    assert_eq!(cont.target_loop(&fx.ctx), Some(w.0));
    // In the condition region: rejected.
    let in_cond = ContinueOp::build(
        &mut Builder::new(&mut fx.ctx, InsertPoint::Before(c.0)),
        loc,
    );
    assert_eq!(
        fx.verify_op(in_cond.0).unwrap_err(),
        "'qd.continue' op cannot be used in the condition region of 'qd.while'"
    );
    fx.ctx.erase_op(in_cond.0);
    // Outside any loop: rejected.
    let top = BreakOp::build(&mut fx.b(kb), loc);
    assert!(fx
        .verify_op(top.0)
        .unwrap_err()
        .contains("expects to be nested in a serial loop"));
    fx.ctx.erase_op(top.0);
    // A condition outside a while's condition region, and a non-i1 condition.
    let stray = ConditionOp::build(&mut fx.b(after), t, loc);
    assert_eq!(
        fx.verify_op(stray.0).unwrap_err(),
        "'qd.condition' op expects to terminate the condition region of a 'qd.while'"
    );
    fx.ctx.erase_op(stray.0);
    let c0 = fx.cst(sb, 0, i32t);
    let bad_if = IfOp::build(&mut fx.b(sb), c0, false, loc);
    assert_eq!(
        fx.verify_op(bad_if.0).unwrap_err(),
        "'qd.if' op expects the condition to be i1, got i32"
    );
    fx.ctx.erase_op(bad_if.0);
    assert_eq!(fx.errors(), Vec::<String>::new());
}

#[test]
fn locals_rules() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    let (_, kb) = fx.kernel(&[]);
    let loc = fx.loc;
    let arr_t = array_type(&mut fx.ctx, 10, f32t);
    let st_t = struct_type(&mut fx.ctx, &[f32t, i32t]);
    let arr = AllocaOp::build(&mut fx.b(kb), arr_t, loc);
    assert_eq!(arr.pointee(&fx.ctx), arr_t);
    let st = AllocaOp::build(&mut fx.b(kb), st_t, loc).result(&fx.ctx);
    let arr = arr.result(&fx.ctx);
    let k = fx.cst(kb, 3, i32t);
    let k10 = fx.cst(kb, 10, i32t);
    let e = ElemPtrOp::build(&mut fx.b(kb), arr, k, loc);
    assert_eq!(fx.verify_op(e.0), Ok(()));
    assert_eq!(pointee_of(&fx.ctx, e.result(&fx.ctx)), f32t);
    // A constant index out of bounds fails at run time, not here (see field_access_rules).
    let oob = ElemPtrOp::build(&mut fx.b(kb), arr, k10, loc);
    assert_eq!(fx.verify_op(oob.0), Ok(()));
    let m = MemberPtrOp::build(&mut fx.b(kb), st, 1, loc);
    assert_eq!(fx.verify_op(m.0), Ok(()));
    assert_eq!(
        (m.index(&fx.ctx), pointee_of(&fx.ctx, m.result(&fx.ctx))),
        (1, i32t)
    );
    let bad_m = MemberPtrOp::build(&mut fx.b(kb), st, 2, loc);
    assert_eq!(
        fx.verify_op(bad_m.0).unwrap_err(),
        "'qd.member_ptr' op member index 2 is out of bounds for a struct of 2 members"
    );
    let wrong_base = MemberPtrOp::build(&mut fx.b(kb), arr, 0, loc);
    assert!(fx
        .verify_op(wrong_base.0)
        .unwrap_err()
        .contains("expects a pointer to a !qd.struct"));
    let wrong_base = ElemPtrOp::build(&mut fx.b(kb), st, k, loc);
    assert!(fx
        .verify_op(wrong_base.0)
        .unwrap_err()
        .contains("expects a pointer to a !qd.array"));
    // Whole-aggregate loads/stores are rejected.
    let agg = LocalLoadOp::build(&mut fx.b(kb), arr, loc);
    assert!(fx
        .verify_op(agg.0)
        .unwrap_err()
        .contains("expects a pointer to a scalar"));
    let mi = m.result(&fx.ctx);
    let ld = LocalLoadOp::build(&mut fx.b(kb), mi, loc);
    assert_eq!(fx.verify_op(ld.0), Ok(()));
    let ep = e.result(&fx.ctx);
    let one = fx_f32(&mut fx, kb);
    let ok = LocalStoreOp::build(&mut fx.b(kb), one, ep, loc);
    assert_eq!(fx.verify_op(ok.0), Ok(()));
    let bad = LocalStoreOp::build(&mut fx.b(kb), k, ep, loc);
    assert_eq!(
        fx.verify_op(bad.0).unwrap_err(),
        "'qd.local_store' op expects the value type to be the pointee type f32, got i32"
    );
    let not_ptr = LocalStoreOp::build(&mut fx.b(kb), k, k, loc);
    assert_eq!(
        fx.verify_op(not_ptr.0).unwrap_err(),
        "'qd.local_store' op expects the pointer to be a !qd.ptr, got i32"
    );
}

fn fx_f32(fx: &mut Fx, b: BlockId) -> Value {
    let f32t = fx.ctx.f32_type();
    let a = fx.ctx.float_attr(1.5, f32t);
    let st = OperationState::new("test.constant", fx.loc)
        .results(&[f32t])
        .prop(&mut fx.ctx, "value", a);
    fx.b(b).insert_value(st)
}

/// Every qd op, with every combination of a few operand lists, result lists, region shapes and
/// property sets: the verifiers answer (Ok or a diagnostic) and never panic.
#[test]
fn verifiers_never_panic_on_malformed_ops() {
    let mut fx = Fx::new();
    let f32t = fx.ctx.f32_type();
    let i32t = fx.ctx.i32_type();
    let i1 = fx.ctx.i1_type();
    fx.field("x", &[4], f32t, false);
    let nd = ndarray_type(&mut fx.ctx, 1, f32t);
    let p = ptr_type(&mut fx.ctx, f32t);
    let (_, kb) = fx.kernel(&[nd]);
    let loc = fx.loc;
    let vals = [
        fx.cst(kb, 1, i32t),
        fx.cst(kb, 1, i1),
        fx_f32(&mut fx, kb),
        fx.ctx.block_args(kb)[0],
    ];
    let operand_sets: Vec<Vec<Value>> = vec![
        vec![],
        vec![vals[0]],
        vec![vals[1]],
        vec![vals[2], vals[0]],
        vec![vals[3], vals[0], vals[0]],
        vec![vals[0], vals[0], vals[0]],
    ];
    let result_sets: Vec<Vec<Type>> = vec![vec![], vec![f32t], vec![p], vec![i32t, i32t]];
    let sym = fx.ctx.symbol_ref_attr("x");
    let bad_sym = fx.ctx.symbol_ref_attr("nope");
    let s = fx.ctx.string_attr("x");
    let int = fx.ctx.integer_attr(7, i32t);
    let ty = fx.ctx.type_attr(f32t);
    let prop_sets: Vec<Vec<(&str, qd_ir::Attribute)>> = vec![
        vec![],
        vec![("field", sym)],
        vec![("field", s)],
        vec![("field", bad_sym)],
        vec![("sym_name", s), ("type", ty), ("function_type", ty)],
        vec![("axis", int), ("index", sym)],
        vec![("axis", s), ("index", int)],
    ];
    let names: Vec<&str> = fx
        .ctx
        .registered_ops()
        .map(|i| i.name)
        .filter(|n| n.starts_with("qd."))
        .collect();
    let mut checked = 0;
    for name in names {
        for ops in &operand_sets {
            for res in &result_sets {
                for props in &prop_sets {
                    for regions in 0..4 {
                        let mut st = OperationState::new(name, loc).operands(ops).results(res);
                        for &(k, v) in props {
                            st.add_prop(&mut fx.ctx, k, v);
                        }
                        for r in 0..regions.min(2) {
                            let region = fx.ctx.create_region();
                            if regions == 2 || (regions == 3 && r == 0) {
                                let b = fx.ctx.create_block(&[(i32t, loc)]);
                                fx.ctx.append_block(region, b);
                            }
                            if regions == 3 {
                                let b = fx.ctx.create_block(&[]);
                                fx.ctx.append_block(region, b);
                            }
                            st.regions.push(region);
                        }
                        let op = fx.b(kb).insert(st);
                        let _ = fx.verify_op(op);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
}
