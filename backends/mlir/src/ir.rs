//! A thin builder over MLIR's C API for the exporters and importers: operations are created with
//! melior's `OperationBuilder` and placed through raw handles (`MlirBlock`, `MlirValue`,
//! `MlirOperation`), which are plain copyable pointers into IR the module owns. melior's typed
//! references borrow their parents, which a recursive emitter keeping a value map across nested
//! regions cannot express; the raw handles stay valid as long as the module they live in.

use melior::ir::operation::OperationBuilder;
use melior::ir::{
    Attribute, Block, BlockLike, Identifier, Location, Operation, Region, RegionLike, Type, Value,
};
use melior::Context;
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};

/// An MLIR value.
pub type V = MlirValue;
/// An MLIR block.
pub type Blk = MlirBlock;
/// An MLIR operation (owned by its block).
pub type Op = MlirOperation;

/// Creates operations in one melior context, at a location that the emitter moves along.
pub struct Builder<'c> {
    pub cx: &'c Context,
    pub loc: Location<'c>,
}

impl<'c> Builder<'c> {
    pub fn new(cx: &'c Context) -> Self {
        Builder {
            cx,
            loc: Location::unknown(cx),
        }
    }

    /// An operation, not yet placed; `None` when MLIR refuses its state (a bug of ours).
    pub fn make(
        &self,
        name: &str,
        operands: &[V],
        results: &[Type<'c>],
        attrs: &[(&str, Attribute<'c>)],
        regions: Vec<Region<'c>>,
    ) -> Result<Operation<'c>, String> {
        // SAFETY: every raw value handed in comes from IR of this context that is still alive.
        let operands: Vec<Value> = operands
            .iter()
            .map(|&v| unsafe { Value::from_raw(v) })
            .collect();
        let attrs: Vec<(Identifier, Attribute)> = attrs
            .iter()
            .map(|(n, a)| (Identifier::new(self.cx, n), *a))
            .collect();
        OperationBuilder::new(name, self.loc)
            .add_operands(&operands)
            .add_results(results)
            .add_attributes(&attrs)
            .add_regions_vec(regions)
            .build()
            .map_err(|e| format!("cannot build '{name}': {e}"))
    }

    /// Builds an operation and appends it to `block`.
    pub fn append(
        &self,
        block: Blk,
        name: &str,
        operands: &[V],
        results: &[Type<'c>],
        attrs: &[(&str, Attribute<'c>)],
        regions: Vec<Region<'c>>,
    ) -> Result<Op, String> {
        let op = self.make(name, operands, results, attrs, regions)?;
        let raw = op.into_raw();
        // SAFETY: `block` is alive; the block takes ownership of the new operation.
        unsafe { mlir_sys::mlirBlockAppendOwnedOperation(block, raw) };
        Ok(raw)
    }

    /// Builds an operation and inserts it before `anchor` in `block`.
    #[allow(clippy::too_many_arguments)]
    pub fn insert_before(
        &self,
        block: Blk,
        anchor: Op,
        name: &str,
        operands: &[V],
        results: &[Type<'c>],
        attrs: &[(&str, Attribute<'c>)],
    ) -> Result<Op, String> {
        let op = self.make(name, operands, results, attrs, Vec::new())?;
        let raw = op.into_raw();
        // SAFETY: `anchor` is an operation of `block`; the block takes ownership.
        unsafe { mlir_sys::mlirBlockInsertOwnedOperationBefore(block, anchor, raw) };
        Ok(raw)
    }

    /// A region holding one block with arguments of `args`, and that block.
    pub fn region(&self, args: &[Type<'c>]) -> (Region<'c>, Blk) {
        let region = Region::new();
        let a: Vec<(Type, Location)> = args.iter().map(|t| (*t, self.loc)).collect();
        let b = region.append_block(Block::new(&a));
        let raw = b.to_raw();
        (region, raw)
    }
}

/// Result `i` of `op`.
pub fn result(op: Op, i: usize) -> V {
    // SAFETY: `op` is alive and has at least `i + 1` results (its builder gave them).
    unsafe { mlir_sys::mlirOperationGetResult(op, i as isize) }
}

/// Argument `i` of `block`.
pub fn block_arg(block: Blk, i: usize) -> V {
    // SAFETY: as `result`.
    unsafe { mlir_sys::mlirBlockGetArgument(block, i as isize) }
}

/// The type of `v`.
pub fn type_of<'c>(v: V) -> Type<'c> {
    // SAFETY: `v` is alive; its type is owned by the context.
    unsafe { Type::from_raw(mlir_sys::mlirValueGetType(v)) }
}

/// A `memref<?xT>` type (or `memref<NxT>` for `Some(N)`).
pub fn memref<'c>(elem: Type<'c>, size: Option<i64>) -> Type<'c> {
    // SAFETY: plain type construction in `elem`'s context.
    let dynamic = unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() };
    let shape = [size.unwrap_or(dynamic)];
    melior::ir::r#type::MemRefType::new(elem, &shape, None, None).into()
}
