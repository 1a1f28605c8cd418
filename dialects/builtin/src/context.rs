//! The [`Context`]: arenas of ops, blocks, regions and values; interned types, attributes,
//! locations and identifiers; the dialect registry; collected diagnostics.

use crate::attributes::{AttrData, DialectAttr, TypedAttr};
use crate::diagnostics::{Diagnostic, Severity};
use crate::entity::*;
use crate::intern::Interner;
use crate::location::LocData;
use crate::pool::{List, ListPool};
use crate::registry::{DialectDef, OpInfo};
use crate::types::{FloatKind, Signedness, TypeData};
use indexmap::IndexMap;

/// Where a value comes from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum ValueDef {
    OpResult { op: OpId, index: u32 },
    BlockArg { block: BlockId, index: u32 },
}

/// One use of a value: operand `index` of `op`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Use {
    pub op: OpId,
    pub index: u32,
}

#[derive(Clone, Debug)]
pub(crate) struct ValueData {
    pub(crate) ty: Type,
    pub(crate) def: ValueDef,
    /// In [`Context::use_pool`].
    pub(crate) uses: List,
    /// Location of a block argument (results use their op's location).
    pub(crate) loc: Option<Location>,
}

/// An operand slot: the value and the position of this use in the value's use list, so that
/// dropping a use is O(1) (swap-remove and patch the moved use's slot).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Operand {
    pub(crate) value: Value,
    pub(crate) use_pos: u32,
}

/// An op: its lists are in the context's pools (see [`crate::pool`]), so that the ops of a walk
/// are read from a few dense vectors rather than from a heap allocation each.
#[derive(Clone, Debug)]
pub(crate) struct OpData {
    pub(crate) name: OpName,
    /// In [`Context::operand_pool`].
    pub(crate) operands: List,
    /// In [`Context::value_pool`].
    pub(crate) results: List,
    /// In [`Context::block_pool`].
    pub(crate) successors: List,
    /// In [`Context::region_pool`].
    pub(crate) regions: List,
    /// Inherent attributes, sorted by name; in [`Context::attr_pool`].
    pub(crate) properties: List,
    /// Discardable attributes, sorted by name; in [`Context::attr_pool`].
    pub(crate) attributes: List,
    pub(crate) loc: Location,
    pub(crate) parent: Option<BlockId>,
    pub(crate) alive: bool,
}

/// An op's neighbours in its block, kept apart from [`OpData`] in [`Context::links`]: walking a
/// block follows these links one load after another, and at 8 bytes an op the links of a
/// million-op kernel stay in cache, so a walk's chain of dependent loads does not wait on
/// memory for each op even where ops are not laid out in walk order (a region op is created
/// after its body).
#[derive(Copy, Clone, Debug)]
pub(crate) struct OpLinks {
    prev: u32,
    next: u32,
}

impl OpLinks {
    const NONE: u32 = u32::MAX;
    pub(crate) const DETACHED: OpLinks = OpLinks {
        prev: Self::NONE,
        next: Self::NONE,
    };

    fn get(raw: u32) -> Option<OpId> {
        (raw != Self::NONE).then_some(OpId(raw))
    }
    fn raw(op: Option<OpId>) -> u32 {
        op.map_or(Self::NONE, |o| o.0)
    }
    pub(crate) fn prev(self) -> Option<OpId> {
        Self::get(self.prev)
    }
    pub(crate) fn next(self) -> Option<OpId> {
        Self::get(self.next)
    }
    pub(crate) fn set_prev(&mut self, op: Option<OpId>) {
        self.prev = Self::raw(op);
    }
    pub(crate) fn set_next(&mut self, op: Option<OpId>) {
        self.next = Self::raw(op);
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct BlockData {
    pub(crate) args: Vec<Value>,
    pub(crate) first: Option<OpId>,
    pub(crate) last: Option<OpId>,
    pub(crate) parent: Option<RegionId>,
    pub(crate) len: u32,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct RegionData {
    /// In [`Context::block_pool`].
    pub(crate) blocks: List,
    pub(crate) parent: Option<OpId>,
}

pub(crate) struct OpNameData {
    pub(crate) name: String,
    pub(crate) info: Option<usize>,
}

pub(crate) struct DialectEntry {
    pub(crate) def: DialectDef,
}

/// Owns every IR entity. Read with `&Context`, mutate with `&mut Context`.
pub struct Context {
    pub(crate) ops: Vec<OpData>,
    /// Indexed like `ops`.
    pub(crate) links: Vec<OpLinks>,
    /// Indexed like `ops`.
    pub(crate) op_flags: Vec<crate::op_flags::OpFlags>,
    pub(crate) blocks: Vec<BlockData>,
    pub(crate) regions: Vec<RegionData>,
    pub(crate) values: Vec<ValueData>,
    pub(crate) operand_pool: ListPool<Operand>,
    pub(crate) value_pool: ListPool<Value>,
    pub(crate) block_pool: ListPool<BlockId>,
    pub(crate) region_pool: ListPool<RegionId>,
    pub(crate) attr_pool: ListPool<(Ident, Attribute)>,
    pub(crate) use_pool: ListPool<Use>,
    types: Interner<TypeData>,
    attrs: Interner<AttrData>,
    /// Indexed like the interned attributes: whether each is or holds a `SymbolRef`.
    pub(crate) attr_refs: Vec<bool>,
    locs: Interner<LocData>,
    idents: Interner<String>,
    op_names: Vec<OpNameData>,
    /// Live ops of each name (detached ones included), by [`OpName`] index.
    pub(crate) op_counts: Vec<u32>,
    /// Looked up by every op creation: the fast hasher (see `fast_hash`), not SipHash.
    op_name_index: IndexMap<String, OpName, crate::fast_hash::FastBuild>,
    op_infos: Vec<OpInfo>,
    dialects: IndexMap<&'static str, DialectEntry>,
    /// Accept ops and types of dialects that are not registered.
    pub allow_unregistered: bool,
    diagnostics: Vec<Diagnostic>,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// A context with the builtin dialect registered.
    pub fn new() -> Self {
        let mut ctx = Context {
            ops: Vec::new(),
            links: Vec::new(),
            op_flags: Vec::new(),
            blocks: Vec::new(),
            regions: Vec::new(),
            values: Vec::new(),
            operand_pool: ListPool::default(),
            value_pool: ListPool::default(),
            block_pool: ListPool::default(),
            region_pool: ListPool::default(),
            attr_pool: ListPool::default(),
            use_pool: ListPool::default(),
            types: Interner::default(),
            attrs: Interner::default(),
            attr_refs: Vec::new(),
            locs: Interner::default(),
            idents: Interner::default(),
            op_names: Vec::new(),
            op_counts: Vec::new(),
            op_name_index: IndexMap::default(),
            op_infos: Vec::new(),
            dialects: IndexMap::new(),
            allow_unregistered: false,
            diagnostics: Vec::new(),
        };
        ctx.register_dialect(crate::builtin::dialect());
        ctx
    }

    // ----- registry -------------------------------------------------------------------------

    /// Registers a dialect and its ops. Registering the same dialect twice is a no-op.
    pub fn register_dialect(&mut self, def: DialectDef) {
        if self.dialects.contains_key(def.name) {
            return;
        }
        let DialectDef {
            name,
            ops,
            parse_type,
            print_type,
            parse_attr,
            materialize_constant,
            types,
            attrs,
        } = def;
        for info in ops {
            let idx = self.op_infos.len();
            let op_name = self.op_name(info.name);
            self.op_names[op_name.index()].info = Some(idx);
            self.op_infos.push(info);
        }
        let def = DialectDef {
            name,
            ops: Vec::new(),
            parse_type,
            print_type,
            parse_attr,
            materialize_constant,
            types,
            attrs,
        };
        self.dialects.insert(name, DialectEntry { def });
    }

    pub fn dialect(&self, name: &str) -> Option<&DialectDef> {
        self.dialects.get(name).map(|d| &d.def)
    }

    pub fn is_dialect_registered(&self, name: &str) -> bool {
        self.dialects.contains_key(name)
    }

    /// Names of registered dialects, in registration order.
    pub fn dialect_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.dialects.keys().copied()
    }

    /// Every registered op, in registration order.
    pub fn registered_ops(&self) -> impl Iterator<Item = &OpInfo> {
        self.op_infos.iter()
    }

    /// Interns an op name (registered or not).
    pub fn op_name(&mut self, name: &str) -> OpName {
        if let Some(n) = self.op_name_index.get(name) {
            return *n;
        }
        let id = OpName::from_index(self.op_names.len());
        self.op_names.push(OpNameData {
            name: name.to_string(),
            info: None,
        });
        self.op_name_index.insert(name.to_string(), id);
        id
    }

    pub fn lookup_op_name(&self, name: &str) -> Option<OpName> {
        self.op_name_index.get(name).copied()
    }

    /// How many ops named `name` are alive (attached or detached; erased ones are not): a pass
    /// that looks for the few ops of one name can skip its walk when there are none at all.
    pub fn op_count(&self, name: OpName) -> usize {
        self.op_counts.get(name.index()).map_or(0, |&n| n as usize)
    }

    pub fn op_name_str(&self, name: OpName) -> &str {
        &self.op_names[name.index()].name
    }

    #[inline]
    pub fn op_name_info(&self, name: OpName) -> Option<&OpInfo> {
        self.op_names[name.index()].info.map(|i| &self.op_infos[i])
    }

    /// The registered op of this name, if any.
    pub fn lookup_op_info(&self, name: &str) -> Option<&OpInfo> {
        self.lookup_op_name(name).and_then(|n| self.op_name_info(n))
    }

    // ----- interning --------------------------------------------------------------------------

    pub fn ident(&mut self, s: &str) -> Ident {
        match self.idents.lookup(s) {
            Some(i) => Ident::from_index(i),
            None => Ident::from_index(self.idents.intern(s.to_string())),
        }
    }
    pub fn lookup_ident(&self, s: &str) -> Option<Ident> {
        self.idents.lookup(s).map(Ident::from_index)
    }
    pub fn ident_str(&self, id: Ident) -> &str {
        self.idents.get(id.index())
    }

    pub fn intern_type(&mut self, data: TypeData) -> Type {
        Type::from_index(self.types.intern(data))
    }
    pub fn type_data(&self, ty: Type) -> &TypeData {
        self.types.get(ty.index())
    }
    pub fn integer_type(&mut self, width: u32) -> Type {
        self.intern_type(TypeData::Integer {
            width,
            signedness: Signedness::Signless,
        })
    }
    pub fn i1_type(&mut self) -> Type {
        self.integer_type(1)
    }
    pub fn i32_type(&mut self) -> Type {
        self.integer_type(32)
    }
    pub fn i64_type(&mut self) -> Type {
        self.integer_type(64)
    }
    pub fn index_type(&mut self) -> Type {
        self.intern_type(TypeData::Index)
    }
    pub fn float_type(&mut self, kind: FloatKind) -> Type {
        self.intern_type(TypeData::Float(kind))
    }
    pub fn f32_type(&mut self) -> Type {
        self.float_type(FloatKind::F32)
    }
    pub fn f64_type(&mut self) -> Type {
        self.float_type(FloatKind::F64)
    }
    pub fn none_type(&mut self) -> Type {
        self.intern_type(TypeData::None)
    }
    pub fn function_type(&mut self, inputs: Vec<Type>, results: Vec<Type>) -> Type {
        self.intern_type(TypeData::Function { inputs, results })
    }

    pub fn intern_attr(&mut self, data: AttrData) -> Attribute {
        let refs = crate::op_flags::data_holds_symbol_ref(self, &data);
        let index = self.attrs.intern(data);
        if index == self.attr_refs.len() {
            self.attr_refs.push(refs);
        }
        Attribute::from_index(index)
    }
    pub fn attr_data(&self, attr: Attribute) -> &AttrData {
        self.attrs.get(attr.index())
    }
    /// Interns a typed dialect attribute: equal values share one handle.
    pub fn typed_attr(&mut self, value: impl DialectAttr) -> Attribute {
        self.intern_attr(AttrData::Typed(TypedAttr::new(value)))
    }
    /// The typed value of a dialect attribute, if `attr` is one of type `T`.
    pub fn dialect_attr<T: DialectAttr>(&self, attr: Attribute) -> Option<&T> {
        match self.attr_data(attr) {
            AttrData::Typed(t) => t.downcast::<T>(),
            _ => None,
        }
    }
    pub fn unit_attr(&mut self) -> Attribute {
        self.intern_attr(AttrData::Unit)
    }
    pub fn bool_attr(&mut self, b: bool) -> Attribute {
        self.intern_attr(AttrData::Bool(b))
    }
    /// An integer attribute; the value is wrapped to the type's width (sign-extended).
    pub fn integer_attr(&mut self, value: i64, ty: Type) -> Attribute {
        let value = match self.type_data(ty).bit_width() {
            // i0 holds only 0 (a shift by 64 would overflow).
            Some(0) => 0,
            Some(w) if w < 64 => {
                let shift = 64 - w;
                (value << shift) >> shift
            }
            _ => value,
        };
        self.intern_attr(AttrData::Integer { value, ty })
    }
    /// A float attribute; the value is rounded to the type's precision (a NaN keeps its bits).
    pub fn float_attr(&mut self, value: f64, ty: Type) -> Attribute {
        let value = match self.type_data(ty) {
            TypeData::Float(kind) => crate::float::round_to_kind(*kind, value),
            _ => value,
        };
        self.intern_attr(AttrData::Float {
            bits: value.to_bits(),
            ty,
        })
    }
    pub fn string_attr(&mut self, s: &str) -> Attribute {
        self.intern_attr(AttrData::String(s.to_string()))
    }
    pub fn type_attr(&mut self, ty: Type) -> Attribute {
        self.intern_attr(AttrData::Type(ty))
    }
    pub fn array_attr(&mut self, elems: Vec<Attribute>) -> Attribute {
        self.intern_attr(AttrData::Array(elems))
    }
    pub fn symbol_ref_attr(&mut self, name: &str) -> Attribute {
        let root = self.ident(name);
        self.intern_attr(AttrData::SymbolRef {
            root,
            nested: Vec::new(),
        })
    }
    /// A dictionary attribute; entries are sorted by name, a later duplicate replaces an earlier one.
    pub fn dict_attr(&mut self, entries: Vec<(Ident, Attribute)>) -> Attribute {
        let mut sorted: Vec<(Ident, Attribute)> = Vec::with_capacity(entries.len());
        for (k, v) in entries {
            set_sorted(self, &mut sorted, k, v);
        }
        self.intern_attr(AttrData::Dict(sorted))
    }

    pub fn intern_loc(&mut self, data: LocData) -> Location {
        Location::from_index(self.locs.intern(data))
    }
    pub fn loc_data(&self, loc: Location) -> &LocData {
        self.locs.get(loc.index())
    }
    pub fn unknown_loc(&mut self) -> Location {
        self.intern_loc(LocData::Unknown)
    }
    pub fn file_loc(&mut self, file: &str, line: u32, col: u32) -> Location {
        let file = self.ident(file);
        self.intern_loc(LocData::FileLineCol { file, line, col })
    }
    /// The first file:line:col inside a location (through names, fusions and call sites).
    pub fn file_line_col(&self, loc: Location) -> Option<(&str, u32, u32)> {
        match self.loc_data(loc) {
            LocData::FileLineCol { file, line, col } => Some((self.ident_str(*file), *line, *col)),
            LocData::Name { child: Some(c), .. } => self.file_line_col(*c),
            LocData::Fused { locs, .. } => locs.iter().find_map(|l| self.file_line_col(*l)),
            LocData::CallSite { callee, .. } => self.file_line_col(*callee),
            _ => None,
        }
    }

    // ----- diagnostics ------------------------------------------------------------------------

    pub fn emit(&mut self, diag: Diagnostic) {
        self.diagnostics.push(diag);
    }
    pub fn emit_error(&mut self, loc: Location, message: impl Into<String>) {
        self.emit(Diagnostic::error(loc, message));
    }
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Inserts or replaces `(key, value)` in a list kept sorted by the key's text.
pub(crate) fn set_sorted(
    ctx: &Context,
    list: &mut Vec<(Ident, Attribute)>,
    key: Ident,
    value: Attribute,
) {
    let name = ctx.ident_str(key);
    match list.binary_search_by(|(k, _)| ctx.ident_str(*k).cmp(name)) {
        Ok(i) => list[i].1 = value,
        Err(i) => list.insert(i, (key, value)),
    }
}
