//! The comparison predicates of `arith.cmpi` and `arith.cmpf`, with upstream's names and enum
//! numbers (stored as an i64 `predicate` property), and their evaluation.

use crate::consts::IntVal;

/// `arith.cmpi` predicates, numbered as upstream's `arith::CmpIPredicate`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpIPredicate {
    Eq = 0,
    Ne = 1,
    Slt = 2,
    Sle = 3,
    Sgt = 4,
    Sge = 5,
    Ult = 6,
    Ule = 7,
    Ugt = 8,
    Uge = 9,
}

const CMPI: [(CmpIPredicate, &str); 10] = [
    (CmpIPredicate::Eq, "eq"),
    (CmpIPredicate::Ne, "ne"),
    (CmpIPredicate::Slt, "slt"),
    (CmpIPredicate::Sle, "sle"),
    (CmpIPredicate::Sgt, "sgt"),
    (CmpIPredicate::Sge, "sge"),
    (CmpIPredicate::Ult, "ult"),
    (CmpIPredicate::Ule, "ule"),
    (CmpIPredicate::Ugt, "ugt"),
    (CmpIPredicate::Uge, "uge"),
];

impl CmpIPredicate {
    pub fn from_i64(v: i64) -> Option<Self> {
        CMPI.get(usize::try_from(v).ok()?).map(|(p, _)| *p)
    }
    pub fn from_name(name: &str) -> Option<Self> {
        CMPI.iter().find(|(_, n)| *n == name).map(|(p, _)| *p)
    }
    pub fn name(self) -> &'static str {
        CMPI[self as usize].1
    }
    /// Every predicate name, by enum number.
    pub fn names() -> [&'static str; 10] {
        CMPI.map(|(_, n)| n)
    }
    /// Compares two integers of the same width.
    pub fn eval(self, a: IntVal, b: IntVal) -> bool {
        let (sa, sb, ua, ub) = (a.sext(), b.sext(), a.zext(), b.zext());
        match self {
            CmpIPredicate::Eq => ua == ub,
            CmpIPredicate::Ne => ua != ub,
            CmpIPredicate::Slt => sa < sb,
            CmpIPredicate::Sle => sa <= sb,
            CmpIPredicate::Sgt => sa > sb,
            CmpIPredicate::Sge => sa >= sb,
            CmpIPredicate::Ult => ua < ub,
            CmpIPredicate::Ule => ua <= ub,
            CmpIPredicate::Ugt => ua > ub,
            CmpIPredicate::Uge => ua >= ub,
        }
    }
    /// The negated predicate (upstream `invertPredicate`): `!(a p b)` is `a p.invert() b`.
    pub fn invert(self) -> Self {
        use CmpIPredicate::*;
        match self {
            Eq => Ne,
            Ne => Eq,
            Slt => Sge,
            Sle => Sgt,
            Sgt => Sle,
            Sge => Slt,
            Ult => Uge,
            Ule => Ugt,
            Ugt => Ule,
            Uge => Ult,
        }
    }
    /// The predicate with its operands swapped: `a p b` is `b p.swapped() a`.
    pub fn swapped(self) -> Self {
        use CmpIPredicate::*;
        match self {
            Eq => Eq,
            Ne => Ne,
            Slt => Sgt,
            Sle => Sge,
            Sgt => Slt,
            Sge => Sle,
            Ult => Ugt,
            Ule => Uge,
            Ugt => Ult,
            Uge => Ule,
        }
    }
    /// The result of comparing a value with itself.
    pub fn reflexive(self) -> bool {
        matches!(
            self,
            CmpIPredicate::Eq
                | CmpIPredicate::Sle
                | CmpIPredicate::Sge
                | CmpIPredicate::Ule
                | CmpIPredicate::Uge
        )
    }
}

/// `arith.cmpf` predicates, numbered as upstream's `arith::CmpFPredicate`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CmpFPredicate {
    AlwaysFalse = 0,
    Oeq = 1,
    Ogt = 2,
    Oge = 3,
    Olt = 4,
    Ole = 5,
    One = 6,
    Ord = 7,
    Ueq = 8,
    Ugt = 9,
    Uge = 10,
    Ult = 11,
    Ule = 12,
    Une = 13,
    Uno = 14,
    AlwaysTrue = 15,
}

const CMPF: [(CmpFPredicate, &str); 16] = [
    (CmpFPredicate::AlwaysFalse, "false"),
    (CmpFPredicate::Oeq, "oeq"),
    (CmpFPredicate::Ogt, "ogt"),
    (CmpFPredicate::Oge, "oge"),
    (CmpFPredicate::Olt, "olt"),
    (CmpFPredicate::Ole, "ole"),
    (CmpFPredicate::One, "one"),
    (CmpFPredicate::Ord, "ord"),
    (CmpFPredicate::Ueq, "ueq"),
    (CmpFPredicate::Ugt, "ugt"),
    (CmpFPredicate::Uge, "uge"),
    (CmpFPredicate::Ult, "ult"),
    (CmpFPredicate::Ule, "ule"),
    (CmpFPredicate::Une, "une"),
    (CmpFPredicate::Uno, "uno"),
    (CmpFPredicate::AlwaysTrue, "true"),
];

impl CmpFPredicate {
    pub fn from_i64(v: i64) -> Option<Self> {
        CMPF.get(usize::try_from(v).ok()?).map(|(p, _)| *p)
    }
    pub fn from_name(name: &str) -> Option<Self> {
        CMPF.iter().find(|(_, n)| *n == name).map(|(p, _)| *p)
    }
    pub fn name(self) -> &'static str {
        CMPF[self as usize].1
    }
    /// Every predicate name, by enum number.
    pub fn names() -> [&'static str; 16] {
        CMPF.map(|(_, n)| n)
    }
    /// Compares two floats: ordered predicates are false and unordered ones true when either
    /// operand is NaN.
    pub fn eval(self, a: f64, b: f64) -> bool {
        use std::cmp::Ordering::*;
        let ord = a.partial_cmp(&b);
        let unordered = ord.is_none();
        match self {
            CmpFPredicate::AlwaysFalse => false,
            CmpFPredicate::AlwaysTrue => true,
            CmpFPredicate::Oeq => ord == Some(Equal),
            CmpFPredicate::Ogt => ord == Some(Greater),
            CmpFPredicate::Oge => matches!(ord, Some(Greater | Equal)),
            CmpFPredicate::Olt => ord == Some(Less),
            CmpFPredicate::Ole => matches!(ord, Some(Less | Equal)),
            CmpFPredicate::One => matches!(ord, Some(Less | Greater)),
            CmpFPredicate::Ord => !unordered,
            CmpFPredicate::Ueq => unordered || ord == Some(Equal),
            CmpFPredicate::Ugt => unordered || ord == Some(Greater),
            CmpFPredicate::Uge => unordered || matches!(ord, Some(Greater | Equal)),
            CmpFPredicate::Ult => unordered || ord == Some(Less),
            CmpFPredicate::Ule => unordered || matches!(ord, Some(Less | Equal)),
            CmpFPredicate::Une => unordered || ord != Some(Equal),
            CmpFPredicate::Uno => unordered,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_upstream() {
        for (i, (p, n)) in CMPI.iter().enumerate() {
            assert_eq!(*p as usize, i);
            assert_eq!(CmpIPredicate::from_name(n), Some(*p));
            assert_eq!(CmpIPredicate::from_i64(i as i64), Some(*p));
        }
        for (i, (p, n)) in CMPF.iter().enumerate() {
            assert_eq!(*p as usize, i);
            assert_eq!(CmpFPredicate::from_name(n), Some(*p));
        }
        assert_eq!(CmpIPredicate::from_i64(10), None);
        assert_eq!(CmpIPredicate::from_i64(-1), None);
        assert_eq!(CmpFPredicate::from_i64(16), None);
        assert_eq!(CmpFPredicate::Olt as i64, 4);
        assert_eq!(CmpIPredicate::Slt.name(), "slt");
    }

    #[test]
    fn int_compare() {
        let m1 = IntVal::new(-1, 8);
        let one = IntVal::new(1, 8);
        assert!(CmpIPredicate::Slt.eval(m1, one));
        assert!(!CmpIPredicate::Ult.eval(m1, one));
        assert!(CmpIPredicate::Ugt.eval(m1, one));
        assert!(CmpIPredicate::Ne.eval(m1, one));
        assert!(CmpIPredicate::Sge.reflexive() && !CmpIPredicate::Slt.reflexive());
    }

    #[test]
    fn invert_and_swap_agree_with_eval() {
        for (p, _) in CMPI {
            for a in 0..16 {
                for b in 0..16 {
                    let (x, y) = (IntVal::new(a, 4), IntVal::new(b, 4));
                    assert_eq!(p.invert().eval(x, y), !p.eval(x, y), "{p:?} {a} {b}");
                    assert_eq!(p.swapped().eval(y, x), p.eval(x, y), "{p:?} {a} {b}");
                }
            }
        }
    }

    #[test]
    fn float_compare_nan() {
        let n = f64::NAN;
        assert!(!CmpFPredicate::Oeq.eval(n, n));
        assert!(CmpFPredicate::Ueq.eval(n, 1.0));
        assert!(CmpFPredicate::Uno.eval(1.0, n));
        assert!(!CmpFPredicate::Ord.eval(1.0, n));
        assert!(CmpFPredicate::One.eval(1.0, 2.0));
        assert!(!CmpFPredicate::One.eval(n, 2.0));
        assert!(CmpFPredicate::Une.eval(n, 2.0));
        assert!(CmpFPredicate::Oeq.eval(0.0, -0.0));
        assert!(CmpFPredicate::AlwaysTrue.eval(n, n));
        assert!(!CmpFPredicate::AlwaysFalse.eval(1.0, 1.0));
    }
}
