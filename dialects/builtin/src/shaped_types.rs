//! The builtin shaped types, as MLIR's: `vector`, `tensor` (ranked, with an optional encoding, or
//! unranked) and `memref` (ranked, with an optional layout, or unranked; both with an optional
//! memory space). Their syntax is in `text/shaped_type_parser.rs` and `text/print_attr.rs`.

use crate::entity::{Attribute, Type};

/// A dynamic (`?`) dimension, as MLIR's `ShapedType::kDynamic`; also a dynamic stride or offset
/// of a `strided` layout.
pub const DYNAMIC: i64 = i64::MIN;

/// `vector<2x[4]xf32>`: every dim static and positive; `scalable[i]` marks `[n]` dims.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct VectorType {
    pub shape: Vec<i64>,
    pub scalable: Vec<bool>,
    pub elem: Type,
}

/// `tensor<4x?xf32, encoding>`; `shape: None` is `tensor<*xf32>` (no encoding then).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TensorType {
    pub shape: Option<Vec<i64>>,
    pub elem: Type,
    pub encoding: Option<Attribute>,
}

/// `memref<4x?xf32, layout, memory_space>`; `shape: None` is unranked (no layout then). A
/// layout or memory space equal to the default (identity map, `0`) is not stored, as MLIR
/// drops it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct MemRefType {
    pub shape: Option<Vec<i64>>,
    pub elem: Type,
    pub layout: Option<Attribute>,
    pub memory_space: Option<Attribute>,
}

/// The number of elements of a static shape; None when a dim is dynamic or the count overflows.
pub fn num_elements(shape: &[i64]) -> Option<u64> {
    shape.iter().try_fold(
        1u64,
        |n, &d| {
            if d < 0 {
                None
            } else {
                n.checked_mul(d as u64)
            }
        },
    )
}
