//! A driver's cap on the loop iterations of one shader invocation ([`crate::abi::LoopLimit`],
//! lavapipe's 65535). lavapipe runs a subgroup (8 invocations) as one SIMD program whose loop
//! limiter counts every pass through a loop header while any of its invocations is in the loop,
//! so the code counts the same: with `Options::loop_limit` set, each subgroup has a counter
//! (an element of a `Workgroup` array indexed by `SubgroupId`, zeroed at the task's entry). Each
//! loop counts its header passes (each iteration, and the pass that leaves the loop) in a private
//! register of each invocation; after the loop (its merge block, where the invocations that
//! entered it are together again) the subgroup's maximum of those counts is the number of passes
//! the SIMD program made, and one elected invocation adds it to the subgroup's counter. A count at
//! the cap (with the passes of the enclosing loops so far) then stops the thread with the loop's error site (`SiteKind::LoopLimit`, added to the
//! kernel's sites on first use, its values the count and the thread). Counting in a register and
//! touching the shared counter once per loop exit keeps the cost off the iterations: a shared
//! atomic per pass made lavapipe's loops 2 to 17 times slower (benches/quadrants_vulkan). Every
//! loop the backend emits counts (`lowered.for`, `lowered.while`, the compare-exchange loops of
//! atomics), as the driver counts them all. Without the option nothing is emitted.

use super::checks::ErrValue;
use super::{Gen, Scalar, R};
use crate::sites::SiteKind;
use qd_ir::OpId;
use rspirv::dr::Operand;
use rspirv::spirv::{
    self, BuiltIn, Capability, GroupOperation, MemorySemantics, Scope, StorageClass, Word,
};

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
        self.open_loops.clear();
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

    /// Before a loop's header (in the block that branches to it): this loop's pass count, a
    /// private register zeroed here (so an inner loop restarts at each outer iteration); None
    /// when the target has no loop limit.
    pub(super) fn begin_loop_count(&mut self) -> R<Option<Word>> {
        if self.loop_count.is_none() {
            return Ok(None);
        }
        let u32t = self.scalar_ty(Scalar::I(32));
        let pty = self.ptr_ty(StorageClass::Function, u32t);
        let k = self.local_var(pty);
        let zero = self.u32c(0);
        ck!(self, self.b.store(k, zero, None, []))?;
        self.open_loops.push(k);
        Ok(Some(k))
    }

    /// Before a `lowered.for` of 32-bit bounds `lo`, `hi` and positive `step`: its pass count
    /// in closed form, `ceil((hi - lo) / step) + 1` (0 iterations when `hi <= lo`), held in the
    /// loop's register from the start, so that the loop itself carries no counter (a counter
    /// kept a dead replay loop alive on lavapipe: a gradient ran twice as long). The count is
    /// what the loop runs unless the driver cuts it, and then at least what the driver counted,
    /// so the check after it still sees the cap. Returns None without a loop limit or for wider
    /// bounds (then the header counts, [`Gen::count_loop_pass`]).
    pub(super) fn begin_for_count(
        &mut self,
        s: Scalar,
        lo: Word,
        hi: Word,
        step: Word,
    ) -> R<Option<Word>> {
        if self.loop_count.is_none() || s != Scalar::I(32) {
            return Ok(None);
        }
        let Some(k) = self.begin_loop_count()? else {
            return Ok(None);
        };
        let u32t = self.scalar_ty(Scalar::I(32));
        let bool_t = self.scalar_ty(Scalar::Bool);
        let some = ck!(self, self.b.s_less_than(bool_t, None, lo, hi))?;
        // hi - lo as unsigned is exact when lo < hi (at most 2^32 - 1).
        let d = ck!(self, self.b.i_sub(u32t, None, hi, lo))?;
        let q = ck!(self, self.b.u_div(u32t, None, d, step))?;
        let r = ck!(self, self.b.u_mod(u32t, None, d, step))?;
        let zero = self.u32c(0);
        let partial = ck!(self, self.b.i_not_equal(bool_t, None, r, zero))?;
        let one = self.u32c(1);
        let extra = ck!(self, self.b.select(u32t, None, partial, one, zero))?;
        let trips = ck!(self, self.b.i_add(u32t, None, q, extra))?;
        let trips = ck!(self, self.b.select(u32t, None, some, trips, zero))?;
        let passes = ck!(self, self.b.i_add(u32t, None, trips, one))?;
        ck!(self, self.b.store(k, passes, None, []))?;
        Ok(Some(k))
    }

    /// In a loop header: one more pass of this invocation through it.
    pub(super) fn count_loop_pass(&mut self, k: Option<Word>) -> R<()> {
        let Some(k) = k else {
            return Ok(());
        };
        let u32t = self.scalar_ty(Scalar::I(32));
        let n = ck!(self, self.b.load(u32t, None, k, None, []))?;
        let one = self.u32c(1);
        let n1 = ck!(self, self.b.i_add(u32t, None, n, one))?;
        ck!(self, self.b.store(k, n1, None, []))?;
        Ok(())
    }

    /// After a loop (in its merge block): fails at `op`'s loop-limit site when the count
    /// reached the cap (the driver may have cut this loop, or an earlier one, short).
    pub(super) fn check_loop_count(&mut self, op: OpId, k: Option<Word>) -> R<()> {
        let (Some(slot), Some(limit), Some(k)) = (self.loop_count, self.opts.loop_limit, k) else {
            return Ok(());
        };
        self.open_loops.pop();
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
        // The SIMD program's passes through this loop: the most any invocation in it made.
        self.need(Capability::GroupNonUniformArithmetic);
        let mine = ck!(self, self.b.load(u32t, None, k, None, []))?;
        let passes = ck!(
            self,
            self.b
                .group_non_uniform_u_max(u32t, None, scope, GroupOperation::Reduce, mine, None)
        )?;
        let first = ck!(self, self.b.group_non_uniform_elect(bool_t, None, scope))?;
        let zero = self.u32c(0);
        let inc = ck!(self, self.b.select(u32t, None, first, passes, zero))?;
        ck!(self, self.b.atomic_i_add(u32t, None, slot, scope, sem, inc))?;
        // The subgroup runs in lockstep on the one driver this is emitted for: every
        // invocation's load follows the elected one's add.
        let mut n = ck!(self, self.b.atomic_load(u32t, None, slot, scope, sem))?;
        // The enclosing loops' passes so far are not in the shared count yet (they are added
        // when those loops end) but the driver has counted them: add this invocation's, so that
        // the loop the driver cut is the one reported.
        for outer in self.open_loops.clone() {
            let o = ck!(self, self.b.load(u32t, None, outer, None, []))?;
            n = ck!(self, self.b.i_add(u32t, None, n, o))?;
        }
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
