//! Memory: field allocation from a module, adjoints, `x.grad` resolution, ndarray handles.

use super::mock::parse;
use qd_runtime::{DType, Error, Memory, MemoryLimit, Ndarray, Program, ProgramConfig, Storage};
use std::process::Command;

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
    assert_eq!(mem.field(0).value, Storage::F32(vec![0.0; 40].into()));
    assert_eq!(mem.field(0).grad, Some(Storage::F32(vec![0.0; 40].into())));
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
    // 4e18 elements of 4 bytes, and as many for the adjoint.
    assert!(
        diags[0].message.starts_with(
            "field @big: cannot allocate 32000000000000000000 bytes (its values and its adjoint)"
        ),
        "{}",
        diags[0].message
    );
    // Checked without allocating, as qd-run does while it still holds the context.
    assert_eq!(
        Memory::check_within(&ctx, m, MemoryLimit::Auto).unwrap_err(),
        diags
    );
}

const TWO_FIELDS: &str = "module {\n  qd.field @a : !qd.field<100xf32>\n  qd.field @g : !qd.field<10xf64> {needs_grad}\n}\n";

#[test]
fn a_memory_limit_refuses_fields_past_it_before_allocating() {
    let (ctx, m) = parse(TWO_FIELDS);
    // @a takes 400 bytes, @g 80 and 80 for its adjoint: 560 in all.
    let mem = Memory::for_module_within(&ctx, m, MemoryLimit::Bytes(560)).unwrap();
    assert_eq!(mem.held_bytes(), 560);
    assert_eq!(mem.limit(), Some(560));
    let diags = Memory::for_module_within(&ctx, m, MemoryLimit::Bytes(559)).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(ctx.file_line_col(diags[0].loc), Some(("m.mlir", 3, 3)));
    assert!(
        diags[0].message.starts_with(
            "field @g: cannot allocate 160 bytes (its values and its adjoint): 159 bytes are \
             left under the memory limit of 559 bytes (as set"
        ),
        "{}",
        diags[0].message
    );
    // Each field past what is left is reported.
    let diags = Memory::check_within(&ctx, m, MemoryLimit::Bytes(10)).unwrap_err();
    let names: Vec<_> = diags.iter().map(|d| &d.message[..8]).collect();
    assert_eq!(names, ["field @a", "field @g"]);
    assert!(diags[0]
        .message
        .contains("cannot allocate 400 bytes: 10 bytes are left"));
}

#[test]
fn the_program_applies_its_memory_limit_to_fields_and_adjoint_ndarrays() {
    let config = |limit| ProgramConfig {
        memory_limit: MemoryLimit::Bytes(limit),
        ..ProgramConfig::default()
    };
    let (ctx, m) = parse(TWO_FIELDS);
    let dev = Box::new(super::mock::Mock::new(Default::default()));
    let err = Program::new(ctx, m, dev, config(100)).err().unwrap();
    assert!(
        err.to_string()
            .starts_with("field @a: cannot allocate 400 bytes"),
        "{err}"
    );
    let (ctx, m) = parse(TWO_FIELDS);
    let dev = Box::new(super::mock::Mock::new(Default::default()));
    let mut p = Program::new(ctx, m, dev, config(1000)).unwrap();
    // 440 bytes left: an ndarray of 400 fits, then one more of 400 does not.
    p.check_alloc("ndarray a", 400).unwrap();
    p.add_ndarray(Ndarray::zeros(DType::F32, &[100]).unwrap());
    let err = p.check_alloc("ndarray b", 400).unwrap_err().to_string();
    assert!(
        err.contains("ndarray b: cannot allocate 400 bytes: 40 bytes are left under the memory limit of 1000 bytes"),
        "{err}"
    );
}

#[test]
fn the_default_limit_is_auto() {
    assert_eq!(ProgramConfig::default().memory_limit, MemoryLimit::Auto);
    if std::path::Path::new("/proc/meminfo").exists() {
        let (ctx, m) = parse(TWO_FIELDS);
        let mem = Memory::for_module(&ctx, m).unwrap();
        let limit = mem.limit().expect("auto reads /proc/meminfo");
        assert!(limit > 560, "{limit}");
    }
}

/// This process's resident set in bytes (/proc/self/statm: pages).
fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// Runs `lazily_zeroed_child` in a process of its own, where no other test allocates while it
/// measures its resident memory.
#[test]
fn big_fields_cost_only_the_pages_touched() {
    if !std::path::Path::new("/proc/self/statm").exists() {
        return; // Not Linux: no resident-set figure to check.
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "memory::lazily_zeroed_child",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("QD_LAZY_ZERO_CHILD", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("lazily zeroed: ok"),
        "the child did not run:\n{stdout}"
    );
}

#[test]
#[ignore = "run by big_fields_cost_only_the_pages_touched, in a process of its own"]
fn lazily_zeroed_child() {
    if std::env::var_os("QD_LAZY_ZERO_CHILD").is_none() {
        return;
    }
    const MIB: u64 = 1 << 20;
    // A 1 GiB f32 field and its 1 GiB adjoint.
    let src = "module {\n  qd.field @big : !qd.field<268435456xf32> {needs_grad}\n}\n";
    let (ctx, m) = parse(src);
    let before = rss_bytes();
    let mut mem = Memory::for_module_within(&ctx, m, MemoryLimit::Bytes(u64::MAX)).unwrap();
    let allocated = rss_bytes().saturating_sub(before);
    assert!(
        allocated < 64 * MIB,
        "allocating 2 GiB took {allocated} bytes resident"
    );
    // Touch one element in every 1024th page of the values (1 MiB of pages in all).
    let x = mem.resolve("big").unwrap();
    let n = mem.storage(x).len();
    for i in (0..n).step_by(1024 * 1024) {
        mem.storage_mut(x).store_bits(i, 1.0f32.to_bits() as u64);
    }
    assert_eq!(mem.storage(x).get_f64(0), Some(1.0));
    assert_eq!(mem.storage(x).get_f64(1), Some(0.0));
    let touched = rss_bytes().saturating_sub(before);
    assert!(
        touched < 64 * MIB,
        "touching 256 pages took {touched} bytes resident"
    );
    // Zeroing the adjoint (as Program::clear_grads does) does not write over its pages.
    let g = mem.resolve("big.grad").unwrap();
    mem.storage_mut(g).store_bits(5, 2.0f32.to_bits() as u64);
    mem.storage_mut(g).fill_zero();
    assert_eq!(mem.storage(g).get_f64(5), Some(0.0));
    assert_eq!(mem.storage(g).len(), n);
    let cleared = rss_bytes().saturating_sub(before);
    assert!(
        cleared < 64 * MIB,
        "zeroing the adjoint took {cleared} bytes resident"
    );
    println!("lazily zeroed: ok ({allocated}, {touched}, {cleared} bytes resident)");
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
