//! SizeExpr: a symbolic upper bound on an adstack's depth, captured at compile time by
//! `determine-ad-stack-size` and evaluated before every launch against the launch's field values
//! and the launch's arguments (ndarrays and integer scalars).
//!
//! # Grammar
//!
//! | node | text | value |
//! |---|---|---|
//! | `Const(c)` | `7`, `-3` | `c` |
//! | `FieldLoad(f, idx, T)` | `@n[]:i32`, `@starts[v0 + 1]:i32` | element `idx` of integer field `f` |
//! | `NdarrayShape(a, k)` | `arg0.shape[1]` | dimension `k` of the kernel's ndarray argument `a` |
//! | `NdarrayRead(a, idx, T)` | `arg2[v0, 3]:i64` | element `idx` of integer ndarray argument `a` |
//! | `ScalarArg(a, T)` | `arg1:i32` | the value of integer scalar argument `a` at the launch |
//! | `BoundVar(v)` | `v0` | the variable of the enclosing `MaxOverRange` or `SumOverRange` over `v` |
//! | `Add`, `Mul` | `a + b`, `a * b` | saturating i64 |
//! | `Sub` | `a - b` | `max(a - b, 0)` |
//! | `Max`, `Min` | `max(a, b)`, `min(a, b)` | |
//! | `Div` | `a / 2` | `a / c` rounded up, `c` a positive literal; a saturated `a` stays saturated |
//! | `MaxOverRange(v, b, e, body)` | `max(body for v0 in range(b, e))` | `max(0, body(v) for v in [b, e))`; 0 when empty |
//! | `Select(p, a, b, x, y)` | `select(a < b, x, y)` (`<`, `<=`, `==`, `!=`) | `x` where `a p b` holds, else `y` |
//! | `SumOverRange(v, b, e, body)` | `sum(body for v0 in range(b, e))` | `body(b) + ... + body(e - 1)`, saturating; 0 when empty |
//!
//! Arguments are numbered by their position in the kernel's argument list (a gradient kernel
//! keeps its primal's arguments first, so the numbers carry over). An index is any expression
//! (a literal and a bound variable are the common cases). `T` is the element type
//! (`i8 i16 i32 i64 ui8 ui16 ui32`): it bounds the read's interval. Every `vN` must be bound by
//! an enclosing range node, which may not rebind a variable already in scope. The full
//! syntax is in [`syntax`]; the attribute is `#adstack.size<EXPR>`.
//!
//! # Representations
//!
//! - [`SizeExpr`] is the flat post-order node list, root last, operands pointing backwards,
//!   hash-consed and canonical: equal expressions have equal lists ([`expr`]).
//! - Text ([`syntax`]) and binary ([`serialize`]) both round-trip it exactly.
//! - [`SizeExpr::eval`] evaluates with saturating i64 arithmetic against an [`EvalEnv`], with a
//!   cap of [`MAX_RANGE_ITERATIONS`] iterations per range ([`eval`]).
//! - [`SizeExpr::intervals`] gives every node an interval `[lo, hi]` ([`interval`]).
//!
//! # Soundness
//!
//! A stack's bound must never be below the number of entries the stack holds at any point. The
//! capture (in `passes/adstack`) bounds integer SSA values from above *and* below: a loop index
//! is a bound variable (exact) under a `MaxOverRange` over a superset of its range, a literal or
//! a read at exact indices is exact, a local with several stores is the max (min) of its stores,
//! and `x - y` is bounded above by `hi(x) - lo(y)`, never `hi(x) - hi(y)`: the upstream system
//! makes that mistake and sizes `for j in range(6): for _ in range(6 - j)` as if the inner loop
//! never ran. The trip count of `range(b, e)` is `Sub(hi(e), lo(b))`, and a stack's bound is
//! the sum over its pushes of the products of the trip counts of the loops between the push and
//! the alloca (a loop around the alloca does not multiply: executing the alloca empties the
//! stack), each maximised over the enclosing loops' variables. Where an inner loop's trip count
//! depends on an outer loop's index, the outer loop contributes the sum over its iterations
//! (`SumOverRange`) instead of its trip count times the largest iteration. Every step takes a max over a
//! superset of what the kernel can do, so the evaluated value is an upper bound. The intervals
//! obey the same rule (`Sub` uses the subtrahend's lower bound), and folding only rewrites
//! what the intervals prove equal.

pub mod eval;
pub mod expr;
mod fold;
pub mod interval;
pub mod node;
pub mod serialize;
pub mod syntax;

pub use eval::{EvalEnv, EvalError, MAX_EVAL_STEPS, MAX_RANGE_ITERATIONS};
pub use expr::{SizeExpr, MAX_BOUND_VARS, MAX_DEPTH, MAX_INDICES, MAX_NODES, MAX_TREE_NODES};
pub use interval::Interval;
pub use node::{BinOp, CmpPred, IntTy, Node, NodeId};
pub use syntax::{parse_attr, parse_attr_body, ParseError};

#[cfg(test)]
mod attr_tests;
#[cfg(test)]
mod select_tests;
#[cfg(test)]
mod sum_tests;
#[cfg(test)]
mod tests;
