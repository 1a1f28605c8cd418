//! A graph to an [`Executable`]: the traced function is fused (`fuse-elementwise`), its launches
//! become a [`Plan`], its kernels a [`Program`] on the device. Each generated kernel is
//! differentiated here with the runtime's passes (element-access-ad, reverse-mode-ad,
//! minimize-tape), so that a primitive with a hand-written backward has it used before its
//! `scalar_apply` is expanded into its forward body, and so that adjoints a thread owns are
//! accumulated without atomics (`qd_fusion::privatize_adjoints`); the runtime compiles each
//! gradient kernel on first use.

use crate::graph::Graph;
use qd_fusion::{fuse_function, AdjointUse, AdjointWrite, FuseOptions};
use qd_ir::{Builder, Context, OpId, Value};
use qd_ndarray::{expand_scalar_applies, ArrayType, LaunchOp};
use qd_runtime::{DType, Device, Program, ProgramConfig};
use std::collections::HashMap;

/// One launch of the plan: kernel, input slots, output slots.
#[derive(Clone, Debug)]
pub struct Step {
    pub kernel: String,
    pub inputs: Vec<usize>,
    pub outputs: Vec<usize>,
}

/// What runs for one call: slots (every array: inputs first), launches in order, output slots.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Each slot's shape (as the user sees it) and storage dtype (i32 for i1 arrays).
    pub slots: Vec<(Vec<usize>, DType)>,
    /// Whether each output is an i1 array (stored as i32, returned as i1).
    pub bool_outputs: Vec<bool>,
    pub num_inputs: usize,
    pub steps: Vec<Step>,
    pub outputs: Vec<usize>,
}

/// A compiled graph: its plan and its kernels on one device.
pub struct Executable {
    pub plan: Plan,
    pub program: Program,
    /// The fused function before its kernels were compiled (for inspection).
    pub ir: String,
    /// Per slot: whether a backward writes its adjoint in full before anything reads it (a seeded
    /// output, or an input whose one gradient kernel overwrites it: `qd_fusion::overwrite`), so
    /// that the buffer need not be zeroed first.
    pub written_in_full: Vec<bool>,
    /// Whether the gradient only reads the outputs' adjoints (one launch, each output returned
    /// once, its adjoint left unreset: `qd_fusion::overwrite`), so that seeds set once with
    /// [`Executable::set_seeds`] are bound as those adjoints, uncopied, by every
    /// [`Executable::backward_seeded`].
    pub seeds_bound: bool,
}

/// Compiles `graph` on `device` with the fusion `options` (`fuse` false: one kernel per op, the
/// unfused baseline; `patterns`: the fused loss patterns first).
pub fn compile_graph(
    graph: &Graph,
    device: Box<dyn Device>,
    options: FuseOptions,
) -> Result<Executable, String> {
    let mut ctx = qd_dialects::context();
    let (module, f) = graph.to_module(&mut ctx, "jit")?;
    qd_ir::verifier::verify(&ctx, module).map_err(|d| diags(&d))?;
    fuse_function(&mut ctx, f, options).map_err(|d| diags(&[d]))?;
    let ir = qd_ir::text::print_op(&ctx, module, &qd_ir::text::PrintOptions::default());
    let plan = extract_plan(&ctx, f)?;
    ctx.erase_op(f);
    let kernels: Vec<String> = plan.steps.iter().map(|s| s.kernel.clone()).collect();
    // Gradients now rather than on first use: a primitive's own backward must be used before
    // its scalar_apply is expanded, and adjoints each thread owns are accumulated without atomics.
    differentiate_all(&mut ctx, module, &kernels)?;
    let (written_in_full, seeds_bound) = overwrite_adjoints(&mut ctx, module, &plan);
    qd_fusion::privatize_adjoints(&mut ctx, module);
    qd_fusion::erase_dead_loops(&mut ctx, module);
    expand_scalar_applies(&mut ctx, module).map_err(|d| diags(&[d]))?;
    let program =
        Program::new(ctx, module, device, ProgramConfig::default()).map_err(|e| e.to_string())?;
    Ok(Executable {
        plan,
        program,
        ir,
        written_in_full,
        seeds_bound,
    })
}

/// In a plan of one launch, lets its gradient overwrite the adjoints of the inputs only it reads
/// (their buffers are then not zeroed before a backward) and leave the outputs' adjoints as seeded
/// (nothing reads them after it); `qd_fusion::overwrite` proves on the gradient kernel where this
/// holds. Plans of several launches keep zeroed, accumulated adjoints. Returns
/// [`Executable::written_in_full`] and [`Executable::seeds_bound`].
fn overwrite_adjoints(ctx: &mut Context, module: OpId, plan: &Plan) -> (Vec<bool>, bool) {
    let mut full: Vec<bool> = (0..plan.slots.len())
        .map(|s| plan.outputs.contains(&s))
        .collect();
    let [step] = &plan.steps[..] else {
        return (full, false);
    };
    let params: Vec<usize> = step.inputs.iter().chain(&step.outputs).copied().collect();
    let uses: Vec<AdjointUse> = params
        .iter()
        .enumerate()
        .map(|(p, &slot)| {
            let is_input = p < step.inputs.len();
            AdjointUse {
                len: Some(plan.slots[slot].0.iter().product::<usize>() as u64),
                // A function argument read once by the one launch and not returned: nothing else
                // writes its adjoint (a returned one is seeded).
                sole_writer: is_input
                    && slot < plan.num_inputs
                    && params.iter().filter(|&&q| q == slot).count() == 1
                    && !plan.outputs.contains(&slot),
                // The launch's own outputs: the executable reads no output's adjoint after the
                // gradient (grad reads inputs' only) and seeds it again before the next one.
                dead_after: !is_input,
            }
        })
        .collect();
    let writes = qd_fusion::overwrite_adjoints(ctx, module, &step.kernel, &uses);
    for (&slot, &w) in params.iter().zip(&writes) {
        if w == AdjointWrite::Overwritten {
            full[slot] = true;
        }
    }
    // Each output once, a parameter of the launch whose adjoint the gradient only reads.
    let seeds_bound = plan.outputs.iter().enumerate().all(|(k, s)| {
        !plan.outputs[..k].contains(s)
            && params
                .iter()
                .zip(&writes)
                .any(|(p, &w)| p == s && w == AdjointWrite::ReadOnly)
    });
    (full, seeds_bound)
}

fn diags(d: &[qd_ir::Diagnostic]) -> String {
    d.iter()
        .map(|d| d.message.clone())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The launches of the fused function `f`, as slots.
fn extract_plan(ctx: &Context, f: OpId) -> Result<Plan, String> {
    let func = qd_func::FuncOp(f);
    let block = func.entry_block(ctx).ok_or("no body")?;
    let mut slot: HashMap<Value, usize> = HashMap::new();
    let mut slots = Vec::new();
    let add =
        |ctx: &Context, v: Value, slots: &mut Vec<(Vec<usize>, DType)>| -> Result<usize, String> {
            let t = ctx.value_type(v);
            let a = ArrayType::from_type(ctx, t).ok_or("a launch operand is not an array")?;
            let shape = a.shape(ctx).iter().map(|&d| d as usize).collect();
            // i1 arrays are stored as i32 (see qd_fusion::codegen::storage_type).
            let dtype = match DType::from_type(ctx, a.elem(ctx))? {
                DType::I1 => DType::I32,
                d => d,
            };
            slots.push((shape, dtype));
            Ok(slots.len() - 1)
        };
    for a in func.args(ctx) {
        let i = add(ctx, a, &mut slots)?;
        slot.insert(a, i);
    }
    let num_inputs = slots.len();
    let mut steps = Vec::new();
    let mut outputs = Vec::new();
    let mut bool_outputs = Vec::new();
    for op in ctx.block_op_vec(block) {
        if let Some(l) = LaunchOp::from_op(ctx, op) {
            let inputs = l
                .inputs(ctx)
                .iter()
                .map(|v| {
                    slot.get(v)
                        .copied()
                        .ok_or("a launch reads an unknown value".to_string())
                })
                .collect::<Result<Vec<_>, _>>()?;
            let mut outs = Vec::new();
            for v in l.outputs(ctx) {
                let i = add(ctx, v, &mut slots)?;
                slot.insert(v, i);
                outs.push(i);
            }
            steps.push(Step {
                kernel: l.kernel(ctx).to_string(),
                inputs,
                outputs: outs,
            });
        } else if ctx.name(op) == qd_func::RETURN_OP {
            for v in ctx.operand_vec(op) {
                outputs.push(*slot.get(&v).ok_or("an output is not an array")?);
                let e = ArrayType::from_type(ctx, ctx.value_type(v)).map(|a| a.elem(ctx));
                bool_outputs.push(e.is_some_and(|e| DType::from_type(ctx, e) == Ok(DType::I1)));
            }
        } else if ctx.name(op) != qd_arith::names::CONSTANT {
            return Err(format!("'{}' was left unfused", ctx.name(op)));
        }
    }
    Ok(Plan {
        slots,
        num_inputs,
        steps,
        outputs,
        bool_outputs,
    })
}

/// reverse-mode-ad on every kernel now (as the runtime's pipeline would on first use), so that
/// primitives with their own backward are differentiated by it.
fn differentiate_all(ctx: &mut Context, module: OpId, kernels: &[String]) -> Result<(), String> {
    let passes = qd_passes::all_passes();
    let body = ctx
        .regions(module)
        .first()
        .and_then(|&r| ctx.entry_block(r))
        .ok_or("no module body")?;
    let loc = ctx.loc(module);
    for k in kernels {
        qd_ad::ReverseOp::build(&mut Builder::at_end(ctx, body), k, loc);
    }
    let names = kernels.join(",");
    let pipeline = format!(
        "builtin.module(qd.kernel(element-access-ad),reverse-mode-ad{{kernels={names}}},qd.kernel(minimize-tape))"
    );
    qd_runtime::pipeline::run_pipeline(ctx, &passes, &pipeline, module, "reverse-mode-ad")
        .map_err(|e| e.to_string())
}
