//! Code generation choices, read back from the disassembly (and every module validated): float
//! atomics by the extension or a compare-exchange loop, 32- or 64-bit indices, the task's
//! bindings, and located refusals of what the target lacks.

use crate::corpus::compile_source;
use crate::spirv_val::validate;
use qd_spirv::abi::{BindingKind, Dispatch};
use qd_spirv::{Options, SpirvKernel};

fn asm(k: &SpirvKernel) -> String {
    let m = rspirv::dr::load_words(&k.words).unwrap();
    rspirv::binary::Disassemble::disassemble(&m)
}

fn one(source: &str, opts: Options) -> Result<SpirvKernel, String> {
    let mut c = compile_source(source, "k", false, &[opts]);
    c.pop().unwrap().result
}

const ATOMICS: &str = r#"
module {
  qd.field @x : !qd.field<8xf32>
  qd.field @lo : !qd.field<f32>
  qd.field @s : !qd.field<f32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      qd.atomic_add %v, @s[] : f32
      qd.atomic_min %v, @lo[] : f32
    }
  }
}
"#;

#[test]
fn float_atomic_add_uses_the_extension_when_the_target_has_it() {
    let k = one(ATOMICS, Options::default()).unwrap();
    validate(&k.words, "ext").unwrap();
    let a = asm(&k);
    assert!(a.contains("OpAtomicFAddEXT"), "{a}");
    assert!(a.contains("SPV_EXT_shader_atomic_float_add"));
    assert!(k.capabilities.iter().any(|c| c == "AtomicFloat32AddEXT"));
    // min has no instruction: always a compare-exchange loop.
    assert!(a.contains("OpAtomicCompareExchange"), "{a}");
}

#[test]
fn float_atomic_add_is_a_compare_exchange_loop_without_the_extension() {
    let k = one(
        ATOMICS,
        Options {
            atomic_float_add: false,
            ..Options::default()
        },
    )
    .unwrap();
    validate(&k.words, "cas").unwrap();
    let a = asm(&k);
    assert!(!a.contains("OpAtomicFAddEXT"), "{a}");
    assert!(!a.contains("SPV_EXT_shader_atomic_float_add"));
    assert!(a.matches("OpAtomicCompareExchange").count() >= 2, "{a}");
    assert!(a.contains("OpLoopMerge"));
}

#[test]
fn indices_are_64_bit_only_with_int64() {
    let wide = one(ATOMICS, Options::default()).unwrap();
    assert!(asm(&wide).contains("OpTypeInt 64 0"));
    let narrow = one(ATOMICS, Options::minimal()).unwrap();
    validate(&narrow.words, "narrow").unwrap();
    let a = asm(&narrow);
    assert!(!a.contains("OpTypeInt 64"), "{a}");
    assert!(!narrow.capabilities.iter().any(|c| c == "Int64"));
}

#[test]
fn tasks_list_their_dispatch_and_bindings() {
    let k = one(ATOMICS, Options::default()).unwrap();
    assert_eq!(k.tasks.len(), 1);
    let t = &k.tasks[0];
    assert_eq!(t.entry, "k_task0");
    assert_eq!(t.workgroup_size, 64);
    assert!(matches!(t.dispatch, Dispatch::Range { .. }));
    let kinds: Vec<&BindingKind> = t.bindings.iter().map(|b| &b.kind).collect();
    assert!(kinds.contains(&&BindingKind::Metadata));
    assert!(kinds.contains(&&BindingKind::Field("x".into())));
    let s = t
        .bindings
        .iter()
        .find(|b| b.kind == BindingKind::Field("s".into()))
        .unwrap();
    assert!(s.writes);
    let x = t
        .bindings
        .iter()
        .find(|b| b.kind == BindingKind::Field("x".into()))
        .unwrap();
    assert!(!x.writes);
}

const F64: &str = r#"
module {
  qd.field @x : !qd.field<8xf64>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f64
      %w = arith.mulf %v, %v : f64
      qd.store %w, @x[%i] : f64
    }
  }
}
"#;

#[test]
fn f64_needs_float64_and_is_refused_with_a_location_otherwise() {
    let k = one(F64, Options::default()).unwrap();
    validate(&k.words, "f64").unwrap();
    assert!(k.capabilities.iter().any(|c| c == "Float64"));
    let e = one(F64, Options::minimal()).unwrap_err();
    assert!(e.contains("Float64") && e.contains("lacks"), "{e}");
}

#[test]
fn i64_data_needs_int64() {
    let src = F64
        .replace("f64", "i64")
        .replace("arith.mulf", "arith.muli");
    let k = one(&src, Options::default()).unwrap();
    validate(&k.words, "i64").unwrap();
    let e = one(&src, Options::minimal()).unwrap_err();
    assert!(e.contains("Int64") && e.contains("lacks"), "{e}");
}

#[test]
fn f64_transcendentals_are_emulated_or_refused() {
    for m in ["sin", "cos", "exp", "tanh"] {
        let src = F64.replace("arith.mulf %v, %v : f64", &format!("math.{m} %v : f64"));
        let k = one(&src, Options::default()).unwrap();
        validate(&k.words, m).unwrap();
        // Not GLSL.std.450's 32-bit instruction.
        assert!(!asm(&k).contains("Sin"), "{m}");
    }
    let src = F64.replace("arith.mulf %v, %v : f64", "math.log %v : f64");
    let e = one(&src, Options::default()).unwrap_err();
    assert!(e.contains("f64 'math.log'"), "{e}");
}
