//! Interned types: builtin types plus dialect types (structured when the dialect is registered,
//! kept verbatim when it is not).

use crate::entity::{Ident, Type};
pub use crate::shaped_types::{MemRefType, TensorType, VectorType, DYNAMIC};

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
}

impl FloatKind {
    pub fn width(self) -> u32 {
        match self {
            FloatKind::F16 | FloatKind::BF16 => 16,
            FloatKind::F32 => 32,
            FloatKind::F64 => 64,
        }
    }
    pub fn keyword(self) -> &'static str {
        match self {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
        }
    }
}

/// One parameter of a registered dialect type, e.g. the shape and element type of `!qd.field<16xf32>`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeParam {
    Type(Type),
    Int(i64),
    /// A dimension list; `None` is a dynamic (`?`) dimension.
    Dims(Vec<Option<i64>>),
    Str(String),
}

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypeData {
    Integer {
        width: u32,
        signedness: Signedness,
    },
    Index,
    Float(FloatKind),
    None,
    Function {
        inputs: Vec<Type>,
        results: Vec<Type>,
    },
    /// `vector<4x[8]xf32>`: a static shape, some dims scalable.
    Vector(VectorType),
    /// `tensor<4x?xf32>`, `tensor<2xi32, "enc">`, unranked `tensor<*xf32>`.
    Tensor(TensorType),
    /// `memref<4x?xf32, strided<[?, 1]>, 1>`, unranked `memref<*xf32, 2>`.
    MemRef(MemRefType),
    /// `complex<f32>`: a complex number of an integer or float type.
    Complex(Type),
    /// `tuple<i32, f32>`.
    Tuple(Vec<Type>),
    /// A type of a registered dialect: `!dialect.mnemonic<params>`, printed and parsed by the dialect.
    Dialect {
        dialect: Ident,
        mnemonic: Ident,
        params: Vec<TypeParam>,
    },
    /// A type of an unregistered dialect, kept verbatim: `!dialect.body`.
    Opaque {
        dialect: Ident,
        body: String,
    },
}

impl TypeData {
    pub fn is_integer(&self) -> bool {
        matches!(self, TypeData::Integer { .. })
    }
    pub fn is_signless_integer(&self) -> bool {
        matches!(
            self,
            TypeData::Integer {
                signedness: Signedness::Signless,
                ..
            }
        )
    }
    pub fn is_float(&self) -> bool {
        matches!(self, TypeData::Float(_))
    }
    pub fn is_index(&self) -> bool {
        matches!(self, TypeData::Index)
    }
    /// Signless integer or index: what arith's integer ops accept.
    pub fn is_signless_int_or_index(&self) -> bool {
        self.is_signless_integer() || self.is_index()
    }
    /// The shape of a vector, ranked tensor or ranked memref ([`DYNAMIC`] marks a `?` dim).
    pub fn shape(&self) -> Option<&[i64]> {
        match self {
            TypeData::Vector(v) => Some(&v.shape),
            TypeData::Tensor(t) => t.shape.as_deref(),
            TypeData::MemRef(m) => m.shape.as_deref(),
            _ => None,
        }
    }
    /// The element type of a vector, tensor or memref.
    pub fn element_type(&self) -> Option<Type> {
        match self {
            TypeData::Vector(v) => Some(v.elem),
            TypeData::Tensor(t) => Some(t.elem),
            TypeData::MemRef(m) => Some(m.elem),
            _ => None,
        }
    }
    /// Whether this is a vector, tensor or memref type.
    pub fn is_shaped(&self) -> bool {
        matches!(
            self,
            TypeData::Vector(_) | TypeData::Tensor(_) | TypeData::MemRef(_)
        )
    }
    /// Bit width of integer and float types; index counts as 64.
    pub fn bit_width(&self) -> Option<u32> {
        match self {
            TypeData::Integer { width, .. } => Some(*width),
            TypeData::Float(k) => Some(k.width()),
            TypeData::Index => Some(64),
            _ => None,
        }
    }
}
