//! SSA value and block names for printing, numbered as MLIR's SSANameState: a region numbers its
//! block arguments and its own ops' results first; in the custom form each nested region then
//! continues from the counters the enclosing region ended with (siblings start from the same
//! counters). As in MLIR, isolated-from-above ops do not restart the count: a kernel directly in
//! a module starts at `%0` because module bodies define no values, and names never shadow
//! enclosing ones, so that the generic form re-parses where the op is unregistered (not
//! isolated), as in `mlir-opt --allow-unregistered-dialect`. The generic form numbers every value
//! uniquely (MLIR's generic printing implies `--mlir-print-unique-ssa-ids`): the counters run on
//! through the whole walk, which visits nested regions last-first as MLIR does (so a module's
//! last function gets `%0`). Entry block arguments are `%argN`, other values `%N` (`%N#i` for
//! result i of a multi-result op), blocks `^bbN` per region.
//!
//! In the custom form, ops with an `asm_result_names` hook name their results (`%c0_i32`, `%cst`)
//! as MLIR's OpAsmOpInterface does; named results take no number. A hint already used in the
//! enclosing regions gets `_K` appended, K from one conflict counter carried like the value
//! counter (so `%cst`, `%cst_0`, `%c1_i32_1`, and each function restarts at `_0`).

use crate::context::{Context, ValueDef};
use crate::entity::{BlockId, OpId, RegionId, Value};
use crate::fast_hash::FastMap;
use std::collections::HashSet;

/// Marks an entry block argument (`%argN`) in `Names::values`.
const ARG_BIT: u32 = 1 << 31;
/// Marks a value named by a hint (its name is in `Names::hinted`).
const NAMED: u32 = u32::MAX;

/// The hints used in the regions enclosing the one being named (MLIR's scoped `usedNames`):
/// `log` holds them in insertion order, so that leaving a subtree truncates it.
#[derive(Default)]
struct UsedNames {
    set: HashSet<String>,
    log: Vec<String>,
}

impl UsedNames {
    fn truncate(&mut self, len: usize) {
        while self.log.len() > len {
            if let Some(name) = self.log.pop() {
                self.set.remove(&name);
            }
        }
    }

    /// `hint` made unique (MLIR's `uniqueValueName`), recorded as used.
    fn unique(&mut self, hint: &str, next_conflict: &mut u32) -> String {
        let base = sanitize(hint);
        let name = if !self.set.contains(&base) {
            base
        } else {
            loop {
                let probe = format!("{base}_{next_conflict}");
                *next_conflict += 1;
                if !self.set.contains(&probe) {
                    break probe;
                }
            }
        };
        self.set.insert(name.clone());
        self.log.push(name.clone());
        name
    }
}

/// MLIR's `sanitizeIdentifier` for SSA names: a leading digit (or invalid character) gets a `_`
/// prefix; a space becomes `_`, other invalid characters their hex code.
fn sanitize(name: &str) -> String {
    let valid = |c: char| c.is_ascii_alphanumeric() || "$._-".contains(c);
    let first = name.chars().next().unwrap_or('_');
    let needs_prefix = first.is_ascii_digit() || (!valid(first) && first != ' ');
    if !needs_prefix && name.chars().all(valid) {
        return name.to_string();
    }
    let mut out = String::from(if needs_prefix { "_" } else { "" });
    for b in name.bytes() {
        match b as char {
            c if valid(c) => out.push(c),
            ' ' => out.push('_'),
            _ => out.push_str(&format!("{b:X}")),
        }
    }
    out
}

pub(crate) struct Names {
    /// Per value index: 0 = unnamed, `ARG_BIT | n` = `%argN`, otherwise `%(slot - 1)`.
    values: Vec<u32>,
    /// The names of `NAMED` values, by value index.
    hinted: FastMap<usize, String>,
    blocks: FastMap<BlockId, u32>,
}

impl Names {
    /// No names (for printing types and attributes alone).
    pub(crate) fn empty() -> Self {
        Names {
            values: Vec::new(),
            hinted: FastMap::default(),
            blocks: FastMap::default(),
        }
    }

    /// Names every value under `root`. The custom form (`generic == false`) uses the ops' result
    /// name hints and restarts each nested region from its parent's counters; the generic form
    /// numbers uniquely across `root` (MLIR's generic form implies unique SSA ids), in MLIR's
    /// visiting order: a region's nested regions, last first, each subtree before the next.
    pub(crate) fn compute(ctx: &Context, root: OpId, generic: bool) -> Self {
        let mut names = Names {
            // Zeroed allocation: cheap even when the context holds many more values than `root`.
            values: vec![0; ctx.num_value_slots()],
            hinted: FastMap::default(),
            blocks: FastMap::default(),
        };
        let mut used = UsedNames::default();
        let mut n = Numbering {
            next_value: 0,
            next_arg: 0,
            next_conflict: 0,
            hints: !generic,
        };
        names.number_results(ctx, root, &mut n, &mut used);
        let mut stack: Vec<(RegionId, Numbering, usize)> = ctx
            .regions(root)
            .iter()
            .map(|&r| (r, n, used.log.len()))
            .collect();
        while let Some((region, saved, scope)) = stack.pop() {
            // Leave the sibling subtree named before: its hints are out of scope here.
            used.truncate(scope);
            if !generic {
                n = saved;
            }
            for (bi, &block) in ctx.region_blocks(region).iter().enumerate() {
                names.blocks.insert(block, bi as u32);
                for &arg in ctx.block_args(block) {
                    names.values[arg.index()] = if bi == 0 {
                        n.next_arg += 1;
                        ARG_BIT | (n.next_arg - 1)
                    } else {
                        n.next_value += 1;
                        n.next_value
                    };
                }
                for op in ctx.block_ops(block) {
                    names.number_results(ctx, op, &mut n, &mut used);
                }
            }
            let scope = used.log.len();
            for &block in ctx.region_blocks(region) {
                for op in ctx.block_ops(block) {
                    stack.extend(ctx.regions(op).iter().map(|&r| (r, n, scope)));
                }
            }
        }
        names
    }

    /// All results of an op share one number (`%0:2`, used as `%0#1`), unless the op's hook
    /// names its single result.
    fn number_results(&mut self, ctx: &Context, op: OpId, n: &mut Numbering, used: &mut UsedNames) {
        let results = ctx.results(op);
        if results.is_empty() {
            return;
        }
        // Hints name single results only: a multi-result op's results share one number.
        if n.hints && results.len() == 1 {
            if let Some(hook) = ctx.info(op).and_then(|i| i.asm_result_names) {
                let mut hint = None;
                hook(ctx, op, &mut |v, name| {
                    if v == results[0] && !name.is_empty() {
                        hint = Some(name.to_string());
                    }
                });
                if let Some(hint) = hint {
                    let name = used.unique(&hint, &mut n.next_conflict);
                    self.values[results[0].index()] = NAMED;
                    self.hinted.insert(results[0].index(), name);
                    return;
                }
            }
        }
        n.next_value += 1;
        for r in results {
            self.values[r.index()] = n.next_value;
        }
    }

    /// Appends the name of `v` (`%3`, `%arg0`, `%2#1`).
    pub(crate) fn write_value(&self, ctx: &Context, v: Value, out: &mut String) {
        let slot = self.values.get(v.index()).copied().unwrap_or(0);
        if slot == 0 {
            out.push_str("<<UNKNOWN SSA VALUE>>");
        } else if slot == NAMED {
            out.push('%');
            out.push_str(self.hinted.get(&v.index()).map_or("?", String::as_str));
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
        } else if slot == NAMED {
            self.write_value(ctx, results[0], out);
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

/// The counters carried from a region into its nested regions.
#[derive(Copy, Clone)]
struct Numbering {
    next_value: u32,
    next_arg: u32,
    next_conflict: u32,
    hints: bool,
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
