//! qd-ir: the IR core of qd. One [`Context`] owns every op, block, region and value in arenas
//! addressed by `Copy` handles; types, attributes, locations and identifiers are interned.
//!
//! Layout: `entity` (handles), `context` (arenas, interning, registry, diagnostics), `ir` (structure
//! and mutation), `builder`, `registry` (op/dialect declarations), `asm` (custom-syntax interfaces),
//! `rewrite` (patterns, rewriter and its listener), `greedy` (pattern driver), `conversion`
//! (dialect conversion driver), `mapping` and `clone` (cloning through an `IRMapping`), `builtin`
//! (the builtin dialect).

pub mod affine_map;
pub mod apint;
pub mod asm;
pub mod attributes;
pub mod builder;
pub mod builtin;
mod clone;
pub mod context;
pub mod conversion;
pub mod dense;
pub mod diagnostics;
pub mod dominance;
pub mod entity;
pub mod entity_map;
pub mod entity_set;
pub mod fast_hash;
pub mod float;
pub mod greedy;
pub mod interfaces;
mod intern;
mod ir;
pub mod irdl;
pub mod location;
pub mod mapping;
pub mod op_def;
mod op_flags;
mod pool;
mod prefetch;
pub mod registry;
pub mod rewrite;
pub mod shaped_types;
pub mod symbol_table;
pub mod text;
pub mod types;
pub mod verifier;
pub mod verify_helpers;
mod walk;

pub use attributes::{AttrData, AttrValue, DialectAttr, TypedAttr};
pub use builder::{Builder, InsertPoint, OperationState};
pub use context::{Context, Use, ValueDef};
pub use diagnostics::{DiagResult, Diagnostic, Severity};
pub use entity::{Attribute, BlockId, Ident, Location, OpId, OpName, RegionId, Type, Value};
pub use entity_map::{EntityMap, EntityRef};
pub use entity_set::EntitySet;
pub use ir::BlockOps;
pub use location::LocData;
pub use mapping::IRMapping;
pub use registry::{DialectDef, FoldResult, OpInfo, OpTraits};
pub use types::{FloatKind, Signedness, TypeData, TypeParam};
