//! A device that runs nothing: it records calls and fails on demand.

use qd_ir::text::parse_source;
use qd_ir::{Context, Diagnostic, OpId};
use qd_runtime::{
    Arg, CompiledKernel, Device, Memory, Program, ProgramConfig, RuntimeError, RuntimeErrorKind,
};
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Default, Debug)]
pub struct Log {
    pub compiled: Vec<String>,
    pub launched: Vec<(u32, Vec<Arg>)>,
    pub syncs: usize,
}

pub struct Mock {
    pub log: Rc<RefCell<Log>>,
    /// Fail every launch with an error at the kernel's location.
    pub fail_launch: bool,
    /// Report one device error at every sync.
    pub fail_sync: bool,
    kernels: Vec<(String, OpId)>,
}

impl Mock {
    pub fn new(log: Rc<RefCell<Log>>) -> Self {
        Mock {
            log,
            fail_launch: false,
            fail_sync: false,
            kernels: Vec::new(),
        }
    }
}

impl Device for Mock {
    fn name(&self) -> &str {
        "mock"
    }
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: OpId,
        _memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let name = qd_frontend::KernelOp(kernel).name(ctx).to_string();
        if name.starts_with("bad") {
            return Err(vec![Diagnostic::error(
                ctx.loc(kernel),
                "mock cannot compile this",
            )]);
        }
        self.log.borrow_mut().compiled.push(name.clone());
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
    ) -> Result<(), RuntimeError> {
        self.log
            .borrow_mut()
            .launched
            .push((kernel.0, args.to_vec()));
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
    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        self.log.borrow_mut().syncs += 1;
        if self.fail_sync {
            return Err(vec![RuntimeError::device("k", "lost device")]);
        }
        Ok(())
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
