//! `fuse-elementwise`: in every `func.func` of the module, each group of ndarray ops (see
//! [`crate::group`]) becomes generated `qd.kernel`s (see [`crate::codegen`]) and `ndarray.launch`
//! ops that run them; the function then holds launches only. `fuse=false` gives every op a kernel
//! of its own (the unfused baseline, same results).

use crate::codegen::{emit_group, Emitted, MAX_ELEMENTS};
use crate::group::{group_ops, Group};
use qd_func::FuncOp;
use qd_ir::{Builder, Context, Diagnostic, OpId, OperationState, Value};
use qd_ndarray::{ArrayType, LaunchOp};
use qd_pass::{OptionDecl, Pass, PassFailure, PassInfo, PassOutcome, PassResult, Statistic};
use std::collections::{HashMap, HashSet};

pub const PASS_NAME: &str = "fuse-elementwise";
const DESCRIPTION: &str =
    "Fuse chains and DAGs of ndarray elementwise ops (and the reductions they feed) into qd.kernels, one parallel loop each";

pub fn fuse_elementwise_pass_info() -> PassInfo {
    PassInfo::new(PASS_NAME, DESCRIPTION, |opts| {
        Ok(Box::new(FuseElementwise {
            options: FuseOptions {
                fuse: opts.get_bool("fuse"),
                lanes: opts.get_uint("lanes"),
                patterns: opts.get_bool("patterns"),
                approx_functions: opts.get_bool("approx-functions"),
            },
            ..Default::default()
        }))
    })
    .option(OptionDecl::bool(
        "fuse",
        true,
        "fuse chains (false: one kernel per op, the unfused baseline)",
    ))
    .option(OptionDecl::bool(
        "patterns",
        true,
        "rewrite the registered fused loss patterns first (with fuse only)",
    ))
    .option(OptionDecl::bool(
        "approx-functions",
        false,
        "fastmath<afn> on the generated kernels' math ops: approximate functions allowed (cpu: f32 exp and exp2 in f32 arithmetic, within 1 ulp instead of 0.5)",
    ))
    .option(OptionDecl::uint(
        "lanes",
        0,
        "parallel lanes per reduced row in partial kernels (0: chosen from the row length)",
    ))
}

/// The pass's options.
#[derive(Copy, Clone, Debug)]
pub struct FuseOptions {
    pub fuse: bool,
    pub lanes: u64,
    /// Apply the fused loss patterns ([`crate::patterns`]) first (only when fusing).
    pub patterns: bool,
    /// Put `fastmath<afn>` on the math ops of the kernels made ([`crate::approx`]): on the cpu
    /// device f32 exp and exp2 are then within 1 ulp (`qd_llvm::AFN_MAX_ULP`) instead of 0.5,
    /// about 3x cheaper. Off by default.
    pub approx_functions: bool,
}

impl Default for FuseOptions {
    fn default() -> Self {
        FuseOptions {
            fuse: true,
            lanes: 0,
            patterns: true,
            approx_functions: false,
        }
    }
}

#[derive(Default)]
pub struct FuseElementwise {
    pub options: FuseOptions,
    kernels: u64,
    ops: u64,
}

impl Pass for FuseElementwise {
    fn name(&self) -> &'static str {
        PASS_NAME
    }
    fn description(&self) -> &'static str {
        DESCRIPTION
    }
    fn run(&mut self, ctx: &mut Context, op: OpId) -> PassResult {
        // Only functions are fused: a module of kernels (no function anywhere) is left without
        // walking its top level, which costs a cache miss an op once it outgrows the cache.
        if ctx
            .lookup_op_name(FuncOp::NAME)
            .is_none_or(|n| ctx.op_count(n) == 0)
        {
            return Ok(PassOutcome::changed(false));
        }
        let funcs: Vec<OpId> = ctx
            .regions(op)
            .iter()
            .flat_map(|&r| ctx.region_ops(r))
            .filter(|&o| FuncOp::from_op(ctx, o).is_some())
            .collect();
        let mut changed = false;
        for f in funcs {
            match fuse_function(ctx, f, self.options) {
                Ok((k, n)) => {
                    self.kernels += k;
                    self.ops += n;
                    changed |= n > 0;
                }
                Err(d) => {
                    ctx.emit(d);
                    return Err(PassFailure);
                }
            }
        }
        Ok(PassOutcome::changed(changed))
    }
    fn statistics(&self) -> Vec<Statistic> {
        vec![
            Statistic {
                name: "num-kernels",
                description: "Number of kernels generated",
                value: self.kernels,
            },
            Statistic {
                name: "num-ops-fused",
                description: "Number of ndarray ops replaced by kernels",
                value: self.ops,
            },
        ]
    }
}

/// Fuses the ndarray ops of function `f`; returns (kernels made, ops replaced).
pub fn fuse_function(
    ctx: &mut Context,
    f: OpId,
    options: FuseOptions,
) -> Result<(u64, u64), Diagnostic> {
    let Some(block) = FuncOp(f).entry_block(ctx) else {
        return Ok((0, 0));
    };
    let fname = FuncOp(f).name(ctx).to_string();
    // With approx-functions: the module's symbols before, so that the kernels made (pattern
    // kernels too) are the new ones.
    let before: Option<HashSet<String>> = options
        .approx_functions
        .then(|| symbols(ctx, f).into_iter().map(|(n, _)| n).collect());
    if options.fuse && options.patterns {
        crate::patterns::apply_patterns(ctx, f)?;
    }
    let groups = group_ops(ctx, block, options.fuse);
    for g in &groups {
        let n: i64 = g.shape.iter().product();
        if n > MAX_ELEMENTS {
            let at = g.ops().next().expect("a group has an op");
            return Err(qd_ir::verify_helpers::op_error(
                ctx,
                at,
                format!("has {n} elements; a fused kernel indexes at most {MAX_ELEMENTS} (i32)"),
            ));
        }
    }
    // Symbols of the module, once (the kernels' names must be new).
    let mut taken: HashSet<String> = match ctx.parent_op(f) {
        Some(m) => qd_ir::symbol_table::SymbolTable::new(ctx, m)
            .iter(ctx)
            .map(|(n, _)| n.to_string())
            .collect(),
        None => HashSet::new(),
    };
    let mut kernels = 0;
    let mut replaced = 0;
    for (i, g) in groups.iter().enumerate() {
        let name = unique_name(&format!("{fname}_k{i}"), &mut taken);
        let e = emit_group(ctx, g, &name, f, options.lanes);
        kernels += 1 + u64::from(e.reduce.is_some());
        replaced += g.ops().count() as u64;
        replace_group(ctx, g, &e);
    }
    topo_sort(ctx, block);
    if let Some(before) = before {
        for (name, op) in symbols(ctx, f) {
            if !before.contains(&name) && qd_frontend::KernelOp::from_op(ctx, op).is_some() {
                crate::approx::mark_approx_functions(ctx, op);
            }
        }
    }
    Ok((kernels, replaced))
}

/// The symbols (name, op) of the module holding `f`.
fn symbols(ctx: &Context, f: OpId) -> Vec<(String, OpId)> {
    match ctx.parent_op(f) {
        Some(m) => qd_ir::symbol_table::SymbolTable::new(ctx, m)
            .iter(ctx)
            .map(|(n, op)| (n.to_string(), op))
            .collect(),
        None => Vec::new(),
    }
}

/// A kernel name (and its `_reduce`) no symbol of the module has; records it.
fn unique_name(base: &str, taken: &mut HashSet<String>) -> String {
    let free = |n: &str, taken: &HashSet<String>| {
        !taken.contains(n) && !taken.contains(&format!("{n}_reduce"))
    };
    let name = std::iter::once(base.to_string())
        .chain((1..).map(|k| format!("{base}_{k}")))
        .find(|n| free(n, taken))
        .expect("some name is free");
    taken.insert(name.clone());
    taken.insert(format!("{name}_reduce"));
    name
}

/// Puts the launches of `e` where the group's last op was, and erases the group.
fn replace_group(ctx: &mut Context, g: &Group, e: &Emitted) {
    let ops: Vec<OpId> = g.ops().collect();
    let last = *ops
        .iter()
        .max_by_key(|&&o| position(ctx, o))
        .expect("a group has an op");
    let loc = ctx.loc(last);
    let mut result_types: Vec<_> = e.outputs.iter().map(|&v| ctx.value_type(v)).collect();
    result_types.extend(&e.partial_types);
    let kernel = ctx.symbol_ref_attr(&e.kernel);
    let st = OperationState::new(LaunchOp::NAME, loc)
        .operands(&e.inputs)
        .results(&result_types)
        .prop(ctx, "kernel", kernel);
    let launch = Builder::before(ctx, last).insert(st);
    let results = ctx.results(launch).to_vec();
    for (&old, &new) in e.outputs.iter().zip(&results) {
        ctx.replace_all_uses_with(old, new);
    }
    if let Some(rk) = &e.reduce {
        let partials = results[e.outputs.len()..].to_vec();
        let types: Vec<_> = g
            .reductions
            .iter()
            .map(|&r| ctx.value_type(ctx.result(r, 0)))
            .collect();
        let kernel = ctx.symbol_ref_attr(rk);
        let st = OperationState::new(LaunchOp::NAME, loc)
            .operands(&partials)
            .results(&types)
            .prop(ctx, "kernel", kernel);
        let red = Builder::before(ctx, last).insert(st);
        for (k, &r) in g.reductions.iter().enumerate() {
            let old = ctx.result(r, 0);
            let new = ctx.result(red, k);
            ctx.replace_all_uses_with(old, new);
        }
    }
    for &o in ops.iter().rev() {
        ctx.erase_op(o);
    }
}

fn position(ctx: &Context, op: OpId) -> usize {
    let mut n = 0;
    let mut cur = ctx.prev_op(op);
    while let Some(p) = cur {
        n += 1;
        cur = ctx.prev_op(p);
    }
    n
}

/// Orders the ops of `block` so that every value is defined before its uses (a launch sits where
/// its group's last op was, which may follow a user of one of its outputs), keeping the original
/// order where it is free; the terminator stays last.
fn topo_sort(ctx: &mut Context, block: qd_ir::BlockId) {
    let ops = ctx.block_op_vec(block);
    let Some((&term, body)) = ops.split_last() else {
        return;
    };
    let index: HashMap<OpId, usize> = body.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let mut indeg = vec![0usize; body.len()];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); body.len()];
    for (i, &o) in body.iter().enumerate() {
        for v in ctx.operand_vec(o) {
            if let Some(&d) = ctx.defining_op(v).and_then(|d| index.get(&d)) {
                succ[d].push(i);
                indeg[i] += 1;
            }
        }
    }
    let mut ready: std::collections::BTreeSet<usize> =
        (0..body.len()).filter(|&i| indeg[i] == 0).collect();
    let mut order = Vec::with_capacity(body.len());
    while let Some(i) = ready.pop_first() {
        order.push(i);
        for &s in &succ[i] {
            indeg[s] -= 1;
            if indeg[s] == 0 {
                ready.insert(s);
            }
        }
    }
    if order.iter().copied().eq(0..body.len()) {
        return;
    }
    for i in order {
        ctx.move_op_before(body[i], term);
    }
}

/// The shape of an array value (empty for a scalar).
pub fn shape_of(ctx: &Context, v: Value) -> Vec<i64> {
    ArrayType::from_type(ctx, ctx.value_type(v))
        .map(|a| a.shape(ctx))
        .unwrap_or_default()
}
