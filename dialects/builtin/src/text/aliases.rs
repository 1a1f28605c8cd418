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
    /// The alias definitions, one per line: those printed before the top-level op (location
    /// aliases a block argument needs and affine maps, ordered as MLIR's by depth, then name,
    /// then first use) and those printed after it (the other location aliases).
    pub(crate) fn alias_definitions(&mut self, maps: &Aliases) -> (String, String) {
        let saved = std::mem::take(&mut self.out);
        let locs = self.locs.take();
        let (top, deferred) = match &locs {
            Some(l) => (l.definitions(false), l.definitions(true)),
            None => (Vec::new(), Vec::new()),
        };
        self.locs = locs;
        // Maps have depth 1 and sort after `loc` aliases of the same depth.
        for &(n, loc, _) in top.iter().filter(|d| d.2 <= 1) {
            self.write_loc_definition(n, loc);
        }
        for (i, &a) in maps.maps.iter().enumerate() {
            write_alias_name(&mut self.out, "map", i);
            self.out.push_str(" = ");
            if let AttrData::AffineMap(m) = self.ctx.attr_data(a) {
                self.write_affine_map(m);
            }
            self.out.push('\n');
        }
        for &(n, loc, _) in top.iter().filter(|d| d.2 > 1) {
            self.write_loc_definition(n, loc);
        }
        let before = std::mem::take(&mut self.out);
        for &(n, loc, _) in &deferred {
            self.write_loc_definition(n, loc);
        }
        let after = std::mem::replace(&mut self.out, saved);
        (before, after)
    }

    /// `#loc<n> = loc(...)`, its children by alias.
    fn write_loc_definition(&mut self, n: usize, loc: crate::entity::Location) {
        write_alias_name(&mut self.out, "loc", n);
        self.out.push_str(" = loc(");
        self.write_loc_inst(loc);
        self.out.push_str(")\n");
    }
}
