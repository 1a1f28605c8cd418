//! Interned attributes.

use crate::affine_map::AffineMap;
use crate::dense::DenseElements;
use crate::entity::{Attribute, Ident, Type};
use std::any::Any;
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

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
    /// An integer of a type wider than 64 bits whose value does not fit an i64 (one that fits is
    /// an `Integer`): its two's complement words, as `apint` keeps them.
    WideInteger {
        words: Vec<u64>,
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
    /// `dense<...> : tensor<...>` / `vector<...>` / `memref<...>`.
    DenseElements(DenseElements),
    /// `affine_map<(d0)[s0] -> (d0 + s0)>`.
    AffineMap(AffineMap),
    /// `strided<[4, 1], offset: ?>`: a memref layout; [`crate::types::DYNAMIC`] is `?`.
    Strided {
        strides: Vec<i64>,
        offset: i64,
    },
    /// A dialect attribute `#dialect.body` of a dialect that is not registered (with
    /// `allow_unregistered`), kept as text.
    Dialect {
        dialect: Ident,
        body: String,
    },
    /// A dialect attribute parsed once, by its dialect's `parse_attr` hook, into a typed value.
    Typed(TypedAttr),
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

/// The value of a typed dialect attribute `#dialect.body` (MLIR's AttributeStorage). A dialect's
/// `parse_attr` hook builds it from the body text; [`DialectAttr::print`] writes the body back.
/// Values are interned by value ([`AttrValue`], implemented for every `Eq + Hash` type), so equal
/// values share one [`Attribute`].
pub trait DialectAttr: AttrValue {
    /// The dialect's namespace (the text between `#` and `.`).
    fn dialect(&self) -> &'static str;
    /// Writes the body: the text after `#dialect.` (or after `#dialect` when it starts with `<`),
    /// exactly what the dialect's `parse_attr` hook reads back.
    fn print(&self, out: &mut String);
}

/// Equality, hashing and downcasting of a value behind `dyn DialectAttr`, given to every
/// `Eq + Hash` type, so that a dialect attribute implements only [`DialectAttr`]'s own methods.
pub trait AttrValue: Any + Debug + Send + Sync {
    /// Equal when `other` is a value of this type equal to `self`.
    fn dyn_eq(&self, other: &dyn Any) -> bool;
    fn dyn_hash(&self, state: &mut dyn Hasher);
    fn as_any(&self) -> &dyn Any;
}

impl<T: Any + Debug + Send + Sync + Eq + Hash> AttrValue for T {
    fn dyn_eq(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
    fn dyn_hash(&self, mut state: &mut dyn Hasher) {
        self.hash(&mut state);
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A shared typed dialect attribute value: `Eq` and `Hash` go through the value, so the Context
/// interns it like any other attribute. Cloning shares the value. As in MLIR, the attribute is
/// its value: it prints from the value, whatever spacing or parentheses the source text had, and
/// equal values are one handle.
#[derive(Clone, Debug)]
pub struct TypedAttr {
    value: Arc<dyn DialectAttr>,
}

impl TypedAttr {
    pub fn new(value: impl DialectAttr) -> Self {
        TypedAttr {
            value: Arc::new(value),
        }
    }
    /// The value a dialect's `parse_attr` hook returned.
    pub fn from_boxed(value: Box<dyn DialectAttr>) -> Self {
        TypedAttr {
            value: Arc::from(value),
        }
    }
    pub fn value(&self) -> &dyn DialectAttr {
        &*self.value
    }
    /// The value as a `T`, if it is one.
    pub fn downcast<T: DialectAttr>(&self) -> Option<&T> {
        self.value.as_any().downcast_ref::<T>()
    }
    /// Writes the body: the value's printed form.
    pub fn print_body(&self, out: &mut String) {
        self.value.print(out)
    }
}

impl PartialEq for TypedAttr {
    fn eq(&self, other: &Self) -> bool {
        self.value.dialect() == other.value.dialect() && self.value.dyn_eq(other.value.as_any())
    }
}

impl Eq for TypedAttr {}

impl Hash for TypedAttr {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.dialect().hash(state);
        Any::type_id(self.value.as_any()).hash(state);
        self.value.dyn_hash(state);
    }
}
