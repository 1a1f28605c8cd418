//! The evaluator: saturating i64 arithmetic over live field values and the launch's arguments.
//!
//! Semantics (every evaluator of this project must match them exactly):
//! - `Add`, `Mul`: saturating at `i64::MIN` / `i64::MAX`; `Sub`: `max(a - b, 0)` (saturating);
//!   `Max`, `Min` as usual; reads return the element as i64.
//! - `max(body for v in range(b, e))`: 0 when `e <= b`; otherwise the largest of 0 and `body`
//!   at every `v` in `[b, e)`. When `body` does not depend on `v` it is evaluated once.
//! - `sum(body for v in range(b, e))`: 0 when `e <= b`; otherwise the saturating sum of `body`
//!   at `v = b, b + 1, ..., e - 1`, added in that order. A body that does not depend on `v` is
//!   evaluated once and multiplied by `e - b` (the same value: every partial sum moves one way).
//!   A sum evaluated again with the same `begin` and the same outer variables, over a longer
//!   range (a prefix sum under a max over its end), continues from the previous value: the
//!   result is the same, in linear rather than quadratic work.
//! - `select(a < b, x, y)` (also `<=`, `==`, `!=`): `x` where the comparison holds, else `y`;
//!   only the chosen one is evaluated.
//! - Caps: a range whose body depends on its variable may have at most
//!   [`MAX_RANGE_ITERATIONS`] (2^24) iterations, and one evaluation at most [`MAX_EVAL_STEPS`]
//!   node visits; past either, evaluation stops with an [`EvalError`] that says which (a stack
//!   that cannot be sized must fail the launch, never get a made-up size).
//! - Closed sub-expressions (no free variable) are evaluated once per evaluation.

use super::expr::{var_bit, SizeExpr, MAX_BOUND_VARS};
use super::node::{Node, NodeId};
use std::fmt;

/// The most iterations of one `MaxOverRange` or `SumOverRange` whose body depends on its
/// variable.
pub const MAX_RANGE_ITERATIONS: i64 = 1 << 24;
/// The most node visits of one evaluation.
pub const MAX_EVAL_STEPS: u64 = 1 << 28;

/// What an evaluation reads: the launch's field values, ndarray and scalar arguments. Errors are
/// messages (an index out of bounds, an unknown field, a float element).
pub trait EvalEnv {
    /// The element of integer field `field` (its name without `@`) at `indices`.
    fn field_element(&self, field: &str, indices: &[i64]) -> Result<i64, String>;
    /// Dimension `axis` of the kernel's ndarray argument `arg` (its position among all the
    /// kernel's arguments).
    fn ndarray_shape(&self, arg: u32, axis: u32) -> Result<i64, String>;
    /// The element of the kernel's integer ndarray argument `arg` at `indices`.
    fn ndarray_element(&self, arg: u32, indices: &[i64]) -> Result<i64, String>;
    /// The value of the kernel's integer scalar argument `arg` (a negative value is returned as
    /// it is, as a field element is: `Sub` and the capacity clamp it).
    fn scalar_arg(&self, arg: u32) -> Result<i64, String>;
}

/// Why an expression could not be evaluated.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EvalError {
    /// A range over more than [`MAX_RANGE_ITERATIONS`] values.
    RangeTooLong { var: u32, begin: i64, end: i64 },
    /// More than [`MAX_EVAL_STEPS`] node visits.
    TooMuchWork,
    /// The environment could not give a value: `what` is the read (`@n[]`, `arg0.shape[0]`,
    /// `arg1[7]`), `message` the environment's reason.
    Env { what: String, message: String },
    /// The expression breaks an invariant of [`SizeExpr::validate`].
    Invalid(String),
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::RangeTooLong { var, begin, end } => write!(
                f,
                "the range of v{var}, range({begin}, {end}), needs {} iterations, more than the \
                 cap of {MAX_RANGE_ITERATIONS}",
                (*end as i128) - (*begin as i128)
            ),
            EvalError::TooMuchWork => write!(
                f,
                "evaluating the size expression takes more than {MAX_EVAL_STEPS} steps"
            ),
            EvalError::Env { what, message } => write!(f, "cannot read {what}: {message}"),
            EvalError::Invalid(m) => write!(f, "invalid size expression: {m}"),
        }
    }
}

impl std::error::Error for EvalError {}

impl SizeExpr {
    /// The value under `env`.
    pub fn eval(&self, env: &dyn EvalEnv) -> Result<i64, EvalError> {
        self.validate().map_err(EvalError::Invalid)?;
        self.eval_within(env, MAX_EVAL_STEPS)
    }

    fn eval_within(&self, env: &dyn EvalEnv, max_steps: u64) -> Result<i64, EvalError> {
        let mut ev = Evaluator {
            expr: self,
            env,
            free: self.free_var_sets(),
            memo: vec![None; self.len()],
            sums: vec![None; self.len()],
            vars: [0; MAX_BOUND_VARS as usize],
            steps: 0,
            max_steps,
        };
        ev.node(self.root())
    }

    /// The value of an expression that reads nothing (no field, no ndarray), when it takes at
    /// most `max_steps` node visits to compute: such an expression is a literal in disguise.
    pub fn eval_literal(&self, max_steps: u64) -> Option<i64> {
        let reads = self.nodes().iter().any(|n| {
            matches!(
                n,
                Node::FieldLoad { .. }
                    | Node::NdarrayShape { .. }
                    | Node::NdarrayRead { .. }
                    | Node::ScalarArg { .. }
            )
        });
        if reads || self.validate().is_err() {
            return None;
        }
        self.eval_within(&NoReads, max_steps).ok()
    }

    /// The capacity the value asks for: the value, or 0 when it is negative.
    pub fn eval_capacity(&self, env: &dyn EvalEnv) -> Result<u64, EvalError> {
        self.eval(env).map(|v| v.max(0) as u64)
    }
}

struct Evaluator<'a> {
    expr: &'a SizeExpr,
    env: &'a dyn EvalEnv,
    free: Vec<u64>,
    memo: Vec<Option<i64>>,
    /// Per `SumOverRange` node: its last evaluation, to continue a growing prefix sum.
    sums: Vec<Option<PartialSum>>,
    vars: [i64; MAX_BOUND_VARS as usize],
    steps: u64,
    max_steps: u64,
}

/// A sum's last value: over `[begin, end)`, with the outer variables its body reads at `outer`.
#[derive(Clone)]
struct PartialSum {
    begin: i64,
    end: i64,
    outer: Vec<i64>,
    value: i64,
}

/// The environment of an expression that reads nothing.
struct NoReads;

impl EvalEnv for NoReads {
    fn field_element(&self, _: &str, _: &[i64]) -> Result<i64, String> {
        Err("no fields".into())
    }
    fn ndarray_shape(&self, _: u32, _: u32) -> Result<i64, String> {
        Err("no ndarrays".into())
    }
    fn ndarray_element(&self, _: u32, _: &[i64]) -> Result<i64, String> {
        Err("no ndarrays".into())
    }
    fn scalar_arg(&self, _: u32) -> Result<i64, String> {
        Err("no arguments".into())
    }
}

impl Evaluator<'_> {
    fn node(&mut self, id: NodeId) -> Result<i64, EvalError> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(EvalError::TooMuchWork);
        }
        let closed = self.free[id.index()] == 0;
        if closed {
            if let Some(v) = self.memo[id.index()] {
                return Ok(v);
            }
        }
        let v = self.compute(id)?;
        if closed {
            self.memo[id.index()] = Some(v);
        }
        Ok(v)
    }

    fn indices(&mut self, ids: &[NodeId]) -> Result<Vec<i64>, EvalError> {
        ids.iter().map(|&i| self.node(i)).collect()
    }

    fn compute(&mut self, id: NodeId) -> Result<i64, EvalError> {
        let expr = self.expr;
        match expr.node(id) {
            Node::Const(c) => Ok(*c),
            Node::FieldLoad { field, indices, .. } => {
                let idx = self.indices(indices)?;
                self.env
                    .field_element(field, &idx)
                    .map_err(|message| EvalError::Env {
                        what: format!("@{field}[{}]", join(&idx)),
                        message,
                    })
            }
            Node::NdarrayShape { arg, axis } => {
                self.env
                    .ndarray_shape(*arg, *axis)
                    .map_err(|message| EvalError::Env {
                        what: format!("arg{arg}.shape[{axis}]"),
                        message,
                    })
            }
            Node::ScalarArg { arg, .. } => {
                self.env.scalar_arg(*arg).map_err(|message| EvalError::Env {
                    what: format!("arg{arg}"),
                    message,
                })
            }
            Node::NdarrayRead { arg, indices, .. } => {
                let idx = self.indices(indices)?;
                self.env
                    .ndarray_element(*arg, &idx)
                    .map_err(|message| EvalError::Env {
                        what: format!("arg{arg}[{}]", join(&idx)),
                        message,
                    })
            }
            Node::BoundVar(v) => Ok(self.vars[*v as usize]),
            Node::Binary(op, a, b) => {
                let x = self.node(*a)?;
                let y = self.node(*b)?;
                Ok(op.apply(x, y))
            }
            Node::MaxOverRange {
                var,
                begin,
                end,
                body,
            } => {
                let b = self.node(*begin)?;
                let e = self.node(*end)?;
                if e <= b {
                    return Ok(0);
                }
                if self.free[body.index()] & var_bit(*var) == 0 {
                    return Ok(self.node(*body)?.max(0));
                }
                if (e as i128) - (b as i128) > MAX_RANGE_ITERATIONS as i128 {
                    return Err(EvalError::RangeTooLong {
                        var: *var,
                        begin: b,
                        end: e,
                    });
                }
                let slot = *var as usize;
                let saved = self.vars[slot];
                let mut best = 0i64;
                let mut result = Ok(());
                for i in b..e {
                    self.vars[slot] = i;
                    match self.node(*body) {
                        Ok(v) => best = best.max(v),
                        Err(err) => {
                            result = Err(err);
                            break;
                        }
                    }
                }
                self.vars[slot] = saved;
                result.map(|()| best)
            }
            Node::SumOverRange {
                var,
                begin,
                end,
                body,
            } => self.sum(id, *var, *begin, *end, *body),
            Node::Select {
                pred,
                lhs,
                rhs,
                then,
                other,
            } => {
                let (a, b) = (self.node(*lhs)?, self.node(*rhs)?);
                self.node(if pred.holds(a, b) { *then } else { *other })
            }
        }
    }

    fn sum(
        &mut self,
        id: NodeId,
        var: u32,
        begin: NodeId,
        end: NodeId,
        body: NodeId,
    ) -> Result<i64, EvalError> {
        let b = self.node(begin)?;
        let e = self.node(end)?;
        if e <= b {
            return Ok(0);
        }
        let n = ((e as i128) - (b as i128)).min(i64::MAX as i128) as i64;
        let outer_mask = self.free[body.index()] & !var_bit(var);
        if self.free[body.index()] & var_bit(var) == 0 {
            return Ok(self.node(body)?.saturating_mul(n));
        }
        if n > MAX_RANGE_ITERATIONS {
            return Err(EvalError::RangeTooLong {
                var,
                begin: b,
                end: e,
            });
        }
        let outer: Vec<i64> = (0..MAX_BOUND_VARS)
            .filter(|&v| outer_mask & var_bit(v) != 0)
            .map(|v| self.vars[v as usize])
            .collect();
        // Continue the last evaluation when this one extends it.
        let (mut total, from) = match &self.sums[id.index()] {
            Some(p) if p.begin == b && p.end <= e && p.outer == outer => (p.value, p.end),
            _ => (0, b),
        };
        let slot = var as usize;
        let saved = self.vars[slot];
        let mut result = Ok(());
        for i in from..e {
            self.vars[slot] = i;
            match self.node(body) {
                Ok(v) => total = total.saturating_add(v),
                Err(err) => {
                    result = Err(err);
                    break;
                }
            }
        }
        self.vars[slot] = saved;
        result?;
        self.sums[id.index()] = Some(PartialSum {
            begin: b,
            end: e,
            outer,
            value: total,
        });
        Ok(total)
    }
}

fn join(idx: &[i64]) -> String {
    idx.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
