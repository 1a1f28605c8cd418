//! Reverse-mode derivative rules: [`FnRule`], a [`ReverseRule`] made of two plain functions, and
//! [`RuleCx`], the small expression builder the rules of arith and math are written with. Each
//! op's rule is a `static` next to the op's definition (see `ops/float.rs`, `ops/select.rs`,
//! `ops/cast.rs` and the math crate) and is attached to the op with
//! [`crate::ElementwiseDef::reverse`], so that adding an op's derivative is one edit next to it.
//!
//! Conventions: `x(i)` is operand `i`'s primal, `r()` the result's primal, `adj()` the result's
//! adjoint; a rule returns one contribution per operand (`None` for an inactive operand, an
//! integer/i1 operand, or a derivative that is identically zero, such as floor's).

use crate::build::{build_binary, build_cmpf, build_constant_float, build_select, build_unary};
use crate::names;
use crate::predicates::CmpFPredicate;
use qd_ir::interfaces::{PrimalNeeds, ReverseRule};
use qd_ir::{Builder, Context, Location, OpId, Value};

/// Which primals a rule reads, given which operands are active.
pub type NeedsFn = fn(active: &[bool]) -> PrimalNeeds;
/// Emits the contributions, one per operand.
pub type EmitFn = fn(cx: &mut RuleCx<'_, '_>, active: &[bool]) -> Vec<Option<Value>>;

/// A derivative rule given by two functions.
pub struct FnRule {
    pub needs: NeedsFn,
    pub emit: EmitFn,
}

impl ReverseRule for FnRule {
    fn primal_needs(&self, ctx: &Context, op: OpId, active: &[bool]) -> PrimalNeeds {
        let mut n = (self.needs)(active);
        // A rule asks by position; pad to the op's shape so callers may index freely.
        n.operands.resize(ctx.num_operands(op), false);
        n.results.resize(ctx.num_results(op), false);
        n
    }

    fn emit_adjoints(
        &self,
        b: &mut Builder<'_>,
        op: OpId,
        operands: &[Option<Value>],
        results: &[Option<Value>],
        result_adjoints: &[Value],
        active: &[bool],
    ) -> Vec<Option<Value>> {
        let loc = b.ctx.loc(op);
        let mut cx = RuleCx {
            b,
            op,
            loc,
            operands,
            results,
            adj: result_adjoints[0],
        };
        let mut out = (self.emit)(&mut cx, active);
        out.resize(operands.len(), None);
        for (o, &a) in out.iter_mut().zip(active) {
            if !a {
                *o = None;
            }
        }
        out
    }
}

/// `PrimalNeeds` from per-operand and per-result flags.
pub fn needs(operands: &[bool], results: &[bool]) -> PrimalNeeds {
    PrimalNeeds {
        operands: operands.to_vec(),
        results: results.to_vec(),
    }
}

/// Reads nothing (add, sub, neg, fma's addend, casts).
pub fn needs_nothing(_: &[bool]) -> PrimalNeeds {
    PrimalNeeds::default()
}

/// Reads every operand whenever any operand is active.
pub fn needs_all_operands(active: &[bool]) -> PrimalNeeds {
    let any = active.iter().any(|&a| a);
    needs(&vec![any; active.len()], &[])
}

/// Reads the result whenever any operand is active.
pub fn needs_result(active: &[bool]) -> PrimalNeeds {
    needs(&[], &[active.iter().any(|&a| a)])
}

/// The builder a rule emits with: primals, the result's adjoint, and float arithmetic in the
/// adjoint's type at the op's location.
pub struct RuleCx<'a, 'b> {
    pub b: &'a mut Builder<'b>,
    /// The primal op (read its types and properties; its values may not dominate the reverse).
    pub op: OpId,
    pub loc: Location,
    pub operands: &'a [Option<Value>],
    pub results: &'a [Option<Value>],
    adj: Value,
}

impl RuleCx<'_, '_> {
    /// Operand `i`'s primal.
    ///
    /// # Panics
    /// When the caller did not provide it although the rule's `needs` asked for it.
    pub fn x(&self, i: usize) -> Value {
        self.operands.get(i).copied().flatten().unwrap_or_else(|| {
            panic!("derivative rule: primal of operand {i} was asked for but not provided")
        })
    }
    /// The result's primal.
    pub fn r(&self) -> Value {
        self.results.first().copied().flatten().unwrap_or_else(|| {
            panic!("derivative rule: primal of the result was asked for but not provided")
        })
    }
    /// The type of the primal op's operand `i`.
    pub fn operand_type(&self, i: usize) -> qd_ir::Type {
        let v = self.b.ctx.operand(self.op, i);
        self.b.ctx.value_type(v)
    }
    /// The result's adjoint.
    pub fn adj(&self) -> Value {
        self.adj
    }
    /// A float constant of the adjoint's type.
    pub fn c(&mut self, v: f64) -> Value {
        let ty = self.b.ctx.value_type(self.adj);
        build_constant_float(self.b, v, ty, self.loc)
    }
    pub fn bin(&mut self, name: &str, a: Value, b: Value) -> Value {
        build_binary(self.b, name, a, b, self.loc)
    }
    pub fn un(&mut self, name: &str, a: Value) -> Value {
        build_unary(self.b, name, a, self.loc)
    }
    pub fn add(&mut self, a: Value, b: Value) -> Value {
        self.bin(names::ADDF, a, b)
    }
    pub fn sub(&mut self, a: Value, b: Value) -> Value {
        self.bin(names::SUBF, a, b)
    }
    pub fn mul(&mut self, a: Value, b: Value) -> Value {
        self.bin(names::MULF, a, b)
    }
    pub fn div(&mut self, a: Value, b: Value) -> Value {
        self.bin(names::DIVF, a, b)
    }
    pub fn neg(&mut self, a: Value) -> Value {
        self.un(names::NEGF, a)
    }
    /// `adj * v`.
    pub fn adj_times(&mut self, v: Value) -> Value {
        let a = self.adj;
        self.mul(a, v)
    }
    pub fn cmpf(&mut self, pred: CmpFPredicate, a: Value, b: Value) -> Value {
        build_cmpf(self.b, pred, a, b, self.loc)
    }
    pub fn select(&mut self, c: Value, t: Value, f: Value) -> Value {
        build_select(self.b, c, t, f, self.loc)
    }
    /// `c ? adj : 0` and `c ? 0 : adj`: routes the adjoint to one of two operands.
    pub fn route(&mut self, c: Value) -> (Value, Value) {
        let z = self.c(0.0);
        let a = self.adj;
        let t = self.select(c, a, z);
        let f = self.select(c, z, a);
        (t, f)
    }
}

/// Contribution `v` for the operands marked in `which`.
pub fn only(n: usize, i: usize, v: Value) -> Vec<Option<Value>> {
    let mut out = vec![None; n];
    out[i] = Some(v);
    out
}
