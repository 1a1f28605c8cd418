//! What the conversion patterns need to know about the original qd kernel, gathered before it is
//! restructured (the ops keep their identity through it):
//!
//! - For each index of a field, ndarray or local-array access: its value when it folds to an
//!   integer constant, or whether it is provably in `[0, extent)`, in which case no bounds check
//!   is emitted. An index is provably in range when it is
//!   - an induction variable of a `qd.struct_for` over a field whose extent on that axis is at
//!     most the accessed extent (static extents);
//!   - the induction variable of a `qd.range_for` whose lower bound is a constant `>= 0` and
//!     whose upper bound is a constant `<= extent`, or is `qd.ndarray_shape %a, k` when the
//!     extent is that same ndarray extent.
//!
//!   (Induction variables are SSA values: nothing in the body can change them.)
//! - For each adstack op: the id and element type of its stack (an alloca without an id, or with
//!   the id of another alloca, is an error at the alloca: the runtime knows stacks by their ids).

use crate::op_table::OpTable;
use crate::remat::const_int;
use qd_ad::{element_access, PathIndex, ACC_NDARRAY_ADJOINT_OP, LOAD_ELEMENT_OP};
use qd_adstack::{stack_id_of, StackType};
use qd_frontend::{
    lookup_field, pointee_of, ArrayType, FieldOp, NdarrayShapeOp, RangeForOp, StructType, BREAK_OP,
    CONTINUE_OP, RANGE_FOR_OP, STRUCT_FOR_OP,
};
use qd_ir::fast_hash::FastMap;
use qd_ir::symbol_table::{SymbolTable, SymbolTableCollection};
use qd_ir::{
    AttrData, Attribute, BlockId, Context, Diagnostic, Ident, OpId, OpName, Type, Value, ValueDef,
};

/// The extent of one axis of an accessed array.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Extent {
    Static(i64),
    /// Axis `axis` of ndarray argument `arg`.
    Ndarray {
        arg: u32,
        axis: u32,
    },
}

/// What is known of one index.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum IndexFact {
    /// It folds to this constant.
    Const(i64),
    /// It is in range.
    InRange,
}

/// A stack's id and element type.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct StackFact {
    pub id: u32,
    pub elem: Type,
}

#[derive(Clone, Debug, Default)]
pub struct Facts {
    /// Per access op, its facts in `index_facts`: `(start, count)`; the k-th is the k-th index
    /// of the access (in its accessor's order; for element accesses, the k-th value index of
    /// the path).
    indices: OpTable<(u32, u32)>,
    index_facts: Vec<Option<IndexFact>>,
    pub stacks: OpTable<StackFact>,
    /// Whether the kernel has adstack ops.
    pub has_stacks: bool,
    /// The ids of the adstacks each top-level op allocates, in pre-order (tops that allocate
    /// none are left out), as the walk saw them.
    pub stacks_of_top: FastMap<OpId, Vec<u32>>,
    /// Whether the kernel holds a `qd.break` or `qd.continue` (else there are no jumps to
    /// remove, and no loop needs scanning for them).
    pub has_jumps: bool,
    /// The `field` symbol of each op that has one, with the `qd.field` it names (None: none),
    /// resolved from the qd kernel through the pass's symbol tables, so that the patterns need
    /// no module scan.
    fields: OpTable<(Ident, Option<FieldOp>)>,
    /// The identifier `field` (the property), looked up once instead of per op.
    field_key: Option<Ident>,
    /// The symbols of the lowered kernel the ops were outlined into: from inside it they
    /// shadow the module's, as `lookup_field` would see them. Set by [`Facts::outlined_into`].
    lowered_symbols: Option<SymbolTable>,
}

impl Facts {
    pub fn index(&self, op: OpId, k: usize) -> Option<IndexFact> {
        let (start, count) = self.indices.get(op)?;
        if k >= count as usize {
            return None;
        }
        self.index_facts[start as usize + k]
    }

    /// Records that the ops now sit in lowered kernel `lk` (its tasks are all built).
    pub fn outlined_into(&mut self, ctx: &Context, lk: OpId) {
        self.lowered_symbols = Some(SymbolTable::new(ctx, lk));
        self.field_key = ctx.lookup_ident("field");
    }

    /// The root of `op`'s `field` symbol (field accesses and `qd.struct_for`), by identifier.
    pub fn field_sym(&self, ctx: &Context, op: OpId) -> Option<Ident> {
        symbol_root(ctx, op, self.field_key?)
    }

    /// `op`'s `field` property when it is a flat symbol reference (`@x`): the attribute an op
    /// naming the same field holds, so it needs no interning.
    pub fn flat_field_ref(&self, ctx: &Context, op: OpId) -> Option<Attribute> {
        let key = self.field_key?;
        let &(_, a) = ctx.properties(op).iter().find(|(k, _)| *k == key)?;
        matches!(ctx.attr_data(a), AttrData::SymbolRef { nested, .. } if nested.is_empty())
            .then_some(a)
    }

    /// The field named `name` as [`qd_frontend::lookup_field`] resolves it from `op` (in the
    /// lowered kernel): a symbol of the lowered kernel first, then what was resolved from the
    /// qd kernel (the lowered kernel's parent is the qd kernel's). A scan only for an op the
    /// facts did not see.
    pub fn field(&self, ctx: &Context, op: OpId, name: Ident) -> Option<FieldOp> {
        if let Some(d) = self.lowered_symbols.as_ref().and_then(|t| t.get(ctx, name)) {
            return FieldOp::from_op(ctx, d);
        }
        match self.fields.get(op) {
            Some((n, f)) if n == name => f,
            _ => lookup_field(ctx, op, ctx.ident_str(name)),
        }
    }
}

/// The root of `op`'s symbol property `key` (an identifier, so no name is hashed).
fn symbol_root(ctx: &Context, op: OpId, key: Ident) -> Option<Ident> {
    let &(_, a) = ctx.properties(op).iter().find(|(k, _)| *k == key)?;
    match ctx.attr_data(a) {
        AttrData::SymbolRef { root, .. } => Some(*root),
        _ => None,
    }
}

/// What [`collect`] looks for in an op, by its name (decided once per op name).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Other,
    Jump,
    Adstack,
    AdstackAlloca,
    /// A field access whose indices start at this operand.
    Field(usize),
    /// An ndarray access whose array is this operand (its indices follow).
    Ndarray(usize),
    ElemPtr,
    Element,
}

fn kind_of(name: &str) -> Kind {
    use qd_frontend as qd;
    match name {
        BREAK_OP | CONTINUE_OP => Kind::Jump,
        qd_adstack::ALLOCA_OP => Kind::AdstackAlloca,
        n if n.split_once('.').is_some_and(|(d, _)| d == "adstack") => Kind::Adstack,
        qd::LOAD_OP | qd_ad::LOAD_FIELD_ADJOINT_OP => Kind::Field(0),
        qd::STORE_OP
        | qd::ATOMIC_ADD_OP
        | qd::ATOMIC_MIN_OP
        | qd::ATOMIC_MAX_OP
        | qd_ad::ACC_FIELD_ADJOINT_OP
        | qd_ad::STORE_FIELD_ADJOINT_OP => Kind::Field(1),
        qd::NDARRAY_LOAD_OP => Kind::Ndarray(0),
        qd::NDARRAY_STORE_OP
        | qd::NDARRAY_ATOMIC_ADD_OP
        | qd::NDARRAY_ATOMIC_SUB_OP
        | qd::NDARRAY_ATOMIC_MIN_OP
        | qd::NDARRAY_ATOMIC_MAX_OP
        | ACC_NDARRAY_ADJOINT_OP => Kind::Ndarray(1),
        qd::ELEM_PTR_OP => Kind::ElemPtr,
        LOAD_ELEMENT_OP | qd_ad::STORE_ELEMENT_OP => Kind::Element,
        _ => Kind::Other,
    }
}

/// [`kind_of`] by op name, each name's string compared once.
#[derive(Default)]
struct Kinds(Vec<Option<Kind>>);

impl Kinds {
    fn get(&mut self, ctx: &Context, name: OpName) -> Kind {
        let i = name.index();
        if i >= self.0.len() {
            self.0.resize(i + 1, None);
        }
        *self.0[i].get_or_insert_with(|| kind_of(ctx.op_name_str(name)))
    }
}

/// The facts of the kernel whose body block is `body` (None: an empty kernel). On the way, the
/// stacks `minimize-tape` elided (marked `primal_elided`, with no uses) are erased: they only
/// record the stack for the adstack report, and a task that listed them would reserve heap.
pub fn collect(
    ctx: &mut Context,
    symbols: &mut SymbolTableCollection,
    kernel: OpId,
    body: Option<BlockId>,
) -> Result<Facts, Diagnostic> {
    let mut facts = Facts::default();
    let Some(body) = body else {
        return Ok(facts);
    };
    // The first alloca of each stack id: the runtime knows stacks by id, so two allocas of one
    // id would share one stack (and a task may list an id once).
    let mut allocas: FastMap<u32, OpId> = FastMap::default();
    let field_key = ctx.lookup_ident("field");
    let mut kinds = Kinds::default();
    let mut accesses = Vec::new();
    let ops = ctx.walk_pre_order(kernel);
    facts.indices = OpTable::for_ops(&ops);
    facts.fields = OpTable::for_ops(&ops);
    facts.stacks = OpTable::for_ops(&ops);
    let mut top = None;
    for op in ops {
        if ctx.parent_block(op) == Some(body) {
            top = Some(op);
        }
        let kind = kinds.get(ctx, ctx.op_name_of(op));
        if kind == Kind::AdstackAlloca
            && qd_adstack::AllocaOp::from_op(ctx, op)
                .is_some_and(|a| a.is_primal_elided(ctx) && ctx.uses(a.result(ctx)).is_empty())
        {
            // Unused: nothing the walk sees later refers to it.
            ctx.erase_op(op);
            continue;
        }
        let mut field = None;
        if let Some(name) = field_key.and_then(|k| symbol_root(ctx, op, k)) {
            field = symbols
                .lookup_ident_from(ctx, op, name)
                .and_then(|d| FieldOp::from_op(ctx, d));
            facts.fields.insert(op, (name, field));
        }
        accesses.clear();
        if accessed(ctx, body, op, kind, field, &mut accesses).is_some() {
            let start = facts.index_facts.len();
            for &(i, e) in &accesses {
                let fact = match const_int(ctx, i) {
                    Some(c) => Some(IndexFact::Const(c)),
                    None => in_range(ctx, &facts, body, i, e).then_some(IndexFact::InRange),
                };
                facts.index_facts.push(fact);
            }
            if !accesses.is_empty() {
                let count = facts.index_facts.len() - start;
                facts.indices.insert(op, (start as u32, count as u32));
            }
        }
        facts.has_jumps |= kind == Kind::Jump;
        if matches!(kind, Kind::Adstack | Kind::AdstackAlloca) {
            let f = stack_fact(ctx, op)?;
            if kind == Kind::AdstackAlloca {
                if let Some(&first) = allocas.get(&f.id) {
                    return Err(duplicate_id(ctx, f.id, first, op));
                }
                allocas.insert(f.id, op);
                if let Some(t) = top {
                    facts.stacks_of_top.entry(t).or_default().push(f.id);
                }
            }
            facts.stacks.insert(op, f);
            facts.has_stacks = true;
        }
    }
    Ok(facts)
}

fn duplicate_id(ctx: &Context, id: u32, first: OpId, second: OpId) -> Diagnostic {
    Diagnostic::error(
        ctx.loc(second),
        format!(
            "adstack id {id} is used by two adstack.alloca ops of the kernel: run \
             determine-ad-stack-size (which renumbers them) before convert-qd-to-lowered"
        ),
    )
    .with_note(ctx.loc(first), format!("adstack id {id} first used here"))
}

fn stack_fact(ctx: &Context, op: OpId) -> Result<StackFact, Diagnostic> {
    let alloca = if ctx.name(op) == qd_adstack::ALLOCA_OP {
        Some(op)
    } else {
        ctx.operands(op)
            .next()
            .and_then(|s| ctx.defining_op(s))
            .filter(|&d| ctx.name(d) == qd_adstack::ALLOCA_OP)
    };
    let Some(alloca) = alloca else {
        return Err(Diagnostic::error(
            ctx.loc(op),
            format!(
                "cannot lower '{}': its stack is not an adstack.alloca's",
                ctx.name(op)
            ),
        ));
    };
    let Some(id) = stack_id_of(ctx, alloca) else {
        return Err(Diagnostic::error(
            ctx.loc(alloca),
            "adstack.alloca has no 'id' property: run determine-ad-stack-size before convert-qd-to-lowered",
        ));
    };
    let ty = ctx.value_type(ctx.result(alloca, 0));
    let elem = StackType::from_type(ctx, ty)
        .map(|s| s.elem(ctx))
        .ok_or_else(|| Diagnostic::error(ctx.loc(alloca), "adstack.alloca without a stack type"))?;
    Ok(StackFact { id, elem })
}

/// The kernel argument index of ndarray value `arr`, when it is one.
pub fn ndarray_arg(ctx: &Context, body: BlockId, arr: Value) -> Option<u32> {
    match ctx.value_def(arr) {
        ValueDef::BlockArg { block, index } if block == body => Some(index),
        _ => None,
    }
}

/// The indices `op` (of kind `kind`, naming `field` when it has a field symbol) accesses with
/// their extents, for field, ndarray and local-array accesses, pushed on `out`; None for other
/// ops.
fn accessed(
    ctx: &Context,
    body: BlockId,
    op: OpId,
    kind: Kind,
    field: Option<FieldOp>,
    out: &mut Vec<(Value, Extent)>,
) -> Option<()> {
    match kind {
        Kind::Field(skip) => {
            let operands = ctx.operand_vec(op);
            let shape = field?.shape(ctx);
            out.extend(
                operands[skip.min(operands.len())..]
                    .iter()
                    .zip(shape)
                    .map(|(&v, d)| (v, Extent::Static(d))),
            );
        }
        Kind::Ndarray(arr_at) => {
            let operands = ctx.operand_vec(op);
            let arg = ndarray_arg(ctx, body, *operands.get(arr_at)?)?;
            out.extend(operands[arr_at + 1..].iter().enumerate().map(|(axis, &v)| {
                (
                    v,
                    Extent::Ndarray {
                        arg,
                        axis: axis as u32,
                    },
                )
            }));
        }
        Kind::ElemPtr => {
            let operands = ctx.operand_vec(op);
            let len = ArrayType::from_type(ctx, pointee_of(ctx, *operands.first()?))?.len(ctx);
            out.push((*operands.get(1)?, Extent::Static(len)));
        }
        Kind::Element => out.extend(element_indices(ctx, op)?),
        _ => return None,
    }
    Some(())
}

/// The value indices of an element path with their array lengths.
fn element_indices(ctx: &Context, op: OpId) -> Option<Vec<(Value, Extent)>> {
    let (base, path) = element_access(ctx, op)?;
    let mut ty = pointee_of(ctx, base);
    let mut out = Vec::new();
    for step in path {
        if let Some(a) = ArrayType::from_type(ctx, ty) {
            if let PathIndex::Value(v) = step {
                out.push((v, Extent::Static(a.len(ctx))));
            }
            ty = a.elem(ctx);
        } else {
            let s = StructType::from_type(ctx, ty)?;
            let PathIndex::Const(k) = step else {
                return None;
            };
            ty = s.member(ctx, usize::try_from(k).ok()?)?;
        }
    }
    Some(out)
}

/// Whether qd value `i` is provably in `[0, e)` (see the module doc). The facts hold the field
/// of each enclosing `qd.struct_for` (seen before the ops it holds).
fn in_range(ctx: &mut Context, facts: &Facts, body: BlockId, i: Value, e: Extent) -> bool {
    let ValueDef::BlockArg { block, index } = ctx.value_def(i) else {
        return false;
    };
    let Some(owner) = ctx.block_parent_op(block) else {
        return false;
    };
    match ctx.name(owner) {
        STRUCT_FOR_OP => {
            let Extent::Static(n) = e else {
                return false;
            };
            facts
                .fields
                .get(owner)
                .and_then(|(_, f)| f?.shape(ctx).get(index as usize).copied())
                .is_some_and(|d| d <= n)
        }
        RANGE_FOR_OP if index == 0 => {
            let r = RangeForOp(owner);
            let (lo, hi) = (r.lower(ctx), r.upper(ctx));
            if const_int(ctx, lo).is_none_or(|c| c < 0) {
                return false;
            }
            match e {
                Extent::Static(n) => const_int(ctx, hi).is_some_and(|c| c <= n),
                Extent::Ndarray { arg, axis } => ctx
                    .defining_op(hi)
                    .and_then(|o| NdarrayShapeOp::from_op(ctx, o))
                    .is_some_and(|s| {
                        s.axis(ctx) == axis as usize
                            && ndarray_arg(ctx, body, s.array(ctx)) == Some(arg)
                    }),
            }
        }
        _ => false,
    }
}
