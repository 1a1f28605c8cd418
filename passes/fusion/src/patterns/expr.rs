//! Tree patterns over ndarray values: an op of the ndarray dialect with operand patterns (add,
//! mul, maximum, minimum and eq/ne also match with their operands swapped), a scalar constant, or
//! a capture (the same capture twice must be the same value).

use qd_ir::{Context, Value};

/// A pattern over the value that an op computes.
#[derive(Clone, Debug)]
pub enum Expr {
    /// `ndarray.<mnemonic>` of these operands.
    Op(&'static str, Vec<Expr>),
    /// A scalar `arith.constant` of this value.
    Const(f64),
    /// Binds capture k (or checks it when bound).
    Cap(usize),
}

pub fn op(name: &'static str, args: Vec<Expr>) -> Expr {
    Expr::Op(name, args)
}

fn commutative(name: &str) -> bool {
    matches!(name, "add" | "mul" | "maximum" | "minimum" | "eq" | "ne")
}

/// Whether `v` matches `e`, binding captures in `caps`.
pub fn matches(ctx: &Context, v: Value, e: &Expr, caps: &mut Vec<Option<Value>>) -> bool {
    match e {
        Expr::Cap(k) => {
            if caps.len() <= *k {
                caps.resize(*k + 1, None);
            }
            match caps[*k] {
                Some(b) => b == v,
                None => {
                    caps[*k] = Some(v);
                    true
                }
            }
        }
        Expr::Const(c) => ctx.defining_op(v).is_some_and(|d| {
            ctx.name(d) == qd_arith::names::CONSTANT
                && ctx
                    .prop(d, "value")
                    .or_else(|| ctx.attr(d, "value"))
                    .and_then(|a| ctx.attr_data(a).as_float())
                    == Some(*c)
        }),
        Expr::Op(name, args) => {
            let Some(d) = ctx.defining_op(v) else {
                return false;
            };
            if ctx.name(d).strip_prefix("ndarray.") != Some(name)
                || ctx.num_operands(d) != args.len()
            {
                return false;
            }
            let operands = ctx.operand_vec(d);
            let saved = caps.clone();
            if operands
                .iter()
                .zip(args)
                .all(|(&o, a)| matches(ctx, o, a, caps))
            {
                return true;
            }
            *caps = saved.clone();
            if commutative(name) && args.len() == 2 {
                let ok = matches(ctx, operands[1], &args[0], caps)
                    && matches(ctx, operands[0], &args[1], caps);
                if ok {
                    return true;
                }
                *caps = saved;
            }
            false
        }
    }
}
