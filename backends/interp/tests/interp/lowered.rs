//! The lowered interpreter (`interp-lowered`) on hand-written lowered IR, through the Device
//! trait: tasks and their dispatch (serial, range with constant and temporaries bounds, empty
//! ranges, shuffled order), pointers into every buffer, bounds-check errors in the qd
//! interpreter's words, adstack metadata from the runtime's heap layout, overflow records, and
//! the errors of IR the lowering should never make (never a panic). Kernels that come from the
//! lowering pass are compared with the qd level by qd-run's `devices` test.

use super::common::*;
use qd_interp::lowered::LoweredInterpreter;
use qd_interp::InterpOptions;
use qd_ir::text::parse_source;
use qd_ir::{Context, Diagnostic, OpId};
use qd_runtime::adstack::default_entry_bytes;
use qd_runtime::adstack::layout::{Heap, HeapLayout};
use qd_runtime::device::KernelIr;
use qd_runtime::{
    AdstackPlan, Arg, CancelFlag, DType, Device, KernelStacks, Memory, RuntimeError,
    RuntimeErrorKind, Scalar,
};

/// A parsed module with its lowered kernel `k`, its memory, and the stacks `(id, elem, depth)`.
struct Case {
    ctx: Context,
    module: OpId,
    kernel: OpId,
    memory: Memory,
    stacks: KernelStacks,
    plan: AdstackPlan,
}

fn case(src: &str, sizes: &[(u32, DType, u64)]) -> Case {
    let mut ctx = context();
    ctx.register_dialect(qd_lowered::dialect());
    let Some(module) = parse_source(&mut ctx, src, "lowered.mlir") else {
        panic!("parse: {:?}", ctx.diagnostics());
    };
    let kernel = qd_ir::symbol_table::lookup_symbol_in(&ctx, module, "k").expect("@k");
    let memory = Memory::for_module(&ctx, module).unwrap();
    let loc = ctx.file_loc("alloca.mlir", 7, 3);
    let listed: Vec<(u32, DType)> = sizes.iter().map(|&(id, elem, _)| (id, elem)).collect();
    let stacks = KernelStacks::listed("k", kernel, loc, &listed);
    let depth = |id| sizes.iter().find(|s| s.0 == id).map_or(0, |s| s.2);
    let plan = stacks.plan_with_depths(depth, &default_entry_bytes);
    Case {
        ctx,
        module,
        kernel,
        memory,
        stacks,
        plan,
    }
}

impl Case {
    fn compile(
        &mut self,
        dev: &mut LoweredInterpreter,
    ) -> Result<qd_runtime::CompiledKernel, Vec<Diagnostic>> {
        let ir = KernelIr {
            name: "k",
            module: self.module,
            op: self.kernel,
        };
        dev.compile(&self.ctx, ir, &self.stacks, &self.memory)
    }

    /// Compiles and launches `k` with `args` on a fresh device.
    fn run_with(&mut self, options: InterpOptions, args: &[Arg]) -> Result<(), RuntimeError> {
        let mut dev = LoweredInterpreter::with_options(options);
        let k = self
            .compile(&mut dev)
            .unwrap_or_else(|d| panic!("compile: {d:?}"));
        dev.launch(
            &self.ctx,
            k,
            args,
            &self.plan,
            &mut self.memory,
            CancelFlag::never(),
        )
    }

    fn run(&mut self, args: &[Arg]) -> Result<(), RuntimeError> {
        self.run_with(InterpOptions::default(), args)
    }

    fn i32s(&self, field: &str) -> Vec<i32> {
        let i = self.memory.field_index(field).unwrap();
        self.memory.field(i).value.as_i32().unwrap().to_vec()
    }
}

fn i32_arg(v: i32) -> Arg {
    Arg::Scalar(Scalar::I32(v))
}

/// A serial task spills `2 * n` into temporaries slot 0; a range task from `begin` (constant 3)
/// to slot 0 writes `begin + thread` at `out[thread]`; a task over an empty range writes nothing.
const TASKS: &str = r#"module {
  qd.field @out : !qd.field<16xi32>
  "lowered.kernel"() <{function_type = (i32) -> (), sym_name = "k", temps = 1 : i64}> ({
  ^bb0(%a: i32):
    "lowered.task"() <{kind = "serial", sym_name = "k_0"}> ({
      %n = "lowered.arg"() <{index = 0 : i64}> : () -> i32
      %n64 = "arith.extsi"(%n) : (i32) -> i64
      %two = "arith.constant"() <{value = 2 : i64}> : () -> i64
      %e = "arith.muli"(%n64, %two) : (i64, i64) -> i64
      %s = "lowered.temp_ptr"() <{slot = 0 : i64}> : () -> !lowered.ptr<i64>
      "lowered.store"(%e, %s) : (i64, !lowered.ptr<i64>) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
    "lowered.task"() <{begin = 3 : i64, end_temp = 0 : i64, kind = "range", sym_name = "k_1"}> ({
      %t = "lowered.thread_id"() : () -> i64
      %b = "lowered.task_begin"() : () -> i64
      %i = "arith.addi"(%t, %b) : (i64, i64) -> i64
      %v = "arith.trunci"(%i) : (i64) -> i32
      %p = "lowered.field_ptr"() <{field = @out}> : () -> !lowered.ptr<i32>
      %q = "lowered.offset"(%p, %t) : (!lowered.ptr<i32>, i64) -> !lowered.ptr<i32>
      "lowered.store"(%v, %q) : (i32, !lowered.ptr<i32>) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
    "lowered.task"() <{begin = 5 : i64, end = -2 : i64, kind = "range", sym_name = "k_2"}> ({
      %c = "arith.constant"() <{value = 99 : i32}> : () -> i32
      %p = "lowered.field_ptr"() <{field = @out}> : () -> !lowered.ptr<i32>
      "lowered.store"(%c, %p) : (i32, !lowered.ptr<i32>) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}
"#;

#[test]
fn tasks_run_in_order_with_bounds_read_at_launch() {
    let mut c = case(TASKS, &[]);
    c.run(&[i32_arg(4)]).unwrap();
    // Threads 0..8 - 3 = 5 run iterations 3..8.
    let mut want = vec![3, 4, 5, 6, 7];
    want.resize(16, 0);
    assert_eq!(c.i32s("out"), want);
    assert_eq!(LoweredInterpreter::new().name(), "interp-lowered");
    assert!(LoweredInterpreter::new()
        .lowering_pipeline()
        .contains("convert-qd-to-lowered"));
}

/// Each thread takes a ticket from an atomic counter: the order threads ran in.
const ORDER: &str = r#"module {
  qd.field @counter : !qd.field<i32>
  qd.field @order : !qd.field<64xi32>
  "lowered.kernel"() <{function_type = () -> (), sym_name = "k", temps = 0 : i64}> ({
    "lowered.task"() <{begin = 0 : i64, end = 64 : i64, kind = "range", sym_name = "k_0"}> ({
      %t = "lowered.thread_id"() : () -> i64
      %one = "arith.constant"() <{value = 1 : i32}> : () -> i32
      %c = "lowered.field_ptr"() <{field = @counter}> : () -> !lowered.ptr<i32>
      %old = "lowered.atomic_add"(%one, %c) : (i32, !lowered.ptr<i32>) -> i32
      %p = "lowered.field_ptr"() <{field = @order}> : () -> !lowered.ptr<i32>
      %q = "lowered.offset"(%p, %t) : (!lowered.ptr<i32>, i64) -> !lowered.ptr<i32>
      "lowered.store"(%old, %q) : (i32, !lowered.ptr<i32>) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}
"#;

/// The same as a qd kernel, on the qd interpreter.
const QD_ORDER: &str = "module {
  qd.field @counter : !qd.field<i32>
  qd.field @order : !qd.field<64xi32>
  qd.kernel @k() {
    qd.struct_for (%i) in @order {
      %one = arith.constant 1 : i32
      %t = qd.atomic_add %one, @counter[] : i32
      qd.store %t, @order[%i] : i32
    }
  }
}
";

#[test]
fn a_handle_the_device_never_compiled_is_an_error_not_a_panic() {
    let mut c = case(TASKS, &[]);
    let foreign = qd_runtime::CompiledKernel(5);
    let e = LoweredInterpreter::new()
        .launch(
            &c.ctx,
            foreign,
            &[i32_arg(4)],
            &c.plan,
            &mut c.memory,
            CancelFlag::never(),
        )
        .unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::Device);
    assert_eq!(e.message, "kernel #5 was not compiled by interp-lowered");
    let e = qd_interp::Interpreter::new()
        .launch(
            &c.ctx,
            foreign,
            &[i32_arg(4)],
            &c.plan,
            &mut c.memory,
            CancelFlag::never(),
        )
        .unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::Device);
    assert_eq!(e.message, "kernel #5 was not compiled by this interpreter");
}

#[test]
fn range_tasks_shuffle_as_the_qd_interpreter_shuffles() {
    let ascending: Vec<i32> = (0..64).collect();
    let mut c = case(ORDER, &[]);
    c.run(&[]).unwrap();
    assert_eq!(c.i32s("order"), ascending);
    for seed in [1, 7, 12345] {
        let mut c = case(ORDER, &[]);
        c.run_with(
            InterpOptions {
                shuffle_seed: Some(seed),
            },
            &[],
        )
        .unwrap();
        let mut p = program_with(
            QD_ORDER,
            InterpOptions {
                shuffle_seed: Some(seed),
            },
        );
        run_ok(&mut p, "k", &[]);
        let qd = p.field("order").unwrap().as_i32().unwrap().to_vec();
        assert_ne!(qd, ascending);
        assert_eq!(c.i32s("order"), qd, "seed {seed}");
    }
}

/// Bounds checks in the forms of the qd interpreter's messages: an array access (its indices and
/// its shape) and a local array (one index and the length).
const BOUNDS: &str = r#"module {
  "lowered.kernel"() <{function_type = (i32, i32) -> (), sym_name = "k", temps = 0 : i64}> ({
  ^bb0(%a: i32, %b: i32):
    "lowered.task"() <{kind = "serial", sym_name = "k_0"}> ({
      %i = "lowered.arg"() <{index = 0 : i64}> : () -> i32
      %j = "lowered.arg"() <{index = 1 : i64}> : () -> i32
      %i64 = "arith.extsi"(%i) : (i32) -> i64
      %j64 = "arith.extsi"(%j) : (i32) -> i64
      %c4 = "arith.constant"() <{value = 4 : i64}> : () -> i64
      %c10 = "arith.constant"() <{value = 10 : i64}> : () -> i64
      "lowered.bounds_check"(%j64, %c10) <{local, what = "local array '!qd.array<10xf32>'"}> : (i64, i64) -> () loc("k.mlir":9:11)
      "lowered.bounds_check"(%i64, %j64, %c4, %c10) <{what = "field @f"}> : (i64, i64, i64, i64) -> () loc("k.mlir":5:7)
      "lowered.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}
"#;

#[test]
fn bounds_checks_fail_with_the_qd_interpreters_errors() {
    let mut c = case(BOUNDS, &[]);
    c.run(&[i32_arg(3), i32_arg(9)]).unwrap();
    let e = c.run(&[i32_arg(4), i32_arg(2)]).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
    assert_eq!(
        e.to_string(),
        "k.mlir:5:7: error: index [4, 2] is out of bounds for field @f of shape [4, 10] (in kernel @k)"
    );
    let e = c.run(&[i32_arg(-1), i32_arg(0)]).unwrap_err();
    assert_eq!(
        e.message,
        "index [-1, 0] is out of bounds for field @f of shape [4, 10]"
    );
    assert_eq!(e.position, Some(("k.mlir".into(), 5, 7)));
    let e = c.run(&[i32_arg(0), i32_arg(10)]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "k.mlir:9:11: error: index 10 is out of bounds for local array '!qd.array<10xf32>' of length 10 (in kernel @k)"
    );
    let e = c.run(&[i32_arg(0), i32_arg(-3)]).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::OutOfBounds);
}

/// Adstack metadata of the running task, read into fields per thread; stack 4 overflows in
/// thread 1.
const ADSTACK: &str = r#"module {
  qd.field @meta : !qd.field<3x6xi64>
  qd.field @back : !qd.field<3xf64>
  "lowered.kernel"() <{function_type = () -> (), sym_name = "k", temps = 0 : i64}> ({
    "lowered.task"() <{adstacks = [2 : i64, 4 : i64, 9 : i64], begin = 0 : i64, end = 3 : i64, kind = "range", sym_name = "k_0"}> ({
      %t = "lowered.thread_id"() : () -> i64
      %six = "arith.constant"() <{value = 6 : i64}> : () -> i64
      %base = "arith.muli"(%t, %six) : (i64, i64) -> i64
      %p0 = "lowered.field_ptr"() <{field = @meta}> : () -> !lowered.ptr<i64>
      %p = "lowered.offset"(%p0, %base) : (!lowered.ptr<i64>, i64) -> !lowered.ptr<i64>
      %c1 = "arith.constant"() <{value = 1 : i64}> : () -> i64
      %sf = "lowered.adstack_stride"() <{heap = "float"}> : () -> i64
      %si = "lowered.adstack_stride"() <{heap = "int"}> : () -> i64
      %o4 = "lowered.adstack_offset"() <{id = 4 : i64}> : () -> i64
      %o9 = "lowered.adstack_offset"() <{id = 9 : i64}> : () -> i64
      %m4 = "lowered.adstack_max_size"() <{id = 4 : i64}> : () -> i64
      %r = "lowered.adstack_row"() : () -> i64
      "lowered.store"(%sf, %p) : (i64, !lowered.ptr<i64>) -> ()
      %p1 = "lowered.offset"(%p, %c1) : (!lowered.ptr<i64>, i64) -> !lowered.ptr<i64>
      "lowered.store"(%si, %p1) : (i64, !lowered.ptr<i64>) -> ()
      %p2 = "lowered.offset"(%p1, %c1) : (!lowered.ptr<i64>, i64) -> !lowered.ptr<i64>
      "lowered.store"(%o4, %p2) : (i64, !lowered.ptr<i64>) -> ()
      %p3 = "lowered.offset"(%p2, %c1) : (!lowered.ptr<i64>, i64) -> !lowered.ptr<i64>
      "lowered.store"(%o9, %p3) : (i64, !lowered.ptr<i64>) -> ()
      %p4 = "lowered.offset"(%p3, %c1) : (!lowered.ptr<i64>, i64) -> !lowered.ptr<i64>
      "lowered.store"(%m4, %p4) : (i64, !lowered.ptr<i64>) -> ()
      %p5 = "lowered.offset"(%p4, %c1) : (!lowered.ptr<i64>, i64) -> !lowered.ptr<i64>
      "lowered.store"(%r, %p5) : (i64, !lowered.ptr<i64>) -> ()
      %rowbase = "arith.muli"(%r, %sf) : (i64, i64) -> i64
      %at = "arith.addi"(%rowbase, %o9) : (i64, i64) -> i64
      %x = "arith.constant"() <{value = 2.5 : f64}> : () -> f64
      %ep = "lowered.heap_ptr"(%at) <{heap = "float"}> : (i64) -> !lowered.ptr<f64>
      %e0 = "lowered.offset"(%ep, %c1) : (!lowered.ptr<f64>, i64) -> !lowered.ptr<f64>
      "lowered.store"(%x, %e0) : (f64, !lowered.ptr<f64>) -> ()
      %y = "lowered.load"(%e0) : (!lowered.ptr<f64>) -> f64
      %bp = "lowered.field_ptr"() <{field = @back}> : () -> !lowered.ptr<f64>
      %bq = "lowered.offset"(%bp, %t) : (!lowered.ptr<f64>, i64) -> !lowered.ptr<f64>
      "lowered.store"(%y, %bq) : (f64, !lowered.ptr<f64>) -> ()
      %is1 = "arith.cmpi"(%t, %c1) <{predicate = 0 : i64}> : (i64, i64) -> i1
      "lowered.if"(%is1) ({
        "lowered.adstack_overflow"() <{id = 4 : i64}> : () -> ()
        "lowered.yield"() : () -> ()
      }, {
      }) : (i1) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}
"#;

#[test]
fn adstack_metadata_comes_from_the_heap_layout() {
    let stacks = [(2, DType::F32, 5), (4, DType::I1, 3), (9, DType::F64, 2)];
    let mut c = case(ADSTACK, &stacks);
    c.run(&[]).unwrap();
    let layout =
        HeapLayout::compute(&c.plan, &[(2, DType::F32), (4, DType::I1), (9, DType::F64)]).unwrap();
    let i = c.memory.field_index("meta").unwrap();
    let meta = c.memory.field(i).value.as_i64().unwrap().to_vec();
    for t in 0..3 {
        let row = &meta[t * 6..t * 6 + 6];
        assert_eq!(
            row,
            [
                layout.stride(Heap::Float) as i64,
                layout.stride(Heap::Int) as i64,
                layout.offset(4).unwrap() as i64,
                layout.offset(9).unwrap() as i64,
                3,
                t as i64
            ],
            "thread {t}"
        );
    }
    // Entry 0 of stack 9, written and read back through the float heap at row * stride + offset.
    let b = c.memory.field_index("back").unwrap();
    assert_eq!(c.memory.field(b).value.as_f64().unwrap(), &[2.5; 3]);
    // f32 x5: 8 + 40 = 48, then f64 x2 at 48; i1 x3 widened: 8 + 12 -> 24.
    assert_eq!(
        (layout.stride(Heap::Float), layout.stride(Heap::Int)),
        (48 + 40, 24)
    );
    // The overflow is the one the qd interpreter records: kernel, alloca location, capacity.
    let o = c.memory.take_adstack_overflow().expect("an overflow");
    assert_eq!((o.kernel.as_str(), o.capacity), ("k", 3));
    assert_eq!(c.ctx.file_line_col(o.loc), Some(("alloca.mlir", 7, 3)));
}

#[test]
fn a_stack_the_plan_does_not_size_or_a_heap_too_big_is_an_error() {
    let mut c = case(ADSTACK, &[(2, DType::F32, 5), (4, DType::I1, 3)]);
    let mut dev = LoweredInterpreter::new();
    // The stack table lacks id 9: a compile error at the task.
    let e = c.compile(&mut dev).unwrap_err();
    assert!(
        e[0].message
            .contains("adstack id 9 is not a stack of the kernel"),
        "{e:?}"
    );
    let mut c = case(
        ADSTACK,
        &[
            (2, DType::F32, 5),
            (4, DType::I1, 3),
            (9, DType::F64, u64::MAX / 8),
        ],
    );
    let e = c.run(&[]).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::Device);
    assert!(
        e.message.starts_with("adstack heap of kernel @k:"),
        "{}",
        e.message
    );
}

/// A thread that reads the next thread's heap row: only its own row is its stack memory.
const OTHER_ROW: &str = r#"module {
  qd.field @out : !qd.field<2xf32>
  "lowered.kernel"() <{function_type = () -> (), sym_name = "k", temps = 0 : i64}> ({
    "lowered.task"() <{adstacks = array<i64: 0>, begin = 0 : i64, end = 2 : i64, kind = "range", sym_name = "k_0"}> ({
      %r = "lowered.adstack_row"() : () -> i64
      %s = "lowered.adstack_stride"() <{heap = "float"}> : () -> i64
      %c1 = "arith.constant"() <{value = 1 : i64}> : () -> i64
      %next = "arith.addi"(%r, %c1) : (i64, i64) -> i64
      %at = "arith.muli"(%next, %s) : (i64, i64) -> i64
      %p = "lowered.heap_ptr"(%at) <{heap = "float"}> : (i64) -> !lowered.ptr<f32>
      %v = "lowered.load"(%p) : (!lowered.ptr<f32>) -> f32
      %o = "lowered.field_ptr"() <{field = @out}> : () -> !lowered.ptr<f32>
      "lowered.store"(%v, %o) : (f32, !lowered.ptr<f32>) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}
"#;

#[test]
fn a_thread_reaches_its_own_heap_row_only() {
    let mut c = case(OTHER_ROW, &[(0, DType::F32, 4)]);
    let e = c.run(&[]).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::Device);
    assert!(
        e.message
            .contains("lowered IR load out of its buffer: Some(HeapFloat) at offset 40"),
        "{}",
        e.message
    );
}

/// Accesses the lowering never makes: past a field, through a pointer into nothing.
const FAULTS: &str = r#"module {
  qd.field @f : !qd.field<4xf32>
  "lowered.kernel"() <{function_type = (i32) -> (), sym_name = "k", temps = 0 : i64}> ({
  ^bb0(%a: i32):
    "lowered.task"() <{kind = "serial", sym_name = "k_0"}> ({
      %n = "lowered.arg"() <{index = 0 : i64}> : () -> i32
      %i = "arith.extsi"(%n) : (i32) -> i64
      %p = "lowered.field_ptr"() <{field = @f}> : () -> !lowered.ptr<f32>
      %q = "lowered.offset"(%p, %i) : (!lowered.ptr<f32>, i64) -> !lowered.ptr<f32>
      %v = "lowered.load"(%q) : (!lowered.ptr<f32>) -> f32
      "lowered.store"(%v, %p) : (f32, !lowered.ptr<f32>) -> ()
      %z = "arith.constant"() <{value = 0 : i32}> : () -> i32
      %one = "arith.constant"() <{value = 1 : i32}> : () -> i32
      %s = "arith.subi"(%one, %n) : (i32, i32) -> i32
      "lowered.for"(%z, %one, %s) ({
      ^bb0(%k: i32):
        "lowered.yield"() : () -> ()
      }) : (i32, i32, i32) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
}
"#;

#[test]
fn faults_are_errors_not_panics() {
    let mut c = case(FAULTS, &[]);
    for past in [4, -1, 1 << 30] {
        let e = c.run(&[i32_arg(past)]).unwrap_err();
        assert_eq!(e.kind, RuntimeErrorKind::Device);
        assert!(
            e.message.contains("lowered IR load out of its buffer"),
            "{}",
            e.message
        );
    }
    // In bounds, then a loop whose step 1 - 1 = 0 would never end.
    let e = c.run(&[i32_arg(1)]).unwrap_err();
    assert_eq!(e.kind, RuntimeErrorKind::InvalidOperation);
    assert_eq!(e.message, "lowered.for step must be positive, got 0");
    c.run(&[i32_arg(0)]).unwrap();
}

#[test]
fn ir_the_lowered_interpreter_cannot_run_is_a_compile_error() {
    let qd_left = TASKS.replace(
        r#"%c = "arith.constant"() <{value = 99 : i32}> : () -> i32"#,
        r#"%c = "qd.load"() <{field = @out}> : () -> i32"#,
    );
    let mut c = case(&qd_left, &[]);
    let e = c.compile(&mut LoweredInterpreter::new()).unwrap_err();
    assert!(
        e[0].message.contains("no interpreter for dialect 'qd'"),
        "{e:?}"
    );
    let bad_kind = TASKS.replace(r#"kind = "serial""#, r#"kind = "parallel""#);
    let e = case(&bad_kind, &[])
        .compile(&mut LoweredInterpreter::new())
        .unwrap_err();
    assert!(
        e[0].message.contains("kind must be 'serial' or 'range'"),
        "{e:?}"
    );
    let wrong_type = TASKS.replace("!lowered.ptr<i32>", "!lowered.ptr<f32>");
    let e = case(&wrong_type, &[])
        .compile(&mut LoweredInterpreter::new())
        .unwrap_err();
    assert!(e[0].message.contains("field @out holds i32"), "{e:?}");
}
