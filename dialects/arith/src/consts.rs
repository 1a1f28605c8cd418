//! Constant values as folders see them: fixed-width integers (APInt-like, 0 to 64 bits; index
//! counts as 64), floats computed in their type's precision, and the bit encodings bitcast needs.

use qd_ir::{AttrData, Attribute, Context, FloatKind, FoldResult, Type, TypeData, Value};

/// An integer of `width` bits (0..=64), its bits kept zero-extended. An i0 has one value, 0,
/// which is every one of its special values at once (zero, all ones, signed min and max), as
/// APInt's zero-width integers are.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct IntVal {
    bits: u64,
    width: u32,
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

impl IntVal {
    /// `value` wrapped to `width` bits.
    pub fn new(value: i64, width: u32) -> Self {
        Self::from_bits(value as u64, width)
    }
    pub fn from_bits(bits: u64, width: u32) -> Self {
        debug_assert!(width <= 64);
        IntVal {
            bits: bits & mask(width),
            width,
        }
    }
    pub fn width(self) -> u32 {
        self.width
    }
    /// The value read as signed.
    pub fn sext(self) -> i64 {
        if self.width == 0 {
            return 0;
        }
        let shift = 64 - self.width;
        ((self.bits << shift) as i64) >> shift
    }
    /// The value read as unsigned.
    pub fn zext(self) -> u64 {
        self.bits
    }
    pub fn is_zero(self) -> bool {
        self.bits == 0
    }
    pub fn is_one(self) -> bool {
        self.bits == 1
    }
    pub fn is_all_ones(self) -> bool {
        self.bits == mask(self.width)
    }
    pub fn signed_min(width: u32) -> Self {
        if width == 0 {
            return Self::from_bits(0, 0);
        }
        Self::from_bits(1u64 << (width - 1), width)
    }
    pub fn signed_max(width: u32) -> Self {
        Self::from_bits(mask(width) >> 1, width)
    }
    /// The integer held by an integer or bool attribute (whose type is at most 64 bits wide).
    pub fn from_attr(ctx: &Context, attr: Attribute) -> Option<IntVal> {
        match ctx.attr_data(attr) {
            AttrData::Bool(b) => Some(IntVal::from_bits(*b as u64, 1)),
            AttrData::Integer { value, ty } => Some(IntVal::new(*value, int_width(ctx, *ty)?)),
            _ => None,
        }
    }
    /// The attribute of this value in type `ty` (i1 values become `true`/`false`).
    pub fn to_attr(self, ctx: &mut Context, ty: Type) -> Attribute {
        int_attr(ctx, self.sext(), ty)
    }
}

/// The width of a signless or signed integer or index type of at most 64 bits (index: 64).
pub fn int_width(ctx: &Context, ty: Type) -> Option<u32> {
    match ctx.type_data(ty) {
        TypeData::Integer { width, .. } if *width <= 64 => Some(*width),
        TypeData::Index => Some(64),
        _ => None,
    }
}

pub fn float_kind(ctx: &Context, ty: Type) -> Option<FloatKind> {
    match ctx.type_data(ty) {
        TypeData::Float(k) => Some(*k),
        _ => None,
    }
}

/// An integer attribute of type `ty`; i1 gets the canonical `true`/`false` attribute.
pub fn int_attr(ctx: &mut Context, value: i64, ty: Type) -> Attribute {
    if matches!(
        ctx.type_data(ty),
        TypeData::Integer {
            width: 1,
            signedness: qd_ir::Signedness::Signless
        }
    ) {
        return ctx.bool_attr(value & 1 != 0);
    }
    ctx.integer_attr(value, ty)
}

/// The value of a float attribute.
pub fn float_value(ctx: &Context, attr: Attribute) -> Option<f64> {
    ctx.attr_data(attr).as_float()
}

/// The type an attribute carries (i1 for `true`/`false`), if it is numeric.
pub fn attr_type(ctx: &mut Context, attr: Attribute) -> Option<Type> {
    match ctx.attr_data(attr) {
        AttrData::Bool(_) => Some(ctx.i1_type()),
        AttrData::Integer { ty, .. }
        | AttrData::WideInteger { ty, .. }
        | AttrData::Float { ty, .. } => Some(*ty),
        AttrData::DenseElements(d) => Some(d.ty),
        _ => None,
    }
}

/// The constant an SSA value holds (the `value` of a constant-like defining op).
pub use qd_ir::greedy::constant_value;

/// Computes a float operation in the precision of `kind`: f32 in f32, f64 in f64. f16 and bf16
/// use the f64 operation, whose result the caller rounds (exact for +, -, *, /, rem, sqrt,
/// min/max: f64 has more than twice their precision plus two bits).
pub fn in_precision(
    kind: FloatKind,
    args: &[f64],
    f32op: fn(&[f32]) -> f32,
    f64op: fn(&[f64]) -> f64,
) -> f64 {
    match kind {
        FloatKind::F32 => {
            // Bit for bit both ways: `as` would quieten a signaling NaN, which C's functions
            // (as mlir-opt calls them) see as it is: powf(sNaN, 0) is NaN, not 1.
            let to32 = |x: f64| {
                if x.is_nan() {
                    f32::from_bits(float_to_bits(kind, x) as u32)
                } else {
                    x as f32
                }
            };
            let a: Vec<f32> = args.iter().map(|&x| to32(x)).collect();
            let r = f32op(&a);
            if r.is_nan() {
                float_from_bits(kind, r.to_bits() as u64)
            } else {
                r as f64
            }
        }
        _ => f64op(args),
    }
}

/// The IEEE bit pattern of a float value of kind `kind` (exactly representable in it). NaNs
/// keep their sign and payload, as bitcast requires.
pub fn float_to_bits(kind: FloatKind, v: f64) -> u64 {
    qd_ir::float::f64_to_native(kind, v)
}

/// The float value of an IEEE bit pattern of kind `kind` (NaN payloads included).
pub fn float_from_bits(kind: FloatKind, bits: u64) -> f64 {
    qd_ir::float::native_to_f64(kind, bits)
}

/// One folded constant result.
pub fn fold_attr(a: Attribute) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Attr(a)])
}

/// One folded result that is an existing value.
pub fn fold_value(v: Value) -> Option<Vec<FoldResult>> {
    Some(vec![FoldResult::Value(v)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_views() {
        let v = IntVal::new(-1, 8);
        assert_eq!(v.zext(), 255);
        assert_eq!(v.sext(), -1);
        assert!(v.is_all_ones());
        assert_eq!(IntVal::new(300, 8).zext(), 44);
        assert_eq!(IntVal::signed_min(8).sext(), -128);
        assert_eq!(IntVal::signed_max(64).sext(), i64::MAX);
        assert_eq!(IntVal::from_bits(1, 1).sext(), -1);
        let z = IntVal::new(-1, 0);
        assert_eq!((z.zext(), z.sext()), (0, 0));
        assert!(z.is_zero() && z.is_all_ones() && !z.is_one());
        assert_eq!(IntVal::signed_min(0), z);
        assert_eq!(IntVal::signed_max(0), z);
    }

    #[test]
    fn attrs() {
        let mut ctx = Context::new();
        let i1 = ctx.i1_type();
        let t = int_attr(&mut ctx, -1, i1);
        assert_eq!(ctx.attr_data(t), &AttrData::Bool(true));
        assert_eq!(IntVal::from_attr(&ctx, t), Some(IntVal::from_bits(1, 1)));
        let idx = ctx.index_type();
        let a = int_attr(&mut ctx, -5, idx);
        assert_eq!(IntVal::from_attr(&ctx, a).unwrap().sext(), -5);
        let i128 = ctx.integer_type(128);
        let big = ctx.intern_attr(AttrData::Integer { value: 1, ty: i128 });
        assert_eq!(IntVal::from_attr(&ctx, big), None);
        assert_eq!(attr_type(&mut ctx, t), Some(i1));
    }

    #[test]
    fn float_bits() {
        for v in [
            1.0,
            -2.5,
            65504.0,
            2f64.powi(-24),
            2f64.powi(-14),
            0.0,
            -0.0,
            f64::INFINITY,
        ] {
            let b = float_to_bits(FloatKind::F16, v);
            assert_eq!(float_from_bits(FloatKind::F16, b).to_bits(), v.to_bits());
        }
        assert_eq!(float_to_bits(FloatKind::F16, 1.0), 0x3C00);
        assert_eq!(float_to_bits(FloatKind::F32, 1.0), 0x3F80_0000);
        assert_eq!(float_to_bits(FloatKind::BF16, 1.0), 0x3F80);
        assert_eq!(float_from_bits(FloatKind::BF16, 0xC000), -2.0);
        // NaNs keep their bits both ways (a signaling NaN stays one).
        for (kind, bits) in [
            (FloatKind::BF16, 0xFFFF),
            (FloatKind::F16, 0x7C01),
            (FloatKind::F32, 0x7F80_0001),
            (FloatKind::F32, 0xFFC0_0000),
        ] {
            let v = float_from_bits(kind, bits);
            assert!(v.is_nan());
            assert_eq!(float_to_bits(kind, v), bits, "{kind:?} {bits:#x}");
        }
    }

    #[test]
    fn precision() {
        let add32 = in_precision(
            FloatKind::F32,
            &[0.1, 0.2],
            |a| a[0] + a[1],
            |a| a[0] + a[1],
        );
        assert_eq!(add32, (0.1f32 + 0.2f32) as f64);
        let add64 = in_precision(
            FloatKind::F64,
            &[0.1, 0.2],
            |a| a[0] + a[1],
            |a| a[0] + a[1],
        );
        assert_eq!(add64, 0.1 + 0.2);
    }
}
