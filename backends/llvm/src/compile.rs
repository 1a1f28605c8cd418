//! A lowered kernel compiled: its LLVM module built and optimised for the host
//! ([`optimized_module`]), emitted as text, assembly or an object ([`emit_kernel`]), or
//! JIT-compiled through the process's cache ([`jit_kernel`]).

use crate::cache::{self, CompiledCode};
use crate::codegen::{build_module, KernelModule};
use crate::frame::FrameLayout;
use crate::jit::{self, EmitKind, Options};
use crate::sites::Sites;
use inkwell::context::Context as LContext;
use inkwell::targets::TargetMachine;
use qd_ir::{Context, Diagnostic, OpId};
use qd_runtime::{KernelStacks, Memory};
use std::sync::Arc;

/// What a kernel is compiled against: its name, its stack table and the program's fields.
pub struct KernelInput<'a> {
    pub ctx: &'a Context,
    /// The `lowered.kernel`.
    pub op: OpId,
    pub name: &'a str,
    pub stacks: &'a KernelStacks,
    pub memory: &'a Memory,
}

impl KernelInput<'_> {
    /// The kernel's launch-context layout.
    pub fn frame(&self) -> FrameLayout {
        let params = qd_lowered::KernelOp::from_op(self.ctx, self.op)
            .map(|k| k.arg_types(self.ctx))
            .unwrap_or_default();
        FrameLayout::new(self.ctx, &params, self.stacks, self.memory)
    }

    /// The text the compile cache keys the kernel by: its IR, and the layout it reads.
    pub fn key_text(&self, frame: &FrameLayout) -> String {
        let ir = qd_ir::text::print_op(self.ctx, self.op, &Default::default());
        let fields: Vec<_> = self
            .memory
            .fields()
            .iter()
            .map(|f| (&f.info.name, f.info.dtype, f.grad.is_some()))
            .collect();
        let stacks: Vec<_> = self.stacks.stacks.iter().map(|s| (s.id, s.elem)).collect();
        let mut words: Vec<_> = frame.stacks.iter().collect();
        words.sort();
        format!(
            "{ir}\nfields {fields:?}\nstacks {stacks:?}\nargs {:?} {:?}\nstack words {words:?}",
            frame.args, frame.ranks
        )
    }
}

fn located(ctx: &Context, op: OpId, msg: String) -> Diagnostic {
    Diagnostic::error(ctx.loc(op), msg)
}

/// The kernel's LLVM module in `llcx`, optimised by `opts` for the host, and its machine.
pub fn optimized_module<'ctx>(
    llcx: &'ctx LContext,
    input: &KernelInput<'_>,
    frame: &FrameLayout,
    sites: &Sites,
    opts: &Options,
) -> Result<(KernelModule<'ctx>, TargetMachine), Diagnostic> {
    let km = build_module(
        llcx,
        input.ctx,
        input.op,
        input.name,
        frame,
        sites,
        input.stacks,
        input.memory,
        opts,
    )?;
    let tm = jit::target_machine(opts).map_err(|e| located(input.ctx, input.op, e))?;
    jit::optimize(&km.module, &tm, opts).map_err(|e| located(input.ctx, input.op, e))?;
    Ok((km, tm))
}

/// The kernel as LLVM IR text, assembly or an object file.
pub fn emit_kernel(
    input: &KernelInput<'_>,
    kind: EmitKind,
    opts: &Options,
) -> Result<Vec<u8>, Diagnostic> {
    let llcx = LContext::create();
    let frame = input.frame();
    let sites = Sites::collect(input.ctx, input.op);
    let (km, tm) = optimized_module(&llcx, input, &frame, &sites, opts)?;
    jit::emit(&km.module, &tm, kind).map_err(|e| located(input.ctx, input.op, e))
}

/// The kernel JIT-compiled (or found in the process's cache), with whether it was found.
pub fn jit_kernel(
    input: &KernelInput<'_>,
    frame: &FrameLayout,
    sites: &Sites,
    opts: &Options,
) -> Result<(Arc<CompiledCode>, bool), Diagnostic> {
    let key = cache::key(&input.key_text(frame), opts);
    cache::get_or_compile(key, || {
        // The context outlives every use of the code: it is leaked with the engine.
        let llcx: &'static LContext = Box::leak(Box::new(LContext::create()));
        let (km, _tm) = optimized_module(llcx, input, frame, sites, opts)?;
        let symbols: Vec<String> = km.tasks.iter().map(|t| t.symbol.clone()).collect();
        let engine = jit::engine(&km.module).map_err(|e| located(input.ctx, input.op, e))?;
        CompiledCode::new(engine, &symbols).map_err(|e| located(input.ctx, input.op, e))
    })
}
