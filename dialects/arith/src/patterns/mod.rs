//! arith's canonicalization patterns, as upstream's (ArithCanonicalization.td, and the folds of
//! ArithOps.cpp that rewrite an op in place, which our folders cannot), one file per op family:
//! `int` (integer and bitwise ops), `cmp`, `cast`, `float`, `select`. Each is sound for every
//! input, flags included; where upstream's is not, ours is narrowed and says so.
//!
//! As upstream's DRR patterns, new ops go right before the op they replace, get default flags
//! unless a rule keeps some, and the location DRR gives them: the root's fused with the first
//! N-1 ops its matcher walk records, N being the number of ops in the source pattern. That walk
//! records a nested op after its operands and a matched constant when it meets it, so a rule
//! with constants fuses the root with a constant rather than with the inner op (mlir-opt 22:
//! `addi(addi(x, c0), c1)` -> loc(fused[root, c0])).

mod cast;
mod cmp;
mod float;
mod int;
mod reassoc;
mod select;

pub use cast::*;
pub use cmp::*;
pub use float::*;
pub use int::*;
pub use reassoc::*;
pub use select::*;

use crate::build::elementwise_state;
use crate::consts::{constant_value, IntVal};
use crate::ops::constant::materialize_constant;
use qd_ir::location::LocData;
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::{Attribute, Context, Location, OpId, Type, Value};

/// A pattern given as a function of the op and the rewriter.
pub struct FnPattern {
    pub name: &'static str,
    pub root: &'static str,
    pub rewrite: fn(OpId, &mut Rewriter<'_>) -> bool,
}

impl RewritePattern for FnPattern {
    fn name(&self) -> &'static str {
        self.name
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.root)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        (self.rewrite)(op, rw)
    }
}

/// Boxes a [`FnPattern`].
pub fn fn_pattern(
    name: &'static str,
    root: &'static str,
    rewrite: fn(OpId, &mut Rewriter<'_>) -> bool,
) -> Box<dyn RewritePattern> {
    Box::new(FnPattern {
        name,
        root,
        rewrite,
    })
}

/// The op named `name` with `n` operands and one result that defines `v`.
pub fn def_by(ctx: &Context, v: Value, name: &str, n: usize) -> Option<OpId> {
    let d = ctx.defining_op(v)?;
    (ctx.name(d) == name && ctx.num_operands(d) == n && ctx.num_results(d) == 1).then_some(d)
}

/// The operands of `op` when it has `n` operands and one result.
pub fn operands_n(ctx: &Context, op: OpId, n: usize) -> Option<Vec<Value>> {
    (ctx.num_operands(op) == n && ctx.num_results(op) == 1).then(|| ctx.operand_vec(op))
}

/// The integer constant (scalar) held by `v`.
pub fn int_const(ctx: &Context, v: Value) -> Option<IntVal> {
    IntVal::from_attr(ctx, constant_value(ctx, v)?)
}

/// The type of `op`'s only result.
pub fn result_ty(ctx: &Context, op: OpId) -> Type {
    ctx.value_type(ctx.result(op, 0))
}

/// MLIR's `FusedLoc::get` of the matched ops' locations: nested fused locations flattened,
/// unknown ones dropped, duplicates removed; one location stays itself, none is unknown.
pub fn fused_loc(ctx: &mut Context, ops: &[OpId]) -> Location {
    let mut locs: Vec<Location> = Vec::new();
    for &o in ops {
        let l = ctx.loc(o);
        let parts = match ctx.loc_data(l) {
            LocData::Fused {
                locs,
                metadata: None,
            } => locs.clone(),
            LocData::Unknown => Vec::new(),
            _ => vec![l],
        };
        for p in parts {
            if !locs.contains(&p) {
                locs.push(p);
            }
        }
    }
    match locs.len() {
        0 => ctx.unknown_loc(),
        1 => locs[0],
        _ => ctx.intern_loc(LocData::Fused {
            locs,
            metadata: None,
        }),
    }
}

/// Creates elementwise op `name` (default properties, then `props`) before `anchor`.
pub fn create_elementwise(
    rw: &mut Rewriter<'_>,
    anchor: OpId,
    name: &str,
    operands: &[Value],
    ty: Type,
    loc: Location,
    props: &[(&str, Attribute)],
) -> Value {
    let state = rw.intern(|ctx| {
        let mut s = elementwise_state(ctx, name, operands, ty, loc);
        for (n, a) in props {
            s.add_prop(ctx, n, *a);
        }
        s
    });
    let op = rw.create_before(anchor, state);
    rw.ctx().result(op, 0)
}

/// Creates `arith.constant value : ty` before `anchor`; None when `value` is not one.
pub fn create_constant(
    rw: &mut Rewriter<'_>,
    anchor: OpId,
    value: Attribute,
    ty: Type,
    loc: Location,
) -> Option<Value> {
    let state = rw.intern(|ctx| materialize_constant(ctx, value, ty, loc))?;
    let op = rw.create_before(anchor, state);
    Some(rw.ctx().result(op, 0))
}

/// `op(c, x)` -> `op(x, c)` for a commutative op with only its left operand constant, so that
/// folders and patterns find constants on the right.
pub struct ConstantToRhs(pub &'static str);

impl RewritePattern for ConstantToRhs {
    fn name(&self) -> &'static str {
        "arith-constant-to-rhs"
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.0)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        if ctx.num_operands(op) != 2 {
            return false;
        }
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        if constant_value(ctx, a).is_none() || constant_value(ctx, b).is_some() {
            return false;
        }
        rw.set_operand(op, 0, b);
        rw.set_operand(op, 1, a);
        true
    }
}
