//! SSA value and block names for printing, numbered as MLIR's SSANameState: a region numbers its
//! block arguments and its own ops' results first; each nested region then continues from the
//! counters the enclosing region ended with (siblings start from the same counters). As in MLIR,
//! isolated-from-above ops do not restart the count: a kernel directly in a module starts at `%0`
//! because module bodies define no values, and names never shadow enclosing ones, so that the
//! generic form re-parses where the op is unregistered (not isolated), as in `mlir-opt
//! --allow-unregistered-dialect`. Entry block arguments are `%argN`, other values `%N` (`%N#i`
//! for result i of a multi-result op), blocks `^bbN` per region.

use super::scope::FxHashMap;
use crate::context::{Context, ValueDef};
use crate::entity::{BlockId, OpId, RegionId, Value};

/// Marks an entry block argument (`%argN`) in `Names::values`.
const ARG_BIT: u32 = 1 << 31;

pub(crate) struct Names {
    /// Per value index: 0 = unnamed, `ARG_BIT | n` = `%argN`, otherwise `%(slot - 1)`.
    values: Vec<u32>,
    blocks: FxHashMap<BlockId, u32>,
}

impl Names {
    /// No names (for printing types and attributes alone).
    pub(crate) fn empty() -> Self {
        Names {
            values: Vec::new(),
            blocks: FxHashMap::default(),
        }
    }

    pub(crate) fn compute(ctx: &Context, root: OpId) -> Self {
        let mut names = Names {
            // Zeroed allocation: cheap even when the context holds many more values than `root`.
            values: vec![0; ctx.num_value_slots()],
            blocks: FxHashMap::default(),
        };
        let mut stack: Vec<(RegionId, u32, u32)> =
            ctx.regions(root).iter().rev().map(|&r| (r, 0, 0)).collect();
        let mut next_value = 0;
        names.number_results(ctx, root, &mut next_value);
        while let Some((region, mut next_value, mut next_arg)) = stack.pop() {
            for (bi, &block) in ctx.region_blocks(region).iter().enumerate() {
                names.blocks.insert(block, bi as u32);
                for &arg in ctx.block_args(block) {
                    names.values[arg.index()] = if bi == 0 {
                        next_arg += 1;
                        ARG_BIT | (next_arg - 1)
                    } else {
                        next_value += 1;
                        next_value
                    };
                }
                for op in ctx.block_ops(block) {
                    names.number_results(ctx, op, &mut next_value);
                }
            }
            for &block in ctx.region_blocks(region).iter().rev() {
                let mut cur = ctx.last_op(block);
                while let Some(op) = cur {
                    stack.extend(
                        ctx.regions(op)
                            .iter()
                            .rev()
                            .map(|&r| (r, next_value, next_arg)),
                    );
                    cur = ctx.prev_op(op);
                }
            }
        }
        names
    }

    /// All results of an op share one number (`%0:2`, used as `%0#1`).
    fn number_results(&mut self, ctx: &Context, op: OpId, next_value: &mut u32) {
        let results = ctx.results(op);
        if results.is_empty() {
            return;
        }
        *next_value += 1;
        for r in results {
            self.values[r.index()] = *next_value;
        }
    }

    /// Appends the name of `v` (`%3`, `%arg0`, `%2#1`).
    pub(crate) fn write_value(&self, ctx: &Context, v: Value, out: &mut String) {
        let slot = self.values.get(v.index()).copied().unwrap_or(0);
        if slot == 0 {
            out.push_str("<<UNKNOWN SSA VALUE>>");
        } else if slot & ARG_BIT != 0 {
            out.push_str("%arg");
            push_u32(out, slot & !ARG_BIT);
        } else {
            out.push('%');
            push_u32(out, slot - 1);
            if let ValueDef::OpResult { op, index } = ctx.value_def(v) {
                if ctx.num_results(op) > 1 {
                    out.push('#');
                    push_u32(out, index);
                }
            }
        }
    }

    /// Appends the result list of a definition (`%0`, `%0:2`), without ` = `.
    pub(crate) fn write_results_def(&self, ctx: &Context, op: OpId, out: &mut String) {
        let results = ctx.results(op);
        let slot = self.values.get(results[0].index()).copied().unwrap_or(0);
        if slot == 0 {
            out.push_str("<<UNKNOWN SSA VALUE>>");
        } else {
            out.push('%');
            push_u32(out, slot - 1);
        }
        if results.len() > 1 {
            out.push(':');
            push_u32(out, results.len() as u32);
        }
    }

    pub(crate) fn write_block(&self, block: BlockId, out: &mut String) {
        match self.blocks.get(&block) {
            Some(&n) => {
                out.push_str("^bb");
                push_u32(out, n);
            }
            None => out.push_str("<<UNKNOWN BLOCK>>"),
        }
    }
}

/// Appends a decimal number without going through `fmt`.
pub(crate) fn push_u32(out: &mut String, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // The buffer holds ASCII digits only.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("?"));
}
