//! A small harness for tests of folders, verifiers and patterns of arith-like ops (used by this
//! crate's tests and by dialects built on arith): ops are built into one block, folded with the
//! constants of their operands, and verified by their own verifier.

use crate::build::{build_constant_float, build_constant_int, elementwise_state};
use crate::consts::{constant_value, IntVal};
use qd_ir::{
    Attribute, BlockId, Builder, Context, FoldResult, Location, OpId, OperationState, Type, Value,
};

pub struct Harness {
    pub ctx: Context,
    pub block: BlockId,
    pub loc: Location,
}

impl Harness {
    /// A context with arith registered, plus whatever `register` adds.
    pub fn new(register: fn(&mut Context)) -> Self {
        let mut ctx = Context::new();
        crate::register(&mut ctx);
        register(&mut ctx);
        let block = ctx.create_block(&[]);
        let loc = ctx.file_loc("test.mlir", 1, 1);
        Harness { ctx, block, loc }
    }

    pub fn ty(&mut self, name: &str) -> Type {
        match name {
            "index" => self.ctx.index_type(),
            "f16" => self.ctx.float_type(qd_ir::FloatKind::F16),
            "bf16" => self.ctx.float_type(qd_ir::FloatKind::BF16),
            "f32" => self.ctx.f32_type(),
            "f64" => self.ctx.f64_type(),
            _ => {
                let w = name
                    .strip_prefix('i')
                    .and_then(|w| w.parse().ok())
                    .unwrap_or_else(|| panic!("unknown test type {name}"));
                self.ctx.integer_type(w)
            }
        }
    }

    /// A fresh non-constant value of type `ty` (a block argument).
    pub fn arg(&mut self, ty: &str) -> Value {
        let t = self.ty(ty);
        let loc = self.loc;
        self.ctx.add_block_arg(self.block, t, loc)
    }

    pub fn builder(&mut self) -> Builder<'_> {
        Builder::at_end(&mut self.ctx, self.block)
    }

    pub fn int(&mut self, v: i64, ty: &str) -> Value {
        let (t, loc) = (self.ty(ty), self.loc);
        build_constant_int(&mut self.builder(), v, t, loc)
    }

    pub fn float(&mut self, v: f64, ty: &str) -> Value {
        let (t, loc) = (self.ty(ty), self.loc);
        build_constant_float(&mut self.builder(), v, t, loc)
    }

    /// Op `name` on `operands` with result type `ty` and its default properties.
    pub fn op(&mut self, name: &str, operands: &[Value], ty: &str) -> OpId {
        let (t, loc) = (self.ty(ty), self.loc);
        let state = elementwise_state(&mut self.ctx, name, operands, t, loc);
        self.insert(state)
    }

    pub fn insert(&mut self, state: OperationState) -> OpId {
        self.builder().insert(state)
    }

    /// Runs the op's folder with its operands' constants.
    pub fn fold(&mut self, op: OpId) -> Option<Vec<FoldResult>> {
        let fold = self.ctx.info(op)?.fold?;
        let consts: Vec<Option<Attribute>> = self
            .ctx
            .operands(op)
            .map(|v| constant_value(&self.ctx, v))
            .collect();
        fold(&mut self.ctx, op, &consts)
    }

    /// The folded constant of a single-result op.
    pub fn fold_attr(&mut self, op: OpId) -> Option<Attribute> {
        match self.fold(op)?.as_slice() {
            [FoldResult::Attr(a)] => Some(*a),
            _ => None,
        }
    }

    /// The folded existing value of a single-result op.
    pub fn fold_value(&mut self, op: OpId) -> Option<Value> {
        match self.fold(op)?.as_slice() {
            [FoldResult::Value(v)] => Some(*v),
            _ => None,
        }
    }

    /// Folds `name` over integer constants of type `ty`: the result read as signed.
    pub fn fold_ints(&mut self, name: &str, args: &[i64], ty: &str) -> Option<i64> {
        let vals: Vec<Value> = args.iter().map(|&a| self.int(a, ty)).collect();
        let op = self.op(name, &vals, ty);
        let a = self.fold_attr(op)?;
        Some(
            IntVal::from_attr(&self.ctx, a)
                .expect("integer fold result")
                .sext(),
        )
    }

    /// Folds `name` over float constants of type `ty`.
    pub fn fold_floats(&mut self, name: &str, args: &[f64], ty: &str) -> Option<f64> {
        let vals: Vec<Value> = args.iter().map(|&a| self.float(a, ty)).collect();
        let op = self.op(name, &vals, ty);
        let a = self.fold_attr(op)?;
        Some(self.ctx.attr_data(a).as_float().expect("float fold result"))
    }

    /// The op's verifier: Ok, or the error message.
    pub fn verify(&self, op: OpId) -> Result<(), String> {
        match self.ctx.info(op).and_then(|i| i.verify) {
            Some(v) => v(&self.ctx, op).map_err(|d| d.message),
            None => Ok(()),
        }
    }
}
