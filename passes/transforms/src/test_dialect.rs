//! A small dialect for the passes' unit tests (so that they do not depend on arith), and a
//! builder that appends ops to a block.

use qd_ir::builtin::create_module;
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::{
    Attribute, BlockId, Context, DialectDef, FoldResult, Location, OpId, OpInfo, OpTraits,
    OperationState, RegionId, Type, Value,
};

pub fn dialect() -> DialectDef {
    let pure = OpTraits::PURE;
    let mut d = DialectDef::new("t");
    d.ops = vec![
        OpInfo::new("t.const", "a constant").traits(pure | OpTraits::CONSTANT_LIKE),
        OpInfo::new("t.add", "commutative add")
            .traits(pure | OpTraits::COMMUTATIVE)
            .fold(fold_add),
        OpInfo::new("t.sub", "subtract").traits(pure),
        OpInfo::new("t.neg", "negate")
            .traits(pure)
            .canonicalization(|p| p.push(Box::new(NegNeg))),
        OpInfo::new("t.effect", "has side effects"),
        OpInfo::new("t.read", "reads memory").traits(OpTraits::READ_ONLY),
        OpInfo::new("t.scope", "a region that sees outer values")
            .traits(OpTraits::SINGLE_BLOCK | OpTraits::NO_TERMINATOR | OpTraits::RECURSIVE_EFFECTS),
        OpInfo::new("t.isolated", "an isolated region").traits(
            OpTraits::ISOLATED_FROM_ABOVE | OpTraits::SINGLE_BLOCK | OpTraits::NO_TERMINATOR,
        ),
        OpInfo::new("t.func", "a function with a CFG body")
            .traits(OpTraits::ISOLATED_FROM_ABOVE | OpTraits::SYMBOL),
        OpInfo::new("t.table", "a nested symbol table").traits(
            OpTraits::SYMBOL_TABLE
                | OpTraits::SYMBOL
                | OpTraits::ISOLATED_FROM_ABOVE
                | OpTraits::SINGLE_BLOCK
                | OpTraits::NO_TERMINATOR,
        ),
        OpInfo::new("t.call", "calls @callee"),
        OpInfo::new("t.br", "branch").traits(OpTraits::TERMINATOR),
        OpInfo::new("t.cond_br", "conditional branch").traits(OpTraits::TERMINATOR),
        OpInfo::new("t.return", "return").traits(OpTraits::TERMINATOR | pure),
    ];
    d.materialize_constant = Some(|ctx, value, ty, loc| {
        Some(
            OperationState::new("t.const", loc)
                .results(&[ty])
                .prop(ctx, "value", value),
        )
    });
    d
}

fn fold_add(
    ctx: &mut Context,
    op: OpId,
    operands: &[Option<Attribute>],
) -> Option<Vec<FoldResult>> {
    let int = |a: Option<Attribute>| a.and_then(|a| ctx.attr_data(a).as_int());
    match (int(operands[0]), int(operands[1])) {
        (_, Some(0)) => Some(vec![FoldResult::Value(ctx.operand(op, 0))]),
        _ => None,
    }
}

/// `t.neg(t.neg(x))` -> `x`.
struct NegNeg;

impl RewritePattern for NegNeg {
    fn name(&self) -> &'static str {
        "neg-neg"
    }
    fn root(&self) -> Option<&'static str> {
        Some("t.neg")
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        let inner = ctx.operand(op, 0);
        match ctx.defining_op(inner) {
            Some(d) if ctx.name(d) == "t.neg" => {
                let x = ctx.operand(d, 0);
                rw.replace_op(op, &[x]);
                true
            }
            _ => false,
        }
    }
}

/// A context with the test dialect, and an empty module.
pub fn setup() -> (Context, OpId, BlockId) {
    let mut ctx = Context::new();
    ctx.register_dialect(dialect());
    let loc = ctx.unknown_loc();
    let (m, body) = create_module(&mut ctx, loc);
    (ctx, m, body)
}

/// Appends ops to a block.
pub struct B<'a> {
    pub ctx: &'a mut Context,
    pub block: BlockId,
    pub loc: Location,
}

impl<'a> B<'a> {
    pub fn new(ctx: &'a mut Context, block: BlockId) -> Self {
        let loc = ctx.unknown_loc();
        B { ctx, block, loc }
    }
    pub fn i32(&mut self) -> Type {
        self.ctx.i32_type()
    }
    /// Appends an op.
    pub fn op(&mut self, name: &str, operands: &[Value], results: &[Type]) -> OpId {
        let st = OperationState::new(name, self.loc)
            .operands(operands)
            .results(results);
        self.push(st)
    }
    pub fn push(&mut self, st: OperationState) -> OpId {
        let op = self.ctx.create_op(st);
        self.ctx.append_op(self.block, op);
        op
    }
    /// Appends a one-result i32 op and returns its result.
    pub fn val(&mut self, name: &str, operands: &[Value]) -> Value {
        let t = self.i32();
        let op = self.op(name, operands, &[t]);
        self.ctx.result(op, 0)
    }
    pub fn konst(&mut self, v: i64) -> Value {
        let t = self.i32();
        let a = self.ctx.integer_attr(v, t);
        let st = OperationState::new("t.const", self.loc)
            .results(&[t])
            .prop(self.ctx, "value", a);
        let op = self.push(st);
        self.ctx.result(op, 0)
    }
    /// Appends an op with one single-block region; returns the op and the region's block.
    pub fn region_op(&mut self, name: &str, operands: &[Value]) -> (OpId, BlockId) {
        let (r, b) = self.ctx.create_region_with_block(&[]);
        let st = OperationState::new(name, self.loc)
            .operands(operands)
            .region(r);
        (self.push(st), b)
    }
    /// Appends a symbol op `name` with `sym_name` (a property) and, if given, `sym_visibility`.
    pub fn symbol(&mut self, name: &str, sym: &str, visibility: Option<&str>) -> (OpId, RegionId) {
        let r = self.ctx.create_region();
        let s = self.ctx.string_attr(sym);
        let mut st = OperationState::new(name, self.loc)
            .region(r)
            .prop(self.ctx, "sym_name", s);
        if let Some(v) = visibility {
            let v = self.ctx.string_attr(v);
            st = st.prop(self.ctx, "sym_visibility", v);
        }
        (self.push(st), r)
    }
    /// Appends `t.call` referring to `@callee` (`callee` property).
    pub fn call(&mut self, callee: &str) -> OpId {
        let c = self.ctx.symbol_ref_attr(callee);
        let st = OperationState::new("t.call", self.loc).prop(self.ctx, "callee", c);
        self.push(st)
    }
}

/// Names of the ops directly in `block`.
pub fn names(ctx: &Context, block: BlockId) -> Vec<String> {
    ctx.block_ops(block)
        .map(|o| ctx.name(o).to_string())
        .collect()
}
