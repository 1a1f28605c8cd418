//! Location aliases, as mlir-opt prints them with `--mlir-print-debuginfo`: every location an op
//! or block argument prints gets an alias `#loc<n>`. They are found by a first printing pass that
//! visits each op's location before the op (MLIR's DummyAliasOperationPrinter order) and each
//! block argument's location as it prints; nested locations (fused, named, call-site) are
//! visited as children. Aliases are numbered by depth (a leaf is 1, a location holding aliases
//! one more than its deepest child), then first visit. Op locations may be defined after the
//! top-level op (deferred); a location a block argument uses, and its children, are defined
//! before it.

use crate::context::Context;
use crate::entity::Location;
use crate::fast_hash::FastMap;
use crate::location::LocData;

struct Entry {
    loc: Location,
    depth: u32,
    deferrable: bool,
    children: Vec<usize>,
}

#[derive(Default)]
pub(crate) struct LocAliases {
    entries: Vec<Entry>,
    index: FastMap<Location, usize>,
    /// The alias number of each entry, once numbered.
    numbers: Vec<usize>,
}

impl LocAliases {
    /// Visits `loc` (and its children); returns its depth and entry index.
    pub(crate) fn visit(&mut self, ctx: &Context, loc: Location, deferrable: bool) -> (u32, usize) {
        if let Some(&i) = self.index.get(&loc) {
            if !deferrable {
                self.mark_non_deferrable(i);
            }
            return (self.entries[i].depth, i);
        }
        let i = self.entries.len();
        self.entries.push(Entry {
            loc,
            depth: 1,
            deferrable,
            children: Vec::new(),
        });
        self.index.insert(loc, i);
        let mut children = Vec::new();
        let mut max_depth = 0;
        for child in loc_children(ctx, loc) {
            let (d, c) = self.visit(ctx, child, deferrable);
            children.push(c);
            max_depth = max_depth.max(d);
        }
        let e = &mut self.entries[i];
        e.children = children;
        if max_depth > 0 {
            e.depth = max_depth + 1;
        }
        (e.depth, i)
    }

    fn mark_non_deferrable(&mut self, i: usize) {
        if !self.entries[i].deferrable {
            return;
        }
        self.entries[i].deferrable = false;
        for c in self.entries[i].children.clone() {
            self.mark_non_deferrable(c);
        }
    }

    /// Numbers the aliases: by depth, then first visit.
    pub(crate) fn number(&mut self) {
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_by_key(|&i| (self.entries[i].depth, i));
        self.numbers = vec![0; self.entries.len()];
        for (n, &i) in order.iter().enumerate() {
            self.numbers[i] = n;
        }
    }

    /// The alias number of `loc`, once numbered.
    pub(crate) fn number_of(&self, loc: Location) -> Option<usize> {
        self.index
            .get(&loc)
            .and_then(|&i| self.numbers.get(i).copied())
    }

    /// `(number, location, depth)` of the aliases defined before (`deferred == false`) or after
    /// the top-level op, in number order.
    pub(crate) fn definitions(&self, deferred: bool) -> Vec<(usize, Location, u32)> {
        let mut defs: Vec<(usize, Location, u32)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.deferrable == deferred)
            .map(|(i, e)| (self.numbers[i], e.loc, e.depth))
            .collect();
        defs.sort_by_key(|d| d.0);
        defs
    }
}

/// The locations a location prints inside it (a name's child unless unknown, a call site's
/// callee and caller, a fusion's parts).
pub(crate) fn loc_children(ctx: &Context, loc: Location) -> Vec<Location> {
    match ctx.loc_data(loc) {
        LocData::Name { child: Some(c), .. } if !is_unknown(ctx, *c) => vec![*c],
        LocData::CallSite { callee, caller } => vec![*callee, *caller],
        LocData::Fused { locs, .. } => locs.clone(),
        _ => Vec::new(),
    }
}

pub(crate) fn is_unknown(ctx: &Context, loc: Location) -> bool {
    matches!(ctx.loc_data(loc), LocData::Unknown)
}
