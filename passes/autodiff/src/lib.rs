//! Reverse-mode automatic differentiation of qd kernels: the `reverse-mode-ad` pass.
//!
//! For each kernel `@k` (those named by `reverse-mode-ad{kernels=a,b}`, else every kernel with
//! an `ad.reverse @k` declaration or that reads and writes differentiable data), the pass adds a
//! gradient kernel `@k_grad(args..., adjoints...)` (one adjoint ndarray per active ndarray
//! argument, see `qd_ad::reverse`) and records it as `ad.reverse @k -> @k_grad`. The gradient
//! kernel reads the adjoints of the outputs (`ad.load_field_adjoint` for fields; for an ndarray
//! written by `qd.ndarray_store` or `qd.ndarray_atomic_add/sub`, its adjoint ndarray argument;
//! the user seeds them before launching it) and accumulates the adjoints of the input fields
//! and ndarrays; it never writes primal data.
//!
//! # Structure of a gradient kernel
//! A kernel's body is a sequence of parallel loops (`range_for`/`struct_for` directly in the
//! body) and runs of loose statements. The gradient kernel first replays every loose statement
//! (a prologue: they define the values the loops use), then handles the groups last to first:
//! a parallel loop becomes the same loop whose body is the *forward replay* of the body followed
//! by its *reverse*; a run of loose statements is reversed at the kernel's top level.
//!
//! - Forward replay (`forward`): the original ops, without their primal writes, with stacked
//!   locals as stacks, recording trip counts and jumps, and saving the values the reverse pass
//!   reads back (`tape`).
//! - Reverse (`reverse`, `control`): ops last to first; each op's adjoint comes from its
//!   derivative rule (arith/math: `qd_ir::interfaces::ReverseRule`, defined next to each op in
//!   its dialect crate, so a new differentiable op brings its own rule) or from the memory rules
//!   of fields, ndarrays and locals. Loops run backwards over the recorded or recomputed trip
//!   count; ifs take the same branch as forward.
//! - Activity (`activity`): only values that depend on a differentiable input and influence a
//!   differentiable output get adjoints; rules are told which operands are active.
//!
//! # What gets an adstack
//! One adstack is made per (see `stacks` and `tape`):
//! - *stacked local*: an active scalar float local that is a loop-carried recurrence of a serial
//!   loop; its per-store (primal, adjoint) entries replace the local. Pure accumulators
//!   (`s = s + e`, `s = s - e`: the loaded value only feeds an add/sub stored back into it) need
//!   no stack, whatever `e` is;
//! - *taped value*: a value defined inside a serial loop that the reverse pass needs (a primal a
//!   derivative rule reads, an index, a branch condition, a loop bound) and can neither use
//!   directly nor recompute (recomputable: pure ops, induction variables, ndarray shapes, reads
//!   of fields and ndarrays, values defined outside the loop) nor read from a stacked local's top
//!   entry or re-read from a restored local aggregate. Integer and `i1` values get stacks
//!   without adjoints;
//! - *saved scalars* of a local aggregate (`element`): one stack per aggregate and element type,
//!   for the scalars its stores overwrite inside serial loops (`aggregates=ssa`: one stack per
//!   scalar of each loop-carried aggregate, see `aggregate_ssa`);
//! - the trip count of a loop that has no fixed trip count (`qd.while`, loops that break), when
//!   it sits inside another serial loop (elsewhere it is a plain value); the jump number of each
//!   iteration of a loop with `qd.continue` whose later ops need guards; the jump that ended the
//!   last iteration of a breaking loop inside another serial loop.
//!
//! So every loop-carried recurrence of a float local (other than an accumulator) and every
//! loop-carried value whose primal the reverse pass needs is kept on an adstack; a value only
//! used linearly with constant coefficients outside such a recurrence (`%m = mulf %a, %c` on a
//! value the loop does not carry) is not. Examples (see the tests): `dynamic_loop` 1 stack (v,
//! n + 2 entries: its zero, x_i, one per iteration), `ndarray_bound` 1 (v), `triangular` 1 (v),
//! `local_array` 1 (the element each iteration overwrites), `control_flow` 1 (v before each
//! update of the t loop, shared by both branches).
//!
//! # Local arrays and structs ([element-ad], Slang issue #4197)
//! The pass first runs `element-access-ad` on the kernel (also a pass of its own): every load and
//! store through `qd.elem_ptr` / `qd.member_ptr` becomes `ad.load_element` /
//! `ad.store_element` with the whole path. With `aggregates=element` (the default, `element`)
//! they stay addressed loads and stores: the adjoint of an aggregate is a local of the same type
//! (zeroed once per thread) whose slots the element accesses' reverses address directly; a store
//! that may overwrite what the reverse pass reads back saves the one scalar it overwrites (on the
//! aggregate's adstack of that element type) and writes it back in reverse, so loaded elements
//! are re-read from the restored aggregate rather than saved (`needs` says which loads the
//! reverse pass reads back). An aggregate is never one loop-carried value. With
//! `aggregates=ssa` (`aggregate_ssa`) each loop-carried aggregate is one value, saved whole at
//! every store on one stack per scalar, and every access selects or masks over all its scalars:
//! the naive treatment, correct and kept for comparison.

//! # Semantics worth knowing
//! - An integer cast stops the gradient: casts from or to integers (`sitofp`, `fptosi`,
//!   `bitcast`, ...) have no derivative rule; `extf`/`truncf` pass the adjoint through.
//! - `floor`, `ceil`, `trunc`, `round` and `roundeven` have a zero derivative;
//!   `minimumf`/`maximumf` and `minnumf`/`maxnumf` give a tie to the left operand (and the num
//!   forms give a NaN operand nothing); `absf` and `copysign` (in its first operand) have
//!   derivative 0 at 0; classifications (`isnan`, ...) and integer ops have no derivative.
//! - A `qd.store` to a needs_grad field overwrites: its reverse reads the element's adjoint into
//!   the stored value and then zeroes it (`ad.store_field_adjoint 0`), so what the element held
//!   before gets no gradient, even from other kernels launched before; `qd.atomic_add` leaves the
//!   adjoint in place. After the gradient kernel, the adjoints of stored output elements are 0.
//! - The access rule (`access_rule`, docs/access-rule.md): the gradient kernel replays reads
//!   from memory as the forward kernel left it, so a kernel is refused exactly when a write may
//!   come after a read of the same element whose value the gradient needs (in the same thread,
//!   or in a later task), or when a write and a read of one element race between threads of one
//!   parallel loop; the error is at the write and names the read. Everything else is
//!   differentiated: reads after writes (also across tasks: the adjoint flows from the later
//!   task's reverse into the earlier one's), repeated stores (the last one wins: the reverse of
//!   a `qd.store` zeroes the element's adjoint, so earlier writes get none), in-place updates
//!   whose read value is not needed (`x[i] = 2 x[i]`) or is read after its write
//!   (`x[k, i+1] = sin(x[k, i])`). Same-element questions go to `dependence` (affine indices
//!   over loop induction variables, with loop order, constant bounds and thread identity;
//!   anything else may alias). Distinct fields and distinct ndarray parameters are distinct
//!   memory. The other rules (used atomic results, writes in while conditions, kernel-level
//!   locals in parallel loops, unknown region ops, existing ad ops) are `global_rules`.
//!
//! Files: `pass` (the pass, options, kernel selection), `access_rule`, `dependence`,
//! `global_rules`, `activity`, `stacks`,
//! `structure` (groups, jumps), `emitter` (state, adjoint storage), `forward`, `tape`, `reverse`,
//! `control`; `element_access` (the `element-access-ad` pass), `needs`, `element`,
//! `aggregate_ssa`.

mod access_rule;
mod activity;
mod aggregate_ssa;
mod cleanup;
mod control;
mod dependence;
mod element;
mod element_access;
mod emitter;
mod field_set;
mod forward;
mod global_rules;
mod handle_map;
mod handle_set;
mod needs;
mod pass;
mod reverse;
mod stacks;
mod structure;
mod tape;

#[cfg(test)]
mod tests;

pub use element::Aggregates;
pub use element_access::{
    element_access_ad_pass_info, rewrite_element_accesses, ElementAccessAdPass, ElementRewrite,
    ELEMENT_ACCESS_PASS,
};
pub use pass::{
    reverse_mode_ad, reverse_mode_ad_pass_info, Options, Report, ReverseModeAdPass, PASS_NAME,
};
