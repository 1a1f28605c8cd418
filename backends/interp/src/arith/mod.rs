//! The interpreter of upstream MLIR's arith dialect (the subset qd registers).
//!
//! Exact semantics: integers wrap at their width; `divsi`/`divui`/`remsi`/`remui` by zero are
//! runtime errors (`INT_MIN / -1` wraps to `INT_MIN`, its remainder is 0); shifts by the width or
//! more are runtime errors (upstream calls them poison); f32 ops compute in f32 and f64 ops in
//! f64 (IEEE, round to nearest even); `minimumf`/`maximumf` propagate NaN and order -0 below +0;
//! `minnumf`/`maxnumf` return the number when one operand is NaN and order -0 below +0 (upstream
//! leaves the sign of a zero result open); `ceildivsi`/`floordivsi`/`ceildivui` round the exact
//! quotient and wrap it (`INT_MIN / -1` gives `INT_MIN`), by zero they are runtime errors;
//! `index_castui` zero-extends;
//! `fptosi`/`fptoui` truncate toward zero and saturate at the target range (NaN gives 0), where
//! upstream leaves out-of-range values poison; `truncf` rounds to nearest even (other rounding
//! modes are refused at compile time).

mod cast;
mod float;
mod int;

use crate::exec::{Compiler, DialectInterpreter, Exec, Flow};
use crate::helpers::{operand_kind, result_kind};
use crate::num::{bool_bits, canon, Kind};
use qd_arith::consts::IntVal;
use qd_arith::{names, CmpFOp, CmpIOp, ConstantOp};
use qd_ir::{AttrData, Diagnostic, OpId};

/// Runs `arith.*` ops.
#[derive(Default)]
pub struct ArithInterpreter;

impl DialectInterpreter for ArithInterpreter {
    fn dialect(&self) -> &'static str {
        "arith"
    }

    fn compile(&self, c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
        let name = c.ctx().name(op);
        match name {
            names::CONSTANT => constant(c, op),
            names::CMPI => cmpi(c, op),
            names::CMPF => cmpf(c, op),
            names::SELECT => select(c, op),
            _ => {
                if let Some(e) = int::compile(c, op, name)? {
                    Ok(e)
                } else if let Some(e) = float::compile(c, op, name)? {
                    Ok(e)
                } else if let Some(e) = cast::compile(c, op, name)? {
                    Ok(e)
                } else {
                    Err(c.unsupported(op))
                }
            }
        }
    }
}

fn constant(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let kind = result_kind(c, op, 0)?;
    let value = ConstantOp(op).value(ctx).map(|a| ctx.attr_data(a));
    let bits = match (value, kind) {
        (Some(AttrData::Integer { value, .. }), Kind::Int { width, .. }) => {
            canon(*value as u64, width)
        }
        (Some(AttrData::Bool(b)), Kind::Int { .. }) => bool_bits(*b),
        (Some(AttrData::Float { bits, .. }), Kind::F32) => {
            (f64::from_bits(*bits) as f32).to_bits() as u64
        }
        (Some(AttrData::Float { bits, .. }), Kind::F64) => *bits,
        _ => {
            return Err(c.error(
                op,
                "the interpreter supports only scalar integer and float constants",
            ))
        }
    };
    let d = c.slot(ctx.result(op, 0));
    Ok(Box::new(move |f| {
        f.set(d, bits);
        Ok(Flow::Next)
    }))
}

fn cmpi(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let Some(pred) = CmpIOp(op).predicate(c.ctx()) else {
        return Err(c.error(op, "arith.cmpi without a valid predicate"));
    };
    let Kind::Int { width: w, .. } = operand_kind(c, op, 0)? else {
        return Err(c.error(op, "arith.cmpi expects integers"));
    };
    let (x, y, d) = crate::helpers::binary_slots(c, op);
    Ok(crate::helpers::int_binary(x, y, d, move |a, b| {
        bool_bits(pred.eval(IntVal::from_bits(a, w), IntVal::from_bits(b, w)))
    }))
}

fn cmpf(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let Some(pred) = CmpFOp(op).predicate(c.ctx()) else {
        return Err(c.error(op, "arith.cmpf without a valid predicate"));
    };
    let (x, y, d) = crate::helpers::binary_slots(c, op);
    // Widening to f64 is exact, so comparing there gives the f32 comparison.
    let exec = match operand_kind(c, op, 0)? {
        Kind::F32 => crate::helpers::int_binary(x, y, d, move |a, b| {
            let (a, b) = (
                f32::from_bits(a as u32) as f64,
                f32::from_bits(b as u32) as f64,
            );
            bool_bits(pred.eval(a, b))
        }),
        Kind::F64 => crate::helpers::int_binary(x, y, d, move |a, b| {
            bool_bits(pred.eval(f64::from_bits(a), f64::from_bits(b)))
        }),
        Kind::Int { .. } => return Err(c.error(op, "arith.cmpf expects floats")),
    };
    Ok(exec)
}

fn select(c: &mut Compiler<'_>, op: OpId) -> Result<Exec, Diagnostic> {
    let ctx = c.ctx();
    let (cond, t, e) = (
        c.slot(ctx.operand(op, 0)),
        c.slot(ctx.operand(op, 1)),
        c.slot(ctx.operand(op, 2)),
    );
    let d = c.slot(ctx.result(op, 0));
    Ok(Box::new(move |f| {
        let v = if f.get(cond) & 1 != 0 {
            f.get(t)
        } else {
            f.get(e)
        };
        f.set(d, v);
        Ok(Flow::Next)
    }))
}
