//! Attribute aliases the printer makes, as mlir-opt's AsmPrinter: every affine map is printed as
//! `#map`, `#map1`, ... (numbered by first appearance) and defined before the top-level op.

use super::printer::Printer;
use crate::attributes::AttrData;
use crate::entity::Attribute;
use crate::fast_hash::FastMap;

/// The aliases given while printing one top-level op.
#[derive(Default)]
pub(crate) struct Aliases {
    maps: Vec<Attribute>,
    index: FastMap<Attribute, usize>,
}

impl Aliases {
    /// The alias number of an affine map attribute, given on its first use.
    pub(crate) fn map_index(&mut self, attr: Attribute) -> usize {
        *self.index.entry(attr).or_insert_with(|| {
            self.maps.push(attr);
            self.maps.len() - 1
        })
    }
}

/// `#map` for the first alias, `#map<n>` after.
pub(crate) fn write_alias_name(out: &mut String, prefix: &str, n: usize) {
    out.push('#');
    out.push_str(prefix);
    if n > 0 {
        out.push_str(&n.to_string());
    }
}

impl Printer<'_> {
    /// The definitions `#map = affine_map<...>` of the aliases used, one per line, for the top of
    /// the output.
    pub(crate) fn alias_definitions(&self, aliases: &Aliases) -> String {
        let mut p = Printer::new(self.ctx, super::naming::Names::empty(), self.opts());
        for (i, &a) in aliases.maps.iter().enumerate() {
            write_alias_name(&mut p.out, "map", i);
            p.out.push_str(" = ");
            if let AttrData::AffineMap(m) = self.ctx.attr_data(a) {
                p.write_affine_map(m);
            }
            p.out.push('\n');
        }
        p.out
    }
}
