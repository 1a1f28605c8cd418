//! Constant reassociation of addi/subi/muli (upstream AddIAddConstant, AddISubConstantRHS/LHS,
//! SubIRHSAddConstant, SubILHSAddConstant, SubIRHSSubConstantRHS/LHS, SubILHSSubConstantRHS/LHS,
//! MulIMulIConstant) and addi of a product by -1 (AddIMulNegativeOneRhs/Lhs).
//!
//! Upstream gives the new op the flags both old ops carry. That is unsound where the folded
//! constant K overflows: (-128 +nsw 127) +nsw 127 is 126 in i8, x +nsw (127 + 127) is poison.
//! Ours keeps a flag both ops carry when K is exact in that flag's reading (then the new op's
//! exact value is the old one's, which both flags put in range), or, for nuw, when the rule is
//! one where the old ops not wrapping implies K does not (marked `nuw_implied`; e.g. in
//! (c0 - x) - c1, x <= c0 and c1 <= c0 - x give 0 <= c0 - c1).

use super::int::{overflow_bits, NSW, NUW};
use super::{create_constant, create_elementwise, def_by, fused_loc, int_const, operands_n};
use crate::consts::IntVal;
use crate::flags::FlagKind;
use crate::names::{ADDI, MULI, SUBI};
use qd_ir::rewrite::{RewritePattern, Rewriter};
use qd_ir::OpId;

/// How K is made from the inner constant c0 and the outer c1.
#[derive(Copy, Clone, Debug)]
pub enum Combine {
    Add,
    /// c0 - c1.
    Sub01,
    /// c1 - c0.
    Sub10,
    Mul,
}

/// One reassociation rule: `root(.., inner(..))` with the constants' sides given, rewritten to
/// `new(x, K)` or `new(K, x)`.
pub struct Reassoc {
    pub name: &'static str,
    pub root: &'static str,
    /// The root's constant is its left operand (and the inner op its right one).
    pub root_const_left: bool,
    pub inner: &'static str,
    /// The inner op's constant is its left operand.
    pub inner_const_left: bool,
    pub new: &'static str,
    /// The new op is `new(K, x)` rather than `new(x, K)`.
    pub new_const_left: bool,
    pub combine: Combine,
    /// Upstream gives the new op no flags (SubIRHSAddConstant).
    pub no_flags: bool,
    pub nuw_implied: bool,
}

/// K, and whether it is exact as signed and as unsigned integers of the width.
fn combine(c: Combine, c0: IntVal, c1: IntVal) -> (IntVal, bool, bool) {
    let w = c0.width();
    let (s0, s1) = (c0.sext() as i128, c1.sext() as i128);
    let (u0, u1) = (c0.zext() as i128, c1.zext() as i128);
    let (s, u) = match c {
        Combine::Add => (s0 + s1, u0 + u1),
        Combine::Sub01 => (s0 - s1, u0 - u1),
        Combine::Sub10 => (s1 - s0, u1 - u0),
        Combine::Mul => (s0 * s1, u0 * u1),
    };
    let smin = IntVal::signed_min(w).sext() as i128;
    let smax = IntVal::signed_max(w).sext() as i128;
    let umax = if w == 64 {
        u64::MAX as i128
    } else {
        (1i128 << w) - 1
    };
    let k = IntVal::from_bits(u as u64, w);
    (k, (smin..=smax).contains(&s), (0..=umax).contains(&u))
}

impl Reassoc {
    /// K and the new op's flags, from the constants and the old ops' flags.
    pub fn fold_constants(&self, c0: IntVal, c1: IntVal, outer: u8, inner: u8) -> (IntVal, u8) {
        let (k, s_exact, u_exact) = combine(self.combine, c0, c1);
        let mut flags = outer & inner;
        if self.no_flags {
            flags = 0;
        }
        if !s_exact {
            flags &= !NSW;
        }
        if !u_exact && !self.nuw_implied {
            flags &= !NUW;
        }
        (k, flags)
    }
}

/// Every reassociation rule.
pub const REASSOC_RULES: [&Reassoc; 10] = [
    &ADDI_ADD_CONSTANT,
    &ADDI_SUB_CONSTANT_RHS,
    &ADDI_SUB_CONSTANT_LHS,
    &SUBI_RHS_ADD_CONSTANT,
    &SUBI_LHS_ADD_CONSTANT,
    &SUBI_RHS_SUB_CONSTANT_RHS,
    &SUBI_RHS_SUB_CONSTANT_LHS,
    &SUBI_LHS_SUB_CONSTANT_RHS,
    &SUBI_LHS_SUB_CONSTANT_LHS,
    &MULI_MUL_CONSTANT,
];

impl RewritePattern for Reassoc {
    fn name(&self) -> &'static str {
        self.name
    }
    fn root(&self) -> Option<&'static str> {
        Some(self.root)
    }
    fn match_and_rewrite(&self, op: OpId, rw: &mut Rewriter<'_>) -> bool {
        let ctx = rw.ctx();
        let Some(v) = operands_n(ctx, op, 2) else {
            return false;
        };
        let (c1v, innerv) = if self.root_const_left {
            (v[0], v[1])
        } else {
            (v[1], v[0])
        };
        let Some(c1) = int_const(ctx, c1v) else {
            return false;
        };
        let Some(inner) = def_by(ctx, innerv, self.inner, 2) else {
            return false;
        };
        let (c0v, x) = if self.inner_const_left {
            (ctx.operand(inner, 0), ctx.operand(inner, 1))
        } else {
            (ctx.operand(inner, 1), ctx.operand(inner, 0))
        };
        let Some(c0) = int_const(ctx, c0v) else {
            return false;
        };
        let ty = super::result_ty(ctx, op);
        // The constants must have the result's type (upstream checks it for muli).
        if c0.width() != c1.width()
            || ctx.value_type(c0v) != ty
            || ctx.value_type(c1v) != ty
            || ctx.value_type(x) != ty
        {
            return false;
        }
        let (k, flags) =
            self.fold_constants(c0, c1, overflow_bits(ctx, op), overflow_bits(ctx, inner));
        // As DRR fuses them: the root and the first matched op after it in its walk, here the
        // first constant met (the root's when on its left, else the inner op's).
        let first = if self.root_const_left { c1v } else { c0v };
        let first = ctx.defining_op(first).unwrap_or(inner);
        let loc = rw.intern(|ctx| fused_loc(ctx, &[op, first]));
        let attr = rw.intern(|ctx| k.to_attr(ctx, ty));
        let Some(kv) = create_constant(rw, op, attr, ty, loc) else {
            return false;
        };
        let operands = if self.new_const_left {
            [kv, x]
        } else {
            [x, kv]
        };
        let flags = rw.intern(|ctx| FlagKind::Overflow.attr(ctx, flags));
        let new = create_elementwise(
            rw,
            op,
            self.new,
            &operands,
            ty,
            loc,
            &[(FlagKind::Overflow.prop_name(), flags)],
        );
        rw.replace_op(op, &[new]);
        true
    }
}

/// addi(addi(x, c0), c1) -> addi(x, c0 + c1).
pub const ADDI_ADD_CONSTANT: Reassoc = Reassoc {
    name: "arith-addi-constant-chain",
    root: ADDI,
    root_const_left: false,
    inner: ADDI,
    inner_const_left: false,
    new: ADDI,
    new_const_left: false,
    combine: Combine::Add,
    no_flags: false,
    nuw_implied: true,
};
/// addi(subi(x, c0), c1) -> addi(x, c1 - c0).
pub const ADDI_SUB_CONSTANT_RHS: Reassoc = Reassoc {
    name: "arith-addi-sub-constant-rhs",
    root: ADDI,
    root_const_left: false,
    inner: SUBI,
    inner_const_left: false,
    new: ADDI,
    new_const_left: false,
    combine: Combine::Sub10,
    no_flags: false,
    nuw_implied: false,
};
/// addi(subi(c0, x), c1) -> subi(c0 + c1, x).
pub const ADDI_SUB_CONSTANT_LHS: Reassoc = Reassoc {
    name: "arith-addi-sub-constant-lhs",
    root: ADDI,
    root_const_left: false,
    inner: SUBI,
    inner_const_left: true,
    new: SUBI,
    new_const_left: true,
    combine: Combine::Add,
    no_flags: false,
    nuw_implied: false,
};
/// subi(addi(x, c0), c1) -> addi(x, c0 - c1), without flags (as upstream).
pub const SUBI_RHS_ADD_CONSTANT: Reassoc = Reassoc {
    name: "arith-subi-rhs-add-constant",
    root: SUBI,
    root_const_left: false,
    inner: ADDI,
    inner_const_left: false,
    new: ADDI,
    new_const_left: false,
    combine: Combine::Sub01,
    no_flags: true,
    nuw_implied: false,
};
/// subi(c1, addi(x, c0)) -> subi(c1 - c0, x).
pub const SUBI_LHS_ADD_CONSTANT: Reassoc = Reassoc {
    name: "arith-subi-lhs-add-constant",
    root: SUBI,
    root_const_left: true,
    inner: ADDI,
    inner_const_left: false,
    new: SUBI,
    new_const_left: true,
    combine: Combine::Sub10,
    no_flags: false,
    nuw_implied: true,
};
/// subi(subi(x, c0), c1) -> subi(x, c0 + c1).
pub const SUBI_RHS_SUB_CONSTANT_RHS: Reassoc = Reassoc {
    name: "arith-subi-rhs-sub-constant-rhs",
    root: SUBI,
    root_const_left: false,
    inner: SUBI,
    inner_const_left: false,
    new: SUBI,
    new_const_left: false,
    combine: Combine::Add,
    no_flags: false,
    nuw_implied: true,
};
/// subi(subi(c0, x), c1) -> subi(c0 - c1, x).
pub const SUBI_RHS_SUB_CONSTANT_LHS: Reassoc = Reassoc {
    name: "arith-subi-rhs-sub-constant-lhs",
    root: SUBI,
    root_const_left: false,
    inner: SUBI,
    inner_const_left: true,
    new: SUBI,
    new_const_left: true,
    combine: Combine::Sub01,
    no_flags: false,
    nuw_implied: true,
};
/// subi(c1, subi(x, c0)) -> subi(c0 + c1, x).
pub const SUBI_LHS_SUB_CONSTANT_RHS: Reassoc = Reassoc {
    name: "arith-subi-lhs-sub-constant-rhs",
    root: SUBI,
    root_const_left: true,
    inner: SUBI,
    inner_const_left: false,
    new: SUBI,
    new_const_left: true,
    combine: Combine::Add,
    no_flags: false,
    nuw_implied: false,
};
/// subi(c1, subi(c0, x)) -> addi(x, c1 - c0).
pub const SUBI_LHS_SUB_CONSTANT_LHS: Reassoc = Reassoc {
    name: "arith-subi-lhs-sub-constant-lhs",
    root: SUBI,
    root_const_left: true,
    inner: SUBI,
    inner_const_left: true,
    new: ADDI,
    new_const_left: false,
    combine: Combine::Sub10,
    no_flags: false,
    nuw_implied: false,
};
/// muli(muli(x, c0), c1) -> muli(x, c0 * c1).
pub const MULI_MUL_CONSTANT: Reassoc = Reassoc {
    name: "arith-muli-mul-constant",
    root: MULI,
    root_const_left: false,
    inner: MULI,
    inner_const_left: false,
    new: MULI,
    new_const_left: false,
    combine: Combine::Mul,
    no_flags: false,
    nuw_implied: true,
};

/// `subi(subi(x, y), x)` -> `subi(0, y)` keeping the flags both carry (upstream
/// SubISubILHSRHSLHS; sound: the new op's exact value is the old one's).
pub fn subi_of_subi_lhs(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    let Some(inner) = def_by(ctx, v[0], SUBI, 2) else {
        return false;
    };
    let (x, y) = (ctx.operand(inner, 0), ctx.operand(inner, 1));
    if x != v[1] {
        return false;
    }
    let flags = overflow_bits(ctx, op) & overflow_bits(ctx, inner);
    let ty = ctx.value_type(y);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, inner]));
    let zero = rw.intern(|ctx| crate::consts::int_attr(ctx, 0, ty));
    let Some(z) = create_constant(rw, op, zero, ty, loc) else {
        return false;
    };
    let flags = rw.intern(|ctx| FlagKind::Overflow.attr(ctx, flags));
    let new = create_elementwise(
        rw,
        op,
        SUBI,
        &[z, y],
        ty,
        loc,
        &[(FlagKind::Overflow.prop_name(), flags)],
    );
    rw.replace_op(op, &[new]);
    true
}

/// `addi(x, muli(y, -1))` -> `subi(x, y)` and `addi(muli(x, -1), y)` -> `subi(y, x)`, without
/// flags (upstream AddIMulNegativeOneRhs/Lhs).
pub fn addi_of_neg(op: OpId, rw: &mut Rewriter<'_>) -> bool {
    let ctx = rw.ctx();
    let Some(v) = operands_n(ctx, op, 2) else {
        return false;
    };
    // The product's constant stands for it in the fused location (as DRR's walk meets it).
    let neg = |m: qd_ir::Value| {
        let d = def_by(ctx, m, MULI, 2)?;
        let c = ctx.operand(d, 1);
        int_const(ctx, c)?
            .is_all_ones()
            .then(|| (ctx.defining_op(c).unwrap_or(d), ctx.operand(d, 0)))
    };
    let (a, b, mul) = if let Some((d, y)) = neg(v[1]) {
        (v[0], y, d)
    } else if let Some((d, x)) = neg(v[0]) {
        (v[1], x, d)
    } else {
        return false;
    };
    let ty = super::result_ty(ctx, op);
    let loc = rw.intern(|ctx| fused_loc(ctx, &[op, mul]));
    let new = create_elementwise(rw, op, SUBI, &[a, b], ty, loc, &[]);
    rw.replace_op(op, &[new]);
    true
}
