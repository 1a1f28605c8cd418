//! Element types ([`DType`]) and typed scalar values ([`Scalar`]) of fields, ndarrays and scalar
//! kernel arguments, with their conversions.
//!
//! Devices exchange scalars as *canonical bits* (`u64`): an integer of width `w` is its low `w`
//! bits sign-extended to 64 (whatever its signedness, so `true` is all ones), an `f32` is its
//! IEEE bits zero-extended, an `f64` its IEEE bits. Readers truncate to their width, so every
//! integer op can ignore the upper bits it did not produce.

use qd_ir::{Context, FloatKind, Signedness, Type, TypeData};
use std::fmt;

/// The element type of a field, ndarray or scalar argument.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DType {
    I1,
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F32,
    F64,
}

impl DType {
    pub const ALL: [DType; 11] = [
        DType::I1,
        DType::I8,
        DType::I16,
        DType::I32,
        DType::I64,
        DType::U8,
        DType::U16,
        DType::U32,
        DType::U64,
        DType::F32,
        DType::F64,
    ];

    /// The dtype of an IR type. Signless and signed integers are signed here; `index`, `f16`,
    /// `bf16`, odd integer widths and non-scalar types are refused with a message.
    pub fn from_type(ctx: &Context, ty: Type) -> Result<DType, String> {
        let unsupported = || {
            format!(
                "element type '{}' is not supported by the runtime (supported: i1, i8, i16, \
                 i32, i64, ui8, ui16, ui32, ui64, f32, f64)",
                qd_ir::text::type_to_string(ctx, ty)
            )
        };
        match ctx.type_data(ty) {
            TypeData::Integer { width, signedness } => {
                let unsigned = *signedness == Signedness::Unsigned;
                Ok(match (width, unsigned) {
                    (1, _) => DType::I1,
                    (8, false) => DType::I8,
                    (16, false) => DType::I16,
                    (32, false) => DType::I32,
                    (64, false) => DType::I64,
                    (8, true) => DType::U8,
                    (16, true) => DType::U16,
                    (32, true) => DType::U32,
                    (64, true) => DType::U64,
                    _ => return Err(unsupported()),
                })
            }
            TypeData::Float(FloatKind::F32) => Ok(DType::F32),
            TypeData::Float(FloatKind::F64) => Ok(DType::F64),
            _ => Err(unsupported()),
        }
    }

    /// The MLIR spelling: `i32`, `ui8`, `f32`.
    pub fn name(self) -> &'static str {
        match self {
            DType::I1 => "i1",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::U8 => "ui8",
            DType::U16 => "ui16",
            DType::U32 => "ui32",
            DType::U64 => "ui64",
            DType::F32 => "f32",
            DType::F64 => "f64",
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::F32 | DType::F64)
    }
    pub fn is_unsigned(self) -> bool {
        matches!(self, DType::U8 | DType::U16 | DType::U32 | DType::U64)
    }
    /// Bit width (1 for i1).
    pub fn bits(self) -> u32 {
        match self {
            DType::I1 => 1,
            DType::I8 | DType::U8 => 8,
            DType::I16 | DType::U16 => 16,
            DType::I32 | DType::U32 | DType::F32 => 32,
            DType::I64 | DType::U64 | DType::F64 => 64,
        }
    }
    /// Bytes per element in host storage (1 for i1).
    pub fn size_bytes(self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }
    /// The inclusive integer range of an integer dtype (None for floats).
    pub fn int_range(self) -> Option<(i128, i128)> {
        let b = self.bits();
        match self {
            DType::F32 | DType::F64 => None,
            DType::I1 => Some((0, 1)),
            _ if self.is_unsigned() => Some((0, (1i128 << b) - 1)),
            _ => Some((-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)),
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One typed value.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Scalar {
    I1(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
}

impl Scalar {
    pub fn dtype(self) -> DType {
        match self {
            Scalar::I1(_) => DType::I1,
            Scalar::I8(_) => DType::I8,
            Scalar::I16(_) => DType::I16,
            Scalar::I32(_) => DType::I32,
            Scalar::I64(_) => DType::I64,
            Scalar::U8(_) => DType::U8,
            Scalar::U16(_) => DType::U16,
            Scalar::U32(_) => DType::U32,
            Scalar::U64(_) => DType::U64,
            Scalar::F32(_) => DType::F32,
            Scalar::F64(_) => DType::F64,
        }
    }

    /// The zero of a dtype (`false` for i1).
    pub fn zero(dtype: DType) -> Scalar {
        Scalar::from_bits(dtype, 0)
    }

    /// The value as f64 (exact for every type but i64/u64 beyond 2^53, which round).
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::I1(v) => v as u8 as f64,
            Scalar::I8(v) => v as f64,
            Scalar::I16(v) => v as f64,
            Scalar::I32(v) => v as f64,
            Scalar::I64(v) => v as f64,
            Scalar::U8(v) => v as f64,
            Scalar::U16(v) => v as f64,
            Scalar::U32(v) => v as f64,
            Scalar::U64(v) => v as f64,
            Scalar::F32(v) => v as f64,
            Scalar::F64(v) => v,
        }
    }

    /// The value of an integer scalar, exactly (None for floats).
    pub fn to_i128(self) -> Option<i128> {
        Some(match self {
            Scalar::I1(v) => v as i128,
            Scalar::I8(v) => v as i128,
            Scalar::I16(v) => v as i128,
            Scalar::I32(v) => v as i128,
            Scalar::I64(v) => v as i128,
            Scalar::U8(v) => v as i128,
            Scalar::U16(v) => v as i128,
            Scalar::U32(v) => v as i128,
            Scalar::U64(v) => v as i128,
            Scalar::F32(_) | Scalar::F64(_) => return None,
        })
    }

    /// The integer `v` as a scalar of `dtype` when it is in range (floats round to nearest).
    pub fn from_i128(dtype: DType, v: i128) -> Result<Scalar, String> {
        if let Some((lo, hi)) = dtype.int_range() {
            if v < lo || v > hi {
                return Err(format!("value {v} does not fit in {dtype}"));
            }
        }
        Ok(match dtype {
            DType::I1 => Scalar::I1(v != 0),
            DType::I8 => Scalar::I8(v as i8),
            DType::I16 => Scalar::I16(v as i16),
            DType::I32 => Scalar::I32(v as i32),
            DType::I64 => Scalar::I64(v as i64),
            DType::U8 => Scalar::U8(v as u8),
            DType::U16 => Scalar::U16(v as u16),
            DType::U32 => Scalar::U32(v as u32),
            DType::U64 => Scalar::U64(v as u64),
            DType::F32 => Scalar::F32(v as f32),
            DType::F64 => Scalar::F64(v as f64),
        })
    }

    /// `v` as a scalar of `dtype`: floats round to the type; integer types need an integral,
    /// in-range value (no silent truncation).
    pub fn from_f64(dtype: DType, v: f64) -> Result<Scalar, String> {
        match dtype {
            DType::F32 => Ok(Scalar::F32(v as f32)),
            DType::F64 => Ok(Scalar::F64(v)),
            _ => {
                if !v.is_finite() || v.fract() != 0.0 {
                    return Err(format!("value {v} is not an integer, as {dtype} needs"));
                }
                // |v| < 2^127 here or the range check below fails anyway.
                if v.abs() >= 2f64.powi(100) {
                    return Err(format!("value {v} does not fit in {dtype}"));
                }
                Scalar::from_i128(dtype, v as i128)
            }
        }
    }

    /// This value converted to `dtype`: exact for integers (range-checked), rounding for floats,
    /// integral and in range for float-to-integer.
    pub fn convert(self, dtype: DType) -> Result<Scalar, String> {
        match self.to_i128() {
            Some(i) => Scalar::from_i128(dtype, i),
            None => Scalar::from_f64(dtype, self.to_f64()),
        }
    }

    /// Parses the text of one value as `dtype`: integers in decimal (`-3`, and `true`/`false`
    /// for i1), floats as Rust parses them (`1.5`, `-2e-3`, `inf`, `nan`).
    pub fn parse(dtype: DType, text: &str) -> Result<Scalar, String> {
        let t = text.trim();
        if dtype.is_float() {
            let v: f64 = t
                .parse()
                .map_err(|_| format!("'{t}' is not a number (expected {dtype})"))?;
            return Scalar::from_f64(dtype, v);
        }
        if dtype == DType::I1 {
            match t {
                "true" => return Ok(Scalar::I1(true)),
                "false" => return Ok(Scalar::I1(false)),
                _ => {}
            }
        }
        let v: i128 = t
            .parse()
            .map_err(|_| format!("'{t}' is not an integer (expected {dtype})"))?;
        Scalar::from_i128(dtype, v)
    }

    /// The canonical bits (see the module docs).
    pub fn to_bits(self) -> u64 {
        match self {
            Scalar::I1(v) => {
                if v {
                    u64::MAX
                } else {
                    0
                }
            }
            Scalar::I8(v) => v as i64 as u64,
            Scalar::I16(v) => v as i64 as u64,
            Scalar::I32(v) => v as i64 as u64,
            Scalar::I64(v) => v as u64,
            Scalar::U8(v) => v as i8 as i64 as u64,
            Scalar::U16(v) => v as i16 as i64 as u64,
            Scalar::U32(v) => v as i32 as i64 as u64,
            Scalar::U64(v) => v,
            Scalar::F32(v) => v.to_bits() as u64,
            Scalar::F64(v) => v.to_bits(),
        }
    }

    /// The scalar of `dtype` whose canonical bits (or any bits with the same low part) are `bits`.
    pub fn from_bits(dtype: DType, bits: u64) -> Scalar {
        match dtype {
            DType::I1 => Scalar::I1(bits & 1 != 0),
            DType::I8 => Scalar::I8(bits as i8),
            DType::I16 => Scalar::I16(bits as i16),
            DType::I32 => Scalar::I32(bits as i32),
            DType::I64 => Scalar::I64(bits as i64),
            DType::U8 => Scalar::U8(bits as u8),
            DType::U16 => Scalar::U16(bits as u16),
            DType::U32 => Scalar::U32(bits as u32),
            DType::U64 => Scalar::U64(bits),
            DType::F32 => Scalar::F32(f32::from_bits(bits as u32)),
            DType::F64 => Scalar::F64(f64::from_bits(bits)),
        }
    }
}

/// Integers print in decimal, i1 as `true`/`false`, floats in their shortest round-trip form
/// (Rust's `{:?}`: `3.2`, `1.0`, `1e-7`, `NaN`, `inf`).
impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::I1(v) => write!(f, "{v}"),
            Scalar::I8(v) => write!(f, "{v}"),
            Scalar::I16(v) => write!(f, "{v}"),
            Scalar::I32(v) => write!(f, "{v}"),
            Scalar::I64(v) => write!(f, "{v}"),
            Scalar::U8(v) => write!(f, "{v}"),
            Scalar::U16(v) => write!(f, "{v}"),
            Scalar::U32(v) => write!(f, "{v}"),
            Scalar::U64(v) => write!(f, "{v}"),
            Scalar::F32(v) => write!(f, "{v:?}"),
            Scalar::F64(v) => write!(f, "{v:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_from_types() {
        let mut ctx = Context::new();
        let cases = [
            (ctx.i1_type(), Some(DType::I1)),
            (ctx.i32_type(), Some(DType::I32)),
            (ctx.i64_type(), Some(DType::I64)),
            (ctx.f32_type(), Some(DType::F32)),
            (ctx.f64_type(), Some(DType::F64)),
            (ctx.index_type(), None),
            (ctx.float_type(FloatKind::F16), None),
            (ctx.integer_type(7), None),
        ];
        for (ty, want) in cases {
            assert_eq!(DType::from_type(&ctx, ty).ok(), want);
        }
        let u8t = ctx.intern_type(TypeData::Integer {
            width: 8,
            signedness: Signedness::Unsigned,
        });
        assert_eq!(DType::from_type(&ctx, u8t), Ok(DType::U8));
        let f16 = ctx.float_type(FloatKind::F16);
        let err = DType::from_type(&ctx, f16).unwrap_err();
        assert!(err.contains("'f16' is not supported"), "{err}");
    }

    #[test]
    fn bits_round_trip() {
        for (s, bits) in [
            (Scalar::I1(true), u64::MAX),
            (Scalar::I1(false), 0),
            (Scalar::I32(-1), u64::MAX),
            (Scalar::I8(-128), (-128i64) as u64),
            (Scalar::U8(255), u64::MAX),
            (Scalar::F32(1.0), 0x3f80_0000),
            (Scalar::F64(-0.0), 1 << 63),
        ] {
            assert_eq!(s.to_bits(), bits, "{s:?}");
            assert_eq!(Scalar::from_bits(s.dtype(), bits), s);
        }
    }

    #[test]
    fn conversions_are_checked() {
        assert_eq!(Scalar::from_f64(DType::I32, 3.0), Ok(Scalar::I32(3)));
        assert!(Scalar::from_f64(DType::I32, 3.5).is_err());
        assert!(Scalar::from_f64(DType::I8, 300.0).is_err());
        assert!(Scalar::from_f64(DType::U8, -1.0).is_err());
        assert!(Scalar::from_f64(DType::I64, f64::NAN).is_err());
        assert_eq!(Scalar::from_f64(DType::F32, 0.1), Ok(Scalar::F32(0.1)));
        assert_eq!(Scalar::I64(5).convert(DType::F32), Ok(Scalar::F32(5.0)));
        assert!(Scalar::I64(1 << 40).convert(DType::I32).is_err());
        assert_eq!(
            Scalar::I64(i64::MAX).convert(DType::U64),
            Ok(Scalar::U64(i64::MAX as u64))
        );
        assert_eq!(
            Scalar::F64(2.0).convert(DType::I1),
            Err("value 2 does not fit in i1".into())
        );
    }

    #[test]
    fn parse_and_display() {
        assert_eq!(Scalar::parse(DType::F32, " 2.5 "), Ok(Scalar::F32(2.5)));
        assert_eq!(Scalar::parse(DType::I32, "-7"), Ok(Scalar::I32(-7)));
        assert_eq!(Scalar::parse(DType::I1, "true"), Ok(Scalar::I1(true)));
        assert_eq!(Scalar::parse(DType::I1, "0"), Ok(Scalar::I1(false)));
        assert_eq!(
            Scalar::parse(DType::U64, "18446744073709551615"),
            Ok(Scalar::U64(u64::MAX))
        );
        assert!(Scalar::parse(DType::I32, "1.5").is_err());
        assert!(Scalar::parse(DType::I32, "abc").is_err());
        assert!(Scalar::parse(DType::F64, "").is_err());
        assert!(Scalar::parse(DType::I16, "40000").is_err());
        assert_eq!(Scalar::F32(3.2).to_string(), "3.2");
        assert_eq!(Scalar::F32(1.0).to_string(), "1.0");
        assert_eq!(Scalar::F32(1e-7).to_string(), "1e-7");
        assert_eq!(Scalar::I1(true).to_string(), "true");
        assert_eq!(Scalar::U8(200).to_string(), "200");
    }
}
