//! [`Diff`]: a bound on an integer value written as `pos - neg`, two size expressions whose
//! difference is taken in exact arithmetic. Keeping the subtraction symbolic until a trip count
//! or a range needs a single expression is what lets `hi(x - y) = hi(x) - lo(y)` stay exact
//! where the expressions' own `Sub` (which saturates at 0) would lose negative values.

use qd_adstack::size_expr::{Interval, Node, SizeExpr};

/// `pos - neg`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Diff {
    pub pos: SizeExpr,
    pub neg: SizeExpr,
}

/// How far below 0 a value may reach and still be written as one expression (see
/// [`Diff::exact_expr`]); beyond it a lower bound is refused rather than made absurd.
const MAX_NEGATIVE_OFFSET: i64 = 1 << 40;

fn zero() -> SizeExpr {
    SizeExpr::constant(0)
}

impl Diff {
    pub fn of(e: SizeExpr) -> Diff {
        Diff {
            pos: e,
            neg: zero(),
        }
    }

    pub fn constant(c: i64) -> Diff {
        if c >= 0 || c == i64::MIN {
            Diff::of(SizeExpr::constant(c))
        } else {
            Diff {
                pos: zero(),
                neg: SizeExpr::constant(-c),
            }
        }
    }

    #[cfg(test)]
    pub fn as_const(&self) -> Option<i64> {
        match (self.pos.as_const(), self.neg.as_const()) {
            (Some(p), Some(n)) => p.checked_sub(n),
            _ => None,
        }
    }

    pub fn add(&self, o: &Diff) -> Diff {
        Diff {
            pos: self.pos.add(&o.pos),
            neg: self.neg.add(&o.neg),
        }
        .folded()
    }

    pub fn sub(&self, o: &Diff) -> Diff {
        Diff {
            pos: self.pos.add(&o.neg),
            neg: self.neg.add(&o.pos),
        }
        .folded()
    }

    /// `c * self` for a literal `c` (a negative `c` swaps the sides).
    pub fn scale(&self, c: i64) -> Diff {
        let k = SizeExpr::constant(c.unsigned_abs().min(i64::MAX as u64) as i64);
        let (p, n) = (self.pos.mul(&k), self.neg.mul(&k));
        if c >= 0 {
            Diff { pos: p, neg: n }
        } else {
            Diff { pos: n, neg: p }
        }
        .folded()
    }

    /// The exact product `(p1 - n1)(p2 - n2) = (p1 p2 + n1 n2) - (p1 n2 + n1 p2)`.
    pub fn mul(&self, o: &Diff) -> Diff {
        Diff {
            pos: self.pos.mul(&o.pos).add(&self.neg.mul(&o.neg)),
            neg: self.pos.mul(&o.neg).add(&self.neg.mul(&o.pos)),
        }
        .folded()
    }

    /// `max(a, b) = max(p1 + n2, p2 + n1) - (n1 + n2)`.
    pub fn max(&self, o: &Diff) -> Diff {
        self.extremum(o, true)
    }

    /// `min(a, b) = min(p1 + n2, p2 + n1) - (n1 + n2)`.
    pub fn min(&self, o: &Diff) -> Diff {
        self.extremum(o, false)
    }

    fn extremum(&self, o: &Diff, max: bool) -> Diff {
        let pick = |a: &SizeExpr, b: &SizeExpr| if max { a.max(b) } else { a.min(b) };
        if self.neg == o.neg {
            return Diff {
                pos: pick(&self.pos, &o.pos),
                neg: self.neg.clone(),
            };
        }
        Diff {
            pos: pick(&self.pos.add(&o.neg), &o.pos.add(&self.neg)),
            neg: self.neg.add(&o.neg),
        }
        .folded()
    }

    /// Literal parts move to one side, so that `(x + 3) - 5` reads `x - 2`.
    fn folded(self) -> Diff {
        if let (Some(p), Some(n)) = (self.pos.as_const(), self.neg.as_const()) {
            if let Some(c) = p.checked_sub(n) {
                return Diff::constant(c);
            }
        }
        let split = |e: &SizeExpr| -> (SizeExpr, i64) {
            match e.root_node() {
                Node::Binary(qd_adstack::size_expr::BinOp::Add, a, b) => {
                    let (a, b) = (e.subexpr(*a), e.subexpr(*b));
                    match (a.as_const(), b.as_const()) {
                        (Some(c), None) => (b, c),
                        (None, Some(c)) => (a, c),
                        _ => (e.clone(), 0),
                    }
                }
                _ => match e.as_const() {
                    Some(c) => (zero(), c),
                    None => (e.clone(), 0),
                },
            }
        };
        let (p, pc) = split(&self.pos);
        let (n, nc) = split(&self.neg);
        let Some(c) = pc.checked_sub(nc) else {
            return self;
        };
        if c >= 0 {
            Diff {
                pos: p.add(&SizeExpr::constant(c)),
                neg: n,
            }
        } else {
            Diff {
                pos: p,
                neg: n.add(&SizeExpr::constant(c.checked_neg().unwrap_or(i64::MAX))),
            }
        }
    }

    /// The values `pos - neg` can take, from the two sides' intervals; free variable `v` holds
    /// `vars[v]` (any value when absent).
    pub fn interval(&self, vars: &[Interval]) -> Interval {
        let f = |v: u32| vars.get(v as usize).copied().unwrap_or(Interval::FULL);
        let (p, n) = (self.pos.interval_with(&f), self.neg.interval_with(&f));
        Interval::new(p.lo.saturating_sub(n.hi), p.hi.saturating_sub(n.lo))
    }

    /// One expression at least as large as the value (its `Sub` may only round up to 0).
    pub fn upper_expr(&self) -> SizeExpr {
        if self.neg.as_const() == Some(0) {
            self.pos.clone()
        } else {
            self.pos.sub(&self.neg)
        }
    }

    /// One expression equal to the value wherever the value lies in [`Diff::interval`] (with
    /// the variables in `vars`), so usable as a lower bound and as an index: `pos` when nothing is
    /// subtracted, `pos - neg` when that cannot go below 0, else `((pos + K) - neg) + -K` with `K`
    /// the deepest the value can go below 0. None when that depth is unknown or absurd.
    pub fn exact_expr(&self, vars: &[Interval]) -> Option<SizeExpr> {
        if self.neg.as_const() == Some(0) {
            return Some(self.pos.clone());
        }
        let lo = self.interval(vars).lo;
        if lo >= 0 {
            return Some(self.pos.sub(&self.neg));
        }
        if lo < -MAX_NEGATIVE_OFFSET {
            return None;
        }
        let k = SizeExpr::constant(-lo);
        Some(self.pos.add(&k).sub(&self.neg).add(&SizeExpr::constant(lo)))
    }
}

/// `hi(end) - lo(begin)`, rounded up to 0: an upper bound on the trip count of
/// `range(begin, end)`.
pub(crate) fn trip_count(begin_lo: &Diff, end_hi: &Diff) -> SizeExpr {
    let d = end_hi.sub(begin_lo);
    d.pos.sub(&d.neg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(s: &str) -> SizeExpr {
        SizeExpr::parse(s).unwrap()
    }

    #[test]
    fn subtraction_stays_exact_until_one_expression_is_needed() {
        let n = Diff::of(e("@n[]:i32"));
        let j = Diff::of(e("@j[]:i32"));
        let d = n.sub(&j).sub(&Diff::constant(1));
        assert_eq!(d.pos.to_string(), "@n[]:i32");
        assert_eq!(d.neg.to_string(), "@j[]:i32 + 1");
        assert_eq!(d.upper_expr().to_string(), "@n[]:i32 - (@j[]:i32 + 1)");
        let six = Diff::constant(6);
        assert_eq!(
            trip_count(&Diff::constant(0), &six.sub(&j)).to_string(),
            "6 - @j[]:i32"
        );
        assert_eq!(Diff::constant(-4).as_const(), Some(-4));
        assert_eq!(
            Diff::constant(3).add(&Diff::constant(-5)).as_const(),
            Some(-2)
        );
        assert_eq!(
            n.add(&Diff::constant(3))
                .sub(&Diff::constant(5))
                .neg
                .to_string(),
            "2"
        );
    }

    #[test]
    fn extrema_and_products_are_exact_identities() {
        let a = Diff::of(e("@a[]:i8")).sub(&Diff::of(e("@b[]:i8")));
        let c = Diff::constant(-7);
        let m = a.max(&c);
        // max(a - b, -7) = max(a + 7, b) - (b + 7).
        assert_eq!(m.pos.to_string(), "max(@a[]:i8 + 7, @b[]:i8)");
        assert_eq!(m.neg.to_string(), "@b[]:i8 + 7");
        let p = a.mul(&Diff::of(e("@c[]:i8")));
        assert_eq!(p.pos.to_string(), "@a[]:i8 * @c[]:i8");
        assert_eq!(p.neg.to_string(), "@b[]:i8 * @c[]:i8");
        assert_eq!(a.scale(-2).pos.to_string(), "@b[]:i8 * 2");
    }

    #[test]
    fn exact_expressions_offset_negative_values() {
        let v = Diff::of(e("@u[]:ui8")).sub(&Diff::constant(1));
        // u - 1 >= -1: ((u + 1) - 1) + -1.
        let x = v.exact_expr(&[]).unwrap();
        assert_eq!(x.to_string(), "@u[]:ui8 + 1 - 1 + -1");
        assert_eq!(v.upper_expr().to_string(), "@u[]:ui8 - 1");
        let wide = Diff::of(e("@u[]:ui8")).sub(&Diff::of(e("@w[]:i64")));
        assert!(wide.exact_expr(&[]).is_none());
        assert_eq!(
            Diff::constant(-3).exact_expr(&[]),
            Some(SizeExpr::constant(-3))
        );
        // A free variable with a known range: v0 - 1 >= -1 for v0 in [0, 9].
        let w = Diff::of(SizeExpr::bound_var(0)).sub(&Diff::constant(1));
        assert!(w.exact_expr(&[]).is_none());
        let r = [Interval::new(0, 9)];
        assert_eq!(w.interval(&r), Interval::new(-1, 8));
        assert_eq!(w.exact_expr(&r).unwrap().to_string(), "v0 + 1 - 1 + -1");
    }
}
