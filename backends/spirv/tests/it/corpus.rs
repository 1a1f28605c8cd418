//! The corpus every SPIR-V test compiles: each kernel of `examples/*.mlir`, `examples/grad/*.mlir`
//! and `/work/shared/examples/*.mlir` (when present), and the gradient of each kernel a
//! `GRAD-KERNEL` directive names (`.mlir` files and `.grad` sidecars, whose `GRAD-SOURCE` is
//! relative to them), compiled through the runtime's one pipeline (`Program::kernel` /
//! `Program::gradient`) by a device that only runs the SPIR-V code generator, once per option set.

use qd_ir::text::parse_source;
use qd_ir::{AttrData, Context, Diagnostic};
use qd_runtime::device::KernelIr;
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, Device, KernelStacks, Memory, Program,
    ProgramConfig, RuntimeError,
};
use qd_spirv::{compile_kernel, Options, SpirvKernel};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// One compile of one kernel with one option set: the kernel or the code generator's error.
pub struct Compiled {
    pub what: String,
    pub options: Options,
    pub result: Result<SpirvKernel, String>,
}

type Out = Arc<Mutex<Vec<Compiled>>>;

/// A device that compiles each kernel with every option set and keeps the results.
struct CollectDevice {
    options: Vec<Options>,
    label: Arc<Mutex<String>>,
    out: Out,
    n: u32,
}

impl Device for CollectDevice {
    fn name(&self) -> &str {
        "spirv-collect"
    }
    fn lowering_pipeline(&self) -> &str {
        "builtin.module(convert-qd-to-lowered)"
    }
    fn compile(
        &mut self,
        ctx: &Context,
        kernel: KernelIr<'_>,
        stacks: &KernelStacks,
        _memory: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        let label = self.label.lock().unwrap().clone();
        for o in &self.options {
            let result = compile_kernel(ctx, kernel.op, kernel.name, stacks, o)
                .map_err(|d| d.message.clone());
            self.out.lock().unwrap().push(Compiled {
                what: format!("{label} (@{})", kernel.name),
                options: o.clone(),
                result,
            });
        }
        self.n += 1;
        Ok(CompiledKernel(self.n - 1))
    }
    fn launch(
        &mut self,
        _ctx: &Context,
        _kernel: CompiledKernel,
        _args: &[Arg],
        _adstacks: &AdstackPlan,
        _memory: &mut Memory,
        _cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        Err(RuntimeError::device("?", "this device runs nothing"))
    }
    fn sync(&mut self, _memory: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        Ok(())
    }
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        qd_runtime::adstack::layout::lowered_entry_bytes(elem)
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

fn directive<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let key = format!("// {name}:");
    text.lines()
        .find_map(|l| l.trim().strip_prefix(key.as_str()))
        .map(str::trim)
}

/// (source path, kernels to compile, gradients to compile) for every corpus file.
fn corpus_files() -> Vec<(PathBuf, bool, Option<String>)> {
    let r = root();
    let mut out = Vec::new();
    let mut dirs = vec![r.join("examples"), r.join("examples/grad")];
    let shared = PathBuf::from("/work/shared/examples");
    if shared.is_dir() {
        dirs.push(shared);
    }
    for d in &dirs {
        for f in files(d, "mlir") {
            let text = std::fs::read_to_string(&f).unwrap();
            let grad = directive(&text, "GRAD-KERNEL").map(str::to_string);
            out.push((f, true, grad));
        }
    }
    for side in files(&r.join("examples/grad"), "grad") {
        let text = std::fs::read_to_string(&side).unwrap();
        let src = directive(&text, "GRAD-SOURCE").expect("a .grad names its GRAD-SOURCE");
        let kernel = directive(&text, "GRAD-KERNEL").expect("a .grad names its GRAD-KERNEL");
        let path = side.parent().unwrap().join(src);
        out.push((path, false, Some(kernel.to_string())));
    }
    out
}

/// Compiles the whole corpus with every option set of `options` (`twin`: each file's f64 twin,
/// every `f32` of its text made `f64`, as the gradient corpus checks it).
pub fn compile_all(options: &[Options], twin: bool) -> Vec<Compiled> {
    let out = Out::default();
    let label = Arc::new(Mutex::new(String::new()));
    for (path, kernels, grad) in corpus_files() {
        let mut source = std::fs::read_to_string(&path).unwrap();
        if twin {
            source = source.replace("f32", "f64");
        }
        let name = path.display().to_string();
        let mut ctx = qd_dialects::context();
        let module = parse_source(&mut ctx, &source, &name)
            .unwrap_or_else(|| panic!("{name} does not parse"));
        let names: Vec<String> = ctx
            .block_ops(ctx.entry_block(ctx.regions(module)[0]).unwrap())
            .filter(|&o| ctx.name(o) == "qd.kernel")
            .filter_map(
                |o| match ctx.prop(o, "sym_name").map(|a| ctx.attr_data(a)) {
                    Some(AttrData::String(s)) => Some(s.clone()),
                    _ => None,
                },
            )
            .collect();
        let dev = CollectDevice {
            options: options.to_vec(),
            label: label.clone(),
            out: out.clone(),
            n: 0,
        };
        // A file whose stacks the sizing grammar cannot bound forces a capacity, as the corpus
        // tests do.
        let forced = directive(&source, "GRAD-AD-STACK-SIZE")
            .and_then(|v| v.split(';').next())
            .and_then(|n| n.trim().parse().ok());
        let config = ProgramConfig {
            ad_stack_size: forced,
            ..ProgramConfig::default()
        };
        let mut p = Program::new(ctx, module, Box::new(dev), config)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        if kernels {
            for k in &names {
                *label.lock().unwrap() = format!("{name} kernel {k}");
                p.kernel(k)
                    .unwrap_or_else(|e| panic!("{name} kernel {k}: {e}"));
            }
        }
        if let Some(k) = grad {
            *label.lock().unwrap() = format!("{name} gradient of {k}");
            p.gradient(&k)
                .unwrap_or_else(|e| panic!("{name} gradient of {k}: {e}"));
        }
    }
    Arc::try_unwrap(out)
        .ok()
        .expect("the device is gone")
        .into_inner()
        .unwrap()
}

/// Compiles kernel `kernel` of `source` (its gradient when `grad`) with each of `options`.
pub fn compile_source(
    source: &str,
    kernel: &str,
    grad: bool,
    options: &[Options],
) -> Vec<Compiled> {
    let out = Out::default();
    let mut ctx = qd_dialects::context();
    let module = parse_source(&mut ctx, source, "test.mlir").expect("the test source parses");
    let dev = CollectDevice {
        options: options.to_vec(),
        label: Arc::new(Mutex::new("test.mlir".to_string())),
        out: out.clone(),
        n: 0,
    };
    let mut p = Program::new(ctx, module, Box::new(dev), ProgramConfig::default()).unwrap();
    if grad {
        p.gradient(kernel).unwrap();
    } else {
        p.kernel(kernel).unwrap();
    }
    drop(p);
    Arc::try_unwrap(out)
        .ok()
        .expect("the device is gone")
        .into_inner()
        .unwrap()
}
