//! Memory: field allocation from a module, adjoints, `x.grad` resolution, ndarray handles.

use super::mock::parse;
use qd_runtime::{DType, Error, Memory, Ndarray, Storage};

const SRC: &str = "module {
  qd.field @x : !qd.field<4x10xf32> {needs_grad}
  qd.field @n : !qd.field<i32>
  qd.field @m : !qd.field<3xui8>
  qd.field @b : !qd.field<2xi1>
  qd.field @d : !qd.field<f64> {needs_grad}
}
";

#[test]
fn fields_are_allocated_zeroed_with_adjoints() {
    let (ctx, m) = parse(SRC);
    let mem = Memory::for_module(&ctx, m).unwrap();
    let infos: Vec<_> = mem
        .fields()
        .iter()
        .map(|f| {
            (
                f.info.name.as_str(),
                f.info.dtype,
                f.info.shape.clone(),
                f.grad.is_some(),
            )
        })
        .collect();
    assert_eq!(
        infos,
        vec![
            ("x", DType::F32, vec![4, 10], true),
            ("n", DType::I32, vec![], false),
            ("m", DType::U8, vec![3], false),
            ("b", DType::I1, vec![2], false),
            ("d", DType::F64, vec![], true),
        ]
    );
    assert_eq!(mem.field(0).value, Storage::F32(vec![0.0; 40]));
    assert_eq!(mem.field(0).grad, Some(Storage::F32(vec![0.0; 40])));
    assert_eq!(
        mem.field(1).value.len(),
        1,
        "a scalar field has one element"
    );
    assert_eq!(mem.field(0).info.num_elements(), 40);
    assert_eq!(mem.field_index("d"), Some(4));
}

#[test]
fn names_resolve_to_values_and_adjoints() {
    let (ctx, m) = parse(SRC);
    let mut mem = Memory::for_module(&ctx, m).unwrap();
    let x = mem.resolve("x").unwrap();
    let xg = mem.resolve("x.grad").unwrap();
    assert!(!x.grad && xg.grad && x.index == xg.index);
    mem.storage_mut(xg).store_bits(3, 1.5f32.to_bits() as u64);
    assert_eq!(mem.storage(xg).get_f64(3), Some(1.5));
    assert_eq!(mem.storage(x).get_f64(3), Some(0.0));
    assert_eq!(mem.resolve("n.grad"), Err(Error::NoAdjoint("n".into())));
    assert!(matches!(mem.resolve("zz"), Err(Error::UnknownField { .. })));
    assert!(matches!(
        mem.resolve("zz.grad"),
        Err(Error::UnknownField { .. })
    ));
}

#[test]
fn unsupported_fields_are_located_errors() {
    let src = "module {\n  qd.field @h : !qd.field<2xf16>\n  qd.field @ok : !qd.field<2xf32>\n  qd.field @i : !qd.field<2xi7>\n}\n";
    let (ctx, m) = parse(src);
    let diags = Memory::layout(&ctx, m).unwrap_err();
    assert_eq!(diags.len(), 2);
    assert_eq!(ctx.file_line_col(diags[0].loc), Some(("m.mlir", 2, 3)));
    assert!(diags[0]
        .message
        .starts_with("field @h: element type 'f16' is not supported"));
    assert_eq!(ctx.file_line_col(diags[1].loc), Some(("m.mlir", 4, 3)));
    assert_eq!(Memory::for_module(&ctx, m).unwrap_err(), diags);
}

#[test]
fn fields_too_large_to_allocate_are_located_errors() {
    let src = "module {\n  qd.field @ok : !qd.field<2xf32>\n  qd.field @big : !qd.field<2000000000x2000000000xf32> {needs_grad}\n}\n";
    let (ctx, m) = parse(src);
    // The layout is fine (each extent fits an i32 index); the allocation is not.
    assert_eq!(
        Memory::layout(&ctx, m).unwrap()[1].num_elements(),
        4_000_000_000_000_000_000
    );
    let diags = Memory::for_module(&ctx, m).unwrap_err();
    assert_eq!(ctx.file_line_col(diags[0].loc), Some(("m.mlir", 3, 3)));
    assert!(
        diags[0].message.starts_with("field @big: cannot allocate"),
        "{}",
        diags[0].message
    );
}

#[test]
fn ndarray_handles() {
    let mut mem = Memory::default();
    let a = mem.add_ndarray(Ndarray::zeros(DType::F32, &[3]).unwrap());
    let b = mem.add_ndarray(Ndarray::zeros(DType::I64, &[2, 2]).unwrap());
    assert_ne!(a, b);
    assert_eq!(mem.ndarray(b).unwrap().shape(), &[2, 2]);
    mem.ndarray_mut(a)
        .unwrap()
        .set(1, qd_runtime::Scalar::F32(2.0))
        .unwrap();
    assert_eq!(mem.ndarray(a).unwrap().to_f64_vec(), vec![0.0, 2.0, 0.0]);
    assert!(mem.remove_ndarray(a).is_some());
    assert!(mem.ndarray(a).is_none());
    assert!(mem.remove_ndarray(a).is_none());
    assert!(mem.ndarray(qd_runtime::NdarrayId(77)).is_none());
}
