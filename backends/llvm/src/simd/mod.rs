//! SIMT on SIMD (as ISPC does): a range task's function runs its threads in groups of W lanes,
//! one parallel iteration per lane, W the native vector width for 32-bit lanes.
//!
//! - [`uniform`]: which values, slots and control ops differ between lanes. Uniform values are
//!   emitted by the scalar codegen (`codegen`), unchanged: its emission of an op dispatches here
//!   first ([`emit_op`]) and comes back for what is uniform.
//! - [`control`]: divergent `if`, `for` and `while` under masks. The active lanes at any point
//!   are the structural mask ([`Lanes::ctrl`]) and the lanes still alive ([`Lanes::alive`]: a
//!   failing check stops its lane and the lanes after it, as the scalar code never runs them).
//! - [`memory`]: global memory by (masked) vector loads and stores where the address is linear
//!   with unit stride, else gathers and scatters; per-lane memory (varying slots, adstack heaps)
//!   interleaved ([logical byte offset][lane]); atomics.
//! - [`arith`]: arithmetic, casts and checks on vectors; math per lane.
//! - [`errors`]: the error and overflow records of the lowest failing lane.
//! - [`driver`]: the task function's loop over groups.

mod arith;
mod control;
mod driver;
mod errors;
mod memory;
pub(crate) mod uniform;

use crate::codegen::{Gen, R};
pub(crate) use driver::emit_task;
pub(crate) use errors::{fail_uniform, overflow};
use inkwell::basic_block::BasicBlock;
use inkwell::types::{BasicTypeEnum, VectorType};
use inkwell::values::{BasicValueEnum, IntValue, PointerValue, VectorValue};
use inkwell::IntPredicate;
use qd_ir::{OpId, Value};
use qd_lowered as lw;
use std::collections::{HashMap, HashSet};
use uniform::{Info, Slot};

/// Lanes per group for a CPU of `features` (`+avx512f,...`): the 32-bit lanes of its widest
/// vector registers.
pub fn lanes_for(features: &str) -> u32 {
    let has = |f: &str| features.split(',').any(|x| x.strip_prefix('+') == Some(f));
    if has("avx512f") {
        16
    } else if has("avx2") {
        8
    } else {
        4
    }
}

/// A linear per-lane integer: lane l holds `base + l * stride` (wrapping in its type). `exact`
/// when no extension of a narrower wrapping sequence went into it (so that, as an address,
/// lane l is exactly `base + l * stride`); else the address must be checked at run time.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Lin<'ctx> {
    pub base: IntValue<'ctx>,
    pub stride: i64,
    pub exact: bool,
    /// Where not `exact`: an `i1` that, when true at run time, makes it exact (the narrower
    /// sequences widened into it did not wrap within the group).
    pub when: Option<IntValue<'ctx>>,
}

impl<'ctx> Lin<'ctx> {
    /// Exact always (`Some(None)`), exact when `c` holds (`Some(Some(c))`), or unknown (`None`).
    pub fn exactness(&self) -> Option<Option<IntValue<'ctx>>> {
        if self.exact {
            Some(None)
        } else {
            self.when.map(Some)
        }
    }
}

/// `(exact, when)` of a linear form combined from two (sums, products): exact when both are.
pub(crate) fn join_exact<'ctx>(
    g: &Gen<'_, 'ctx>,
    a: &Lin<'ctx>,
    b: &Lin<'ctx>,
) -> R<(bool, Option<IntValue<'ctx>>)> {
    Ok(match (a.exactness(), b.exactness()) {
        (Some(None), Some(None)) => (true, None),
        (Some(Some(c)), Some(None)) | (Some(None), Some(Some(c))) => (false, Some(c)),
        (Some(Some(x)), Some(Some(y))) => (false, Some(g.ck(g.b.build_and(x, y, "nowrap"))?)),
        _ => (false, None),
    })
}

/// Linear form `a` (of an integer type of `from` bits) widened to `to` (sign-extended unless
/// `unsigned`): lane l is `ext(base) + l * stride` exactly when the narrow sequence is exact
/// in its own (wrapping) type and does not wrap between lane 0 and lane W-1, a scalar test on
/// the narrow base.
pub(crate) fn widen<'ctx>(
    g: &Gen<'_, 'ctx>,
    a: &Lin<'ctx>,
    to: inkwell::types::IntType<'ctx>,
    unsigned: bool,
) -> R<Lin<'ctx>> {
    let nt = a.base.get_type();
    let from = nt.get_bit_width();
    let base = if unsigned {
        g.ck(g.b.build_int_z_extend(a.base, to, "lb"))?
    } else {
        g.ck(g.b.build_int_s_extend(a.base, to, "lb"))?
    };
    let span = i128::from(a.stride) * i128::from(ln(g).w - 1);
    let lim: i128 = 1i128 << (from - 1).min(62);
    let when = match a.exactness() {
        // A span that cannot fit the narrow type, or an unknown narrow form: test the lanes.
        Some(prev) if from < 64 && span.abs() < lim => {
            let (pred, bound): (IntPredicate, i128) = match (unsigned, span >= 0) {
                (false, true) => (IntPredicate::SLE, (1i128 << (from - 1)) - 1 - span),
                (false, false) => (IntPredicate::SGE, -(1i128 << (from - 1)) - span),
                (true, true) => (IntPredicate::ULE, (1i128 << from) - 1 - span),
                (true, false) => (IntPredicate::UGE, -span),
            };
            let c = nt.const_int(bound as u64, false);
            let ok = g.ck(g.b.build_int_compare(pred, a.base, c, "nowrap"))?;
            Some(match prev {
                Some(p) => g.ck(g.b.build_and(p, ok, "nowrap"))?,
                None => ok,
            })
        }
        _ => None,
    };
    Ok(Lin {
        base,
        stride: a.stride,
        exact: false,
        when,
    })
}

/// A logical byte offset into per-lane memory: the same for every lane, or per lane (i64).
#[derive(Copy, Clone, Debug)]
pub(crate) enum Off<'ctx> {
    Uni(IntValue<'ctx>),
    /// A uniform part plus a per-lane part. Kept apart so that the uniform part stays scalar
    /// and the accesses of one stack's rows (the same per-lane depth at different uniform row
    /// offsets) test the same per-lane vector for equal lanes, which LLVM then tests once.
    Vary(IntValue<'ctx>, VectorValue<'ctx>),
}

/// A value of the vectorised task that is not one LLVM scalar.
#[derive(Copy, Clone, Debug)]
pub(crate) enum VVal<'ctx> {
    /// One scalar per lane, `<W x T>`.
    Vec(VectorValue<'ctx>, Option<Lin<'ctx>>),
    /// Per-lane addresses into global memory, `<W x i64>` (with the linear form in bytes).
    Addr(VectorValue<'ctx>, Option<Lin<'ctx>>),
    /// A pointer into interleaved per-lane memory: lane l of logical byte `o` (accessed with
    /// size s) lies at `base + o * W + l * s`.
    /// `private`: a slot of the task function (else an adstack heap).
    Lane {
        base: PointerValue<'ctx>,
        off: Off<'ctx>,
        private: bool,
    },
}

/// The SIMT state of a task function being emitted (in `Gen::simt`).
pub(crate) struct Lanes<'ctx> {
    pub w: u32,
    pub info: Info,
    pub vals: HashMap<Value, VVal<'ctx>>,
    /// The lanes the enclosing control flow runs (all lanes at the top level).
    pub ctrl: VectorValue<'ctx>,
    /// `<W x i1>` in the entry block: the group's lanes not stopped by an error.
    pub alive: PointerValue<'ctx>,
    /// `i1` in the entry block: an error was recorded in this group.
    pub failed: PointerValue<'ctx>,
    /// Where control goes when no active lane is left, innermost last.
    pub bail: Vec<BasicBlock<'ctx>>,
    /// The thread of lane 0.
    pub t0: IntValue<'ctx>,
    /// The storage of varying slots (W copies).
    pub slots: HashMap<Slot, PointerValue<'ctx>>,
    /// In a full group (see `driver`): where a failing check goes while the group has had no
    /// effect yet ([`Lanes::pure`]), to run the group again as a partial one, which records the
    /// error as usual. A full group so keeps every lane alive, its masks constant.
    pub restart: Option<BasicBlock<'ctx>>,
    /// Whether no op with an effect (a store, an atomic, a loop that may hold one, ...) was
    /// emitted yet in this group: running it again from its start changes nothing.
    pub pure: bool,
    /// The blocks that branch to `restart`.
    pub restarts: Vec<BasicBlock<'ctx>>,
    /// In a full group of a task that streams (see `driver::streaming_stores`): the stores that
    /// may be non-temporal, and the `i1` (entry block) that says whether this launch streams.
    pub stream: Option<(HashSet<OpId>, IntValue<'ctx>)>,
}

/// Whether op `name` has no effect a second run of the group could see (checks count as none:
/// a failing one either records or restarts the group). Unknown ops have one. `lowered.for` and
/// `lowered.while` have one: a check in a later iteration follows their earlier iterations'
/// stores.
fn effect_free(name: &str) -> bool {
    name.starts_with("arith.")
        || name.starts_with("math.")
        || matches!(
            name,
            lw::ARG_OP
                | lw::NDARRAY_PTR_OP
                | lw::NDARRAY_DIM_OP
                | lw::FIELD_PTR_OP
                | lw::TEMP_PTR_OP
                | lw::THREAD_ID_OP
                | lw::OFFSET_OP
                | lw::LOAD_OP
                | lw::ALLOCA_OP
                | lw::ELEM_PTR_OP
                | lw::MEMBER_PTR_OP
                | lw::BOUNDS_CHECK_OP
                | lw::IF_OP
                | lw::CONDITION_OP
                | lw::YIELD_OP
                | lw::ADSTACK_STRIDE_OP
                | lw::ADSTACK_OFFSET_OP
                | lw::ADSTACK_MAX_SIZE_OP
                | lw::ADSTACK_ROW_OP
                | lw::HEAP_PTR_OP
        )
}

/// The SIMT state of `g` (only called while emitting a vectorised task).
pub(crate) fn ln<'a, 'ctx>(g: &'a Gen<'_, 'ctx>) -> &'a Lanes<'ctx> {
    g.simt.as_ref().expect("SIMT state")
}
pub(crate) fn ln_mut<'a, 'ctx>(g: &'a mut Gen<'_, 'ctx>) -> &'a mut Lanes<'ctx> {
    g.simt.as_mut().expect("SIMT state")
}

/// `<W x T>` for a scalar LLVM type.
pub(crate) fn vec_ty<'ctx>(g: &Gen<'_, 'ctx>, t: BasicTypeEnum<'ctx>) -> R<VectorType<'ctx>> {
    let w = ln(g).w;
    Ok(match t {
        BasicTypeEnum::IntType(i) => i.vec_type(w),
        BasicTypeEnum::FloatType(f) => f.vec_type(w),
        BasicTypeEnum::PointerType(p) => p.vec_type(w),
        _ => return Err(g.err("a per-lane value of a non-scalar type")),
    })
}

/// `<0, 1, .., W-1>` of integer type `t`.
pub(crate) fn lane_ids<'ctx>(
    g: &Gen<'_, 'ctx>,
    t: inkwell::types::IntType<'ctx>,
) -> VectorValue<'ctx> {
    let ids: Vec<IntValue> = (0..ln(g).w)
        .map(|l| t.const_int(u64::from(l), false))
        .collect();
    VectorType::const_vector(&ids)
}

/// `v` in every lane.
pub(crate) fn splat<'ctx>(g: &Gen<'_, 'ctx>, v: BasicValueEnum<'ctx>) -> R<VectorValue<'ctx>> {
    let vt = vec_ty(g, v.get_type())?;
    let i32t = g.llcx.i32_type();
    let one = g.ck(g
        .b
        .build_insert_element(vt.get_poison(), v, i32t.const_zero(), "one"))?;
    let zeros = i32t.vec_type(ln(g).w).const_zero();
    g.ck(g
        .b
        .build_shuffle_vector(one, vt.get_poison(), zeros, "splat"))
}

/// The value of lowered `v` in every lane (uniform values splatted).
pub(crate) fn vector<'ctx>(g: &Gen<'_, 'ctx>, v: Value) -> R<VectorValue<'ctx>> {
    match ln(g).vals.get(&v) {
        Some(VVal::Vec(x, _)) | Some(VVal::Addr(x, _)) => Ok(*x),
        Some(VVal::Lane { .. }) => Err(g.err("a per-lane pointer used as a value")),
        None => splat(g, g.val(v)?),
    }
}

/// Whether lowered `v` has a per-lane form.
pub(crate) fn is_lanes(g: &Gen<'_, '_>, v: Value) -> bool {
    ln(g).vals.contains_key(&v)
}

/// The active lanes: the structural mask and the live lanes.
pub(crate) fn exec<'ctx>(g: &Gen<'_, 'ctx>) -> R<VectorValue<'ctx>> {
    let l = ln(g);
    let mt = g.llcx.bool_type().vec_type(l.w);
    let alive = g
        .ck(g.b.build_load(mt, l.alive, "alive"))?
        .into_vector_value();
    g.ck(g.b.build_and(l.ctrl, alive, "exec"))
}

/// Mask `m` as a W-bit integer (bit l: lane l).
pub(crate) fn bits<'ctx>(g: &Gen<'_, 'ctx>, m: VectorValue<'ctx>) -> R<IntValue<'ctx>> {
    let it = g.int_ty(ln(g).w)?;
    Ok(g.ck(g.b.build_bit_cast(m, it, "bits"))?.into_int_value())
}

/// Whether any lane of mask `m` is set.
pub(crate) fn any<'ctx>(g: &Gen<'_, 'ctx>, m: VectorValue<'ctx>) -> R<IntValue<'ctx>> {
    let b = bits(g, m)?;
    g.ck(g
        .b
        .build_int_compare(IntPredicate::NE, b, b.get_type().const_zero(), "any"))
}

/// Whether every lane of mask `m` is set.
pub(crate) fn all<'ctx>(g: &Gen<'_, 'ctx>, m: VectorValue<'ctx>) -> R<IntValue<'ctx>> {
    let b = bits(g, m)?;
    g.ck(g
        .b
        .build_int_compare(IntPredicate::EQ, b, b.get_type().const_all_ones(), "all"))
}

/// The lowest set lane of a non-empty mask `m`, as an i64.
pub(crate) fn lowest<'ctx>(g: &Gen<'_, 'ctx>, m: VectorValue<'ctx>) -> R<IntValue<'ctx>> {
    let b = bits(g, m)?;
    let t = b.get_type();
    let z = crate::codegen::intrinsic(
        g,
        "llvm.cttz",
        &[t.into()],
        &[b.into(), g.llcx.bool_type().const_int(1, false).into()],
    )?
    .into_int_value();
    g.ck(g.b.build_int_z_extend(z, g.i64(), "lane"))
}

/// In a full group that had no effect yet (see [`Lanes::restart`]): branches to the restart
/// unless `ok` holds, and returns true; else emits nothing and returns false (the caller tests
/// lane by lane, records, or takes the general path).
pub(crate) fn restart_unless<'ctx>(g: &mut Gen<'_, 'ctx>, ok: IntValue<'ctx>) -> R<bool> {
    let Some(redo) = ln(g).restart.filter(|_| ln(g).pure) else {
        return Ok(false);
    };
    let cont = g.llcx.append_basic_block(g.func, "full.ok");
    g.ck(g.b.build_conditional_branch(ok, cont, redo))?;
    let here = g.b.get_insert_block().expect("positioned");
    ln_mut(g).restarts.push(here);
    g.b.position_at_end(cont);
    Ok(true)
}

/// Branches to the innermost bail target when no lane is active, else goes on.
pub(crate) fn bail_if_none(g: &mut Gen<'_, '_>) -> R<()> {
    let m = exec(g)?;
    let some = any(g, m)?;
    let target = *ln(g).bail.last().expect("a bail target");
    let cont = g.llcx.append_basic_block(g.func, "live");
    g.ck(g.b.build_conditional_branch(some, cont, target))?;
    g.b.position_at_end(cont);
    Ok(())
}

/// Emits `op` of a vectorised task: what is per-lane here, the rest by the scalar codegen.
pub(crate) fn emit_op(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let ir = g.ir;
    let name = ir.name(op);
    let divergent = ln(g).info.divergent.contains(&op);
    let lanes_operand = ir.operands(op).any(|v| is_lanes(g, v));
    // A loop's later iterations follow its earlier ones' effects: impure before its body. Other
    // ops have their effect last (a store's tests of its addresses come before it).
    if matches!(name, lw::FOR_OP | lw::WHILE_OP) {
        ln_mut(g).pure = false;
    }
    emit_lanes_op(g, op, name, divergent, lanes_operand)?;
    if !effect_free(name) {
        ln_mut(g).pure = false;
    }
    Ok(())
}

fn emit_lanes_op(
    g: &mut Gen<'_, '_>,
    op: OpId,
    name: &str,
    divergent: bool,
    lanes_operand: bool,
) -> R<()> {
    let ir = g.ir;
    match name {
        lw::IF_OP if divergent => control::if_op(g, op),
        lw::FOR_OP if divergent => control::for_loop(g, op),
        lw::WHILE_OP if divergent => control::while_loop(g, op),
        lw::IF_OP | lw::FOR_OP | lw::WHILE_OP if lanes_operand => {
            Err(g.err("internal error: a per-lane condition on a uniform control op"))
        }
        // Their parents read their operands.
        lw::CONDITION_OP | lw::YIELD_OP | lw::RETURN_OP => Ok(()),
        lw::THREAD_ID_OP => {
            let t0 = ln(g).t0;
            let ids = lane_ids(g, g.i64());
            let s = splat(g, t0.into())?;
            let v = g.ck(g.b.build_int_add(s, ids, "tid"))?;
            let lin = Lin {
                base: t0,
                stride: 1,
                exact: true,
                when: None,
            };
            ln_mut(g)
                .vals
                .insert(ir.result(op, 0), VVal::Vec(v, Some(lin)));
            Ok(())
        }
        lw::ALLOCA_OP => memory::alloca(g, op),
        lw::HEAP_PTR_OP => memory::heap_ptr(g, op),
        lw::OFFSET_OP | lw::ELEM_PTR_OP | lw::MEMBER_PTR_OP if lanes_operand => {
            memory::address(g, op)
        }
        lw::LOAD_OP if lanes_operand => memory::load(g, op),
        lw::STORE_OP if lanes_operand => memory::store(g, op),
        lw::ATOMIC_ADD_OP | lw::ATOMIC_MIN_OP | lw::ATOMIC_MAX_OP => memory::atomic(g, op),
        lw::BOUNDS_CHECK_OP if lanes_operand => arith::bounds_check(g, op),
        _ if lanes_operand && (name.starts_with("arith.") || name.starts_with("math.")) => {
            arith::emit(g, op, name)
        }
        _ if lanes_operand => Err(g.err(format!(
            "internal error: '{name}' with per-lane operands is not vectorised"
        ))),
        _ => g.emit_scalar_op(op),
    }
}
