//! The compile pipeline behind Program::kernel and Program::gradient: a gradient made for a
//! module that declares none, adstacks sized and given ids, plans keyed by id (not by the
//! allocas' order), duplicate ids refused at the alloca, the device's lowering run on a copy of
//! the module, memory moved to and from the device around launches, error codes located.

use super::mock::{Log, Mock};
use qd_adstack::{stack_id_of, MAX_SIZE, SIZE_EXPR};
use qd_ir::text::parse_source;
use qd_ir::OpId;
use qd_runtime::adstack::kernel_allocas;
use qd_runtime::{
    Buffer, DType, Error, FieldRef, Ndarray, Program, ProgramConfig, RuntimeErrorKind,
};
use std::cell::RefCell;
use std::rc::Rc;

/// dynamic_loop with v = v*v: one loop-carried float local whose value the reverse pass reads
/// (d(v*v) = 2v), so its gradient keeps one adstack (n + 2 deep).
const LOOP: &str = "module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %k = arith.constant 0.95 : f32
        %m = arith.mulf %a, %a : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }
}
";

/// [`LOOP`] with the linear body v = v*0.95: the reverse pass never reads v, so minimize-tape
/// elides its stack.
fn linear_loop() -> String {
    LOOP.replace("arith.mulf %a, %a", "arith.mulf %a, %k")
}

fn program_with(src: &str, mock: Mock, config: ProgramConfig) -> Program {
    let mut ctx = qd_dialects::context();
    let m =
        parse_source(&mut ctx, src, "p.mlir").unwrap_or_else(|| panic!("{:?}", ctx.diagnostics()));
    Program::new(ctx, m, Box::new(mock), config).unwrap_or_else(|e| panic!("{e}"))
}

fn program(src: &str) -> (Program, Rc<RefCell<Log>>) {
    let log = Rc::new(RefCell::new(Log::default()));
    let p = program_with(src, Mock::new(log.clone()), ProgramConfig::default());
    (p, log)
}

fn allocas(p: &Program, kernel: &str) -> Vec<OpId> {
    let k = qd_runtime::pipeline::find_kernel(p.context(), p.module(), kernel).unwrap();
    kernel_allocas(p.context(), k.0)
}

#[test]
fn a_gradient_is_built_when_the_module_declares_none() {
    let (mut p, log) = program(LOOP);
    assert_eq!(p.kernel_names(), ["compute"]);
    let g = p.gradient("compute").unwrap();
    assert_eq!(p.kernel_name(g.kernel), Some("compute_grad"));
    assert_eq!(p.kernel_names(), ["compute", "compute_grad"]);
    // Declared, differentiated, sized (a symbolic bound: no max_size), given ids.
    let decl = qd_ad::find_reverse(p.context(), p.module(), "compute").unwrap();
    assert_eq!(
        decl.gradient(p.context())
            .map(|k| k.name(p.context()).to_string()),
        Some("compute_grad".to_string())
    );
    let stacks = allocas(&p, "compute_grad");
    assert_eq!(stacks.len(), 1);
    let ctx = p.context();
    assert!(ctx.prop(stacks[0], SIZE_EXPR).is_some());
    assert!(ctx.prop(stacks[0], MAX_SIZE).is_none());
    assert_eq!(stack_id_of(ctx, stacks[0]), Some(0));
    // The device compiled the gradient with its stack table.
    assert_eq!(log.borrow().compiled, ["compute_grad"]);
    assert_eq!(log.borrow().tables, [vec![(0, DType::F32)]]);
    // Sized per launch from @n: n + 2 (its initial value, one per iteration, one slack).
    p.write_f64("n", &[5.0]).unwrap();
    let plan = p.adstack_plan(g.kernel, &[]).unwrap();
    assert_eq!(plan.stack(0).map(|s| s.depth), Some(7));
    // A second request finds the same kernel and builds nothing.
    let again = p.gradient("compute").unwrap();
    assert_eq!(again, g);
    assert_eq!(p.kernel_names(), ["compute", "compute_grad"]);
}

#[test]
fn a_stack_whose_primal_is_never_read_is_elided_and_takes_nothing() {
    for forced in [None, Some(4)] {
        let log = Rc::new(RefCell::new(Log::default()));
        let config = ProgramConfig {
            ad_stack_size: forced,
            ..ProgramConfig::default()
        };
        let mut p = program_with(&linear_loop(), Mock::new(log.clone()), config);
        let g = p.gradient("compute").unwrap();
        let stacks = allocas(&p, "compute_grad");
        assert_eq!(
            stacks.len(),
            1,
            "the elided stack's alloca stays as its record"
        );
        let ctx = p.context();
        assert!(qd_adstack::AllocaOp(stacks[0]).is_primal_elided(ctx));
        assert_eq!(ctx.uses(ctx.result(stacks[0], 0)).len(), 0);
        assert_eq!(stack_id_of(ctx, stacks[0]), Some(0));
        // The stack table lists it, as elided; every launch gives it depth 0 and no memory,
        // whatever size is forced.
        assert_eq!(log.borrow().tables, [vec![(0, DType::F32)]]);
        p.write_f64("n", &[5.0]).unwrap();
        let plan = p.adstack_plan(g.kernel, &[]).unwrap();
        let s = plan.stack(0).unwrap();
        assert_eq!((s.primal_kept, s.depth, s.bytes_per_thread), (false, 0, 0));
        assert_eq!(plan.bytes_per_thread(), 0);
    }
    // The v*v body keeps its stack.
    let (mut p, _) = program(LOOP);
    let g = p.gradient("compute").unwrap();
    p.write_f64("n", &[5.0]).unwrap();
    let plan = p.adstack_plan(g.kernel, &[]).unwrap();
    let s = plan.stack(0).unwrap();
    assert_eq!(
        (s.primal_kept, s.depth, s.bytes_per_thread),
        (true, 7, 8 + 7 * 8)
    );
}

#[test]
fn a_forced_size_reaches_the_sizing_pass() {
    let log = Rc::new(RefCell::new(Log::default()));
    let config = ProgramConfig {
        ad_stack_size: Some(4),
        ..ProgramConfig::default()
    };
    let mut p = program_with(LOOP, Mock::new(log), config);
    p.gradient("compute").unwrap();
    let a = allocas(&p, "compute_grad")[0];
    assert_eq!(qd_adstack::max_size_of(p.context(), a), Some(4));
}

/// Two stacks with hand-written ids and bounds; `FIRST`/`SECOND` are swapped to reorder them.
fn two_stacks(first: &str, second: &str) -> String {
    format!("qd.kernel @k() {{\n  {first}\n  {second}\n}}\n")
}
const ID1: &str = "%a = adstack.alloca : f32 {id = 1, max_size = 3}";
const ID0: &str = "%b = adstack.alloca : i32 {id = 0, max_size = 9}";

#[test]
fn plans_are_keyed_by_id_not_by_position() {
    for src in [two_stacks(ID1, ID0), two_stacks(ID0, ID1)] {
        let (mut p, log) = program(&src);
        let k = p.kernel("k").unwrap();
        let plan = p.adstack_plan(k, &[]).unwrap();
        // Whatever the order of the allocas, each id keeps its own size and element type.
        assert_eq!(
            plan.stack(1).map(|s| (s.depth, s.elem)),
            Some((3, DType::F32))
        );
        assert_eq!(
            plan.stack(0).map(|s| (s.depth, s.elem)),
            Some((9, DType::I32))
        );
        assert_eq!(plan.stack(2), None);
        let ids: Vec<u32> = plan.stacks.iter().map(|s| s.id).collect();
        assert_eq!(ids, [0, 1]);
        assert_eq!(plan.position(1), Some(1));
        assert_eq!(
            log.borrow().tables,
            [vec![(0, DType::I32), (1, DType::F32)]]
        );
        let stacks = p.kernel_stacks(k).unwrap();
        assert_eq!(stacks.get(1).map(|s| s.max_size), Some(Some(3)));
    }
}

#[test]
fn allocas_without_ids_get_them_in_pre_order() {
    let src = two_stacks(
        "%a = adstack.alloca : f32 {max_size = 3}",
        "%b = adstack.alloca : i32 {max_size = 9}",
    );
    let (mut p, _) = program(&src);
    let k = p.kernel("k").unwrap();
    let ids: Vec<Option<u32>> = allocas(&p, "k")
        .iter()
        .map(|&a| stack_id_of(p.context(), a))
        .collect();
    assert_eq!(ids, [Some(0), Some(1)]);
    let plan = p.adstack_plan(k, &[]).unwrap();
    assert_eq!(plan.depth(0), Some(3));
    assert_eq!(plan.depth(1), Some(9));
}

#[test]
fn duplicate_ids_are_an_error_at_the_second_alloca() {
    let src = two_stacks(
        "%a = adstack.alloca : f32 {id = 4, max_size = 3}",
        "%b = adstack.alloca : i32 {id = 4, max_size = 9}",
    );
    let (mut p, log) = program(&src);
    let e = p.kernel("k").unwrap_err();
    let d = &e.diagnostics()[0];
    assert_eq!(
        d.message,
        "adstack id 4 is used twice in kernel @k: stack ids must be unique"
    );
    let ctx = p.context();
    assert_eq!(ctx.file_line_col(d.loc), Some(("p.mlir", 3, 8)));
    assert_eq!(d.notes.len(), 1);
    assert_eq!(ctx.file_line_col(d.notes[0].loc), Some(("p.mlir", 2, 8)));
    assert!(log.borrow().compiled.is_empty());
}

#[test]
fn the_lowering_pipeline_runs_on_a_copy_of_the_module() {
    let log = Rc::new(RefCell::new(Log::default()));
    let mut mock = Mock::new(log.clone());
    mock.pipeline = "builtin.module(canonicalize)".into();
    let mut p = program_with(LOOP, mock, ProgramConfig::default());
    let before = qd_ir::text::print_op(p.context(), p.module(), &Default::default());
    p.kernel("compute").unwrap();
    p.gradient("compute").unwrap();
    let modules = log.borrow().modules.clone();
    assert_eq!(modules.len(), 2);
    assert!(modules.iter().all(|&m| m != p.module()));
    assert_ne!(modules[0], modules[1]);
    // The program's module is still the qd-level one (the gradient was added to it).
    assert!(qd_runtime::pipeline::find_kernel(p.context(), p.module(), "compute").is_some());
    let after = qd_ir::text::print_op(p.context(), p.module(), &Default::default());
    assert!(after.starts_with(&before[..before.len() - 3]), "{after}");

    // Without a pipeline the device gets the program's own module.
    let (mut p, log) = program(LOOP);
    p.kernel("compute").unwrap();
    assert_eq!(log.borrow().modules, [p.module()]);
}

#[test]
fn only_the_kernel_being_compiled_is_lowered() {
    // @other's stack has a hand-written bound and no id: convert-qd-to-lowered refuses it, but it
    // is not the kernel being compiled, so it must not be lowered at all.
    let src = "module {
  qd.field @x : !qd.field<4xf32>
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      qd.store %v, @x[%i] : f32
    }
  }
  qd.kernel @other(%v: f32) {
    %s = adstack.alloca : f32 {max_size = 4}
    adstack.push %s, %v : f32
  }
  ad.reverse @compute
}
";
    let log = Rc::new(RefCell::new(Log::default()));
    let mut mock = Mock::new(log.clone());
    mock.pipeline = "builtin.module(convert-qd-to-lowered)".into();
    let mut p = program_with(src, mock, ProgramConfig::default());
    p.kernel("compute").unwrap_or_else(|e| panic!("{e}"));
    let lowered = log.borrow().modules[0];
    let ctx = p.context();
    let names: Vec<String> = ctx
        .walk_pre_order(lowered)
        .into_iter()
        .filter_map(|op| ctx.prop(op, "sym_name"))
        .map(|a| qd_ir::text::attr_to_string(ctx, a))
        .collect();
    assert!(names.iter().any(|n| n == "\"compute\""), "{names:?}");
    assert!(!names.iter().any(|n| n == "\"other\""), "{names:?}");
    assert!(
        names.iter().any(|n| n == "\"x\""),
        "the fields stay: {names:?}"
    );
}

#[test]
fn a_bad_lowering_pipeline_is_a_device_error() {
    let log = Rc::new(RefCell::new(Log::default()));
    let mut mock = Mock::new(log);
    mock.pipeline = "builtin.module(no-such-pass)".into();
    let mut p = program_with(LOOP, mock, ProgramConfig::default());
    let e = p.kernel("compute").unwrap_err();
    let Error::Device(msg) = &e else {
        panic!("{e:?}")
    };
    assert!(
        msg.starts_with(
            "the lowering pipeline of device 'mock' on kernel @compute: bad pipeline \
             'builtin.module(no-such-pass)'"
        ),
        "{msg}"
    );
}

#[test]
fn memory_moves_to_the_device_before_launches_and_back_after_sync() {
    let (mut p, log) = program(LOOP);
    let k = p.kernel("compute").unwrap();
    let f = |index, grad| Buffer::Field(FieldRef { index, grad });
    let every_field = [
        f(0, false),
        f(1, false),
        f(1, true),
        f(2, false),
        f(2, true),
    ];
    p.launch(k, &[]).unwrap();
    assert_eq!(log.borrow().uploads, every_field);
    assert!(log.borrow().downloads.is_empty());
    // Nothing changed on the host: the next launch uploads nothing.
    p.launch(k, &[]).unwrap();
    assert_eq!(log.borrow().uploads.len(), 5);
    p.sync().unwrap();
    assert_eq!(log.borrow().downloads, every_field);
    p.sync().unwrap();
    assert_eq!(log.borrow().downloads.len(), 5);
    // A host write goes up again before the next launch, and only it.
    p.write_f64("n", &[3.0]).unwrap();
    let a = p.add_ndarray(Ndarray::zeros(DType::F32, &[2]).unwrap());
    p.launch(k, &[]).unwrap();
    assert_eq!(log.borrow().uploads[5..], [f(0, false)]);
    // The ndarray is not an argument of this launch: it stays on the host until one uses it.
    assert!(!log.borrow().uploads.contains(&Buffer::Ndarray(a)));
    p.clear_grads();
    p.sync().unwrap();
    // The adjoints the host cleared after the launch are not overwritten by the device's copy.
    let downloads = log.borrow().downloads[5..].to_vec();
    assert_eq!(downloads, [f(0, false), f(1, false), f(2, false)]);
}

#[test]
fn error_codes_are_located_through_the_device() {
    let log = Rc::new(RefCell::new(Log::default()));
    let mut mock = Mock::new(log);
    mock.fail_sync = true;
    mock.coded_errors = true;
    let mut p = program_with(LOOP, mock, ProgramConfig::default());
    let k = p.kernel("compute").unwrap();
    p.launch(k, &[]).unwrap();
    let errors = p.sync().unwrap_err();
    assert_eq!(errors.len(), 1);
    let e = &errors[0];
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
    assert_eq!(e.code, Some(0));
    assert_eq!(e.position, Some(("p.mlir".to_string(), 5, 3)));
    assert_eq!(
        e.to_string(),
        "p.mlir:5:3: error: index out of bounds (in kernel @compute)"
    );
}
