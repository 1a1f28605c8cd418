//! Types: integers of their width (`index` as i64), f32/f64, `!lowered.ptr` as an opaque pointer,
//! and the private aggregates of qd (`!qd.array<NxT>` as `[N x T]`, `!qd.struct<...>` as an
//! LLVM struct, `i1` members stored as LLVM keeps `i1` in memory: one byte).

use super::{Gen, R};
use inkwell::types::{BasicType, BasicTypeEnum};
use qd_frontend::{ArrayType, StructType};
use qd_ir::{FloatKind, Type, TypeData};

impl<'a, 'ctx> Gen<'a, 'ctx> {
    /// The LLVM type of lowered type `ty`.
    pub fn ty(&self, ty: Type) -> R<BasicTypeEnum<'ctx>> {
        let ir = self.ir;
        if qd_lowered::types::PtrType::from_type(ir, ty).is_some() {
            return Ok(self.ptr_ty().into());
        }
        if let Some(a) = ArrayType::from_type(ir, ty) {
            let elem = self.ty(a.elem(ir))?;
            let len = u32::try_from(a.len(ir)).map_err(|_| self.err("array too long"))?;
            return Ok(elem.array_type(len).into());
        }
        if let Some(s) = StructType::from_type(ir, ty) {
            let members = s
                .members(ir)
                .into_iter()
                .map(|m| self.ty(m))
                .collect::<R<Vec<_>>>()?;
            return Ok(self.llcx.struct_type(&members, false).into());
        }
        Ok(match ir.type_data(ty) {
            TypeData::Integer { width, .. } => self.int_ty(*width)?.into(),
            TypeData::Index => self.i64().into(),
            TypeData::Float(FloatKind::F32) => self.llcx.f32_type().into(),
            TypeData::Float(FloatKind::F64) => self.llcx.f64_type().into(),
            _ => {
                return Err(self.err(format!(
                    "the LLVM backend has no type for '{}'",
                    qd_ir::text::type_to_string(ir, ty)
                )))
            }
        })
    }

    /// The integer type of `width` bits.
    pub fn int_ty(&self, width: u32) -> R<inkwell::types::IntType<'ctx>> {
        std::num::NonZeroU32::new(width)
            .and_then(|w| self.llcx.custom_width_int_type(w).ok())
            .ok_or_else(|| self.err(format!("LLVM has no integer type of {width} bits")))
    }

    /// The pointee type of a `!lowered.ptr` type.
    pub fn pointee(&self, ptr_ty: Type) -> R<Type> {
        qd_lowered::types::pointee(self.ir, ptr_ty).ok_or_else(|| {
            self.err(format!(
                "expected a !lowered.ptr, got '{}'",
                qd_ir::text::type_to_string(self.ir, ptr_ty)
            ))
        })
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

    /// Whether `ty` is a float type.
    pub fn is_float(&self, ty: Type) -> bool {
        matches!(self.ir.type_data(ty), TypeData::Float(_))
    }
}
