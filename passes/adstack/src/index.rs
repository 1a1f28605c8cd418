//! [`SizingIndex`]: what sizing asks of a kernel's structure for every stack, gathered once for
//! all of them. Sizing each stack used to walk every op after its alloca (and the whole kernel
//! for the bounder's facts), which made the pass quadratic in a kernel with many stacks; with
//! the index a stack's walk visits only the ops that hold its pushes and pops (and the jumps of
//! the blocks it walks), in block order.
//!
//! The index is valid while the IR does not change: the pass sizes every stack before it sets
//! any property.

use crate::value_bound::KernelFacts;
use qd_frontend::{BREAK_OP, CONTINUE_OP, KERNEL_OP};
use qd_ir::{BlockId, Context, OpId};
use std::collections::{HashMap, HashSet};

pub(crate) struct SizingIndex {
    /// Each op's position in its block, by op index less `base` (dense: a hash map of every op
    /// of a big kernel costs more than the rest of the index; spanning only the scope's indices,
    /// since the pass runs per kernel and a vector of every op in the context per kernel is
    /// quadratic in a module of many kernels).
    pos: Vec<u32>,
    base: usize,
    /// Per block, its ops that are or hold a `break` or `continue`, in block order.
    jump_children: HashMap<BlockId, Vec<OpId>>,
    /// The blocks that hold a `break` or `continue` at any depth.
    jump_blocks: HashSet<BlockId>,
    /// The facts of each kernel (None: ops outside any kernel).
    kernels: HashMap<Option<OpId>, KernelFacts>,
}

/// The nearest `qd.kernel` that holds `op`.
fn kernel_of(ctx: &Context, op: OpId) -> Option<OpId> {
    let mut cur = ctx.parent_op(op);
    while let Some(k) = cur {
        if ctx.name(k) == KERNEL_OP {
            return Some(k);
        }
        cur = ctx.parent_op(k);
    }
    None
}

impl SizingIndex {
    /// The index of everything nested in `scope` (and the facts of the kernel around it).
    pub fn new(ctx: &Context, scope: OpId) -> SizingIndex {
        let mut ix = SizingIndex {
            pos: Vec::new(),
            base: 0,
            jump_children: HashMap::new(),
            jump_blocks: HashSet::new(),
            kernels: HashMap::new(),
        };
        let outer = if ctx.name(scope) == KERNEL_OP {
            Some(scope)
        } else {
            kernel_of(ctx, scope)
        };
        let ops = ctx.walk_pre_order(scope);
        // A pass on a kernel: its facts from the walk just made.
        let facts = match outer {
            Some(k) if k == scope => KernelFacts::of_walked(ctx, k, &ops),
            _ => KernelFacts::of(ctx, outer),
        };
        ix.kernels.insert(outer, facts);
        // The ops that get a position: those in the blocks of `scope` and of the ops in it.
        let (lo, hi) = ops.iter().skip(1).fold((usize::MAX, 0), |(lo, hi), o| {
            (lo.min(o.index()), hi.max(o.index()))
        });
        if lo <= hi {
            ix.base = lo;
            ix.pos = vec![u32::MAX; hi - lo + 1];
        }
        let mut jumps = Vec::new();
        for o in ops {
            for &r in ctx.regions(o) {
                for &b in ctx.region_blocks(r) {
                    for (i, c) in ctx.block_ops(b).enumerate() {
                        ix.pos[c.index() - ix.base] = u32::try_from(i).unwrap_or(u32::MAX);
                    }
                }
            }
            match ctx.name(o) {
                BREAK_OP | CONTINUE_OP => jumps.push(o),
                KERNEL_OP if o != scope => {
                    ix.kernels.insert(Some(o), KernelFacts::of(ctx, Some(o)));
                }
                _ => {}
            }
        }
        let mut marked = HashSet::new();
        for j in jumps {
            let mut cur = Some(j);
            while let Some(o) = cur {
                if !marked.insert(o) {
                    break;
                }
                let Some(b) = ctx.parent_block(o) else { break };
                ix.jump_blocks.insert(b);
                ix.jump_children.entry(b).or_default().push(o);
                cur = ctx.parent_op(o);
            }
        }
        let mut children = std::mem::take(&mut ix.jump_children);
        for v in children.values_mut() {
            v.sort_by_key(|&o| ix.pos(o));
        }
        ix.jump_children = children;
        ix
    }

    /// The index for sizing the one stack `alloca` defines: of its kernel (or of the outermost
    /// op above it).
    pub fn around(ctx: &Context, alloca: OpId) -> SizingIndex {
        SizingIndex::new(ctx, crate::pass::id_scope(ctx, alloca))
    }

    /// The position of `op` in its block.
    pub fn pos(&self, op: OpId) -> usize {
        match op
            .index()
            .checked_sub(self.base)
            .and_then(|i| self.pos.get(i))
        {
            Some(&p) if p != u32::MAX => p as usize,
            _ => usize::MAX,
        }
    }

    /// Whether `block` holds a `break` or `continue` at any depth.
    pub fn block_has_jump(&self, block: BlockId) -> bool {
        self.jump_blocks.contains(&block)
    }

    /// The ops of `block` that are or hold a `break` or `continue`, in order.
    pub fn jump_children(&self, block: BlockId) -> &[OpId] {
        self.jump_children
            .get(&block)
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// The facts of the kernel that holds `op`.
    pub fn kernel_facts(&self, ctx: &Context, op: OpId) -> &KernelFacts {
        // `new` gathered every kernel in the scope and the one around it, and sizing asks only
        // about ops in the scope.
        self.kernels
            .get(&kernel_of(ctx, op))
            .expect("the index holds the facts of every kernel of its scope")
    }

    /// `marked` (ops of any block) grouped by block, each group in block order: the ops a walk
    /// of that block must visit.
    pub fn by_block(&self, ctx: &Context, marked: &HashSet<OpId>) -> Children {
        let mut m: HashMap<BlockId, Vec<OpId>> = HashMap::new();
        for &o in marked {
            if let Some(b) = ctx.parent_block(o) {
                m.entry(b).or_default().push(o);
            }
        }
        for v in m.values_mut() {
            v.sort_by_key(|&o| self.pos(o));
        }
        Children(m)
    }
}

/// Ops to visit, per block, in block order (see [`SizingIndex::by_block`]).
pub(crate) struct Children(HashMap<BlockId, Vec<OpId>>);

impl Children {
    pub fn of(&self, block: BlockId) -> &[OpId] {
        self.0.get(&block).map(Vec::as_slice).unwrap_or(&[])
    }
}
