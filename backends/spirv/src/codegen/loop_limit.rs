//! A driver's cap on the loop iterations of one shader invocation ([`crate::abi::LoopLimit`],
//! lavapipe's 65535): with `Options::loop_limit` set, a task keeps one `Function` counter,
//! zeroed at its entry, that every pass through a loop header adds 1 to (the driver's count:
//! each iteration, and the pass that leaves the loop), and after every loop a count at the
//! cap stops the thread with the loop's error site (`SiteKind::LoopLimit`, added to the
//! kernel's sites on first use, its values the count and the thread). Every loop the backend
//! emits counts (`lowered.for`, `lowered.while`, the compare-exchange loops of atomics), as
//! the driver counts them all. Without the option nothing is emitted.

use super::checks::ErrValue;
use super::{Gen, Scalar, R};
use crate::sites::SiteKind;
use qd_ir::OpId;
use rspirv::spirv::StorageClass;

impl Gen<'_> {
    /// At the task's entry: the zeroed counter, when the target has a loop limit.
    pub(super) fn start_loop_count(&mut self) -> R<()> {
        self.loop_count = None;
        if self.opts.loop_limit.is_none() {
            return Ok(());
        }
        let u32t = self.scalar_ty(Scalar::I(32));
        let pty = self.ptr_ty(StorageClass::Function, u32t);
        let var = self.local_var(pty);
        let zero = self.u32c(0);
        ck!(self, self.b.store(var, zero, None, []))?;
        self.loop_count = Some(var);
        Ok(())
    }

    /// In a loop header: one more pass counted.
    pub(super) fn count_loop_pass(&mut self) -> R<()> {
        let Some(var) = self.loop_count else {
            return Ok(());
        };
        let u32t = self.scalar_ty(Scalar::I(32));
        let n = ck!(self, self.b.load(u32t, None, var, None, []))?;
        let one = self.u32c(1);
        let n1 = ck!(self, self.b.i_add(u32t, None, n, one))?;
        ck!(self, self.b.store(var, n1, None, []))?;
        Ok(())
    }

    /// After a loop (in its merge block): fails at `op`'s loop-limit site when the count
    /// reached the cap (the driver may have cut this loop, or an earlier one, short).
    pub(super) fn check_loop_count(&mut self, op: OpId) -> R<()> {
        let (Some(var), Some(limit)) = (self.loop_count, self.opts.loop_limit) else {
            return Ok(());
        };
        let site = match self.limit_sites.get(&op) {
            Some(&s) => s,
            None => {
                let kind = SiteKind::LoopLimit {
                    limit: limit.iterations,
                    driver: limit.driver.to_string(),
                };
                let s = self.sites.add(self.ir, op, kind);
                self.limit_sites.insert(op, s);
                s
            }
        };
        let u32t = self.scalar_ty(Scalar::I(32));
        let bool_t = self.scalar_ty(Scalar::Bool);
        let n = ck!(self, self.b.load(u32t, None, var, None, []))?;
        let cap = self.u32c(limit.iterations);
        let at_cap = ck!(self, self.b.u_greater_than_equal(bool_t, None, n, cap))?;
        let count = ErrValue {
            id: n,
            scalar: Scalar::I(32),
            signed: false,
        };
        let t = self.thread_word()?;
        let thread = ErrValue {
            id: t,
            scalar: Scalar::I(32),
            signed: false,
        };
        self.fail_at_site(site, at_cap, &[count, thread])
    }
}
