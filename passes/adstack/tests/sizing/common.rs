//! Shared helpers: parsing, sizing, evaluating bounds against a launch's data, and running
//! kernels on the reference interpreter with chosen stack capacities.

use qd_adstack::size_expr::{EvalEnv, SizeExpr};
use qd_adstack::{ALLOCA_OP, SIZE_EXPR};
use qd_adstack_passes::DetermineAdStackSize;
use qd_ir::text::{parse_source, SourceMgr};
use qd_ir::{Context, OpId};
use qd_pass::Pass;
use qd_runtime::{Arg, DType, Ndarray, Program, ProgramConfig, Scalar};

/// Parses and verifies `src` with every dialect registered.
pub fn parse(src: &str) -> (Context, OpId) {
    let mut ctx = qd_dialects::context();
    let m = parse_source(&mut ctx, src, "input.mlir");
    let rendered = |ctx: &Context| {
        let mut sm = SourceMgr::new();
        sm.add_buffer("input.mlir", src);
        ctx.diagnostics()
            .iter()
            .map(|d| sm.render(ctx, d))
            .collect::<String>()
    };
    let Some(m) = m else {
        panic!("parse failed:\n{}\n{src}", rendered(&ctx));
    };
    if let Err(ds) = qd_ir::verifier::verify(&ctx, m) {
        for d in ds {
            ctx.emit(d);
        }
        panic!("the input does not verify:\n{}\n{src}", rendered(&ctx));
    }
    (ctx, m)
}

/// Runs determine-ad-stack-size on the module; panics with the diagnostics on failure.
pub fn size(ctx: &mut Context, m: OpId) {
    if DetermineAdStackSize::new(None).run(ctx, m).is_err() {
        let msgs: Vec<&str> = ctx
            .diagnostics()
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        panic!("sizing failed: {msgs:?}");
    }
}

/// The allocas of kernel `kernel` and their bounds, in order.
pub fn bounds(ctx: &Context, m: OpId, kernel: &str) -> Vec<(OpId, SizeExpr)> {
    let k = ctx
        .walk_pre_order(m)
        .into_iter()
        .find(|&o| qd_frontend::KernelOp::from_op(ctx, o).is_some_and(|k| k.name(ctx) == kernel))
        .unwrap_or_else(|| panic!("no kernel @{kernel}"));
    ctx.walk_pre_order(k)
        .into_iter()
        .filter(|&o| ctx.name(o) == ALLOCA_OP)
        .map(|o| {
            let a = ctx.prop(o, SIZE_EXPR).expect("sized");
            (
                o,
                SizeExpr::from_attr(ctx, a).expect("a valid bound").clone(),
            )
        })
        .collect()
}

/// The data of one launch: integer fields and integer ndarray arguments (by position).
#[derive(Clone, Default)]
pub struct Data {
    pub fields: Vec<(String, Vec<usize>, Vec<i64>)>,
    pub ndarrays: Vec<(u32, Vec<usize>, Vec<i64>)>,
    pub scalars: Vec<(u32, i64)>,
}

fn linear(shape: &[usize], idx: &[i64]) -> Result<usize, String> {
    if shape.len() != idx.len() {
        return Err(format!(
            "rank {} indexed with {} indices",
            shape.len(),
            idx.len()
        ));
    }
    let mut off = 0usize;
    for (&s, &i) in shape.iter().zip(idx) {
        if i < 0 || i as usize >= s {
            return Err(format!("index {i} out of bounds for size {s}"));
        }
        off = off * s + i as usize;
    }
    Ok(off)
}

impl EvalEnv for Data {
    fn field_element(&self, field: &str, idx: &[i64]) -> Result<i64, String> {
        let (_, shape, data) = self
            .fields
            .iter()
            .find(|(n, _, _)| n == field)
            .ok_or_else(|| format!("no field {field}"))?;
        Ok(data[linear(shape, idx)?])
    }
    fn ndarray_shape(&self, arg: u32, axis: u32) -> Result<i64, String> {
        let (_, shape, _) = self
            .ndarrays
            .iter()
            .find(|(a, _, _)| *a == arg)
            .ok_or_else(|| format!("no ndarray argument {arg}"))?;
        shape
            .get(axis as usize)
            .map(|&s| s as i64)
            .ok_or_else(|| format!("no axis {axis}"))
    }
    fn ndarray_element(&self, arg: u32, idx: &[i64]) -> Result<i64, String> {
        let (_, shape, data) = self
            .ndarrays
            .iter()
            .find(|(a, _, _)| *a == arg)
            .ok_or_else(|| format!("no ndarray argument {arg}"))?;
        Ok(data[linear(shape, idx)?])
    }
    fn scalar_arg(&self, arg: u32) -> Result<i64, String> {
        self.scalars
            .iter()
            .find(|(a, _)| *a == arg)
            .map(|&(_, v)| v)
            .ok_or_else(|| format!("no scalar argument {arg}"))
    }
}

/// A program over the module on the interpreter, with every stack given `capacity` entries
/// when set (else the runtime sizes each stack itself).
pub fn program_with_capacity(ctx: Context, m: OpId, capacity: Option<u64>) -> Program {
    let config = ProgramConfig {
        ad_stack_size: capacity.map(|c| c as usize),
        ..Default::default()
    };
    Program::new(ctx, m, Box::new(qd_interp::Interpreter::new()), config)
        .unwrap_or_else(|e| panic!("program: {e}"))
}

/// An f32 or i32 ndarray argument.
pub fn ndarray(p: &mut Program, dtype: DType, shape: &[usize], values: &[f64]) -> Arg {
    Arg::Ndarray(p.add_ndarray(Ndarray::from_f64(dtype, shape, values).expect("ndarray")))
}

pub fn f32_arg(v: f32) -> Arg {
    Arg::Scalar(Scalar::F32(v))
}

/// Launches `kernel` and syncs; Err with the messages of what the sync reported.
pub fn launch(p: &mut Program, kernel: &str, args: &[Arg]) -> Result<(), Vec<String>> {
    let k = p
        .kernel(kernel)
        .unwrap_or_else(|e| panic!("compile {kernel}: {e}"));
    p.launch(k, args)
        .unwrap_or_else(|e| panic!("launch {kernel}: {e}"));
    p.sync()
        .map_err(|es| es.iter().map(|e| e.to_string()).collect())
}

/// numpy's linspace.
pub fn linspace(a: f64, b: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            if n == 1 {
                a
            } else {
                a + (b - a) * i as f64 / (n - 1) as f64
            }
        })
        .collect()
}

/// The text of `examples/NAME`.
pub fn example(name: &str) -> String {
    let path = format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
