//! MLIR's own compiler: an exported module lowered by upstream passes to the LLVM dialect, then
//! translated to LLVM IR and JIT-compiled by MLIR's ExecutionEngine (ORC, optimised at O3).
//!
//! Math ops that LLVM has intrinsics for go to them (`convert-math-to-llvm`, with `log1p`
//! exact rather than `log(1 + x)`); `fpowi`/`ipowi` become MLIR's own software loops
//! (`convert-math-to-funcs`); the rest (erf, erfc, cbrt, asin, ...) become calls to the
//! process's libm (`convert-math-to-libm`), which the JIT resolves in the host process.

use crate::context::MlirContext;
use melior::ir::Module;
use melior::pass::PassManager;
use melior::utility::parse_pass_pipeline;
use std::ffi::c_void;

/// The pass pipeline from func/scf/arith/math/memref to the LLVM dialect.
pub const TO_LLVM: &str = "builtin.module(\
convert-math-to-funcs{convert-ctlz=false},\
convert-math-to-llvm{approximate-log1p=false},\
convert-math-to-libm,\
arith-expand,\
convert-scf-to-cf,\
expand-strided-metadata,\
finalize-memref-to-llvm,\
convert-arith-to-llvm,\
convert-index-to-llvm,\
convert-func-to-llvm,\
convert-cf-to-llvm,\
reconcile-unrealized-casts)";

/// Lowers `module` (an exported kernel) to the LLVM dialect in place; MLIR's messages on failure.
pub fn lower_to_llvm(mcx: &MlirContext, module: &mut Module<'_>) -> Result<(), String> {
    let pm = PassManager::new(&mcx.cx);
    parse_pass_pipeline(pm.as_operation_pass_manager(), TO_LLVM)
        .map_err(|e| format!("cannot parse the MLIR pipeline: {e}"))?;
    pm.run(module).map_err(|e| {
        let m = mcx.take_messages();
        format!("MLIR's lowering to the LLVM dialect failed: {e}\n{m}")
    })
}

/// The packed entry point `_mlir_<symbol>` that the ExecutionEngine made for function `symbol`.
pub fn packed_name(symbol: &str) -> String {
    format!("_mlir_{symbol}")
}

/// A module JIT-compiled by MLIR's ExecutionEngine (melior's wrapper does not say when the
/// engine could not be created, so this one holds the C handle itself).
pub struct Jit {
    raw: mlir_sys::MlirExecutionEngine,
}

impl Jit {
    /// JIT-compiles `module` (in the LLVM dialect) at O3; every function of `symbols` must be
    /// found.
    pub fn new(mcx: &MlirContext, module: &Module<'_>, symbols: &[&str]) -> Result<Jit, String> {
        // SAFETY: `module` is alive; the engine translates it and keeps nothing of it.
        let raw = unsafe {
            mlir_sys::mlirExecutionEngineCreate(
                module.to_raw(),
                3,
                0,
                std::ptr::null(),
                false,
                false,
            )
        };
        if raw.ptr.is_null() {
            return Err(format!(
                "MLIR's ExecutionEngine cannot compile the module\n{}",
                mcx.take_messages()
            ));
        }
        let jit = Jit { raw };
        for s in symbols {
            if jit.lookup(&packed_name(s)).is_null() {
                return Err(format!("the JIT-compiled module has no '{s}'"));
            }
        }
        Ok(jit)
    }

    /// The address of `symbol`, null when absent.
    pub fn lookup(&self, symbol: &str) -> *mut c_void {
        let name = melior::StringRef::new(symbol);
        // SAFETY: `raw` is a live engine.
        unsafe { mlir_sys::mlirExecutionEngineLookup(self.raw, name.to_raw()) }
    }

    /// Calls function `symbol` through its packed entry `_mlir_<symbol>` with `args`: one
    /// pointer per argument of the LLVM function (a memref's descriptor is five: allocated and
    /// aligned pointers, offset, size, stride). (The C API's own invoke calls the
    /// `_mlir_ciface_` entry, which only `llvm.emit_c_interface` functions have.)
    ///
    /// # Safety
    /// Every pointer must point to a value of its argument's type, and the memory the
    /// descriptors describe must be valid for what the function does with it.
    pub unsafe fn invoke(&self, symbol: &str, args: &mut [*mut c_void]) -> Result<(), String> {
        let f = self.lookup(&packed_name(symbol));
        if f.is_null() {
            return Err(format!("the JIT-compiled module has no '{symbol}'"));
        }
        // SAFETY: the ExecutionEngine made `_mlir_<symbol>` as `void (void **)`.
        let f: unsafe extern "C" fn(*mut *mut c_void) = unsafe { std::mem::transmute(f) };
        // SAFETY: the caller's.
        unsafe { f(args.as_mut_ptr()) };
        Ok(())
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: `raw` is a live engine, destroyed once.
        unsafe { mlir_sys::mlirExecutionEngineDestroy(self.raw) }
    }
}
