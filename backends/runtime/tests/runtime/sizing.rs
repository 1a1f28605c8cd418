//! Adstack plans over a device that runs nothing: each launch gets every stack's depth, evaluated
//! from the fields and ndarray arguments of that launch, and its bytes per thread in the device's
//! own entry layout; forced sizes; stacks that cannot be sized at compile time or at launch.

use qd_ir::text::parse_source;
use qd_ir::{Context, Diagnostic, OpId};
use qd_runtime::adstack::{default_entry_bytes, kernel_allocas, COUNT_HEADER_BYTES};
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, CompiledKernel, DType, DepthSource, Device, Error, KernelIr,
    KernelStacks, Memory, Ndarray, Program, ProgramConfig, RuntimeError,
};
use std::cell::RefCell;
use std::rc::Rc;

/// Records the plan of every launch; i1 entries take 4 bytes (as a SPIR-V device's would).
struct Recorder {
    plans: Rc<RefCell<Vec<AdstackPlan>>>,
}

impl Device for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }
    fn lowering_pipeline(&self) -> &str {
        ""
    }
    fn compile(
        &mut self,
        _: &Context,
        _: KernelIr<'_>,
        _: &KernelStacks,
        _: &Memory,
    ) -> Result<CompiledKernel, Vec<Diagnostic>> {
        Ok(CompiledKernel(0))
    }
    fn launch(
        &mut self,
        _: &Context,
        _: CompiledKernel,
        _: &[Arg],
        adstacks: &AdstackPlan,
        _: &mut Memory,
        _cancel: &CancelFlag,
    ) -> Result<(), RuntimeError> {
        self.plans.borrow_mut().push(adstacks.clone());
        Ok(())
    }
    fn sync(&mut self, _: &mut Memory) -> Result<(), Vec<RuntimeError>> {
        Ok(())
    }
    fn adstack_entry_bytes(&self, elem: DType) -> u64 {
        match elem {
            DType::I1 => 4,
            t => default_entry_bytes(t),
        }
    }
}

const SRC: &str = r#"
qd.field @n : !qd.field<i32>
qd.field @rows : !qd.field<3xi16>
qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %c: !qd.ndarray<?xi32>, %s: f32) {
  %f = adstack.alloca : f64 {size_expr = #adstack.size<2 + @n[]:i32>}
  %i = adstack.alloca : i32 {size_expr = #adstack.size<arg0.shape[1] * max(@rows[v0]:i16 for v0 in range(0, 3))>}
  %b = adstack.alloca : i1 {max_size = 6}
  %g = adstack.alloca : f32 {size_expr = #adstack.size<max(arg1[v1]:i32 for v1 in range(0, arg1.shape[0]))>}
}
qd.kernel @empty() {
}
"#;

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.register_dialect(qd_arith::dialect());
    ctx.register_dialect(qd_frontend::dialect());
    ctx.register_dialect(qd_adstack::dialect());
    ctx
}

fn program(src: &str, forced: Option<usize>) -> (Program, Rc<RefCell<Vec<AdstackPlan>>>) {
    let mut ctx = context();
    let m =
        parse_source(&mut ctx, src, "s.mlir").unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
    let plans = Rc::new(RefCell::new(Vec::new()));
    let dev = Recorder {
        plans: plans.clone(),
    };
    let config = ProgramConfig {
        ad_stack_size: forced,
        ..ProgramConfig::default()
    };
    (Program::new(ctx, m, Box::new(dev), config).unwrap(), plans)
}

/// The arguments of @k: a of shape [2, 5], c = [4, 9, 1], s = 0.
fn k_args(p: &mut Program) -> Vec<Arg> {
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[2, 5]).unwrap());
    let c = p.add_ndarray(Ndarray::from_f64(DType::I32, &[3], &[4.0, 9.0, 1.0]).unwrap());
    vec![
        Arg::Ndarray(a),
        Arg::Ndarray(c),
        Arg::Scalar(qd_runtime::Scalar::F32(0.0)),
    ]
}

#[test]
fn every_launch_gets_the_depths_of_its_own_data() {
    let (mut p, plans) = program(SRC, None);
    p.write_f64("n", &[10.0]).unwrap();
    p.write_f64("rows", &[3.0, 7.0, -2.0]).unwrap();
    let args = k_args(&mut p);
    let k = p.kernel("k").unwrap();
    p.launch(k, &args).unwrap();
    p.write_f64("n", &[100.0]).unwrap();
    p.launch(k, &args).unwrap();
    let plans = plans.borrow().clone();
    assert_eq!(plans.len(), 2);
    let depths = |plan: &AdstackPlan| plan.stacks.iter().map(|s| s.depth).collect::<Vec<_>>();
    // 2 + n; 5 columns * the largest row; max_size 6; the largest element of c.
    assert_eq!(depths(&plans[0]), [12, 35, 6, 9]);
    assert_eq!(depths(&plans[1]), [102, 35, 6, 9]);
    let plan = &plans[0];
    assert_eq!(plan.kernel, "k");
    let sources: Vec<DepthSource> = plan.stacks.iter().map(|s| s.source).collect();
    use DepthSource::*;
    assert_eq!(sources, [SizeExpr, SizeExpr, MaxSize, SizeExpr]);
    // f64: 16 bytes per entry; i32: 4; i1: 4 on this device; f32: 8; each with its count.
    let bytes: Vec<u64> = plan.stacks.iter().map(|s| s.bytes_per_thread).collect();
    let h = COUNT_HEADER_BYTES;
    assert_eq!(bytes, [h + 12 * 16, h + 35 * 4, h + 6 * 4, h + 9 * 8]);
    assert_eq!(plan.bytes_per_thread(), bytes.iter().sum::<u64>());
    // Allocas without ids get 0, 1, 2... in pre-order from the compile pipeline; the plan
    // lists the stacks by id and knows each alloca.
    let allocas = kernel_allocas(p.context(), p.kernel_op(k).unwrap());
    let planned: Vec<OpId> = plan.stacks.iter().map(|s| s.alloca).collect();
    assert_eq!(planned, allocas);
    assert_eq!(plan.stacks[3].id, 3);
    assert_eq!(plan.stack(3).map(|s| s.alloca), Some(allocas[3]));
    assert_eq!(
        plan.stacks[1].size_expr.as_ref().unwrap().to_string(),
        "arg0.shape[1] * max(@rows[v0]:i16 for v0 in range(0, 3))"
    );
    assert_eq!(p.last_adstack_plan(k), Some(&plans[1]));
    // A kernel without stacks gets an empty plan; this device keeps no peaks.
    let e = p.kernel("empty").unwrap();
    p.launch(e, &[]).unwrap();
    assert_eq!(p.last_adstack_plan(e), Some(&AdstackPlan::empty("empty")));
    assert_eq!(p.adstack_peaks(k), None);
    // So the plans record no measured peak: None, not a made-up value.
    let last = p.last_adstack_plan(k).unwrap();
    assert!(
        last.stacks.iter().all(|s| s.measured_peak.is_none()),
        "{last:?}"
    );
}

#[test]
fn a_forced_size_sizes_every_stack() {
    let (mut p, plans) = program(SRC, Some(3));
    let args = k_args(&mut p);
    let k = p.kernel("k").unwrap();
    p.launch(k, &args).unwrap();
    let plan = &plans.borrow()[0];
    assert!(plan
        .stacks
        .iter()
        .all(|s| s.depth == 3 && s.source == DepthSource::Forced));
    // Nothing is evaluated: a launch whose data no SizeExpr could read still runs.
    let bad = SRC.replace("2 + @n[]:i32", "@rows[7]:i16");
    let (mut p, _) = program(&bad, Some(3));
    let args = k_args(&mut p);
    let k = p.kernel("k").unwrap();
    assert!(p.launch(k, &args).is_ok());
}

#[test]
fn launch_time_failures_name_the_kernel_and_the_stack() {
    let bad = SRC.replace("2 + @n[]:i32", "@rows[7]:i16");
    let (mut p, plans) = program(&bad, None);
    let args = k_args(&mut p);
    let k = p.kernel("k").unwrap();
    let e = p.launch(k, &args).unwrap_err();
    let Error::Diagnostics(d) = &e else {
        panic!("{e:?}")
    };
    assert_eq!(
        d[0].message,
        "cannot size adstack #0 of kernel @k for this launch: cannot read @rows[7]: index [7] \
         is out of bounds for shape [3] (size_expr: @rows[7]:i16)"
    );
    assert_eq!(p.context().file_line_col(d[0].loc), Some(("s.mlir", 5, 8)));
    assert!(plans.borrow().is_empty());
    assert_eq!(p.last_adstack_plan(k), None);
    // The same through adstack_plan, which launches nothing.
    assert_eq!(p.adstack_plan(k, &args), Err(e));
}

#[test]
fn compile_time_failures_are_located_at_the_alloca() {
    // A size_expr that is not a #adstack.size is already refused by the alloca's verifier.
    for (from, to, want) in [
        (
            "2 + @n[]:i32",
            "@n[0]:i32",
            "kernel @k: the adstack's size_expr @n[0]:i32: it reads field @n of rank 0 with 1 indices",
        ),
        (
            "2 + @n[]:i32",
            "arg2.shape[0]",
            "kernel @k: the adstack's size_expr arg2.shape[0]: argument 2 is f32, not an ndarray",
        ),
    ] {
        let src = SRC.replace(from, to);
        let (mut p, _) = program(&src, None);
        let e = p.kernel("k").unwrap_err();
        let d = &e.diagnostics()[0];
        assert_eq!(d.message, want);
        assert_eq!(p.context().file_line_col(d.loc), Some(("s.mlir", 5, 8)));
    }
}
