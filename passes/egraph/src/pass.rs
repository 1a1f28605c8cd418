//! The `simplify-size-expr` pass: rewrites the `size_expr` of every `adstack.alloca` nested in
//! the op it runs on to its simplified form (never a smaller bound), and sets `max_size` when
//! the bound becomes a literal. A `size_expr` that is not a valid `#adstack.size<...>` is an
//! error at its alloca.

use crate::simplify::{simplify, Limits, Simplified, DEFAULT_ITER_LIMIT, DEFAULT_NODE_LIMIT};
use qd_adstack::size_expr::SizeExpr;
use qd_adstack::{ALLOCA_OP, MAX_SIZE, SIZE_EXPR};
use qd_adstack_passes::walk::ops_named;
use qd_ir::{Context, Diagnostic, OpId};
use qd_pass::{OptionDecl, Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::HashMap;

pub const PASS_NAME: &str = "simplify-size-expr";
const DESCRIPTION: &str =
    "Simplify adstack SizeExpr bounds with an e-graph (exact rules, then the sound sub-of-MaxOverRange fusion)";
pub const ITER_LIMIT_OPTION: &str = "iter-limit";
pub const NODE_LIMIT_OPTION: &str = "node-limit";
/// Limits past which an option value is refused (memory and time would be unreasonable).
const MAX_ITER_LIMIT: u64 = 1000;
const MAX_NODE_LIMIT: u64 = 1 << 20;

pub fn simplify_size_expr_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, |opts| {
        let get = |name: &str, max: u64| {
            let n = opts.get_uint(name);
            if n > max {
                Err(format!("{name}={n} is too large (at most {max})"))
            } else {
                Ok(n as usize)
            }
        };
        Ok(Box::new(SimplifySizeExpr::new(Limits {
            iter_limit: get(ITER_LIMIT_OPTION, MAX_ITER_LIMIT)?,
            node_limit: get(NODE_LIMIT_OPTION, MAX_NODE_LIMIT)?,
        })))
    })
    .option(OptionDecl::uint(
        ITER_LIMIT_OPTION,
        DEFAULT_ITER_LIMIT as u64,
        "rewrite iterations per e-graph run",
    ))
    .option(OptionDecl::uint(
        NODE_LIMIT_OPTION,
        DEFAULT_NODE_LIMIT as u64,
        "e-nodes past which an e-graph run stops",
    ))
}

/// The pass, with its cumulative statistics.
#[derive(Default)]
pub struct SimplifySizeExpr {
    limits: Limits,
    /// Each expression simplified so far and what it became. [`simplify`] depends on nothing but
    /// the expression and the limits, and a module's stacks share a few bounds (every kernel of
    /// a module with one loop shape has the same ones): an e-graph run allocates thousands of
    /// times, so running it once per distinct bound rather than once per stack is most of the
    /// pass on a module of many kernels (issue #16 point 1). Keyed by value, not by the
    /// interned attribute, so that it stays right when the pass runs on another context.
    memo: HashMap<SizeExpr, Simplified>,
    simplified: u64,
    nodes_before: u64,
    nodes_after: u64,
    fused: u64,
    limit_hits: u64,
}

impl SimplifySizeExpr {
    pub fn new(limits: Limits) -> Self {
        SimplifySizeExpr {
            limits,
            ..Default::default()
        }
    }

    /// How many distinct bounds the e-graph has simplified.
    pub fn distinct_bounds(&self) -> usize {
        self.memo.len()
    }
}

impl Pass for SimplifySizeExpr {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        let mut bounds = Vec::new();
        let mut errors = Vec::new();
        for a in ops_named(ctx, op, ALLOCA_OP) {
            let Some(attr) = ctx.prop(a, SIZE_EXPR) else {
                continue;
            };
            match SizeExpr::from_attr(ctx, attr) {
                Ok(e) => bounds.push((a, e.clone())),
                Err(m) => errors.push(Diagnostic::error(
                    ctx.loc(a),
                    format!("'{ALLOCA_OP}' op cannot simplify its size_expr: {m}"),
                )),
            }
        }
        if !errors.is_empty() {
            for d in errors {
                ctx.emit(d);
            }
            return Err(PassFailure);
        }
        let mut changed = false;
        for (a, e) in bounds {
            if !self.memo.contains_key(&e) {
                let s = simplify(&e, self.limits);
                self.memo.insert(e.clone(), s);
            }
            let s = &self.memo[&e];
            self.nodes_before += e.len() as u64;
            self.nodes_after += s.expr.len() as u64;
            self.fused += s.fused as u64;
            self.limit_hits += s.limit_hits as u64;
            if s.expr != e {
                self.simplified += 1;
                let attr = s.expr.to_attr(ctx);
                ctx.set_prop(a, SIZE_EXPR, attr);
                changed = true;
            }
            if let Some(c) = s.expr.as_const() {
                let i64t = ctx.i64_type();
                let n = ctx.integer_attr(c.max(0), i64t);
                if ctx.prop(a, MAX_SIZE) != Some(n) {
                    ctx.set_prop(a, MAX_SIZE, n);
                    changed = true;
                }
            }
        }
        Ok(PassOutcome::changed(changed))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-simplified",
                description: "Number of adstack bounds rewritten",
                value: self.simplified,
            },
            Statistic {
                name: "nodes-before",
                description: "SizeExpr nodes before simplification",
                value: self.nodes_before,
            },
            Statistic {
                name: "nodes-after",
                description: "SizeExpr nodes after simplification",
                value: self.nodes_after,
            },
            Statistic {
                name: "num-fused",
                description: "Number of sub-of-MaxOverRange fusions",
                value: self.fused,
            },
            Statistic {
                name: "num-limit-hits",
                description: "Number of e-graph runs stopped by the iteration or node limit",
                value: self.limit_hits,
            },
        ]
    }
}
