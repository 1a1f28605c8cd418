//! Runtime checks and error exits. A failing check branches (marked unlikely) to a block that
//! writes the error record of the worker's launch context (the site's number, the thread, the
//! site's values as i64) and returns 1: the thread stops there, and the device turns the record
//! into the interpreter's error through [`crate::sites::Sites::error`].

use super::{Gen, R};
use crate::frame::{MAX_ERR_VALUES, W_CANCEL, W_ERR_SITE, W_ERR_THREAD, W_ERR_VALUES};
use inkwell::values::IntValue;
use inkwell::{AtomicOrdering, IntPredicate};
use qd_ir::OpId;

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// `v` as an i64: sign-extended (the interpreter's canonical reading), or as is.
    pub fn to_i64(&self, v: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        if v.get_type().get_bit_width() == 64 {
            return Ok(v);
        }
        self.ck(self.b.build_int_s_extend(v, self.i64(), "w"))
    }

    /// Stops the thread with error site `op`'s record when `fail` holds.
    pub fn fail_if(&mut self, op: OpId, fail: IntValue<'ctx>, values: &[IntValue<'ctx>]) -> R<()> {
        if self.simt.is_some() {
            // Every active lane of a vectorised task fails alike.
            return crate::simd::fail_uniform(self, op, fail, values);
        }
        let Some(site) = self.sites.of(op) else {
            return Err(self.err("internal error: this op has no error site"));
        };
        if values.len() > MAX_ERR_VALUES as usize {
            return Err(self.err(format!(
                "the LLVM backend reports at most {} values per error",
                MAX_ERR_VALUES
            )));
        }
        self.exit_if(fail, site, values, ("error", "ok"))
    }
}

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// `c` through `llvm.expect(c, false)`: a branch on it is marked unlikely.
    fn unlikely(&self, c: IntValue<'ctx>) -> R<IntValue<'ctx>> {
        let expect = inkwell::intrinsics::Intrinsic::find("llvm.expect")
            .and_then(|i| i.get_declaration(self.module, &[self.llcx.bool_type().into()]))
            .ok_or_else(|| self.err("LLVM has no llvm.expect"))?;
        let f = self.llcx.bool_type().const_zero();
        let hint = self.ck(self.b.build_call(expect, &[c.into(), f.into()], "unlikely"))?;
        Ok(hint
            .try_as_basic_value()
            .basic()
            .map(|v| v.into_int_value())
            .unwrap_or(c))
    }

    /// The back edge of `lowered.while` `op`: when the launch's cancel flag ([`W_CANCEL`]) is
    /// set (a watchdog set it at the deadline), the function records the loop's error site
    /// (`SiteKind::Cancelled`) for its first thread and returns 1 at once: every lane and every
    /// later thread of its range stop there. The hot path is one monotonic (relaxed) 32-bit load
    /// and a branch marked unlikely; the stop block carries no state back into the loop, so the
    /// loop keeps its registers (what the lane masks of `fail_if` would cost a vectorised loop).
    /// Nothing with `Options::cancel_checks` off.
    pub fn cancel_check(&mut self, op: OpId) -> R<()> {
        if !self.cancel_checks {
            return Ok(());
        }
        let Some(site) = self.sites.of(op) else {
            return Err(self.err("internal error: this while loop has no error site"));
        };
        let flag = self.word_ptr(W_CANCEL)?;
        let i32t = self.llcx.i32_type();
        let v = self
            .ck(self.b.build_load(i32t, flag, "cancel"))?
            .into_int_value();
        if let Some(inst) = v.as_instruction() {
            inst.set_alignment(4).map_err(|e| self.err(e.to_string()))?;
            inst.set_atomic_ordering(AtomicOrdering::Monotonic)
                .map_err(|e| self.err(e.to_string()))?;
        }
        let set =
            self.ck(self
                .b
                .build_int_compare(IntPredicate::NE, v, i32t.const_zero(), "cancelled"))?;
        self.exit_if(set, site, &[], ("cancel", "cancel.no"))
    }

    /// Branches, marked unlikely, on `cond` to a block that writes error site `site`'s record
    /// (the site, this thread, `values`) and returns 1; code after this goes on in the other
    /// block. `names` name the two blocks (exit, continue) in the IR.
    fn exit_if(
        &mut self,
        cond: IntValue<'ctx>,
        site: u32,
        values: &[IntValue<'ctx>],
        names: (&str, &str),
    ) -> R<()> {
        let cond = self.unlikely(cond)?;
        let exit = self.llcx.append_basic_block(self.func, names.0);
        let cont = self.llcx.append_basic_block(self.func, names.1);
        self.ck(self.b.build_conditional_branch(cond, exit, cont))?;
        self.b.position_at_end(exit);
        let i64t = self.i64();
        let words = [
            (W_ERR_SITE, i64t.const_int(u64::from(site), false)),
            (W_ERR_THREAD, self.thread),
        ];
        for (w, v) in words {
            let p = self.word_addr(w)?;
            self.ck(self.b.build_store(p, v))?;
        }
        for (i, &v) in values.iter().enumerate() {
            let p = self.word_addr(W_ERR_VALUES + i as u32)?;
            self.ck(self.b.build_store(p, v))?;
        }
        let one = self.llcx.i32_type().const_int(1, false);
        self.ck(self.b.build_return(Some(&one)))?;
        self.b.position_at_end(cont);
        Ok(())
    }
}

/// `lowered.bounds_check %i.., %n..`: fails unless `0 <= i < n` for every pair (signed).
pub(super) fn bounds_check(g: &mut Gen<'_, '_>, op: OpId) -> R<()> {
    let n = g.ir.num_operands(op);
    if n == 0 || !n.is_multiple_of(2) {
        return Err(g.err("lowered.bounds_check needs indices and as many extents"));
    }
    let mut values = Vec::new();
    for i in 0..n {
        let v = g.int(g.ir.operand(op, i))?;
        values.push(g.to_i64(v)?);
    }
    let zero = g.i64().const_zero();
    let mut ok = g.llcx.bool_type().const_int(1, false);
    for k in 0..n / 2 {
        let (i, e) = (values[k], values[n / 2 + k]);
        let ge = g.ck(g.b.build_int_compare(IntPredicate::SGE, i, zero, "ge"))?;
        let lt = g.ck(g.b.build_int_compare(IntPredicate::SLT, i, e, "lt"))?;
        let both = g.ck(g.b.build_and(ge, lt, "in"))?;
        ok = g.ck(g.b.build_and(ok, both, "in"))?;
    }
    let fail = g.ck(g.b.build_not(ok, "out"))?;
    g.fail_if(op, fail, &values)
}
