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

    /// Evaluates a derivative rule numerically: builds `name` over the f64 constants `args`, asks
    /// the op's `ReverseRule` for the contributions of the operands marked `active` (giving it
    /// only the primals its `primal_needs` asked for, so a rule that reads more panics), seeds the
    /// result's adjoint with `seed`, and folds the emitted expressions. Returns one entry per
    /// operand: the contribution divided by `seed`, or None where the rule gave none.
    pub fn rule_gradient(
        &mut self,
        name: &str,
        args: &[f64],
        active: &[bool],
        seed: f64,
    ) -> Vec<Option<f64>> {
        use qd_ir::interfaces::ReverseRule;
        let vals: Vec<Value> = args.iter().map(|&a| self.float(a, "f64")).collect();
        let op = self.op(name, &vals, "f64");
        let rule = self
            .ctx
            .info(op)
            .and_then(|i| i.get_interface::<dyn ReverseRule>())
            .unwrap_or_else(|| panic!("{name} has no derivative rule"));
        let needs = rule.primal_needs(&self.ctx, op, active);
        let operands: Vec<Option<Value>> = vals
            .iter()
            .zip(&needs.operands)
            .map(|(&v, &n)| n.then_some(v))
            .collect();
        // The primal folds to a constant, or (an identity such as maxnumf(x, NaN) = x) to one of
        // its constant operands.
        let r = match self.fold(op).as_deref() {
            Some([FoldResult::Attr(a)]) => *a,
            Some([FoldResult::Value(v)]) => constant_value(&self.ctx, *v).expect("a constant"),
            _ => panic!("{name}: the primal op does not fold"),
        };
        let r = self.float(self.ctx.attr_data(r).as_float().unwrap(), "f64");
        let results = vec![needs.results.first().copied().unwrap_or(false).then_some(r)];
        let g = self.float(seed, "f64");
        let before = self.ctx.last_op(self.block);
        let out = {
            let mut b = self.builder();
            rule.emit_adjoints(&mut b, op, &operands, &results, &[g], active)
        };
        // Fold every emitted op in order, feeding each its operands' folded constants.
        let mut known: std::collections::HashMap<Value, Attribute> = Default::default();
        let mut cur = before.and_then(|o| self.ctx.next_op(o));
        while let Some(o) = cur {
            let consts: Vec<Option<Attribute>> = self
                .ctx
                .operands(o)
                .map(|v| {
                    known
                        .get(&v)
                        .copied()
                        .or_else(|| constant_value(&self.ctx, v))
                })
                .collect();
            let fold = self.ctx.info(o).and_then(|i| i.fold);
            let folded = fold.and_then(|f| f(&mut self.ctx, o, &consts));
            let results = self.ctx.results(o).to_vec();
            match folded.as_deref() {
                Some([FoldResult::Attr(a)]) => {
                    known.insert(results[0], *a);
                }
                Some([FoldResult::Value(v)]) => {
                    let a = known
                        .get(v)
                        .copied()
                        .or_else(|| constant_value(&self.ctx, *v))
                        .expect("folded to a constant");
                    known.insert(results[0], a);
                }
                _ => {
                    if let Some(a) = constant_value(&self.ctx, results[0]) {
                        known.insert(results[0], a);
                    } else {
                        panic!("{name}: emitted op {} does not fold", self.ctx.name(o));
                    }
                }
            }
            cur = self.ctx.next_op(o);
        }
        out.iter()
            .map(|c| {
                c.map(|v| {
                    let a = known
                        .get(&v)
                        .copied()
                        .or_else(|| constant_value(&self.ctx, v))
                        .expect("contribution folds");
                    self.ctx
                        .attr_data(a)
                        .as_float()
                        .expect("float contribution")
                        / seed
                })
            })
            .collect()
    }

    /// The central difference of `name` in operand `i` at the f64 constants `args`, step `h`.
    pub fn central_difference(&mut self, name: &str, args: &[f64], i: usize, h: f64) -> f64 {
        let mut hi = args.to_vec();
        let mut lo = args.to_vec();
        hi[i] += h;
        lo[i] -= h;
        let f_hi = self.fold_floats(name, &hi, "f64").expect("folds");
        let f_lo = self.fold_floats(name, &lo, "f64").expect("folds");
        (f_hi - f_lo) / (2.0 * h)
    }

    /// Checks `name`'s derivative rule against central differences at `args`, for every operand
    /// alone and all operands together, with a relative tolerance `tol`.
    pub fn check_rule(&mut self, name: &str, args: &[f64], tol: f64) {
        let n = args.len();
        let mut subsets: Vec<Vec<bool>> =
            (0..n).map(|i| (0..n).map(|j| j == i).collect()).collect();
        subsets.push(vec![true; n]);
        for active in subsets {
            let got = self.rule_gradient(name, args, &active, 0.75);
            for i in 0..n {
                if !active[i] {
                    assert_eq!(
                        got[i], None,
                        "{name}: inactive operand {i} got a contribution"
                    );
                    continue;
                }
                let h = 1e-6 * args[i].abs().max(1.0);
                let want = self.central_difference(name, args, i, h);
                let g = got[i].unwrap_or(0.0);
                let err = (g - want).abs() / want.abs().max(1.0);
                assert!(
                    err <= tol,
                    "{name}{args:?} operand {i} (active {active:?}): rule {g}, central difference {want}"
                );
            }
        }
    }
}
