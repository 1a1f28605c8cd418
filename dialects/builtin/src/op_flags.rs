//! Facts about each op kept beside its links, a byte an op ([`OpFlags`]): whether it has
//! regions and whether its properties or attributes hold a symbol reference; and, per interned
//! attribute, whether it is or holds a `SymbolRef`. A walk that looks for a few kinds of op
//! (symbol uses, ops to descend into) reads these instead of each op's record and attribute
//! list: once a kernel outgrows the cache, each record read waits on memory.

use crate::attributes::AttrData;
use crate::context::Context;
use crate::entity::{Attribute, OpId};
use crate::pool::List;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OpFlags(u8);

impl OpFlags {
    const HAS_REGIONS: u8 = 1;
    const HOLDS_SYMBOL_REF: u8 = 2;

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

    /// Whether `attr` is a `SymbolRef` or holds one (in an array or a dictionary, at any depth).
    #[inline]
    pub fn attr_holds_symbol_ref(&self, attr: Attribute) -> bool {
        self.attr_refs[attr.index()]
    }

    fn list_holds_symbol_ref(&self, list: List) -> bool {
        self.attr_pool
            .get(list)
            .iter()
            .any(|&(_, a)| self.attr_holds_symbol_ref(a))
    }

    /// The flags of an op being created (the next op slot) from its lists.
    pub(crate) fn push_op_flags(&mut self, has_regions: bool, properties: List, attributes: List) {
        let mut f = OpFlags::default();
        f.set(OpFlags::HAS_REGIONS, has_regions);
        let refs = self.list_holds_symbol_ref(properties) || self.list_holds_symbol_ref(attributes);
        f.set(OpFlags::HOLDS_SYMBOL_REF, refs);
        self.op_flags.push(f);
    }

    /// Recomputes [`Context::holds_symbol_ref`] after `op`'s properties or attributes changed.
    pub(crate) fn update_symbol_ref_flag(&mut self, op: OpId) {
        let d = &self.ops[op.index()];
        let refs =
            self.list_holds_symbol_ref(d.properties) || self.list_holds_symbol_ref(d.attributes);
        self.op_flags[op.index()].set(OpFlags::HOLDS_SYMBOL_REF, refs);
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
