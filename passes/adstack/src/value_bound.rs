//! Bounds on integer SSA values, from above ([`Dir::Hi`]) or from below ([`Dir::Lo`]), as
//! [`Diff`]s over the SizeExpr grammar. A value is bounded *at* a point: the induction variables
//! of the loops around that point are exact bound variables (a `MaxOverRange` over the loop's
//! range is put around them later); any other value is bounded over every execution.
//!
//! - literals, reads at exact indices and ndarray shapes are exact;
//! - `+`, `-` (the subtrahend bounded the other way), `*` (by a literal, or of exact or
//!   non-negative factors), `max`, `min`, `select`, shifts and divisions by literals, `rem` by a
//!   literal, and integer casts (assuming, as the kernel does, that they do not wrap);
//! - a read at an index that is not exact is bounded above by the max over the whole axis;
//! - a local (`qd.alloca`) or a stack (`adstack.load_top`) is bounded by its stores (pushes),
//!   each maximised (minimised) over the loops between the store and the local's allocation,
//!   and by 0 unless the first access after the allocation is a store.
//!
//! Anything else is outside the grammar: an [`Unbounded`] names the value.

use crate::carried;
use crate::diff::Diff;
use crate::locals::{self, Location};
use crate::loops::{
    enclosing_loop, enclosing_loops, holds, induction_vars, is_loop, loops_inside,
    num_induction_vars, var_of, MAX_LOOP_VARS,
};
use qd_adstack::size_expr::{IntTy, Interval, Node, SizeExpr, MAX_BOUND_VARS};
use qd_adstack::{ALLOCA_OP as STACK_ALLOCA, LOAD_TOP_OP, PUSH_OP};
use qd_arith::names as ar;
use qd_frontend::{
    FieldOp, KernelOp, NdarrayType, ATOMIC_ADD_OP, ATOMIC_MAX_OP, ATOMIC_MIN_OP, KERNEL_OP,
    LOAD_OP, LOCAL_LOAD_OP, NDARRAY_LOAD_OP, NDARRAY_SHAPE_OP, NDARRAY_STORE_OP, RANGE_FOR_OP,
    STORE_OP, STRUCT_FOR_OP,
};
use qd_frontend::{
    NDARRAY_ATOMIC_ADD_OP, NDARRAY_ATOMIC_MAX_OP, NDARRAY_ATOMIC_MIN_OP, NDARRAY_ATOMIC_SUB_OP,
};
use qd_ir::{AttrData, Context, OpId, TypeData, Value, ValueDef};
use std::collections::{HashMap, HashSet};

/// Which side of a value a bound is for.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Dir {
    Hi,
    Lo,
}

impl Dir {
    pub fn flip(self) -> Dir {
        match self {
            Dir::Hi => Dir::Lo,
            Dir::Lo => Dir::Hi,
        }
    }
    fn word(self) -> &'static str {
        match self {
            Dir::Hi => "above",
            Dir::Lo => "below",
        }
    }
}

/// Why a stack could not be sized: the value (or op) at fault and the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Unbounded {
    pub value: Option<Value>,
    pub op: Option<OpId>,
    pub reason: String,
}

impl Unbounded {
    pub fn value(v: Value, reason: impl Into<String>) -> Unbounded {
        Unbounded {
            value: Some(v),
            op: None,
            reason: reason.into(),
        }
    }
    pub fn op(op: OpId, reason: impl Into<String>) -> Unbounded {
        Unbounded {
            value: None,
            op: Some(op),
            reason: reason.into(),
        }
    }
}

pub(crate) type BoundResult = Result<Diff, Unbounded>;

/// Why a value that its own bound needs cannot be bounded.
const SELF_DEPENDENT: &str =
    "it depends on itself (a value updated in a loop bounds nothing statically)";

/// How deep bounding may recurse through the use-def chain.
const MAX_CHAIN: usize = 128;

/// What bounding needs of the whole kernel: its arguments and what it writes (a field or an
/// ndarray argument the kernel writes does not bound anything by its value at launch). Gathered
/// once per kernel (see [`crate::index::SizingIndex`]).
#[derive(Default)]
pub(crate) struct KernelFacts {
    kernel_args: Vec<Value>,
    written_fields: HashSet<String>,
    written_args: HashSet<usize>,
    /// The `qd.field` (None: none) each field name the kernel's ops use resolves to (see
    /// `kernel_fields`): sizing asks per load and loop, and a lookup scans the module.
    fields: HashMap<String, Option<FieldOp>>,
}

impl KernelFacts {
    /// The facts of `kernel` (none outside a kernel: no ndarray arguments, no writes to rule
    /// out).
    pub fn of(ctx: &Context, kernel: Option<OpId>) -> KernelFacts {
        match kernel {
            Some(k) => KernelFacts::of_walked(ctx, k, &ctx.walk_pre_order(k)),
            None => KernelFacts::default(),
        }
    }

    /// The facts of kernel `k`, whose ops in pre-order are `ops` (the caller has walked it).
    pub fn of_walked(ctx: &Context, k: OpId, ops: &[OpId]) -> KernelFacts {
        let mut f = KernelFacts {
            kernel_args: KernelOp(k).args(ctx),
            ..KernelFacts::default()
        };
        let mut names = HashSet::new();
        for &o in ops {
            if let Some(name) = symbol(ctx, o, "field") {
                names.insert(name);
            }
            match ctx.name(o) {
                STORE_OP | ATOMIC_ADD_OP | ATOMIC_MIN_OP | ATOMIC_MAX_OP => {
                    if let Some(name) = symbol(ctx, o, "field") {
                        f.written_fields.insert(name);
                    }
                }
                NDARRAY_STORE_OP
                | NDARRAY_ATOMIC_ADD_OP
                | NDARRAY_ATOMIC_SUB_OP
                | NDARRAY_ATOMIC_MIN_OP
                | NDARRAY_ATOMIC_MAX_OP
                    if ctx.num_operands(o) > 1 =>
                {
                    if let Some(i) = f.arg_index(ctx.operand(o, 1)) {
                        f.written_args.insert(i);
                    }
                }
                _ => {}
            }
        }
        if let Some(fields) =
            crate::kernel_fields::resolve(ctx, k, ops, names.into_iter().collect())
        {
            f.fields = fields;
        }
        f
    }

    fn arg_index(&self, v: Value) -> Option<usize> {
        self.kernel_args.iter().position(|&a| a == v)
    }

    /// The field named `name` as `qd_frontend::lookup_field` resolves it from `op` of the
    /// kernel (a scan only for a name the kernel's ops do not use, or a kernel holding a table).
    fn field(&self, ctx: &Context, op: OpId, name: &str) -> Option<FieldOp> {
        match self.fields.get(name) {
            Some(&f) => f,
            None => qd_frontend::lookup_field(ctx, op, name),
        }
    }
}

/// Bounds values of one kernel (memoised per value, side and point).
pub(crate) struct Bounder<'a> {
    pub ctx: &'a Context,
    kernel: &'a KernelFacts,
    memo: HashMap<(Value, Dir, Option<OpId>), BoundResult>,
    on_path: HashSet<(Value, Dir)>,
    /// The range of each loop's induction variables, once computed.
    ranges: HashMap<(OpId, usize), Interval>,
}

impl<'a> Bounder<'a> {
    /// A bounder for the kernel of `kernel`'s facts.
    pub fn new(ctx: &'a Context, kernel: &'a KernelFacts) -> Bounder<'a> {
        Bounder {
            ctx,
            kernel,
            memo: HashMap::new(),
            on_path: HashSet::new(),
            ranges: HashMap::new(),
        }
    }

    fn arg_index(&self, v: Value) -> Option<usize> {
        self.kernel.arg_index(v)
    }

    /// A bound on `v` from side `dir`, valid at any point inside loop `at` (None: outside loops).
    pub fn bound(&mut self, v: Value, dir: Dir, at: Option<OpId>) -> BoundResult {
        let key = (v, dir, at);
        if let Some(r) = self.memo.get(&key) {
            return r.clone();
        }
        if self.on_path.len() > MAX_CHAIN {
            return Err(Unbounded::value(
                v,
                "the chain of values that defines it is too long",
            ));
        }
        if !self.on_path.insert((v, dir)) {
            return Err(Unbounded::value(v, SELF_DEPENDENT));
        }
        let r = self.compute(v, dir, at);
        self.on_path.remove(&(v, dir));
        self.memo.insert(key, r.clone());
        r
    }

    /// Both sides when they agree: the value itself.
    pub fn exact(&mut self, v: Value, at: Option<OpId>) -> Option<Diff> {
        let hi = self.bound(v, Dir::Hi, at).ok()?;
        let lo = self.bound(v, Dir::Lo, at).ok()?;
        (hi == lo).then_some(hi)
    }

    /// The bound variable of a loop's induction variable `k` and its range `[begin, end)` as
    /// expressions (`begin` no larger, `end` no smaller than the loop's at any execution).
    pub fn loop_range(
        &mut self,
        l: OpId,
        k: usize,
    ) -> Result<(u32, SizeExpr, SizeExpr), Unbounded> {
        let ctx = self.ctx;
        let var = var_of(ctx, l, k);
        if var >= MAX_LOOP_VARS {
            return Err(Unbounded::op(
                l,
                format!(
                    "loops nest deeper than the {MAX_LOOP_VARS} bound variables sizing can use"
                ),
            ));
        }
        match ctx.name(l) {
            STRUCT_FOR_OP => {
                let shape = struct_for_shape(ctx, self.kernel, l)
                    .ok_or_else(|| Unbounded::op(l, "its field has no static shape"))?;
                let n = shape.get(k).copied().unwrap_or(0);
                Ok((var, SizeExpr::constant(0), SizeExpr::constant(n)))
            }
            _ => {
                let at = enclosing_loop(ctx, l);
                let (lower, upper) = (ctx.operand(l, 0), ctx.operand(l, 1));
                let lo = self.bound(lower, Dir::Lo, at)?;
                let hi = self.bound(upper, Dir::Hi, at)?;
                let vars = self.var_ranges(at);
                let begin = lo.exact_expr(&vars).ok_or_else(|| {
                    Unbounded::value(lower, "its lower bound may be too far below 0 to write")
                })?;
                Ok((var, begin, hi.upper_expr()))
            }
        }
    }

    /// The values each loop variable in scope inside loop `at` can take (indexed by variable;
    /// any value where the loop's range cannot be bounded).
    pub fn var_ranges(&mut self, at: Option<OpId>) -> Vec<Interval> {
        let ctx = self.ctx;
        let mut out = vec![Interval::FULL; MAX_BOUND_VARS as usize];
        let Some(a) = at else {
            return out;
        };
        let mut chain = enclosing_loops(ctx, a);
        if is_loop(ctx, a) {
            chain.insert(0, a);
        }
        for l in chain.into_iter().rev() {
            for k in 0..num_induction_vars(ctx, l) {
                let iv = match self.ranges.get(&(l, k)) {
                    Some(&iv) => iv,
                    None => {
                        let iv = match self.loop_range(l, k) {
                            Ok((_, b, e)) => {
                                let f =
                                    |v: u32| out.get(v as usize).copied().unwrap_or(Interval::FULL);
                                let (b, e) = (b.interval_with(&f), e.interval_with(&f));
                                Interval::new(b.lo, e.hi.saturating_sub(1).max(b.lo))
                            }
                            Err(_) => Interval::FULL,
                        };
                        self.ranges.insert((l, k), iv);
                        iv
                    }
                };
                if let Some(slot) = out.get_mut(var_of(ctx, l, k) as usize) {
                    *slot = iv;
                }
            }
        }
        out
    }

    /// An upper bound on the trip count of a `range_for` or `struct_for`.
    pub fn trip_count(&mut self, l: OpId) -> Result<SizeExpr, Unbounded> {
        let ctx = self.ctx;
        if ctx.name(l) == STRUCT_FOR_OP {
            let shape = struct_for_shape(ctx, self.kernel, l)
                .ok_or_else(|| Unbounded::op(l, "its field has no static shape"))?;
            let n = shape.iter().fold(1i64, |a, &s| a.saturating_mul(s.max(0)));
            return Ok(SizeExpr::constant(n));
        }
        let at = enclosing_loop(ctx, l);
        let lo = self.bound(ctx.operand(l, 0), Dir::Lo, at)?;
        let hi = self.bound(ctx.operand(l, 1), Dir::Hi, at)?;
        Ok(crate::diff::trip_count(&lo, &hi))
    }

    fn compute(&mut self, v: Value, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let ty = ctx.value_type(v);
        if !matches!(
            ctx.type_data(ty),
            TypeData::Integer { .. } | TypeData::Index
        ) {
            return Err(Unbounded::value(v, "it is not an integer"));
        }
        let op = match ctx.value_def(v) {
            ValueDef::BlockArg { block, index } => {
                let owner = ctx.block_parent_op(block);
                return match owner {
                    Some(l)
                        if matches!(ctx.name(l), RANGE_FOR_OP | STRUCT_FOR_OP)
                            && induction_vars(ctx, l).get(index as usize) == Some(&v) =>
                    {
                        if at.is_some_and(|a| a == l || holds(ctx, l, a)) {
                            let var = var_of(ctx, l, index as usize);
                            if var >= MAX_LOOP_VARS {
                                return Err(Unbounded::value(v, "loops nest too deep"));
                            }
                            Ok(Diff::of(SizeExpr::bound_var(var)))
                        } else {
                            Err(Unbounded::value(v, "it is used outside its loop"))
                        }
                    }
                    // A scalar argument is fixed for the launch: the leaf is exact both ways.
                    Some(k) if ctx.name(k) == KERNEL_OP => IntTy::from_type(ctx, ty)
                        .map(|t| Diff::of(SizeExpr::scalar_arg(index, t)))
                        .ok_or_else(|| {
                            Unbounded::value(v, "the argument's type is not in the grammar")
                        }),
                    _ => Err(Unbounded::value(v, "it is a block argument")),
                };
            }
            ValueDef::OpResult { op, .. } => op,
        };
        match ctx.name(op) {
            ar::CONSTANT => const_of(ctx, v)
                .map(Diff::constant)
                .ok_or_else(|| Unbounded::value(v, "its constant is not an integer")),
            ar::EXTSI | ar::TRUNCI | ar::INDEX_CAST => self.bound(ctx.operand(op, 0), dir, at),
            ar::EXTUI => self.extui(op, dir, at),
            ar::ADDI => {
                let a = self.bound(ctx.operand(op, 0), dir, at)?;
                let b = self.bound(ctx.operand(op, 1), dir, at)?;
                Ok(a.add(&b))
            }
            ar::SUBI => {
                let a = self.bound(ctx.operand(op, 0), dir, at)?;
                let b = self.bound(ctx.operand(op, 1), dir.flip(), at)?;
                Ok(a.sub(&b))
            }
            ar::MULI => self.muli(op, dir, at),
            ar::MAXSI | ar::MINSI => {
                let a = self.bound(ctx.operand(op, 0), dir, at)?;
                let b = self.bound(ctx.operand(op, 1), dir, at)?;
                Ok(if ctx.name(op) == ar::MAXSI {
                    a.max(&b)
                } else {
                    a.min(&b)
                })
            }
            ar::SELECT => self.select(op, dir, at),
            ar::SHLI => {
                let k = self.literal_rhs(op, v, 0, 62)?;
                Ok(self.bound(ctx.operand(op, 0), dir, at)?.scale(1 << k))
            }
            ar::SHRSI | ar::SHRUI | ar::DIVSI | ar::DIVUI => self.shrink(op, v, dir, at),
            ar::REMSI | ar::REMUI => self.rem(op, v, dir, at),
            LOAD_OP => self.field_load(op, v, dir, at),
            NDARRAY_LOAD_OP => self.ndarray_load(op, v, dir, at),
            NDARRAY_SHAPE_OP => {
                let arg = self.ndarray_arg(op, ctx.operand(op, 0))?;
                let axis = qd_frontend::NdarrayShapeOp(op).axis(ctx) as u32;
                Ok(Diff::of(SizeExpr::ndarray_shape(arg as u32, axis)))
            }
            LOCAL_LOAD_OP | LOAD_TOP_OP | qd_ad::LOAD_ELEMENT_OP => self.memory(op, dir, None),
            name => Err(Unbounded::value(
                v,
                format!("'{name}' is not in the SizeExpr grammar"),
            )),
        }
    }

    /// The literal right operand of a shift or division, within `[min, max]`.
    fn literal_rhs(&self, op: OpId, v: Value, min: i64, max: i64) -> Result<i64, Unbounded> {
        let ctx = self.ctx;
        match const_of(ctx, ctx.operand(op, 1)) {
            Some(k) if (min..=max).contains(&k) => Ok(k),
            _ => Err(Unbounded::value(
                v,
                format!(
                    "'{}' is in the grammar only by a literal in [{min}, {max}]",
                    ctx.name(op)
                ),
            )),
        }
    }

    /// Whether `x` is surely at least 0.
    pub fn non_negative(&mut self, x: Value, at: Option<OpId>) -> bool {
        match self.bound(x, Dir::Lo, at) {
            Ok(d) => {
                let vars = self.var_ranges(at);
                d.interval(&vars).is_non_negative()
            }
            Err(_) => false,
        }
    }

    fn extui(&mut self, op: OpId, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let x = ctx.operand(op, 0);
        if self.non_negative(x, at) {
            return self.bound(x, dir, at);
        }
        let width = ctx.type_data(ctx.value_type(x)).bit_width().unwrap_or(64);
        match dir {
            Dir::Lo => Ok(Diff::constant(0)),
            Dir::Hi if width < 63 => Ok(Diff::constant((1i64 << width) - 1)),
            Dir::Hi => Err(Unbounded::value(
                ctx.result(op, 0),
                "a zero-extended value that may be negative",
            )),
        }
    }

    fn muli(&mut self, op: OpId, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let (a, b) = (ctx.operand(op, 0), ctx.operand(op, 1));
        for (c, x) in [(a, b), (b, a)] {
            if let Some(c) = const_of(ctx, c) {
                let side = if c >= 0 { dir } else { dir.flip() };
                return Ok(self.bound(x, side, at)?.scale(c));
            }
        }
        if let (Some(x), Some(y)) = (self.exact(a, at), self.exact(b, at)) {
            return Ok(x.mul(&y));
        }
        if self.non_negative(a, at) && self.non_negative(b, at) {
            let x = self.bound(a, dir, at)?;
            let y = self.bound(b, dir, at)?;
            return Ok(x.mul(&y));
        }
        Err(Unbounded::value(
            ctx.result(op, 0),
            "a product of factors that are neither literals, exact, nor surely non-negative",
        ))
    }

    fn select(&mut self, op: OpId, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let (c, a, b) = (ctx.operand(op, 0), ctx.operand(op, 1), ctx.operand(op, 2));
        match const_of(ctx, c) {
            Some(0) => self.bound(b, dir, at),
            Some(_) => self.bound(a, dir, at),
            None => {
                let x = self.bound(a, dir, at)?;
                let y = self.bound(b, dir, at)?;
                Ok(if dir == Dir::Hi { x.max(&y) } else { x.min(&y) })
            }
        }
    }

    /// `x >> k` and `x / c` (c > 0) lie between `min(x, 0)` and `max(x, 0)`.
    fn shrink(&mut self, op: OpId, v: Value, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let name = ctx.name(op);
        let is_shift = matches!(name, ar::SHRSI | ar::SHRUI);
        let k = if is_shift {
            self.literal_rhs(op, v, 0, 63)?
        } else {
            self.literal_rhs(op, v, 1, i64::MAX)?
        };
        let x = ctx.operand(op, 0);
        let unsigned = matches!(name, ar::SHRUI | ar::DIVUI);
        if unsigned && !self.non_negative(x, at) {
            return Err(Unbounded::value(
                v,
                format!("'{name}' of a value that may be negative"),
            ));
        }
        let d = self.bound(x, dir, at)?;
        if (is_shift && k == 0) || (!is_shift && k == 1) {
            return Ok(d);
        }
        Ok(match dir {
            Dir::Hi => d.max(&Diff::constant(0)),
            Dir::Lo => d.min(&Diff::constant(0)),
        })
    }

    /// `x % c` (c > 0) lies in `[-(c-1), c-1]`, on the side of 0 that `x` is on.
    fn rem(&mut self, op: OpId, v: Value, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let c = self.literal_rhs(op, v, 1, i64::MAX)?;
        let x = ctx.operand(op, 0);
        let non_neg = self.non_negative(x, at);
        if ctx.name(op) == ar::REMUI && !non_neg {
            return Ok(Diff::constant(if dir == Dir::Hi { c - 1 } else { 0 }));
        }
        match dir {
            Dir::Hi => {
                let d = self.bound(x, Dir::Hi, at)?;
                Ok(d.max(&Diff::constant(0)).min(&Diff::constant(c - 1)))
            }
            Dir::Lo if non_neg => Ok(Diff::constant(0)),
            Dir::Lo => {
                let d = self.bound(x, Dir::Lo, at)?;
                Ok(d.min(&Diff::constant(0)).max(&Diff::constant(1 - c)))
            }
        }
    }

    /// The index expressions of a read: exact ones as they are; each other one as a fresh
    /// variable (returned with its axis) that the caller maximises over the axis.
    fn indices(&mut self, idx: &[Value], at: Option<OpId>) -> (Vec<SizeExpr>, Vec<(usize, u32)>) {
        let mut out = Vec::new();
        let mut fresh = Vec::new();
        let vars = self.var_ranges(at);
        for (axis, &i) in idx.iter().enumerate() {
            // An index below 0 is read by no valid execution: where the exact form is out of
            // reach, rounding such an index up to 0 only adds an element to a max.
            let exact = self
                .exact(i, at)
                .map(|d| d.exact_expr(&vars).unwrap_or_else(|| d.upper_expr()));
            match exact {
                Some(e) => out.push(e),
                None => {
                    let w = (MAX_LOOP_VARS + axis as u32).min(MAX_BOUND_VARS - 1);
                    out.push(SizeExpr::bound_var(w));
                    fresh.push((axis, w));
                }
            }
        }
        (out, fresh)
    }

    /// A read: exact at exact indices; else the max over each inexact axis (an upper bound
    /// only; from below, 0 for unsigned elements).
    fn read(
        &self,
        v: Value,
        leaf: SizeExpr,
        ty: IntTy,
        fresh: &[(usize, u32)],
        extent: impl Fn(usize) -> SizeExpr,
        dir: Dir,
    ) -> BoundResult {
        if fresh.is_empty() {
            return Ok(Diff::of(leaf));
        }
        match dir {
            Dir::Hi => {
                let e = fresh.iter().rev().fold(leaf, |body, &(axis, w)| {
                    SizeExpr::max_over_range(w, &SizeExpr::constant(0), &extent(axis), &body)
                });
                Ok(Diff::of(e))
            }
            Dir::Lo if ty.range().0 >= 0 => Ok(Diff::constant(0)),
            Dir::Lo => Err(Unbounded::value(
                v,
                "a read at an index that is not exact has no lower bound in the grammar",
            )),
        }
    }

    fn field_load(&mut self, op: OpId, v: Value, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let name = symbol(ctx, op, "field").unwrap_or_default();
        if self.kernel.written_fields.contains(&name) {
            return Err(Unbounded::value(
                v,
                format!("field @{name} is written by this kernel, so its value at launch does not bound it"),
            ));
        }
        let field: Option<FieldOp> = self.kernel.field(ctx, op, &name);
        let Some(field) = field else {
            return Err(Unbounded::value(
                v,
                format!("field @{name} is not declared"),
            ));
        };
        let ty = IntTy::from_type(ctx, field.elem(ctx))
            .ok_or_else(|| Unbounded::value(v, "the field's element type is not in the grammar"))?;
        let idx: Vec<Value> = ctx.operands(op).collect();
        let (indices, fresh) = self.indices(&idx, at);
        let shape = field.shape(ctx);
        let leaf = SizeExpr::field_load(&name, ty, &indices);
        self.read(
            v,
            leaf,
            ty,
            &fresh,
            |a| SizeExpr::constant(shape.get(a).copied().unwrap_or(0)),
            dir,
        )
    }

    fn ndarray_arg(&self, op: OpId, array: Value) -> Result<usize, Unbounded> {
        let i = self
            .arg_index(array)
            .ok_or_else(|| Unbounded::op(op, "its ndarray is not an argument of the kernel"))?;
        Ok(i)
    }

    fn ndarray_load(&mut self, op: OpId, v: Value, dir: Dir, at: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let array = ctx.operand(op, 0);
        let arg = self.ndarray_arg(op, array)?;
        if self.kernel.written_args.contains(&arg) {
            return Err(Unbounded::value(
                v,
                "its ndarray is written by this kernel, so its value at launch does not bound it",
            ));
        }
        let elem = NdarrayType::from_type(ctx, ctx.value_type(array)).map(|t| t.elem(ctx));
        let ty = elem.and_then(|t| IntTy::from_type(ctx, t)).ok_or_else(|| {
            Unbounded::value(v, "the ndarray's element type is not in the grammar")
        })?;
        let idx: Vec<Value> = ctx.operands(op).skip(1).collect();
        let (indices, fresh) = self.indices(&idx, at);
        let leaf = SizeExpr::ndarray_read(arg as u32, ty, &indices);
        let arg = arg as u32;
        self.read(
            v,
            leaf,
            ty,
            &fresh,
            |a| SizeExpr::ndarray_shape(arg, a as u32),
            dir,
        )
    }

    /// A load from a local or the top of a stack: bounded by what is stored there (see the
    /// module docs). `exclude` leaves one store out (a while loop's counter update).
    pub fn memory(&mut self, load: OpId, dir: Dir, exclude: Option<OpId>) -> BoundResult {
        let ctx = self.ctx;
        let v = ctx.result(load, 0);
        let loc: Location =
            locals::location_of(ctx, load).map_err(|why| Unbounded::value(v, why))?;
        // A while loop's counter store is left out by its caller: nothing else is carried then.
        let carried = (exclude.is_none() && ctx.name(loc.root) == qd_frontend::ALLOCA_OP)
            .then(|| carried::find(ctx, load, &loc))
            .flatten();
        let why = match carried {
            Some(Ok(u)) => return self.carried(load, &loc, &u, dir),
            Some(Err(why)) => Some(why),
            None => None,
        };
        match self.stored(load, &loc, dir, exclude) {
            Err(e) if e.reason == SELF_DEPENDENT => match why {
                Some(why) => Err(Unbounded::value(
                    v,
                    format!(
                        "it is loop-carried (its local is stored, in a loop around it, a value \
                         computed from its own): {why}; sizing bounds such a local only when it \
                         is updated by `m + c`, `m - c` (c a literal), `min(m + c, cap)` or \
                         `max(m - c, floor)` once per iteration of a qd.range_for"
                    ),
                )),
                None => Err(e),
            },
            r => r,
        }
    }

    /// A local carried across the iterations of loop `u.lp` (see [`carried`]): at iteration
    /// `j` over `[begin, end)`, the update has run at most `j - begin` times (plus one where the
    /// load follows it), and exactly so when it always runs.
    fn carried(
        &mut self,
        load: OpId,
        loc: &Location,
        u: &carried::Update,
        dir: Dir,
    ) -> BoundResult {
        let ctx = self.ctx;
        let m0 = self.stored(load, loc, dir, Some(u.store))?;
        let var = var_of(ctx, u.lp, 0);
        if var >= MAX_LOOP_VARS {
            return Err(Unbounded::value(ctx.result(load, 0), "loops nest too deep"));
        }
        let outer = enclosing_loop(ctx, u.lp);
        let increasing = u.step >= 0;
        let shift = match u.position {
            carried::Position::Before => 0,
            carried::Position::After => 1,
            // The value is the one before or after the update: the later one on the side it
            // moves to.
            carried::Position::Either => i64::from(increasing == (dir == Dir::Hi)),
        };
        // The most (fewest) updates before this point: `j - begin` with the smallest
        // (largest) begin.
        let j = Diff::of(SizeExpr::bound_var(var));
        let lower = ctx.operand(u.lp, 0);
        let count = |b: &mut Self, most: bool| -> BoundResult {
            let begin = b.bound(lower, if most { Dir::Lo } else { Dir::Hi }, outer)?;
            Ok(j.sub(&begin).add(&Diff::constant(shift)))
        };
        let c = u.step.checked_abs().unwrap_or(i64::MAX);
        // Moving away from m0 (the side the update goes): every update counts; towards it, only
        // those that surely ran.
        let away = increasing == (dir == Dir::Hi);
        let moved = if away {
            let n = count(self, true)?.scale(c);
            if increasing {
                m0.add(&n)
            } else {
                m0.sub(&n)
            }
        } else if u.always {
            let n = count(self, false)?.scale(c);
            if increasing {
                m0.add(&n)
            } else {
                m0.sub(&n)
            }
        } else {
            m0.clone()
        };
        let Some(cap) = u.cap else {
            return Ok(moved);
        };
        let cap = self.bound(cap, dir, outer)?;
        // min(m + c, cap) never passes max(m0, cap) from above nor min(m0 + c k, cap) from
        // below (and symmetrically for max(m - c, floor)).
        Ok(match (increasing, dir) {
            (true, Dir::Hi) => moved.min(&m0.max(&cap)),
            (true, Dir::Lo) => moved.min(&cap),
            (false, Dir::Lo) => moved.max(&m0.min(&cap)),
            (false, Dir::Hi) => moved.max(&cap),
        })
    }

    /// The bound of a load by every store that may write its place (but `exclude`).
    fn stored(
        &mut self,
        load: OpId,
        loc: &Location,
        dir: Dir,
        exclude: Option<OpId>,
    ) -> BoundResult {
        if exclude.is_none() {
            if let Some(d) = crate::select_store::decided(self, load, loc, dir)? {
                return Ok(d);
            }
        }
        let ctx = self.ctx;
        let v = ctx.result(load, 0);
        let block = ctx
            .parent_block(loc.root)
            .ok_or_else(|| Unbounded::value(v, "its local has no block"))?;
        let mut acc: Option<Diff> = None;
        let combine = |acc: Option<Diff>, d: Diff| match acc {
            None => Some(d),
            Some(a) => Some(if dir == Dir::Hi { a.max(&d) } else { a.min(&d) }),
        };
        // A stack may be read before this activation pushes anything: it may then hold what an
        // earlier activation pushed, so those values are maximised over every loop.
        let stale = !loc.initialized && ctx.name(loc.root) == STACK_ALLOCA;
        for &(w, value) in &loc.writers {
            if Some(w) == exclude {
                continue;
            }
            let mut d = self.bound(value, dir, enclosing_loop(ctx, w))?;
            let mut around = loops_inside(ctx, w, block);
            if stale {
                around = crate::loops::enclosing_loops(ctx, w);
            }
            for l in around {
                for k in (0..num_induction_vars(ctx, l)).rev() {
                    let (var, b, e) = self.loop_range(l, k)?;
                    d = close(&d, var, &b, &e, dir).ok_or_else(|| {
                        Unbounded::value(
                            v,
                            format!(
                                "the values stored to it depend on a loop and cannot be \
                                 bounded from {} in the grammar",
                                dir.word()
                            ),
                        )
                    })?;
                }
            }
            acc = combine(acc, d);
        }
        if !loc.initialized {
            acc = combine(acc, Diff::constant(0));
        }
        Ok(acc.unwrap_or_else(|| Diff::constant(0)))
    }
}

/// The bound over every value of loop variable `v` in `[b, e)`: from above, a max over the
/// range; from below, the range's start where the value grows with `v` one for one, and a max
/// over the range for what is subtracted. None when no such form exists.
pub(crate) fn close(d: &Diff, v: u32, b: &SizeExpr, e: &SizeExpr, dir: Dir) -> Option<Diff> {
    let (in_pos, in_neg) = (d.pos.mentions_var(v), d.neg.mentions_var(v));
    if !in_pos && !in_neg {
        return Some(d.clone());
    }
    match dir {
        Dir::Hi if !in_neg => Some(Diff {
            pos: SizeExpr::max_over_range(v, b, e, &d.pos),
            neg: d.neg.clone(),
        }),
        Dir::Hi => Some(Diff::of(SizeExpr::max_over_range(v, b, e, &d.upper_expr()))),
        Dir::Lo => {
            let pos = if in_pos {
                b.add(&rest_after_var(&d.pos, v)?)
            } else {
                d.pos.clone()
            };
            let neg = if in_neg {
                SizeExpr::max_over_range(v, b, e, &d.neg)
            } else {
                d.neg.clone()
            };
            Some(Diff { pos, neg })
        }
    }
}

/// `R` when `e` is `v + R` (a sum in which `v` appears once, as a term, and nowhere else).
fn rest_after_var(e: &SizeExpr, v: u32) -> Option<SizeExpr> {
    match e.root_node() {
        Node::BoundVar(w) if *w == v => Some(SizeExpr::constant(0)),
        Node::Binary(qd_adstack::size_expr::BinOp::Add, a, b) => {
            let (a, b) = (e.subexpr(*a), e.subexpr(*b));
            match (a.mentions_var(v), b.mentions_var(v)) {
                (true, false) => Some(rest_after_var(&a, v)?.add(&b)),
                (false, true) => Some(a.add(&rest_after_var(&b, v)?)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The integer literal `v` is, if it is one.
pub(crate) fn const_of(ctx: &Context, v: Value) -> Option<i64> {
    let op = ctx.defining_op(v)?;
    if ctx.name(op) != ar::CONSTANT {
        return None;
    }
    match ctx.attr_data(ctx.prop_or_attr(op, "value")?) {
        AttrData::Integer { value, .. } => Some(*value),
        AttrData::Bool(b) => Some(*b as i64),
        _ => None,
    }
}

/// The symbol a property names (`field = @x` -> "x").
pub(crate) fn symbol(ctx: &Context, op: OpId, prop: &str) -> Option<String> {
    match ctx.attr_data(ctx.prop_or_attr(op, prop)?) {
        AttrData::SymbolRef { root, .. } => Some(ctx.ident_str(*root).to_string()),
        _ => None,
    }
}

/// The static shape of the field a `struct_for` walks.
fn struct_for_shape(ctx: &Context, kernel: &KernelFacts, l: OpId) -> Option<Vec<i64>> {
    let name = symbol(ctx, l, "field")?;
    kernel.field(ctx, l, &name).map(|f| f.shape(ctx))
}

/// Whether a push writes the stack `stack`.
pub(crate) fn is_push_to(ctx: &Context, op: OpId, stack: Value) -> bool {
    ctx.name(op) == PUSH_OP && ctx.num_operands(op) == 2 && ctx.operand(op, 0) == stack
}
