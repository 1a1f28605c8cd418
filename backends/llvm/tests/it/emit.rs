//! Emission of a kernel as LLVM IR text, assembly and an object file, optimised at O3 for the
//! host; IR the backend cannot compile is a located diagnostic.

use qd_ir::text::parse_source;
use qd_llvm::{emit_kernel, EmitKind, KernelInput, Options};
use qd_runtime::{KernelStacks, Memory};

const SRC: &str = r#"module {
  qd.field @x : !qd.field<1024xf32>
  qd.field @y : !qd.field<1024xf32>
  lowered.kernel @k() attributes {temps = 0} {
    lowered.task @k_0 range(0, 1024) {
      %0 = lowered.thread_id : i64
      %1 = lowered.field_ptr @x : !lowered.ptr<f32>
      %2 = lowered.offset %1, %0 : !lowered.ptr<f32>
      %3 = lowered.load %2 : !lowered.ptr<f32>
      %4 = arith.mulf %3, %3 : f32
      %5 = lowered.field_ptr @y : !lowered.ptr<f32>
      %6 = lowered.offset %5, %0 : !lowered.ptr<f32>
      lowered.store %4, %6 : !lowered.ptr<f32>
      lowered.return
    }
  }
}"#;

fn emit(src: &str, kind: EmitKind) -> Result<Vec<u8>, qd_ir::Diagnostic> {
    let mut ctx = qd_dialects::context();
    ctx.allow_unregistered = true;
    let module = parse_source(&mut ctx, src, "k.mlir").expect("parse");
    let op = qd_ir::symbol_table::lookup_symbol_in(&ctx, module, "k").expect("@k");
    let memory = Memory::for_module(&ctx, module).unwrap();
    let stacks = KernelStacks::default();
    let input = KernelInput {
        ctx: &ctx,
        op,
        name: "k",
        stacks: &stacks,
        memory: &memory,
    };
    emit_kernel(&input, kind, &Options::default())
}

#[test]
fn a_task_is_a_function_over_its_threads_vectorized_at_o3() {
    let ll = String::from_utf8(emit(SRC, EmitKind::Llvm).unwrap()).unwrap();
    assert!(ll.contains(" i32 @k_task0(ptr noalias"), "{ll}");
    // The thread loop of an elementwise task vectorizes.
    assert!(ll.contains("fmul <"), "{ll}");
    let asm = String::from_utf8(emit(SRC, EmitKind::Asm).unwrap()).unwrap();
    assert!(asm.contains("k_task0:"), "{asm}");
    let obj = emit(SRC, EmitKind::Obj).unwrap();
    assert_eq!(&obj[..4], b"\x7fELF");
}

#[test]
fn an_unsupported_op_is_a_located_error() {
    let src = SRC.replace(
        "%4 = arith.mulf %3, %3 : f32",
        "%4 = \"test.unknown\"(%3) : (f32) -> f32",
    );
    let e = emit(&src, EmitKind::Llvm).unwrap_err();
    assert!(
        e.message.contains("does not support 'test.unknown'"),
        "{}",
        e.message
    );
}
