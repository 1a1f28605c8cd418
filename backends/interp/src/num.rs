//! Scalar kinds and the canonical 64-bit encoding of values in registers (the runtime's: an
//! integer of width `w` is its low `w` bits sign-extended, `true` is all ones, an f32 is its bits
//! zero-extended, an f64 its bits).

use qd_ir::{Context, FloatKind, Signedness, Type, TypeData};

/// How the interpreter computes with a scalar type.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    /// Integers of 1 to 64 bits and `index` (64). `unsigned` only for `ui*` types (it matters to
    /// atomic min/max; arith's ops carry their own signedness).
    Int {
        width: u32,
        unsigned: bool,
    },
    F32,
    F64,
}

impl Kind {
    /// The kind of a scalar type, or None (f16, bf16, wider integers, non-scalars).
    pub fn of(ctx: &Context, ty: Type) -> Option<Kind> {
        match ctx.type_data(ty) {
            TypeData::Integer { width, signedness } if (1..=64).contains(width) => {
                Some(Kind::Int {
                    width: *width,
                    unsigned: *signedness == Signedness::Unsigned,
                })
            }
            TypeData::Index => Some(Kind::Int {
                width: 64,
                unsigned: false,
            }),
            TypeData::Float(FloatKind::F32) => Some(Kind::F32),
            TypeData::Float(FloatKind::F64) => Some(Kind::F64),
            _ => None,
        }
    }
}

/// `bits` read as a signed integer of width `w`.
#[inline]
pub fn sext(bits: u64, w: u32) -> i64 {
    let s = 64 - w;
    ((bits << s) as i64) >> s
}

/// `bits` read as an unsigned integer of width `w`.
#[inline]
pub fn zext(bits: u64, w: u32) -> u64 {
    if w >= 64 {
        bits
    } else {
        bits & ((1u64 << w) - 1)
    }
}

/// The canonical encoding of the low `w` bits of `bits`.
#[inline]
pub fn canon(bits: u64, w: u32) -> u64 {
    sext(bits, w) as u64
}

#[inline]
pub fn bool_bits(b: bool) -> u64 {
    if b {
        u64::MAX
    } else {
        0
    }
}

/// The floats the interpreter computes with, each in its own precision.
pub trait Float:
    Copy
    + PartialOrd
    + std::fmt::Debug
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Rem<Output = Self>
    + std::ops::Neg<Output = Self>
    + 'static
{
    fn from_bits64(b: u64) -> Self;
    fn to_bits64(self) -> u64;
    fn is_nan(self) -> bool;
    fn is_sign_negative(self) -> bool;
    fn nan() -> Self;

    /// IEEE 754-2008 minNum: a NaN operand loses to a number (atomic min).
    fn min_num(self, b: Self) -> Self {
        if self.is_nan() || b < self {
            b
        } else {
            self
        }
    }

    /// IEEE 754-2008 maxNum: a NaN operand loses to a number (atomic max).
    fn max_num(self, b: Self) -> Self {
        if self.is_nan() || b > self {
            b
        } else {
            self
        }
    }

    /// IEEE 754-2019 minimum: NaN-propagating, -0 below +0 (arith.minimumf).
    fn ieee_minimum(self, b: Self) -> Self {
        if self.is_nan() || b.is_nan() {
            Self::nan()
        } else if self < b || (self == b && self.is_sign_negative()) {
            self
        } else {
            b
        }
    }

    /// IEEE 754-2019 maximum: NaN-propagating, +0 above -0 (arith.maximumf).
    fn ieee_maximum(self, b: Self) -> Self {
        if self.is_nan() || b.is_nan() {
            Self::nan()
        } else if self > b || (self == b && !self.is_sign_negative()) {
            self
        } else {
            b
        }
    }
}

impl Float for f32 {
    #[inline]
    fn from_bits64(b: u64) -> f32 {
        f32::from_bits(b as u32)
    }
    #[inline]
    fn to_bits64(self) -> u64 {
        self.to_bits() as u64
    }
    fn is_nan(self) -> bool {
        f32::is_nan(self)
    }
    fn is_sign_negative(self) -> bool {
        f32::is_sign_negative(self)
    }
    fn nan() -> f32 {
        f32::NAN
    }
}

impl Float for f64 {
    #[inline]
    fn from_bits64(b: u64) -> f64 {
        f64::from_bits(b)
    }
    #[inline]
    fn to_bits64(self) -> u64 {
        self.to_bits()
    }
    fn is_nan(self) -> bool {
        f64::is_nan(self)
    }
    fn is_sign_negative(self) -> bool {
        f64::is_sign_negative(self)
    }
    fn nan() -> f64 {
        f64::NAN
    }
}

/// How an atomic combines an element's old bits `x` with the value's bits `y`, for `qd.atomic_*`,
/// `qd.ndarray_atomic_*` and `lowered.atomic_*` alike: integers wrap (add, sub) and compare by
/// their signedness (min/max, signed unless `ui*`; the canonical bits themselves are kept);
/// floats add and subtract in their precision and take IEEE minNum/maxNum (a NaN operand loses
/// to a number).
pub fn atomic_combine(kind: Kind, which: qd_frontend::AtomicKind) -> Box<dyn Fn(u64, u64) -> u64> {
    use qd_frontend::AtomicKind;
    match kind {
        Kind::Int { width: w, unsigned } => {
            let key = move |x: u64| {
                if unsigned {
                    zext(x, w) as i128
                } else {
                    sext(x, w) as i128
                }
            };
            match which {
                AtomicKind::Add => Box::new(move |x, y| canon(x.wrapping_add(y), w)),
                AtomicKind::Sub => Box::new(move |x, y| canon(x.wrapping_sub(y), w)),
                AtomicKind::Min => Box::new(move |x, y| if key(y) < key(x) { y } else { x }),
                AtomicKind::Max => Box::new(move |x, y| if key(y) > key(x) { y } else { x }),
            }
        }
        Kind::F32 => float_combine::<f32>(which),
        Kind::F64 => float_combine::<f64>(which),
    }
}

fn float_combine<T: Float>(which: qd_frontend::AtomicKind) -> Box<dyn Fn(u64, u64) -> u64> {
    use qd_frontend::AtomicKind;
    let f = T::from_bits64;
    match which {
        AtomicKind::Add => Box::new(move |x, y| (f(x) + f(y)).to_bits64()),
        AtomicKind::Sub => Box::new(move |x, y| (f(x) - f(y)).to_bits64()),
        AtomicKind::Min => Box::new(move |x, y| f(x).min_num(f(y)).to_bits64()),
        AtomicKind::Max => Box::new(move |x, y| f(x).max_num(f(y)).to_bits64()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        assert_eq!(sext(0xff, 8), -1);
        assert_eq!(sext(0x7f, 8), 127);
        assert_eq!(zext(u64::MAX, 8), 255);
        assert_eq!(zext(u64::MAX, 64), u64::MAX);
        assert_eq!(canon(0x8000_0000, 32), 0xffff_ffff_8000_0000);
        assert_eq!(canon(1, 1), u64::MAX);
        assert_eq!(sext(u64::MAX, 64), -1);
    }

    #[test]
    fn minimum_maximum() {
        assert_eq!(1.0f32.ieee_minimum(2.0), 1.0);
        assert!(1.0f32.ieee_minimum(f32::NAN).is_nan());
        assert!(f64::NAN.ieee_maximum(1.0).is_nan());
        assert!(0.0f32.ieee_minimum(-0.0).is_sign_negative());
        assert!((-0.0f64).ieee_minimum(0.0).is_sign_negative());
        assert!(!0.0f32.ieee_maximum(-0.0).is_sign_negative());
        assert!(!(-0.0f64).ieee_maximum(0.0).is_sign_negative());
        assert_eq!(3.0f64.ieee_maximum(-1.0), 3.0);
        assert_eq!(f32::NAN.min_num(2.0), 2.0);
        assert_eq!(2.0f32.min_num(f32::NAN), 2.0);
        assert_eq!(2.0f64.max_num(3.0), 3.0);
        assert_eq!(f64::NAN.max_num(-3.0), -3.0);
    }
}
