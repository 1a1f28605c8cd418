//! Losses written in the form that the fused loss patterns of `qd_fusion::patterns` recognise:
//! built from plain ops (so they run, and differentiate, without the pattern too), matched and
//! rewritten into their fused kernels when fusion is on.

use crate::graph::{Graph, Operand, Reduce, Sym};
use crate::trace::{apply, Tensor};

/// sum(hw * bce(p, t)) + sum(rw * smooth_l1(p - t)), bce with logits, smooth-L1 with beta 1.
pub fn detection_loss(g: &mut Graph, p: Sym, t: Sym, hw: Sym, rw: Sym) -> Sym {
    let s = Operand::Sym;
    let c = Operand::Scalar;
    let relu = g.apply("relu", &[s(p)]);
    let pt = g.apply("mul", &[s(p), s(t)]);
    let ap = g.apply("abs", &[s(p)]);
    let na = g.apply("neg", &[s(ap)]);
    let ex = g.apply("exp", &[s(na)]);
    let l1p = g.apply("add", &[s(ex), c(1.0)]);
    let lg = g.apply("log", &[s(l1p)]);
    let b0 = g.apply("sub", &[s(relu), s(pt)]);
    let bce = g.apply("add", &[s(b0), s(lg)]);
    let wb = g.apply("mul", &[s(hw), s(bce)]);
    let heat = g.reduce(Reduce::Sum, wb, None);
    let d = g.apply("sub", &[s(p), s(t)]);
    let ad = g.apply("abs", &[s(d)]);
    let small = g.apply("lt", &[s(ad), c(1.0)]);
    let sq = g.apply("mul", &[s(d), s(d)]);
    let half = g.apply("mul", &[s(sq), c(0.5)]);
    let lin = g.apply("sub", &[s(ad), c(0.5)]);
    let sl1 = g.apply("select", &[s(small), s(half), s(lin)]);
    let wr = g.apply("mul", &[s(rw), s(sl1)]);
    let reg = g.reduce(Reduce::Sum, wr, None);
    g.apply("add", &[s(heat), s(reg)])
}

/// [`detection_loss`] inside a traced closure.
pub fn detection_loss_t(p: Tensor, t: Tensor, hw: Tensor, rw: Tensor) -> Tensor {
    let bce = (p.relu() - p * t) + (apply("neg", &[p.abs().into_operand()]).exp() + 1.0).log();
    let heat = (hw * bce).sum();
    let d = p - t;
    let ad = d.abs();
    let sl1 = crate::trace::select(ad.lt(1.0), d * d * 0.5, ad - 0.5);
    let reg = (rw * sl1).sum();
    heat + reg
}
