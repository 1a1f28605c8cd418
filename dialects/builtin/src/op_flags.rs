//! Facts about each op kept beside its links, a byte an op ([`OpFlags`]): whether it has
//! regions, whether its properties or attributes hold a symbol reference, and whether they have
//! a `sym_name` or a `sym_visibility` entry (the ops that may be symbols, and private ones:
//! symbol-dce finds them without walking a module's ops); and, per interned
//! attribute, whether it is or holds a `SymbolRef`. A walk that looks for a few kinds of op
//! (symbol uses, ops to descend into) reads these instead of each op's record and attribute
//! list: once a kernel outgrows the cache, each record read waits on memory.

use crate::attributes::AttrData;
use crate::context::Context;
use crate::entity::{Attribute, OpId};
use crate::pool::List;
use crate::prefetch::prefetch;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OpFlags(u8);

impl OpFlags {
    const HAS_REGIONS: u8 = 1;
    const HOLDS_SYMBOL_REF: u8 = 2;
    const HAS_SYM_NAME: u8 = 4;
    const HAS_SYM_VISIBILITY: u8 = 8;
    /// The bits that follow an op's properties and attributes.
    const FROM_LISTS: u8 = Self::HOLDS_SYMBOL_REF | Self::HAS_SYM_NAME | Self::HAS_SYM_VISIBILITY;

    fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
    fn set(&mut self, bit: u8, on: bool) {
        if on {
            self.0 |= bit;
        } else {
            self.0 &= !bit;
        }
    }
}

/// Whether `data` is a `SymbolRef` or holds one; the attributes it holds are interned already.
pub(crate) fn data_holds_symbol_ref(ctx: &Context, data: &AttrData) -> bool {
    match data {
        AttrData::SymbolRef { .. } => true,
        AttrData::Array(elems) => elems.iter().any(|&e| ctx.attr_holds_symbol_ref(e)),
        AttrData::Dict(entries) => entries.iter().any(|&(_, e)| ctx.attr_holds_symbol_ref(e)),
        _ => false,
    }
}

impl Context {
    /// Whether `op` has regions (empty ones included), read without the op's record.
    #[inline]
    pub fn has_regions(&self, op: OpId) -> bool {
        self.op_flags[op.index()].has(OpFlags::HAS_REGIONS)
    }

    /// Whether a property or attribute of `op` is or holds a `SymbolRef` (see
    /// [`Context::attr_holds_symbol_ref`]), read without the op's record.
    #[inline]
    pub fn holds_symbol_ref(&self, op: OpId) -> bool {
        self.op_flags[op.index()].has(OpFlags::HOLDS_SYMBOL_REF)
    }

    /// The live ops that hold a symbol reference ([`Context::holds_symbol_ref`]), in index
    /// order. Reads a flag byte per op slot and the records of those ops only: a scan for the
    /// few ops that reference symbols touches a byte an op, not the op's record.
    pub fn ops_holding_symbol_refs(&self) -> impl Iterator<Item = OpId> + '_ {
        self.ops_flagged(OpFlags::HOLDS_SYMBOL_REF)
    }

    /// The live ops that have regions ([`Context::has_regions`]), in index order; as
    /// [`Context::ops_holding_symbol_refs`].
    pub fn ops_with_regions(&self) -> impl Iterator<Item = OpId> + '_ {
        self.ops_flagged(OpFlags::HAS_REGIONS)
    }

    /// The live ops whose flags have `bit` (see [`FlaggedOps`]).
    fn ops_flagged(&self, bit: u8) -> impl Iterator<Item = OpId> + '_ {
        FlaggedOps::new(self, bit)
    }

    /// Whether `attr` is a `SymbolRef` or holds one (in an array or a dictionary, at any depth).
    #[inline]
    pub fn attr_holds_symbol_ref(&self, attr: Attribute) -> bool {
        self.attr_refs[attr.index()]
    }

    /// The [`OpFlags::FROM_LISTS`] bits of an attribute list. Keys are told by their text
    /// (a length compare first: few keys are 8 or 14 bytes long), as the context keeps no
    /// identifier of `sym_name` before one is made.
    fn list_flags(&self, list: List) -> u8 {
        let mut bits = 0;
        for &(k, a) in self.attr_pool.get(list) {
            if self.attr_holds_symbol_ref(a) {
                bits |= OpFlags::HOLDS_SYMBOL_REF;
            }
            let key = self.ident_str(k);
            if key.len() == 8 && key == "sym_name" {
                bits |= OpFlags::HAS_SYM_NAME;
            } else if key.len() == 14 && key == "sym_visibility" {
                bits |= OpFlags::HAS_SYM_VISIBILITY;
            }
        }
        bits
    }

    /// The flags of an op being created (the next op slot) from its lists.
    pub(crate) fn push_op_flags(&mut self, has_regions: bool, properties: List, attributes: List) {
        let mut f = OpFlags(self.list_flags(properties) | self.list_flags(attributes));
        f.set(OpFlags::HAS_REGIONS, has_regions);
        self.op_flags.push(f);
    }

    /// Recomputes the flags that follow `op`'s properties and attributes after they changed.
    pub(crate) fn update_symbol_ref_flag(&mut self, op: OpId) {
        let d = &self.ops[op.index()];
        let bits = self.list_flags(d.properties) | self.list_flags(d.attributes);
        let f = &mut self.op_flags[op.index()];
        f.0 = (f.0 & !OpFlags::FROM_LISTS) | bits;
    }

    /// Whether `op` has a `sym_name` property or attribute (of any kind), read without the
    /// op's record.
    #[inline]
    pub fn has_sym_name_entry(&self, op: OpId) -> bool {
        self.op_flags[op.index()].has(OpFlags::HAS_SYM_NAME)
    }

    /// Whether `op` has a `sym_visibility` property or attribute (of any kind), read without
    /// the op's record.
    #[inline]
    pub fn has_sym_visibility_entry(&self, op: OpId) -> bool {
        self.op_flags[op.index()].has(OpFlags::HAS_SYM_VISIBILITY)
    }

    /// The live ops with a `sym_name` entry ([`Context::has_sym_name_entry`]), in index order;
    /// as [`Context::ops_holding_symbol_refs`].
    pub fn ops_with_sym_name(&self) -> impl Iterator<Item = OpId> + '_ {
        self.ops_flagged(OpFlags::HAS_SYM_NAME)
    }

    /// The live ops with a `sym_visibility` entry, in index order; as
    /// [`Context::ops_holding_symbol_refs`].
    pub fn ops_with_sym_visibility(&self) -> impl Iterator<Item = OpId> + '_ {
        self.ops_flagged(OpFlags::HAS_SYM_VISIBILITY)
    }
}

/// A position in a scan of the flag bytes for one bit: a chunk of 64 slots and the bits of it
/// not visited yet. A chunk's flags become one mask (a compare the compiler vectorises), and
/// only its set bits are visited.
#[derive(Clone, Copy)]
struct FlagCursor {
    chunk: usize,
    mask: u64,
}

impl FlagCursor {
    fn start(flags: &[OpFlags], bit: u8) -> Self {
        FlagCursor {
            chunk: 0,
            mask: Self::mask(flags, 0, bit),
        }
    }

    fn mask(flags: &[OpFlags], chunk: usize, bit: u8) -> u64 {
        let from = (chunk * 64).min(flags.len());
        let to = (from + 64).min(flags.len());
        flags[from..to]
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, f)| m | (u64::from(f.has(bit)) << i))
    }

    /// The next slot with the bit.
    fn next(&mut self, flags: &[OpFlags], bit: u8) -> Option<usize> {
        while self.mask == 0 {
            if (self.chunk + 1) * 64 >= flags.len() {
                return None;
            }
            self.chunk += 1;
            self.mask = Self::mask(flags, self.chunk, bit);
        }
        let i = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.chunk * 64 + i)
    }
}

/// How many flagged ops ahead of the one returned [`FlaggedOps`] asks for the record of.
const FLAGGED_AHEAD: usize = 16;

/// The live ops whose flags have a bit, in index order. Erased ops keep their flags, so each op
/// found is checked to be alive; the record of the op [`FLAGGED_AHEAD`] flagged ops ahead is
/// asked for as each is returned, so that on a kernel larger than the cache the loads of the
/// records (read here and by the caller) overlap instead of each waiting on memory.
struct FlaggedOps<'a> {
    ctx: &'a Context,
    bit: u8,
    at: FlagCursor,
    ahead: FlagCursor,
}

impl<'a> FlaggedOps<'a> {
    fn new(ctx: &'a Context, bit: u8) -> Self {
        let at = FlagCursor::start(&ctx.op_flags, bit);
        let mut ahead = at;
        for _ in 0..FLAGGED_AHEAD {
            match ahead.next(&ctx.op_flags, bit) {
                Some(i) => prefetch(&ctx.ops[i]),
                None => break,
            }
        }
        FlaggedOps {
            ctx,
            bit,
            at,
            ahead,
        }
    }
}

impl Iterator for FlaggedOps<'_> {
    type Item = OpId;
    fn next(&mut self) -> Option<OpId> {
        let flags = &self.ctx.op_flags;
        loop {
            let i = self.at.next(flags, self.bit)?;
            if let Some(a) = self.ahead.next(flags, self.bit) {
                prefetch(&self.ctx.ops[a]);
            }
            if self.ctx.ops[i].alive {
                return Some(OpId::from_index(i));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::text::parse_source;
    use crate::{Context, OpId};

    fn parse(ctx: &mut Context, src: &str) -> Vec<OpId> {
        ctx.allow_unregistered = true;
        let m = parse_source(ctx, src, "input.mlir").expect("parses");
        ctx.walk_pre_order(m)
    }

    /// Parsed ops: a reference anywhere in a property or attribute (nested in arrays and
    /// dictionaries too) sets the flag; strings and other attributes do not; regions are seen.
    #[test]
    fn parsed_ops_know_their_regions_and_symbol_refs() {
        let mut ctx = Context::new();
        let ops = parse(
            &mut ctx,
            r#"
"t.r"() ({
  "t.a"() {x = @f} : () -> ()
  "t.b"() {x = [1 : i32, [@f::@g]]} : () -> ()
  "t.c"() {x = {k = @f}} : () -> ()
  "t.d"() {x = "f", y = [1 : i32]} : () -> ()
  "t.e"() <{p = @f}> : () -> ()
}) : () -> ()
"#,
        );
        let names: Vec<(String, bool, bool)> = ops
            .iter()
            .map(|&o| {
                let n = ctx.name(o).to_string();
                (n, ctx.has_regions(o), ctx.holds_symbol_ref(o))
            })
            .collect();
        let want = [
            ("builtin.module", true, false),
            ("t.r", true, false),
            ("t.a", false, true),
            ("t.b", false, true),
            ("t.c", false, true),
            ("t.d", false, false),
            ("t.e", false, true),
        ];
        let want: Vec<(String, bool, bool)> = want
            .iter()
            .map(|&(n, r, s)| (n.to_string(), r, s))
            .collect();
        assert_eq!(names, want);
    }

    /// The flag scans give the live ops with each flag, in index order, across several
    /// 64-slot chunks, and leave out erased ops.
    #[test]
    fn flag_scans_find_the_live_flagged_ops() {
        let mut ctx = Context::new();
        let mut src = String::from("\"t.r\"() ({\n");
        for i in 0..150 {
            match i % 3 {
                0 => src.push_str("  \"t.a\"() {x = @f} : () -> ()\n"),
                1 => src.push_str("  \"t.s\"() ({\n  }) : () -> ()\n"),
                _ => src.push_str("  \"t.d\"() : () -> ()\n"),
            }
        }
        src.push_str("}) : () -> ()\n");
        let ops = parse(&mut ctx, &src);
        let erased = ops[2 + 3 * 20];
        assert!(ctx.holds_symbol_ref(erased));
        ctx.erase_op(erased);
        let refs: Vec<OpId> = ctx.ops_holding_symbol_refs().collect();
        let regions: Vec<OpId> = ctx.ops_with_regions().collect();
        let want_refs: Vec<OpId> = ctx
            .live_ops()
            .filter(|&o| ctx.holds_symbol_ref(o))
            .collect();
        let want_regions: Vec<OpId> = ctx.live_ops().filter(|&o| ctx.has_regions(o)).collect();
        assert_eq!(refs.len(), 49);
        assert_eq!(regions.len(), 52);
        assert_eq!(refs, want_refs);
        assert_eq!(regions, want_regions);
    }

    /// The `sym_name` and `sym_visibility` flags follow the lists, as properties and as
    /// attributes, and the flag scans find the ops with them.
    #[test]
    fn symbol_entry_flags_follow_the_lists() {
        let mut ctx = Context::new();
        let ops = parse(
            &mut ctx,
            r#"
"t.a"() <{sym_name = "f", sym_visibility = "private"}> : () -> ()
"t.b"() {sym_name = "g"} : () -> ()
"t.c"() {sym_namex = "h", sym_visibilit = "private"} : () -> ()
"#,
        );
        let (a, b, c) = (ops[1], ops[2], ops[3]);
        let flags = |ctx: &Context, o| (ctx.has_sym_name_entry(o), ctx.has_sym_visibility_entry(o));
        assert_eq!(flags(&ctx, a), (true, true));
        assert_eq!(flags(&ctx, b), (true, false));
        assert_eq!(flags(&ctx, c), (false, false));
        assert_eq!(ctx.ops_with_sym_name().collect::<Vec<_>>(), [a, b]);
        assert_eq!(ctx.ops_with_sym_visibility().collect::<Vec<_>>(), [a]);
        let p = ctx.string_attr("private");
        ctx.set_attr(b, "sym_visibility", p);
        ctx.remove_prop(a, "sym_visibility");
        ctx.set_prop(c, "sym_name", p);
        assert_eq!(flags(&ctx, a), (true, false));
        assert_eq!(flags(&ctx, b), (true, true));
        assert_eq!(flags(&ctx, c), (true, false));
        ctx.remove_attr(b, "sym_name");
        assert_eq!(flags(&ctx, b), (false, true));
        // The symbol-reference flag is kept beside them.
        let r = ctx.symbol_ref_attr("f");
        ctx.set_attr(c, "x", r);
        assert!(ctx.holds_symbol_ref(c) && ctx.has_sym_name_entry(c));
    }

    /// Setting and removing properties and attributes keeps the flag in step with the lists.
    #[test]
    fn the_symbol_ref_flag_follows_attribute_changes() {
        let mut ctx = Context::new();
        let ops = parse(&mut ctx, "\"t.a\"() : () -> ()\n");
        let op = ops[1];
        assert!(!ctx.holds_symbol_ref(op));
        let r = ctx.symbol_ref_attr("f");
        let s = ctx.string_attr("f");
        let arr = ctx.array_attr(vec![s, r]);
        ctx.set_attr(op, "x", arr);
        assert!(ctx.holds_symbol_ref(op));
        ctx.set_attr(op, "y", s);
        ctx.remove_attr(op, "x");
        assert!(!ctx.holds_symbol_ref(op));
        ctx.set_prop(op, "p", r);
        assert!(ctx.holds_symbol_ref(op));
        ctx.set_prop(op, "p", s);
        assert!(!ctx.holds_symbol_ref(op));
        ctx.set_prop(op, "p", r);
        ctx.remove_prop(op, "p");
        assert!(!ctx.holds_symbol_ref(op));
        let key = ctx.ident("k");
        let dict = ctx.dict_attr(vec![(key, arr)]);
        assert!(ctx.attr_holds_symbol_ref(dict));
        assert!(!ctx.attr_holds_symbol_ref(s));
    }
}
