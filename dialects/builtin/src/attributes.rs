//! Interned attributes.

use crate::entity::{Attribute, Ident, Type};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AttrData {
    Unit,
    Bool(bool),
    /// An integer of type `ty` (integer or index). The value is kept sign-extended from the type's
    /// width; unsigned types print it as unsigned.
    Integer {
        value: i64,
        ty: Type,
    },
    /// A float of type `ty`, stored as the bits of the f64 value (already rounded to `ty`).
    Float {
        bits: u64,
        ty: Type,
    },
    String(String),
    Type(Type),
    Array(Vec<Attribute>),
    /// Entries sorted by name, unique names.
    Dict(Vec<(Ident, Attribute)>),
    SymbolRef {
        root: Ident,
        nested: Vec<Ident>,
    },
    /// `array<i32: 1, 2>`: integer elements.
    DenseIntArray {
        elem: Type,
        values: Vec<i64>,
    },
    /// `array<f32: 1.0>`: float elements as f64 bits.
    DenseFloatArray {
        elem: Type,
        values: Vec<u64>,
    },
    /// A dialect attribute `#dialect.body`, kept as text; a registered dialect validates it at parse time.
    Dialect {
        dialect: Ident,
        body: String,
    },
}

impl AttrData {
    pub fn as_float(&self) -> Option<f64> {
        match self {
            AttrData::Float { bits, .. } => Some(f64::from_bits(*bits)),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            AttrData::Integer { value, .. } => Some(*value),
            AttrData::Bool(b) => Some(*b as i64),
            _ => None,
        }
    }
}
