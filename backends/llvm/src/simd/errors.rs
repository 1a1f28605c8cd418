//! Errors and overflows in a vectorised task, recorded as the scalar code records them for the
//! lowest lane concerned (the thread that the scalar code, running threads in order, meets
//! first).
//!
//! A failing check stops its lane and every lane after it in the group (the scalar code never
//! runs those threads past the failure: it returns), while the lanes before it go on and may
//! fail later, which overwrites the record with a lower thread. The group's end returns 1 when
//! a record was written (see `driver`). In a full group that has had no effect yet, a failing
//! check instead runs the group again as a partial group (`Lanes::restart`), which records.

use super::{bail_if_none, bits, exec, lane_ids, ln, lowest, splat};
use crate::codegen::{Gen, R};
use crate::frame::{
    MAX_ERR_VALUES, NONE, W_ERR_SITE, W_ERR_THREAD, W_ERR_VALUES, W_OVF_STACK, W_OVF_THREAD,
};
use inkwell::values::{BasicValueEnum, IntValue};
use inkwell::IntPredicate;
use qd_ir::OpId;

/// Records error site `op` for the lowest active lane of `fail` (`<W x i1>`, or an `i1` for every
/// lane) with `values` (i64, or `<W x i64>` per lane), stops that lane and the lanes after it,
/// and leaves the active region when no lane is left.
pub(crate) fn fail_lanes<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    op: OpId,
    fail: BasicValueEnum<'ctx>,
    values: &[BasicValueEnum<'ctx>],
) -> R<()> {
    let Some(site) = g.sites.of(op) else {
        return Err(g.err("internal error: this op has no error site"));
    };
    if values.len() > MAX_ERR_VALUES as usize {
        return Err(g.err(format!(
            "the LLVM backend reports at most {MAX_ERR_VALUES} values per error"
        )));
    }
    let fail = match fail {
        BasicValueEnum::VectorValue(v) => v,
        other => splat(g, other)?,
    };
    let m = exec(g)?;
    let fail = g.ck(g.b.build_and(fail, m, "fail"))?;
    let b = bits(g, fail)?;
    let some =
        g.ck(g
            .b
            .build_int_compare(IntPredicate::NE, b, b.get_type().const_zero(), "failing"))?;
    let expect = inkwell::intrinsics::Intrinsic::find("llvm.expect")
        .and_then(|i| i.get_declaration(g.module, &[g.llcx.bool_type().into()]))
        .ok_or_else(|| g.err("LLVM has no llvm.expect"))?;
    let hint = g.ck(g.b.build_call(
        expect,
        &[some.into(), g.llcx.bool_type().const_zero().into()],
        "unlikely",
    ))?;
    let some = hint
        .try_as_basic_value()
        .basic()
        .map(|v| v.into_int_value())
        .unwrap_or(some);
    // A full group that had no effect yet runs again as a partial group, which records this.
    let none = g.ck(g.b.build_not(some, "none"))?;
    if super::restart_unless(g, none)? {
        return Ok(());
    }
    let cont = g.llcx.append_basic_block(g.func, "ok");
    let err_bb = g.llcx.append_basic_block(g.func, "error");
    g.ck(g.b.build_conditional_branch(some, err_bb, cont))?;
    g.b.position_at_end(err_bb);
    let lane = lowest(g, fail)?;
    let thread = g.ck(g.b.build_int_add(ln(g).t0, lane, "thread"))?;
    let i64t = g.i64();
    let words = [
        (W_ERR_SITE, i64t.const_int(u64::from(site), false)),
        (W_ERR_THREAD, thread),
    ];
    for (w, v) in words {
        let p = g.word_addr(w)?;
        g.ck(g.b.build_store(p, v))?;
    }
    for (i, &v) in values.iter().enumerate() {
        let v = match v {
            BasicValueEnum::VectorValue(vv) => g.ck(g.b.build_extract_element(vv, lane, "v"))?,
            other => other,
        };
        let p = g.word_addr(W_ERR_VALUES + i as u32)?;
        g.ck(g.b.build_store(p, v))?;
    }
    let l = ln(g);
    let (alive_p, failed_p, w) = (l.alive, l.failed, l.w);
    g.ck(g
        .b
        .build_store(failed_p, g.llcx.bool_type().const_int(1, false)))?;
    // Lanes below the failing one live on.
    let ids = lane_ids(g, i64t);
    let at = splat(g, lane.into())?;
    let below = g.ck(g.b.build_int_compare(IntPredicate::ULT, ids, at, "below"))?;
    let mt = g.llcx.bool_type().vec_type(w);
    let alive = g
        .ck(g.b.build_load(mt, alive_p, "alive"))?
        .into_vector_value();
    let alive = g.ck(g.b.build_and(alive, below, "alive"))?;
    g.ck(g.b.build_store(alive_p, alive))?;
    bail_if_none(g)?;
    g.ck(g.b.build_unconditional_branch(cont))?;
    g.b.position_at_end(cont);
    Ok(())
}

/// A scalar check of the scalar codegen (`Gen::fail_if`) in a vectorised task: the condition
/// holds for every active lane alike.
pub(crate) fn fail_uniform<'ctx>(
    g: &mut Gen<'_, 'ctx>,
    op: OpId,
    fail: IntValue<'ctx>,
    values: &[IntValue<'ctx>],
) -> R<()> {
    let vals: Vec<BasicValueEnum> = values.iter().map(|&v| v.into()).collect();
    fail_lanes(g, op, fail.into(), &vals)
}

/// `lowered.adstack_overflow k` in a vectorised task: records (thread, k) for the lowest active
/// lane unless the worker recorded a lower thread.
pub(crate) fn overflow<'ctx>(g: &mut Gen<'_, 'ctx>, id: u32) -> R<()> {
    let m = exec(g)?;
    let lane = lowest(g, m)?;
    let thread = g.ck(g.b.build_int_add(ln(g).t0, lane, "thread"))?;
    let i64t = g.i64();
    let p = g.word_addr(W_OVF_THREAD)?;
    let cur = g.ck(g.b.build_load(i64t, p, "ovf"))?.into_int_value();
    debug_assert_eq!(NONE, u64::MAX);
    // NONE is the largest u64: any thread is lower.
    let lower = g.ck(g
        .b
        .build_int_compare(IntPredicate::ULT, thread, cur, "lower"))?;
    let rec = g.llcx.append_basic_block(g.func, "overflow");
    let cont = g.llcx.append_basic_block(g.func, "overflow.done");
    g.ck(g.b.build_conditional_branch(lower, rec, cont))?;
    g.b.position_at_end(rec);
    g.ck(g.b.build_store(p, thread))?;
    let q = g.word_addr(W_OVF_STACK)?;
    g.ck(g.b.build_store(q, i64t.const_int(u64::from(id), false)))?;
    g.ck(g.b.build_unconditional_branch(cont))?;
    g.b.position_at_end(cont);
    Ok(())
}
