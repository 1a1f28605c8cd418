//! Types: lowered scalars as SPIR-V scalars ([`Scalar`]: `i1` is `OpTypeBool`, integers are
//! signless words of their width, i64 and `index` the index type: 64-bit with `Int64`, else
//! 32-bit), qd private aggregates as arrays and structs in `Function` memory. A width the target
//! lacks is a located error naming the missing capability.

use super::{Gen, R};
use qd_frontend::{ArrayType, StructType};
use qd_ir::{FloatKind, Type, TypeData};
use rspirv::spirv::{Capability, StorageClass, Word};

/// A SPIR-V scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Scalar {
    Bool,
    I(u32),
    F(u32),
}

impl Scalar {
    pub fn width(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::I(w) | Scalar::F(w) => w,
        }
    }
    pub fn bytes(self) -> u32 {
        self.width().div_ceil(8)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F(_))
    }
    /// `bits` truncated to the width.
    pub fn truncate(self, bits: u64) -> u64 {
        match self.width() {
            64 => bits,
            w => bits & ((1u64 << w) - 1),
        }
    }
}

impl Gen<'_> {
    /// The index type: i64 with `Int64`, else i32.
    pub fn index(&self) -> Scalar {
        if self.opts.int64 {
            Scalar::I(64)
        } else {
            Scalar::I(32)
        }
    }

    /// The SPIR-V type id of `s`, declaring the capability its width needs.
    pub fn scalar_ty(&mut self, s: Scalar) -> Word {
        match s {
            Scalar::Bool => self.b.type_bool(),
            Scalar::I(w) => {
                match w {
                    8 => self.need(Capability::Int8),
                    16 => self.need(Capability::Int16),
                    64 => self.need(Capability::Int64),
                    _ => {}
                }
                self.b.type_int(w, 0)
            }
            Scalar::F(w) => {
                if w == 64 {
                    self.need(Capability::Float64);
                }
                self.b.type_float(w, None)
            }
        }
    }

    /// The scalar of lowered type `ty` (`i64`/`index` narrowed to the index type), or a located
    /// error when the target lacks its width.
    pub fn scalar(&self, ty: Type) -> R<Scalar> {
        let o = self.opts;
        let lacks = |cap: &str| {
            self.err(format!(
                "'{}' needs the SPIR-V capability {cap}, which the target lacks",
                qd_ir::text::type_to_string(self.ir, ty)
            ))
        };
        Ok(match self.ir.type_data(ty) {
            TypeData::Integer { width: 1, .. } => Scalar::Bool,
            TypeData::Integer { width: 8, .. } if o.int8 => Scalar::I(8),
            TypeData::Integer { width: 8, .. } => return Err(lacks("Int8")),
            TypeData::Integer { width: 16, .. } if o.int16 => Scalar::I(16),
            TypeData::Integer { width: 16, .. } => return Err(lacks("Int16")),
            TypeData::Integer { width: 32, .. } => Scalar::I(32),
            TypeData::Integer { width: 64, .. } | TypeData::Index => self.index(),
            TypeData::Float(FloatKind::F32) => Scalar::F(32),
            TypeData::Float(FloatKind::F64) if o.float64 => Scalar::F(64),
            TypeData::Float(FloatKind::F64) => return Err(lacks("Float64")),
            _ => {
                return Err(self.err(format!(
                    "the SPIR-V backend has no type for '{}'",
                    qd_ir::text::type_to_string(self.ir, ty)
                )))
            }
        })
    }

    /// The scalar of a value of data (a field, ndarray, argument or atomic operand): as
    /// [`Gen::scalar`], but a 64-bit integer is refused without `Int64` instead of narrowed.
    pub fn data_scalar(&self, ty: Type) -> R<Scalar> {
        if !self.opts.int64 && self.lowered_width(ty) == Some(64) {
            return Err(self.err(format!(
                "'{}' data needs the SPIR-V capability Int64, which the target lacks",
                qd_ir::text::type_to_string(self.ir, ty)
            )));
        }
        self.scalar(ty)
    }

    /// The width of a lowered integer type (`index` is 64), None for others.
    pub fn lowered_width(&self, ty: Type) -> Option<u32> {
        match self.ir.type_data(ty) {
            TypeData::Integer { width, .. } => Some(*width),
            TypeData::Index => Some(64),
            _ => None,
        }
    }

    /// The bytes of lowered scalar type `ty` in global memory.
    pub fn lowered_bytes(&self, ty: Type) -> R<u32> {
        match self.ir.type_data(ty) {
            TypeData::Integer { width, .. } => Ok(width.div_ceil(8)),
            TypeData::Index => Ok(8),
            TypeData::Float(FloatKind::F32) => Ok(4),
            TypeData::Float(FloatKind::F64) => Ok(8),
            _ => Err(self.err("expected a scalar pointee")),
        }
    }

    /// Whether `ty` is an unsigned integer type (`ui*`).
    pub fn is_unsigned(&self, ty: Type) -> bool {
        matches!(
            self.ir.type_data(ty),
            TypeData::Integer {
                signedness: qd_ir::Signedness::Unsigned,
                ..
            }
        )
    }

    /// The SPIR-V type of a lowered private value type (scalar or qd aggregate).
    pub fn private_ty(&mut self, ty: Type) -> R<Word> {
        let ir = self.ir;
        if let Some(a) = ArrayType::from_type(ir, ty) {
            let elem = self.private_ty(a.elem(ir))?;
            let len = u32::try_from(a.len(ir))
                .ok()
                .filter(|&l| l > 0)
                .ok_or_else(|| self.err("a SPIR-V array needs a length in 1..2^32"))?;
            let n = self.u32c(len);
            return Ok(self.b.type_array(elem, n));
        }
        if let Some(s) = StructType::from_type(ir, ty) {
            let members = s
                .members(ir)
                .into_iter()
                .map(|m| self.private_ty(m))
                .collect::<R<Vec<_>>>()?;
            return Ok(self.b.type_struct(members));
        }
        let s = self.scalar(ty)?;
        Ok(self.scalar_ty(s))
    }

    /// A pointer type to `pointee` in `class`.
    pub fn ptr_ty(&mut self, class: StorageClass, pointee: Word) -> Word {
        self.b.type_pointer(None, class, pointee)
    }
}
