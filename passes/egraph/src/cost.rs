//! The extraction cost: loops first (a `MaxOverRange` or `SumOverRange` may iterate millions of times at every
//! launch), then memory reads (each is a load at launch, and a term without reads cannot fail),
//! then the tree size. Ties go to the smaller e-node in `Sz`'s order (literals first), so the
//! result depends on nothing but the e-graph.

use crate::lang::Sz;
use egg::{CostFunction, Id, Language};

/// Lexicographic: `loops`, then `reads`, then `size`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cost {
    pub loops: u64,
    pub reads: u64,
    pub size: u64,
}

impl Cost {
    /// The cost of `node` over its children's costs.
    pub fn of(node: &Sz, children: impl IntoIterator<Item = Cost>) -> Cost {
        let own = Cost {
            loops: u64::from(node.as_range().is_some()),
            reads: u64::from(node.is_read()),
            size: 1,
        };
        children.into_iter().fold(own, |acc, c| Cost {
            loops: acc.loops.saturating_add(c.loops),
            reads: acc.reads.saturating_add(c.reads),
            size: acc.size.saturating_add(c.size),
        })
    }
}

/// [`Cost`] as an egg cost function (for egg's own extractor and `cost_rec`).
pub struct SizeCost;

impl CostFunction<Sz> for SizeCost {
    type Cost = Cost;

    fn cost<C>(&mut self, enode: &Sz, mut costs: C) -> Cost
    where
        C: FnMut(Id) -> Cost,
    {
        Cost::of(enode, enode.children().iter().map(|&c| costs(c)))
    }
}
