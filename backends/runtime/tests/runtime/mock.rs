//! A device that runs nothing: it records calls (compiles with their stack tables, transfers,
//! launches, syncs) and fails on demand.

use qd_ir::text::parse_source;
use qd_ir::{Context, Diagnostic, Location, OpId};
use qd_runtime::{
    Arg, Buffer, CancelFlag, CompiledKernel, Device, KernelIr, KernelStacks, Memory, Program,
    ProgramConfig, RuntimeError, RuntimeErrorKind,
};
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Default, Debug)]
pub struct Log {
    pub compiled: Vec<String>,
    /// The stack table of each compile: (id, element type) by ascending id.
    pub tables: Vec<Vec<(u32, qd_runtime::DType)>>,
    /// The module each compile's kernel was in (the program's own, or a lowered copy).
    pub modules: Vec<OpId>,
    pub launched: Vec<(u32, Vec<Arg>)>,
    /// For each launch, whether its cancel flag was a deadline's (not `CancelFlag::never`).
    pub deadlines: Vec<bool>,
    pub uploads: Vec<Buffer>,
    pub downloads: Vec<Buffer>,
    pub syncs: usize,
}

pub struct Mock {
    pub log: Rc<RefCell<Log>>,
    /// Fail every launch with an error at the kernel's location.
    pub fail_launch: bool,
    /// Report one device error at every sync.
    pub fail_sync: bool,
    /// Report sync errors by error code 0 (located through `error_location`) instead.
    pub coded_errors: bool,
    /// The lowering pipeline it declares (none by default).
    pub pipeline: String,
    /// What `supports_cancel` says (false by default).
    pub cancellable: bool,
    kernels: Vec<(String, OpId)>,
    /// Each compiled kernel's location: what its error code 0 stands for.
    locs: Vec<Location>,
}

impl Mock {
    pub fn new(log: Rc<RefCell<Log>>) -> Self {
        Mock {
            log,
            fail_launch: false,
            fail_sync: false,
            coded_errors: false,
            pipeline: String::new(),
            cancellable: false,
            kernels: Vec::new(),
            locs: Vec::new(),
        }
    }
}

impl Device for Mock {
    fn name(&self) -> &str {
        "mock"
    }
    fn lowering_pipeline(&self) -> &str {
        &self.pipeline
    }
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        _memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        self.log.borrow_mut().modules.push(kernel.module);
        let kernel = kernel.op;
        let name = qd_frontend::KernelOp(kernel).name(ctx).to_string();
        if name.starts_with("bad") {
            return Err(vec![Diagnostic::error(
                ctx.loc(kernel),
                "mock cannot compile this",
            )]);
        }
        self.log.borrow_mut().compiled.push(name.clone());
        let table = stacks.stacks.iter().map(|s| (s.id, s.elem)).collect();
        self.log.borrow_mut().tables.push(table);
        self.kernels.push((name, kernel));
        self.locs.push(ctx.loc(kernel));
        Ok(CompiledKernel(self.kernels.len() as u32 - 1))
    }
    fn launch(
        &mut self,
        ctx: &Context,
        kernel: CompiledKernel,
        args: &[Arg],
        _adstacks: &qd_runtime::AdstackPlan,
        memory: &mut Memory,
        cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        let mut log = self.log.borrow_mut();
        log.launched.push((kernel.0, args.to_vec()));
        log.deadlines
            .push(!std::ptr::eq(cancel, CancelFlag::never()));
        drop(log);
        // Mark the launch in the first field, so tests see that memory was lent mutably.
        if memory.num_fields() > 0 {
            let s = &mut memory.field_mut(0).value;
            let v = s.get_f64(0).unwrap_or(0.0);
            let _ = s.set(0, qd_runtime::Scalar::from_f64(s.dtype(), v + 1.0).unwrap());
        }
        if self.fail_launch {
            let (name, op) = &self.kernels[kernel.0 as usize];
            return Err(RuntimeError::at(
                ctx,
                ctx.loc(*op),
                RuntimeErrorKind::OutOfBounds,
                name,
                "mock failure",
            ));
        }
        Ok(())
    }
    fn supports_cancel(&self) -> bool {
        self.cancellable
    }
    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        self.log.borrow_mut().syncs += 1;
        if self.fail_sync {
            if self.coded_errors {
                let name = &self.kernels[0].0;
                return Err(vec![RuntimeError::coded(
                    RuntimeErrorKind::OutOfBounds,
                    name,
                    0,
                    "index out of bounds",
                )]);
            }
            return Err(vec![RuntimeError::device("k", "lost device")]);
        }
        Ok(())
    }
    fn upload(&mut self, _memory: &Memory, what: Buffer) -> Result<(), RuntimeError> {
        self.log.borrow_mut().uploads.push(what);
        Ok(())
    }
    fn download(&mut self, _memory: &mut Memory, what: Buffer) -> Result<(), RuntimeError> {
        self.log.borrow_mut().downloads.push(what);
        Ok(())
    }
    /// Code 0 of a kernel is the kernel op's location.
    fn error_location(&self, kernel: CompiledKernel, code: u32) -> Option<Location> {
        let loc = self.locs.get(kernel.0 as usize).copied();
        loc.filter(|_| code == 0)
    }
}

pub fn context() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx
}

pub fn parse(src: &str) -> (Context, OpId) {
    let mut ctx = context();
    let m =
        parse_source(&mut ctx, src, "m.mlir").unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
    (ctx, m)
}

/// A program over `src` on a mock device; returns the device's log.
pub fn program(src: &str, fail_launch: bool, fail_sync: bool) -> (Program, Rc<RefCell<Log>>) {
    let (ctx, m) = parse(src);
    let log = Rc::new(RefCell::new(Log::default()));
    let mut dev = Mock::new(log.clone());
    dev.fail_launch = fail_launch;
    dev.fail_sync = fail_sync;
    let p = Program::new(ctx, m, Box::new(dev), ProgramConfig::default())
        .unwrap_or_else(|e| panic!("{e}"));
    (p, log)
}
