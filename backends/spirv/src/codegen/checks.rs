//! Runtime checks and error exits. A failing check branches to a block that claims the error
//! record (compare-exchange of `ERR_CLAIM` from 0 to 1; only the first failing thread writes the
//! rest, so a record is never torn), writes the site's number, the thread and the site's values
//! (i64, low word then high word), and returns: the thread stops there. The device turns the
//! record into the interpreter's error through [`crate::sites::Sites::error`].

use super::buffers::relaxed;
use super::{Gen, Scalar, R};
use crate::abi;
use qd_ir::OpId;
use rspirv::spirv::{SelectionControl, Word};

/// A value an error records, and whether it widens as signed.
#[derive(Clone, Copy)]
pub(super) struct ErrValue {
    pub id: Word,
    pub scalar: Scalar,
    pub signed: bool,
}

impl Gen<'_> {
    /// `v` (an integer of `s`) as (low, high) u32 words of its i64 reading.
    fn words_of(&mut self, v: ErrValue) -> R<(Word, Word)> {
        let u32t = self.scalar_ty(Scalar::I(32));
        let w = v.scalar.width();
        if w == 64 {
            let t64 = self.scalar_ty(Scalar::I(64));
            let lo = ck!(self, self.b.u_convert(u32t, None, v.id))?;
            let sh = self.u32c(32);
            let h = ck!(self, self.b.shift_right_logical(t64, None, v.id, sh))?;
            let hi = ck!(self, self.b.u_convert(u32t, None, h))?;
            return Ok((lo, hi));
        }
        let lo = if w == 32 {
            v.id
        } else if v.signed {
            ck!(self, self.b.s_convert(u32t, None, v.id))?
        } else {
            ck!(self, self.b.u_convert(u32t, None, v.id))?
        };
        let hi = if v.signed {
            let sh = self.u32c(31);
            ck!(self, self.b.shift_right_arithmetic(u32t, None, lo, sh))?
        } else {
            self.u32c(0)
        };
        Ok((lo, hi))
    }

    /// The thread id as a u32 word.
    pub fn thread_word(&mut self) -> R<Word> {
        if self.index().width() == 32 {
            return Ok(self.thread);
        }
        let u32t = self.scalar_ty(Scalar::I(32));
        ck!(self, self.b.u_convert(u32t, None, self.thread))
    }

    /// Claims record `binding` (word 0 from 0 to 1); runs `write` when this thread got it.
    pub fn claim_record(&mut self, binding: u32, write: impl FnOnce(&mut Self) -> R<()>) -> R<()> {
        let u32t = self.scalar_ty(Scalar::I(32));
        let bool_t = self.scalar_ty(Scalar::Bool);
        let zero = self.u32c(0);
        let one = self.u32c(1);
        let claim_i = self.idx_const(0);
        let p = self.elem_ptr_of(binding, Scalar::I(32), claim_i, true)?;
        let (scope, sem) = relaxed(self);
        let old = ck!(
            self,
            self.b
                .atomic_compare_exchange(u32t, None, p, scope, sem, sem, one, zero)
        )?;
        let first = ck!(self, self.b.i_equal(bool_t, None, old, zero))?;
        let rec = self.b.id();
        let done = self.b.id();
        ck!(self, self.b.selection_merge(done, SelectionControl::NONE))?;
        ck!(self, self.b.branch_conditional(first, rec, done, []))?;
        ck!(self, self.b.begin_block(Some(rec)))?;
        write(self)?;
        ck!(self, self.b.branch(done))?;
        ck!(self, self.b.begin_block(Some(done)))?;
        Ok(())
    }

    /// Stores u32 `v` into word `w` of record `binding`.
    pub fn record_word(&mut self, binding: u32, w: u32, v: Word) -> R<()> {
        let i = self.idx_const(i64::from(w));
        self.store_elem(binding, Scalar::I(32), i, v)
    }

    /// Stops the thread with error site `op`'s record when `fail` holds.
    pub(super) fn fail_if(&mut self, op: OpId, fail: Word, values: &[ErrValue]) -> R<()> {
        let Some(site) = self.sites.of(op) else {
            return Err(self.err("internal error: this op has no error site"));
        };
        self.fail_at_site(site, fail, values)
    }

    /// Stops the thread with error site number `site`'s record when `fail` holds.
    pub(super) fn fail_at_site(&mut self, site: u32, fail: Word, values: &[ErrValue]) -> R<()> {
        if values.len() > abi::MAX_ERR_VALUES as usize {
            return Err(self.err(format!(
                "the SPIR-V backend reports at most {} values per error",
                abi::MAX_ERR_VALUES
            )));
        }
        let err_bb = self.b.id();
        let ok = self.b.id();
        ck!(self, self.b.selection_merge(ok, SelectionControl::NONE))?;
        ck!(self, self.b.branch_conditional(fail, err_bb, ok, []))?;
        ck!(self, self.b.begin_block(Some(err_bb)))?;
        let values = values.to_vec();
        self.claim_record(abi::BINDING_ERRORS, |g| {
            let s = g.u32c(site);
            g.record_word(abi::BINDING_ERRORS, abi::ERR_SITE, s)?;
            let t = g.thread_word()?;
            g.record_word(abi::BINDING_ERRORS, abi::ERR_THREAD, t)?;
            for (i, v) in values.into_iter().enumerate() {
                let (lo, hi) = g.words_of(v)?;
                let w = abi::ERR_VALUES + 2 * i as u32;
                g.record_word(abi::BINDING_ERRORS, w, lo)?;
                g.record_word(abi::BINDING_ERRORS, w + 1, hi)?;
            }
            Ok(())
        })?;
        ck!(self, self.b.ret())?;
        ck!(self, self.b.begin_block(Some(ok)))?;
        Ok(())
    }
}

/// `lowered.bounds_check %i.., %n..`: fails unless `0 <= i < n` for every pair (as signed
/// values; one unsigned compare each).
pub(super) fn bounds_check(g: &mut Gen<'_>, op: OpId) -> R<()> {
    let n = g.ir.num_operands(op);
    if n == 0 || !n.is_multiple_of(2) {
        return Err(g.err("lowered.bounds_check needs indices and as many extents"));
    }
    let mut values = Vec::new();
    for i in 0..n {
        let v = g.ir.operand(op, i);
        let scalar = g.scalar(g.ir.value_type(v))?;
        values.push(ErrValue {
            id: g.id(v)?,
            scalar,
            signed: true,
        });
    }
    let bool_t = g.scalar_ty(Scalar::Bool);
    let mut ok: Option<Word> = None;
    for k in 0..n / 2 {
        let (i, e) = (values[k], values[n / 2 + k]);
        // One unsigned compare: extents are never negative, so `0 <= i < n` is `(u)i < (u)n`.
        // (lavapipe, mesa 22.3, also miscompiles the signed pair when i is a sign-extended
        // srem: `0 < 3` came out false.)
        let both = ck!(g, g.b.u_less_than(bool_t, None, i.id, e.id))?;
        ok = Some(match ok {
            None => both,
            Some(o) => ck!(g, g.b.logical_and(bool_t, None, o, both))?,
        });
    }
    let ok = ok.unwrap_or_else(|| g.constant(Scalar::Bool, 1));
    let fail = ck!(g, g.b.logical_not(bool_t, None, ok))?;
    g.fail_if(op, fail, &values)
}
