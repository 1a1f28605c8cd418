//! The adstack settings and overflow flag: the forced ad_stack_size reaches devices through the
//! memory, a recorded overflow comes back from the next sync as a located error naming the
//! kernel, the stack and its capacity, and the flag is then reset.

use super::mock::parse;
use qd_ir::{Context, Diagnostic, OpId};
use qd_runtime::{
    AdstackOverflow, Arg, CancelFlag, CompiledKernel, Device, KernelIr, KernelStacks, Memory,
    Program, ProgramConfig, RuntimeError, RuntimeErrorKind,
};

/// Records an overflow of the kernel's first op's location, with the forced capacity (or 7),
/// at each launch whose first argument is `true`.
struct Overflowing {
    kernels: Vec<(String, OpId)>,
}

impl Device for Overflowing {
    fn name(&self) -> &str {
        "overflowing"
    }
    fn lowering_pipeline(&self) -> &str {
        ""
    }
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        _stacks: &KernelStacks,
        _memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let kernel = kernel.op;
        let name = qd_frontend::KernelOp(kernel).name(ctx).to_string();
        self.kernels.push((name, kernel));
        Ok(CompiledKernel(self.kernels.len() as u32 - 1))
    }
    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        _adstacks: &qd_runtime::AdstackPlan,
        memory: &mut Memory,
        _cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        let (name, op) = &self.kernels[kernel.0 as usize];
        if matches!(
            args.first(),
            Some(Arg::Scalar(qd_runtime::Scalar::I1(true)))
        ) {
            let capacity = memory.ad_stack_size().unwrap_or(7) as u64;
            memory.record_adstack_overflow(AdstackOverflow {
                kernel: name.clone(),
                loc: ctx.loc(*op),
                capacity,
            });
        }
        Ok(())
    }
    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        Ok(())
    }
}

const SRC: &str = "qd.kernel @k(%b: i1) {\n}\nqd.kernel @j(%b: i1) {\n}\n";

fn program(config: ProgramConfig) -> Program {
    let (ctx, m) = parse(SRC);
    Program::new(ctx, m, Box::new(Overflowing { kernels: vec![] }), config).unwrap()
}

fn flag(b: bool) -> [Arg; 1] {
    [Arg::Scalar(qd_runtime::Scalar::I1(b))]
}

#[test]
fn the_forced_size_reaches_the_memory() {
    assert_eq!(ProgramConfig::default().ad_stack_size, None);
    assert_eq!(
        program(ProgramConfig::default()).memory().ad_stack_size(),
        None
    );
    let p = program(ProgramConfig {
        ad_stack_size: Some(32),
        ..ProgramConfig::default()
    });
    assert_eq!(p.memory().ad_stack_size(), Some(32));
    assert_eq!(p.config().ad_stack_size, Some(32));
}

#[test]
fn an_overflow_is_reported_by_the_next_sync_only() {
    let mut p = program(ProgramConfig {
        ad_stack_size: Some(32),
        ..ProgramConfig::default()
    });
    let k = p.kernel("k").unwrap();
    let j = p.kernel("j").unwrap();
    p.launch(k, &flag(true)).unwrap();
    // A second overflow before the sync does not replace the first.
    p.launch(j, &flag(true)).unwrap();
    assert!(p.memory().adstack_overflow().is_some());
    let errs = p.sync().unwrap_err();
    assert_eq!(errs.len(), 1);
    let e = &errs[0];
    assert_eq!(e.kind, RuntimeErrorKind::AdstackOverflow);
    assert_eq!(e.kernel, "k");
    assert_eq!(e.position, Some(("m.mlir".to_string(), 1, 1)));
    assert_eq!(
        e.message,
        "adstack overflow in kernel 'k': stack at m.mlir:1:1 exceeded its capacity of 32"
    );
    assert_eq!(
        e.to_string(),
        "m.mlir:1:1: error: adstack overflow in kernel 'k': stack at m.mlir:1:1 exceeded its \
         capacity of 32"
    );
    // Reset: the next sync and a clean launch report nothing.
    assert!(p.memory().adstack_overflow().is_none());
    assert!(p.sync().is_ok());
    p.launch(k, &flag(false)).unwrap();
    assert!(p.sync().is_ok());
    // A pending flag when the program is dropped is simply dropped.
    p.launch(j, &flag(true)).unwrap();
    drop(p);
}

#[test]
fn an_unlocated_stack_is_named_by_its_location_text() {
    let (mut ctx, _) = parse(SRC);
    let loc = ctx.unknown_loc();
    let e = qd_runtime::adstack_overflow_error(
        &ctx,
        &AdstackOverflow {
            kernel: "k".into(),
            loc,
            capacity: 0,
        },
    );
    assert_eq!(e.position, None);
    assert_eq!(
        e.message,
        "adstack overflow in kernel 'k': stack at loc(unknown) exceeded its capacity of 0"
    );
}

#[test]
fn memory_keeps_the_first_overflow_until_taken() {
    let (mut ctx, _) = parse(SRC);
    let mut m = Memory::default();
    let loc = ctx.file_loc("a.mlir", 1, 2);
    let o = |k: &str| AdstackOverflow {
        kernel: k.into(),
        loc,
        capacity: 1,
    };
    assert_eq!(m.take_adstack_overflow(), None);
    m.record_adstack_overflow(o("a"));
    m.record_adstack_overflow(o("b"));
    assert_eq!(m.take_adstack_overflow(), Some(o("a")));
    assert_eq!(m.take_adstack_overflow(), None);
    m.set_ad_stack_size(Some(4));
    assert_eq!(m.ad_stack_size(), Some(4));
}
