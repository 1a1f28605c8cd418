//! The op and dialect registry: what a registered op declares (traits, verifier, folder, custom
//! syntax, canonicalization patterns, interfaces) and what a dialect adds (type/attribute syntax,
//! constant materialization).

use crate::asm::{AsmParser, AsmPrinter, OpAsmParser, OpAsmPrinter};
use crate::attributes::DialectAttr;
use crate::builder::OperationState;
use crate::context::Context;
use crate::diagnostics::DiagResult;
use crate::entity::{Attribute, Location, OpId, Type, Value};
use crate::rewrite::RewritePattern;
use crate::types::TypeParam;
use std::any::{Any, TypeId};

/// Static properties of an op, as MLIR's op traits.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct OpTraits(u32);

impl OpTraits {
    pub const NONE: OpTraits = OpTraits(0);
    /// No memory effects and no other side effects: removable when unused, CSE-able.
    pub const PURE: OpTraits = OpTraits(1 << 0);
    /// The op's effects are those of the ops in its regions.
    pub const RECURSIVE_EFFECTS: OpTraits = OpTraits(1 << 1);
    /// Must be the last op of its block.
    pub const TERMINATOR: OpTraits = OpTraits(1 << 2);
    /// Regions need no terminator.
    pub const NO_TERMINATOR: OpTraits = OpTraits(1 << 3);
    /// Every region has at most one block.
    pub const SINGLE_BLOCK: OpTraits = OpTraits(1 << 4);
    /// Regions may not use values defined outside the op.
    pub const ISOLATED_FROM_ABOVE: OpTraits = OpTraits(1 << 5);
    /// Regions hold a symbol table (symbol names unique, symbol uses resolved within).
    pub const SYMBOL_TABLE: OpTraits = OpTraits(1 << 6);
    /// The op defines a symbol: it has a `sym_name` string property.
    pub const SYMBOL: OpTraits = OpTraits(1 << 7);
    /// Has no operands and folds to its `value` property.
    pub const CONSTANT_LIKE: OpTraits = OpTraits(1 << 8);
    /// The two operands may be swapped.
    pub const COMMUTATIVE: OpTraits = OpTraits(1 << 9);
    /// Regions are graph regions: no dominance requirement between ops.
    pub const GRAPH_REGION: OpTraits = OpTraits(1 << 10);
    /// Reads memory (not pure, but removable when unused).
    pub const READ_ONLY: OpTraits = OpTraits(1 << 11);
    /// The op's `verify_symbol_uses` hook checks all its symbol uses, unresolved ones included,
    /// with its own messages (MLIR's `SymbolUserOpInterface`, e.g. `func.call`); the IR
    /// verifier's generic "does not reference a valid symbol" check skips it. Ops with a hook
    /// but without this trait get the generic check too (the hook then checks what the symbol
    /// is, e.g. that `qd.load`'s `@x` is a field of the right rank).
    pub const SYMBOL_USER: OpTraits = OpTraits(1 << 12);

    pub const fn union(self, other: OpTraits) -> OpTraits {
        OpTraits(self.0 | other.0)
    }
    pub const fn contains(self, other: OpTraits) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for OpTraits {
    type Output = OpTraits;
    fn bitor(self, rhs: OpTraits) -> OpTraits {
        self.union(rhs)
    }
}

/// What a folder returns for each result: a constant or an existing value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FoldResult {
    Attr(Attribute),
    Value(Value),
}

/// Verifies one op's own invariants (operand/result counts and types, properties).
pub type VerifyFn = fn(&Context, OpId) -> DiagResult<()>;
/// Verifies what an op's symbol references resolve to (MLIR's
/// `SymbolUserOpInterface::verifySymbolUses`), resolving through the verifier's cached tables.
pub type VerifySymbolUsesFn =
    fn(&Context, OpId, &mut crate::symbol_table::SymbolTableCollection) -> DiagResult<()>;
/// Names an op's results for printing (MLIR's `OpAsmOpInterface::getAsmResultNames`): calls
/// `set_name(result, hint)` for the results that get a name such as `c0` or `cst` instead of a
/// number. Hints are uniqued by the printer (`%cst`, `%cst_0`).
pub type AsmResultNamesFn = fn(&Context, OpId, &mut dyn FnMut(crate::Value, &str));
/// Folds an op given the constant value of each operand (None when not constant). Returns one
/// result per op result, or None when the op does not fold. The context is mutable only so that
/// the folder can intern the attributes it returns: it must not mutate the IR.
pub type FoldFn = fn(&mut Context, OpId, &[Option<Attribute>]) -> Option<Vec<FoldResult>>;
/// Parses the custom form after the op name (the result names are already consumed).
pub type ParseFn = fn(&mut dyn OpAsmParser, &mut OperationState) -> DiagResult<()>;
/// Prints the custom form after the op name (starting with a space when it prints anything).
pub type PrintFn = fn(OpId, &mut dyn OpAsmPrinter);
/// Adds the op's canonicalization patterns.
pub type PatternsFn = fn(&mut Vec<Box<dyn RewritePattern>>);

/// Everything a registered op declares.
pub struct OpInfo {
    /// Full name, `dialect.op`.
    pub name: &'static str,
    pub summary: &'static str,
    pub traits: OpTraits,
    pub verify: Option<VerifyFn>,
    /// Runs after `verify` passed (and after the nested ops and the enclosing symbol tables
    /// were checked): the checks that resolve symbols.
    pub verify_symbol_uses: Option<VerifySymbolUsesFn>,
    pub fold: Option<FoldFn>,
    pub parse: Option<ParseFn>,
    pub print: Option<PrintFn>,
    pub canonicalization_patterns: Option<PatternsFn>,
    /// Result name hints for the custom form.
    pub asm_result_names: Option<AsmResultNamesFn>,
    /// Interfaces by the `TypeId` of their trait-object type (e.g. `dyn DerivativeRule`), so that a
    /// later layer can attach behaviour (such as a derivative rule) to the op.
    pub interfaces: Vec<(TypeId, &'static (dyn Any + Sync))>,
    /// The dialect whose ops print and parse without their prefix inside this op's regions
    /// (MLIR's `OpAsmOpInterface::getDefaultDialect`, e.g. `func` for `func.func`); empty: none.
    pub default_dialect: &'static str,
}

impl OpInfo {
    pub fn new(name: &'static str, summary: &'static str) -> Self {
        OpInfo {
            name,
            summary,
            traits: OpTraits::NONE,
            verify: None,
            verify_symbol_uses: None,
            fold: None,
            parse: None,
            print: None,
            canonicalization_patterns: None,
            asm_result_names: None,
            interfaces: Vec::new(),
            default_dialect: "",
        }
    }
    /// Sets the dialect whose ops drop their prefix inside this op's regions.
    pub fn default_dialect(mut self, dialect: &'static str) -> Self {
        self.default_dialect = dialect;
        self
    }
    pub fn traits(mut self, traits: OpTraits) -> Self {
        self.traits = self.traits | traits;
        self
    }
    pub fn verify(mut self, f: VerifyFn) -> Self {
        self.verify = Some(f);
        self
    }
    pub fn verify_symbol_uses(mut self, f: VerifySymbolUsesFn) -> Self {
        self.verify_symbol_uses = Some(f);
        self
    }
    pub fn fold(mut self, f: FoldFn) -> Self {
        self.fold = Some(f);
        self
    }
    pub fn syntax(mut self, parse: ParseFn, print: PrintFn) -> Self {
        self.parse = Some(parse);
        self.print = Some(print);
        self
    }
    pub fn canonicalization(mut self, f: PatternsFn) -> Self {
        self.canonicalization_patterns = Some(f);
        self
    }
    pub fn asm_result_names(mut self, f: AsmResultNamesFn) -> Self {
        self.asm_result_names = Some(f);
        self
    }
    /// Attaches an interface implementation: `value` must be a `&'static &'static dyn Trait`
    /// stored as `Any`, looked up with [`OpInfo::interface`].
    pub fn interface<I: ?Sized + 'static>(mut self, value: &'static (dyn Any + Sync)) -> Self {
        self.interfaces.push((TypeId::of::<I>(), value));
        self
    }
    /// The implementation of interface `I` (stored as `&'static I` behind `Any`), if attached.
    pub fn get_interface<I: ?Sized + 'static>(&self) -> Option<&'static I> {
        self.interfaces
            .iter()
            .find(|(id, _)| *id == TypeId::of::<I>())
            .and_then(|(_, v)| (*v as &dyn Any).downcast_ref::<&'static I>().copied())
    }
    pub fn has_trait(&self, t: OpTraits) -> bool {
        self.traits.contains(t)
    }
}

/// Parses the parameters of a dialect type `!dialect.mnemonic<...>`: the parser has consumed
/// `!dialect.mnemonic` (passed as `mnemonic`) and stands before the parameters (usually `<`).
pub type TypeParseFn = fn(&mut dyn AsmParser, mnemonic: &str) -> DiagResult<Vec<TypeParam>>;
/// Prints the body of a dialect type after `!dialect.` (mnemonic included).
pub type TypePrintFn = fn(mnemonic: &str, &[TypeParam], &mut dyn AsmPrinter);
/// Parses the body of a dialect attribute (the text after `#dialect.`) into its typed value, once,
/// at parse time; returns an error message.
pub type AttrParseFn = fn(&Context, body: &str) -> Result<Box<dyn DialectAttr>, String>;
/// Builds the op that produces constant `value` of type `ty` (used by folding).
pub type MaterializeFn = fn(&mut Context, Attribute, Type, Location) -> Option<OperationState>;

/// A dialect: a namespace, its ops and its type/attribute syntax.
pub struct DialectDef {
    pub name: &'static str,
    pub ops: Vec<OpInfo>,
    pub parse_type: Option<TypeParseFn>,
    pub print_type: Option<TypePrintFn>,
    pub parse_attr: Option<AttrParseFn>,
    pub materialize_constant: Option<MaterializeFn>,
    /// The dialect's types, for IRDL ([`crate::irdl`]): the parse and print hooks above stay
    /// their syntax.
    pub types: &'static [crate::irdl::TypeDecl],
    /// The dialect's typed attributes, for IRDL.
    pub attrs: &'static [crate::irdl::AttrDecl],
}

impl DialectDef {
    pub fn new(name: &'static str) -> Self {
        DialectDef {
            name,
            ops: Vec::new(),
            parse_type: None,
            print_type: None,
            parse_attr: None,
            materialize_constant: None,
            types: &[],
            attrs: &[],
        }
    }
}
