//! One group of ops to `qd.kernel`s: a kernel with one parallel loop over the group's shape
//! (reads each input once per element, through its broadcast index; writes each output once;
//! keeps every intermediate in a register), or, when the group feeds reductions, a partial
//! kernel (each of P parallel lanes reduces ceil(n / P) elements of its row, in tiles that a
//! SIMD group streams: see `tiled_row_element`) and a reduce kernel (one lane per output
//! element combines its P partials).

use crate::group::Group;
use qd_arith::names as an;
use qd_arith::{build_binary, build_constant_float, build_constant_int, CmpIPredicate};
use qd_frontend::{
    ndarray_type, AllocaOp, IfOp, KernelOp, LocalLoadOp, LocalStoreOp, NdarrayLoadOp,
    NdarrayStoreOp, RangeForOp,
};
use qd_ir::{Builder, Context, Location, OpId, OperationState, Type, Value};
use qd_ndarray::{
    array_type, elementwise_name, primitive, reduction, strides, ArrayType, ReduceKind, ResultKind,
    ScalarApplyOp,
};
use std::collections::HashMap;

/// The discardable attribute of a generated kernel that lists, per parameter (`1`/`0`), whether
/// each element of it is accessed by one thread in one iteration only ([`crate::exclusive`]).
pub const EXCLUSIVE_ATTR: &str = "fusion.exclusive";

fn mark_exclusive(ctx: &mut Context, kernel: OpId, exclusive: &[bool]) {
    let s: String = exclusive
        .iter()
        .map(|&e| if e { '1' } else { '0' })
        .collect();
    let a = ctx.string_attr(&s);
    ctx.set_attr(kernel, EXCLUSIVE_ATTR, a);
}

/// The largest element count a kernel indexes (its indices are i32).
pub const MAX_ELEMENTS: i64 = i32::MAX as i64;

/// What the kernels of one group take and give, for the launch ops that replace it.
#[derive(Debug)]
pub struct Emitted {
    pub kernel: String,
    /// Function-level values passed to the kernel, in parameter order.
    pub inputs: Vec<Value>,
    /// Member results the kernel writes (used outside the group), in parameter order after the
    /// inputs.
    pub outputs: Vec<Value>,
    /// The partial buffers' types (one per reduction), after the outputs.
    pub partial_types: Vec<Type>,
    /// The reduce kernel (when the group has reductions): takes the partials, gives the
    /// reductions' results.
    pub reduce: Option<String>,
}

/// How a reduction's elements are laid out: `outer` rows of `n` reduced elements, each `inner`
/// apart; P lanes per output element.
#[derive(Copy, Clone, Debug)]
struct ReduceShape {
    outer: i64,
    n: i64,
    inner: i64,
    lanes: i64,
}

impl ReduceShape {
    fn new(shape: &[i64], axis: Option<usize>, lanes: u64) -> Self {
        let total: i64 = shape.iter().product();
        let (outer, n, inner) = match axis {
            None => (1, total, 1),
            Some(a) => (
                shape[..a].iter().product(),
                shape[a],
                shape[a + 1..].iter().product(),
            ),
        };
        // A multiple of 16 from 4096 elements on (whole tiles: see `tiled_row_element`).
        let lanes = if lanes > 0 {
            (lanes as i64).min(n)
        } else if outer * inner > 1 {
            (n / 256).clamp(1, 64)
        } else if n >= 256 * TILE {
            (n / 256).clamp(1, 4096) / TILE * TILE
        } else {
            (n / 256).clamp(1, 4096)
        };
        ReduceShape {
            outer,
            n,
            inner,
            lanes,
        }
    }
}

/// The rank-1 ndarray an array of element `e` is stored in: i1 arrays (comparison results) as
/// i32, which every device can store (SPIR-V without Int8 cannot hold i1 or i8 buffers).
pub fn storage_type(ctx: &mut Context, e: Type) -> Type {
    let e = if is_i1(ctx, e) { ctx.i32_type() } else { e };
    ndarray_type(ctx, 1, e)
}

fn is_i1(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_data(t), qd_ir::TypeData::Integer { width: 1, .. })
}

/// Stores `v` (widening an i1 to i32) at `a[i]`.
fn store(b: &mut Builder, v: Value, a: Value, i: Value, loc: Location) {
    let v = if is_i1(b.ctx, b.ctx.value_type(v)) {
        let i32t = b.ctx.i32_type();
        qd_arith::build_cast(b, an::EXTUI, v, i32t, loc)
    } else {
        v
    };
    NdarrayStoreOp::build(b, v, a, &[i], loc);
}

/// Loads `a[i]`, as i1 when the array holds `elem` i1 (stored as i32).
fn load(b: &mut Builder, a: Value, i: Value, elem: Type, loc: Location) -> Value {
    let v = NdarrayLoadOp::build(b, a, &[i], loc).result(b.ctx);
    if !is_i1(b.ctx, elem) {
        return v;
    }
    let zero = c32(b, 0, loc);
    qd_arith::build_cmpi(b, qd_arith::CmpIPredicate::Ne, v, zero, loc)
}

fn c32(b: &mut Builder, v: i64, loc: Location) -> Value {
    let t = b.ctx.i32_type();
    build_constant_int(b, v, t, loc)
}

fn elem_of(ctx: &Context, ty: Type) -> Type {
    ArrayType::from_type(ctx, ty).map_or(ty, |a| a.elem(ctx))
}

fn is_array(ctx: &Context, v: Value) -> bool {
    ArrayType::from_type(ctx, ctx.value_type(v)).is_some()
}

fn is_constant(ctx: &Context, v: Value) -> bool {
    ctx.defining_op(v)
        .is_some_and(|d| ctx.name(d) == an::CONSTANT && !is_array(ctx, v))
}

/// Emits the kernels of `grp` before `anchor` (the function); `name` names the kernel (the
/// reduce kernel is `name_reduce`). `lanes`: the partial kernel's lanes per output (0: chosen
/// from the size).
pub fn emit_group(ctx: &mut Context, grp: &Group, name: &str, anchor: OpId, lanes: u64) -> Emitted {
    let ops: Vec<OpId> = grp.ops().collect();
    let loc = ctx.loc(*ops.last().expect("a group has an op"));
    let inside =
        |ctx: &Context, v: Value| ctx.defining_op(v).is_some_and(|d| grp.members.contains(&d));
    let mut inputs: Vec<Value> = Vec::new();
    for &op in &ops {
        for o in ctx.operand_vec(op) {
            if !inside(ctx, o) && !is_constant(ctx, o) && !inputs.contains(&o) {
                inputs.push(o);
            }
        }
    }
    let outputs: Vec<Value> = grp
        .members
        .iter()
        .map(|&m| ctx.result(m, 0))
        .filter(|&r| ctx.users(r).any(|u| !ops.contains(&u)))
        .collect();
    let rshape = ReduceShape::new(&grp.shape, grp.axis, lanes);
    let kinds: Vec<ReduceKind> = grp
        .reductions
        .iter()
        .filter_map(|&r| reduction(ctx, r).map(|(k, _)| k))
        .collect();
    let partial_types: Vec<Type> = grp
        .reductions
        .iter()
        .map(|&r| {
            let e = elem_of(ctx, ctx.value_type(ctx.operand(r, 0)));
            let len = rshape.outer * rshape.lanes * rshape.inner;
            array_type(ctx, &[len], e)
        })
        .collect();

    // The signature: inputs (ndarrays flattened to rank 1, scalars), outputs, partials.
    let mut params = Vec::new();
    for &v in &inputs {
        let t = ctx.value_type(v);
        params.push(if ArrayType::from_type(ctx, t).is_some() {
            let e = elem_of(ctx, t);
            storage_type(ctx, e)
        } else {
            t
        });
    }
    for &v in &outputs {
        let e = elem_of(ctx, ctx.value_type(v));
        params.push(storage_type(ctx, e));
    }
    for &t in &partial_types {
        let e = elem_of(ctx, t);
        params.push(ndarray_type(ctx, 1, e));
    }
    let kernel = KernelOp::build(&mut Builder::before(ctx, anchor), name, &params, loc);
    // Parameters whose every element access is at the element's own index (one thread, one
    // iteration per element): the same-shape inputs, the outputs and the partials.
    let mut exclusive: Vec<bool> = inputs
        .iter()
        .map(|&v| {
            ArrayType::from_type(ctx, ctx.value_type(v)).is_some_and(|a| {
                let s = a.shape(ctx);
                let pad = grp.shape.len().saturating_sub(s.len());
                std::iter::repeat_n(1, pad).chain(s).collect::<Vec<_>>() == grp.shape
            })
        })
        .collect();
    exclusive.resize(params.len(), true);
    mark_exclusive(ctx, kernel.0, &exclusive);
    let body = kernel.ensure_body(ctx);
    let args = kernel.args(ctx);
    let (in_args, rest) = args.split_at(inputs.len());
    let (out_args, part_args) = rest.split_at(outputs.len());

    let mut b = Builder::at_end(ctx, body);
    // Constants the group uses, once at the top of the kernel.
    let mut scalars: HashMap<Value, Value> = HashMap::new();
    let mut mapping = qd_ir::IRMapping::new();
    for &op in &ops {
        for o in b.ctx.operand_vec(op) {
            if is_constant(b.ctx, o) && !scalars.contains_key(&o) {
                let d = b.ctx.defining_op(o).expect("a constant has a defining op");
                let c = b.clone_op(d, &mut mapping);
                scalars.insert(o, b.ctx.result(c, 0));
            }
        }
    }
    for (&v, &a) in inputs.iter().zip(in_args) {
        if !is_array(b.ctx, v) {
            scalars.insert(v, a);
        }
    }
    let ins = Inputs {
        values: &inputs,
        args: in_args,
        shape: &grp.shape,
    };
    let c0 = c32(&mut b, 0, loc);
    if grp.reductions.is_empty() {
        let n = c32(&mut b, grp.shape.iter().product(), loc);
        let lp = RangeForOp::build(&mut b, c0, n, loc);
        let lbody = lp.body(b.ctx);
        let i = lp.induction_var(b.ctx);
        let mut b = Builder::at_end(b.ctx, lbody);
        let vals = emit_elements(&mut b, grp, &ins, &scalars, i);
        for (&o, &a) in outputs.iter().zip(out_args) {
            store(&mut b, vals[&o], a, i, loc);
        }
    } else {
        let rs = rshape;
        let total = c32(&mut b, rs.outer * rs.lanes * rs.inner, loc);
        let lp = RangeForOp::build(&mut b, c0, total, loc);
        let lbody = lp.body(b.ctx);
        let t = lp.induction_var(b.ctx);
        let mut b = Builder::at_end(b.ctx, lbody);
        // t = (o * lanes + p) * inner + k
        let (o, p, k) = split_lane(&mut b, t, rs, loc);
        // ceil(n / lanes) elements of the row per lane (see `tiled_row_element`; a trip count
        // the same in all lanes keeps the loop uniform, so the SIMD code runs it without
        // per-lane masks), the last one guarded when lanes do not divide n.
        let trip = c32(&mut b, rs.trip(), loc);
        let accs: Vec<Value> = grp
            .reductions
            .iter()
            .zip(&kinds)
            .map(|(&r, &kind)| {
                let e = elem_of(b.ctx, b.ctx.value_type(b.ctx.operand(r, 0)));
                let acc = AllocaOp::build(&mut b, e, loc).0;
                let acc = b.ctx.result(acc, 0);
                let init = init_value(&mut b, kind, e, loc);
                LocalStoreOp::build(&mut b, init, acc, loc);
                acc
            })
            .collect();
        let c0 = c32(&mut b, 0, loc);
        let inner_loop = RangeForOp::build(&mut b, c0, trip, loc);
        {
            let ib = inner_loop.body(b.ctx);
            let j = inner_loop.induction_var(b.ctx);
            let mut b = Builder::at_end(b.ctx, ib);
            let jj = tiled_row_element(&mut b, p, j, rs, loc);
            let mut b = if rs.n % rs.lanes == 0 {
                b
            } else {
                let n = c32(&mut b, rs.n, loc);
                let inside = qd_arith::build_cmpi(&mut b, CmpIPredicate::Slt, jj, n, loc);
                let guard = IfOp::build(&mut b, inside, false, loc);
                let then = guard.ensure_then(b.ctx);
                Builder::at_end(b.ctx, then)
            };
            let i = row_index(&mut b, o, jj, k, rs, loc);
            let vals = emit_elements(&mut b, grp, &ins, &scalars, i);
            for (&ov, &a) in outputs.iter().zip(out_args) {
                store(&mut b, vals[&ov], a, i, loc);
            }
            for ((&r, &kind), &acc) in grp.reductions.iter().zip(&kinds).zip(&accs) {
                let x = b.ctx.operand(r, 0);
                let v = vals[&x];
                let a = LocalLoadOp::build(&mut b, acc, loc).result(b.ctx);
                let n = combine(&mut b, kind, a, v, loc);
                LocalStoreOp::build(&mut b, n, acc, loc);
            }
        }
        for (&acc, &pa) in accs.iter().zip(part_args) {
            let a = LocalLoadOp::build(&mut b, acc, loc).result(b.ctx);
            NdarrayStoreOp::build(&mut b, a, pa, &[t], loc);
        }
    }
    let reduce = (!grp.reductions.is_empty()).then(|| {
        let rname = format!("{name}_reduce");
        emit_reduce(
            ctx,
            grp,
            &kinds,
            &partial_types,
            &rname,
            anchor,
            rshape,
            loc,
        );
        rname
    });
    Emitted {
        kernel: name.to_string(),
        inputs,
        outputs,
        partial_types,
        reduce,
    }
}

/// The scalar each input and member gives at element `i`: inputs are loaded at their broadcast
/// index when first used, members computed from their primitive's forward body.
struct Inputs<'a> {
    values: &'a [Value],
    args: &'a [Value],
    shape: &'a [i64],
}

fn emit_elements(
    b: &mut Builder,
    grp: &Group,
    ins: &Inputs,
    scalars: &HashMap<Value, Value>,
    i: Value,
) -> HashMap<Value, Value> {
    let mut vals: HashMap<Value, Value> = scalars.clone();
    let get = |b: &mut Builder, vals: &mut HashMap<Value, Value>, v: Value| -> Value {
        if let Some(&s) = vals.get(&v) {
            return s;
        }
        let pos = ins
            .values
            .iter()
            .position(|&x| x == v)
            .expect("an operand from outside the group is an input");
        let loc = b.ctx.value_loc(v);
        let shape = ArrayType::from_type(b.ctx, b.ctx.value_type(v))
            .map(|a| a.shape(b.ctx))
            .unwrap_or_default();
        let idx = broadcast_index(b, i, &shape, ins.shape, loc);
        let elem = elem_of(b.ctx, b.ctx.value_type(v));
        let s = load(b, ins.args[pos], idx, elem, loc);
        vals.insert(v, s);
        s
    };
    for &m in &grp.members {
        let operands: Vec<Value> = b
            .ctx
            .operand_vec(m)
            .into_iter()
            .map(|o| get(b, &mut vals, o))
            .collect();
        let r = emit_primitive(b, m, &operands);
        let res = b.ctx.result(m, 0);
        vals.insert(res, r);
    }
    for &r in &grp.reductions {
        let x = b.ctx.operand(r, 0);
        get(b, &mut vals, x);
    }
    vals
}

/// One member's scalar body: the primitive's forward, or a `scalar_apply` when the primitive
/// has its own backward (reverse-mode-ad must see it whole).
fn emit_primitive(b: &mut Builder, m: OpId, operands: &[Value]) -> Value {
    let loc = b.ctx.loc(m);
    let name = elementwise_name(b.ctx, m).expect("a member is elementwise");
    let p = primitive(&name).expect("verified: the primitive exists");
    if p.backward.is_none() {
        return (p.forward)(b, operands, loc);
    }
    let ty = match p.result {
        ResultKind::Bool => b.ctx.i1_type(),
        ResultKind::Float => operands
            .iter()
            .enumerate()
            .find(|(i, _)| !p.bool_operands.contains(i))
            .map(|(_, &v)| b.ctx.value_type(v))
            .unwrap_or_else(|| b.ctx.f32_type()),
    };
    let callee = b.ctx.string_attr(&name);
    let st = OperationState::new(ScalarApplyOp::NAME, loc)
        .operands(operands)
        .results(&[ty])
        .prop(b.ctx, "callee", callee);
    b.insert_value(st)
}

/// The flat index into an input of shape `s` of element `i` of the iteration space `shape`
/// (NumPy broadcasting: `s` is aligned at the last axis, its extents of 1 repeat).
fn broadcast_index(b: &mut Builder, i: Value, s: &[i64], shape: &[i64], loc: Location) -> Value {
    let rank = shape.len();
    let padded: Vec<i64> = std::iter::repeat_n(1, rank - s.len().min(rank))
        .chain(s.iter().copied())
        .collect();
    if padded == shape {
        return i;
    }
    // An axis of extent 1 in both gives coordinate 0 either way: it counts as kept.
    let kept: Vec<bool> = padded
        .iter()
        .zip(shape)
        .map(|(&a, &full)| a == full)
        .collect();
    let Some(first) = (0..rank).find(|&d| kept[d] && shape[d] != 1) else {
        return c32(b, 0, loc);
    };
    let last = (0..rank)
        .rev()
        .find(|&d| kept[d] && shape[d] != 1)
        .unwrap_or(first);
    let contiguous = kept[first..=last].iter().all(|&k| k);
    let st = strides(shape);
    if contiguous {
        // The kept axes are one block: (i / stride[last]) % extent of the block.
        let block: i64 = shape[first..=last].iter().product();
        let mut x = i;
        if st[last] != 1 {
            let d = c32(b, st[last], loc);
            x = build_binary(b, an::DIVSI, x, d, loc);
        }
        if first > 0 {
            let m = c32(b, block, loc);
            x = build_binary(b, an::REMSI, x, m, loc);
        }
        return x;
    }
    // General case: the coordinates of the kept axes, re-strided for the input.
    let in_st = strides(&padded);
    let mut idx: Option<Value> = None;
    for d in 0..rank {
        if !kept[d] {
            continue;
        }
        let sd = c32(b, st[d], loc);
        let q = build_binary(b, an::DIVSI, i, sd, loc);
        let ext = c32(b, shape[d], loc);
        let c = build_binary(b, an::REMSI, q, ext, loc);
        let w = c32(b, in_st[d], loc);
        let term = build_binary(b, an::MULI, c, w, loc);
        idx = Some(match idx {
            None => term,
            Some(acc) => build_binary(b, an::ADDI, acc, term, loc),
        });
    }
    idx.unwrap_or_else(|| c32(b, 0, loc))
}

/// Lanes per tile of a partial kernel: a multiple of the SIMD width of any device (16 f32
/// lanes on AVX-512, fewer elsewhere).
const TILE: i64 = 16;

impl ReduceShape {
    /// Elements of a row per lane, rounded up.
    fn trip(&self) -> i64 {
        (self.n + self.lanes - 1) / self.lanes
    }

    /// Lanes per tile: TILE where the lanes are consecutive elements of a row (inner 1) and
    /// make whole tiles; 1 where they are consecutive elements of the inner axis (each lane
    /// then walks its own run of the row); else all lanes (interleaved).
    fn tile(&self) -> i64 {
        if self.inner > 1 {
            1
        } else if self.lanes % TILE == 0 {
            TILE
        } else {
            self.lanes
        }
    }
}

/// The element of the row that lane `p` reduces in iteration `j`. Tiles of B lanes each own
/// B * trip consecutive elements, which a tile's lanes read B at a time: tile p / B, element
/// (p / B) * B * trip + j * B + p % B. A SIMD group of B lanes so streams its tile's elements
/// in order (the cpu device knows p / B and p % B stay one tile within a group); with every
/// lane interleaved instead (p + j * lanes), a group's successive loads lay `lanes` elements
/// apart, a page apart at 4096 lanes, and the detection loss on 2^22 f32 ran 5x slower.
fn tiled_row_element(b: &mut Builder, p: Value, j: Value, rs: ReduceShape, loc: Location) -> Value {
    let tile = rs.tile();
    if tile == rs.lanes {
        let l = c32(b, rs.lanes, loc);
        let jl = build_binary(b, an::MULI, j, l, loc);
        return build_binary(b, an::ADDI, jl, p, loc);
    }
    let span = c32(b, tile * rs.trip(), loc);
    if tile == 1 {
        let start = build_binary(b, an::MULI, p, span, loc);
        return build_binary(b, an::ADDI, start, j, loc);
    }
    let tc = c32(b, tile, loc);
    let which = build_binary(b, an::DIVSI, p, tc, loc);
    let lane = build_binary(b, an::REMSI, p, tc, loc);
    let start = build_binary(b, an::MULI, which, span, loc);
    let jb = build_binary(b, an::MULI, j, tc, loc);
    let x = build_binary(b, an::ADDI, start, jb, loc);
    build_binary(b, an::ADDI, x, lane, loc)
}

/// `t = (o * lanes + p) * inner + k` split into (o, p, k).
fn split_lane(b: &mut Builder, t: Value, rs: ReduceShape, loc: Location) -> (Value, Value, Value) {
    let inner = c32(b, rs.inner, loc);
    let lanes = c32(b, rs.lanes, loc);
    let (k, q) = if rs.inner == 1 {
        (c32(b, 0, loc), t)
    } else {
        (
            build_binary(b, an::REMSI, t, inner, loc),
            build_binary(b, an::DIVSI, t, inner, loc),
        )
    };
    if rs.outer == 1 {
        return (c32(b, 0, loc), q, k);
    }
    let p = build_binary(b, an::REMSI, q, lanes, loc);
    let o = build_binary(b, an::DIVSI, q, lanes, loc);
    (o, p, k)
}

/// The flat index of element `j` of row (o, k): (o * n + j) * inner + k.
fn row_index(
    b: &mut Builder,
    o: Value,
    j: Value,
    k: Value,
    rs: ReduceShape,
    loc: Location,
) -> Value {
    let mut x = j;
    if rs.outer > 1 {
        let n = c32(b, rs.n, loc);
        let on = build_binary(b, an::MULI, o, n, loc);
        x = build_binary(b, an::ADDI, on, x, loc);
    }
    if rs.inner > 1 {
        let inner = c32(b, rs.inner, loc);
        let xi = build_binary(b, an::MULI, x, inner, loc);
        x = build_binary(b, an::ADDI, xi, k, loc);
    }
    x
}

fn init_value(b: &mut Builder, kind: ReduceKind, e: Type, loc: Location) -> Value {
    let v = match kind {
        ReduceKind::Sum | ReduceKind::Mean => 0.0,
        ReduceKind::Max => f64::NEG_INFINITY,
    };
    build_constant_float(b, v, e, loc)
}

fn combine(b: &mut Builder, kind: ReduceKind, a: Value, v: Value, loc: Location) -> Value {
    match kind {
        ReduceKind::Sum | ReduceKind::Mean => build_binary(b, an::ADDF, a, v, loc),
        ReduceKind::Max => build_binary(b, an::MAXIMUMF, a, v, loc),
    }
}

/// The reduce kernel: one parallel lane per output element (o, k) combines its `lanes` partials
/// (a mean divides by the row length).
#[allow(clippy::too_many_arguments)]
fn emit_reduce(
    ctx: &mut Context,
    grp: &Group,
    kinds: &[ReduceKind],
    partial_types: &[Type],
    name: &str,
    anchor: OpId,
    rs: ReduceShape,
    loc: Location,
) {
    let mut params = Vec::new();
    for &t in partial_types {
        let e = elem_of(ctx, t);
        params.push(ndarray_type(ctx, 1, e));
    }
    for &r in &grp.reductions {
        let e = elem_of(ctx, ctx.value_type(ctx.result(r, 0)));
        params.push(ndarray_type(ctx, 1, e));
    }
    let kernel = KernelOp::build(&mut Builder::before(ctx, anchor), name, &params, loc);
    // Lane (o, k) alone reads its partials and writes its output.
    mark_exclusive(ctx, kernel.0, &vec![true; params.len()]);
    let body = kernel.ensure_body(ctx);
    let args = kernel.args(ctx);
    let (parts, outs) = args.split_at(partial_types.len());
    let mut b = Builder::at_end(ctx, body);
    let c0 = c32(&mut b, 0, loc);
    let m = c32(&mut b, rs.outer * rs.inner, loc);
    let lp = RangeForOp::build(&mut b, c0, m, loc);
    let lbody = lp.body(b.ctx);
    let t = lp.induction_var(b.ctx);
    let mut b = Builder::at_end(b.ctx, lbody);
    let inner = c32(&mut b, rs.inner, loc);
    let (o, k) = if rs.inner == 1 {
        (t, c32(&mut b, 0, loc))
    } else {
        (
            build_binary(&mut b, an::DIVSI, t, inner, loc),
            build_binary(&mut b, an::REMSI, t, inner, loc),
        )
    };
    let lanes = c32(&mut b, rs.lanes, loc);
    // Partial (o, p, k) is at (o * lanes + p) * inner + k.
    let ol = build_binary(&mut b, an::MULI, o, lanes, loc);
    let accs: Vec<(Value, Type)> = kinds
        .iter()
        .zip(partial_types)
        .map(|(&kind, &pt)| {
            let e = elem_of(b.ctx, pt);
            let acc = AllocaOp::build(&mut b, e, loc).0;
            let acc = b.ctx.result(acc, 0);
            let init = init_value(&mut b, kind, e, loc);
            LocalStoreOp::build(&mut b, init, acc, loc);
            (acc, e)
        })
        .collect();
    let c0 = c32(&mut b, 0, loc);
    let pl = RangeForOp::build(&mut b, c0, lanes, loc);
    {
        let pb = pl.body(b.ctx);
        let p = pl.induction_var(b.ctx);
        let mut b = Builder::at_end(b.ctx, pb);
        let row = build_binary(&mut b, an::ADDI, ol, p, loc);
        let idx = if rs.inner == 1 {
            row
        } else {
            let ri = build_binary(&mut b, an::MULI, row, inner, loc);
            build_binary(&mut b, an::ADDI, ri, k, loc)
        };
        for ((&kind, &(acc, _)), &pa) in kinds.iter().zip(&accs).zip(parts) {
            let v = NdarrayLoadOp::build(&mut b, pa, &[idx], loc).result(b.ctx);
            let a = LocalLoadOp::build(&mut b, acc, loc).result(b.ctx);
            let n = combine(&mut b, kind, a, v, loc);
            LocalStoreOp::build(&mut b, n, acc, loc);
        }
    }
    for ((&kind, &(acc, e)), &out) in kinds.iter().zip(&accs).zip(outs) {
        let mut a = LocalLoadOp::build(&mut b, acc, loc).result(b.ctx);
        if kind == ReduceKind::Mean {
            let inv = build_constant_float(&mut b, 1.0 / rs.n as f64, e, loc);
            a = build_binary(&mut b, an::MULF, a, inv, loc);
        }
        NdarrayStoreOp::build(&mut b, a, out, &[t], loc);
    }
}
