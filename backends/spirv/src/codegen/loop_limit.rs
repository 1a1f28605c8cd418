//! A driver's cap on the loop iterations of one shader invocation ([`crate::abi::LoopLimit`],
//! lavapipe's 65535). lavapipe runs a subgroup (8 invocations) as one SIMD program whose loop
//! limiter counts every pass through a loop header while any of its invocations is in the loop,
//! so the code counts the same: with `Options::loop_limit` set, each subgroup has a counter
//! (an element of a `Workgroup` array indexed by `SubgroupId`, zeroed at the task's entry), one
//! elected invocation of those in a loop adds 1 per header pass (each iteration, and the pass
//! that leaves the loop), and after every loop a count at the cap stops the thread with the
//! loop's error site (`SiteKind::LoopLimit`, added to the kernel's sites on first use, its
//! values the count and the thread). Every loop the backend emits counts (`lowered.for`,
//! `lowered.while`, the compare-exchange loops of atomics), as the driver counts them all.
//! Without the option nothing is emitted.

use super::checks::ErrValue;
use super::{Gen, Scalar, R};
use crate::sites::SiteKind;
use qd_ir::OpId;
use rspirv::dr::Operand;
use rspirv::spirv::{self, BuiltIn, Capability, MemorySemantics, Scope, StorageClass, Word};

impl Gen<'_> {
    /// The module's per-subgroup counters (a `Workgroup` array of u32, one per subgroup of a
    /// workgroup: at most its invocations) and the `SubgroupId` input, made once.
    fn group_counts(&mut self) -> (Word, Word) {
        if let Some(v) = self.group_counts {
            return v;
        }
        self.need(Capability::GroupNonUniform);
        let u32t = self.scalar_ty(Scalar::I(32));
        let len = self.u32c(self.opts.workgroup_size.max(1));
        let arr = self.b.type_array(u32t, len);
        let arr_ptr = self.ptr_ty(StorageClass::Workgroup, arr);
        let counts = self.global_var(arr_ptr, StorageClass::Workgroup);
        let in_ptr = self.ptr_ty(StorageClass::Input, u32t);
        let sgid = self.global_var(in_ptr, StorageClass::Input);
        self.b.decorate(
            sgid,
            spirv::Decoration::BuiltIn,
            [Operand::BuiltIn(BuiltIn::SubgroupId)],
        );
        self.group_counts = Some((counts, sgid));
        (counts, sgid)
    }

    /// Relaxed subgroup-scope atomics (the counter is shared by one subgroup only).
    fn subgroup_relaxed(&mut self) -> (Word, Word) {
        let scope = self.u32c(Scope::Subgroup as u32);
        let sem = self.u32c(MemorySemantics::empty().bits());
        (scope, sem)
    }

    /// At the task's entry (control flow still uniform): this subgroup's counter, zeroed, when
    /// the target has a loop limit.
    pub(super) fn start_loop_count(&mut self) -> R<()> {
        self.loop_count = None;
        if self.opts.loop_limit.is_none() {
            return Ok(());
        }
        let (counts, sgid) = self.group_counts();
        self.interface.insert(counts);
        self.interface.insert(sgid);
        let u32t = self.scalar_ty(Scalar::I(32));
        let sg = ck!(self, self.b.load(u32t, None, sgid, None, []))?;
        let pty = self.ptr_ty(StorageClass::Workgroup, u32t);
        let slot = ck!(self, self.b.access_chain(pty, None, counts, [sg]))?;
        let (scope, sem) = self.subgroup_relaxed();
        let zero = self.u32c(0);
        ck!(self, self.b.atomic_store(slot, scope, sem, zero))?;
        self.loop_count = Some(slot);
        Ok(())
    }

    /// In a loop header: one more pass of the subgroup counted (by one of its invocations in
    /// the loop; the others add 0).
    pub(super) fn count_loop_pass(&mut self) -> R<()> {
        let Some(slot) = self.loop_count else {
            return Ok(());
        };
        let u32t = self.scalar_ty(Scalar::I(32));
        let bool_t = self.scalar_ty(Scalar::Bool);
        let (scope, sem) = self.subgroup_relaxed();
        let first = ck!(self, self.b.group_non_uniform_elect(bool_t, None, scope))?;
        let (one, zero) = (self.u32c(1), self.u32c(0));
        let inc = ck!(self, self.b.select(u32t, None, first, one, zero))?;
        ck!(self, self.b.atomic_i_add(u32t, None, slot, scope, sem, inc))?;
        Ok(())
    }

    /// After a loop (in its merge block): fails at `op`'s loop-limit site when the count
    /// reached the cap (the driver may have cut this loop, or an earlier one, short).
    pub(super) fn check_loop_count(&mut self, op: OpId) -> R<()> {
        let (Some(slot), Some(limit)) = (self.loop_count, self.opts.loop_limit) else {
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
        let (scope, sem) = self.subgroup_relaxed();
        let n = ck!(self, self.b.atomic_load(u32t, None, slot, scope, sem))?;
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
