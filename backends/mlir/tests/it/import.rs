//! Import: upstream MLIR -> qd text that qd parses and verifies, and located errors for input
//! outside the subset (the lit tests of lit-tests/mlir-import run imported kernels and their
//! gradients).

use qd_mlir::import_text;

#[test]
fn a_serial_function_runs_in_one_thread() {
    let src = r#"func.func @f(%x: memref<?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %s : f32
    memref.store %w, %x[%i] : memref<?xf32>
  }
  return
}"#;
    let qd = import_text(src, "f.mlir").unwrap();
    assert!(
        qd.contains("qd.kernel @f(%arg0: !qd.ndarray<?xf32>, %arg1: f32) {"),
        "{qd}"
    );
    // The serial loop inside a one-iteration (parallel) loop.
    let loops = qd.matches("qd.range_for").count();
    assert_eq!(loops, 2, "{qd}");
    assert!(qd.contains("qd.ndarray_store"), "{qd}");
}

#[test]
fn a_parallel_function_stays_parallel() {
    let src = r#"func.func @f(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c2) {
    %v = memref.load %x[%i] : memref<8xf32>
    %e = math.exp %v : f32
    memref.store %e, %x[%i] : memref<8xf32>
    scf.reduce
  }
  return
}"#;
    let qd = import_text(src, "f.mlir").unwrap();
    // One top-level loop over the trip count ceildiv(8 - 0, 2).
    assert_eq!(qd.matches("qd.range_for").count(), 1, "{qd}");
    assert!(qd.contains("arith.ceildivsi"), "{qd}");
}

#[test]
fn input_outside_the_subset_is_a_located_error() {
    let cases = [
        (
            "func.func @f() {\n  %a = memref.alloc() : memref<4xf32>\n  return\n}",
            "f.mlir:2:8: error: the MLIR import does not support 'memref.alloc'\n",
        ),
        (
            "func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}",
            "f.mlir:2:3: error: a kernel returns nothing: write results to a memref argument\n",
        ),
        (
            "func.func @f(%a: memref<?xi1>) {\n  return\n}",
            "f.mlir:1:1: error: the MLIR import does not take memrefs of i1\n",
        ),
        (
            "func.func @f(%a: vector<4xf32>) {\n  return\n}",
            "f.mlir:1:1: error: the MLIR import does not take the type 'vector<4xf32>'\n",
        ),
        (
            "func.func @f() {\n  %c = arith.constant 1 : i32\n  %d = arith.addi %c, %nope : i32\n  return\n}",
            "f.mlir:3:23: error: use of undeclared SSA value name\n",
        ),
        (
            "func.func @f() {\n  return\0\n}",
            "f.mlir:2:9: error: the input contains a NUL byte\n",
        ),
        (
            "func.func @f(%a: memref<?xf32>, %n: i64) {\n  %c0 = arith.constant 0 : i64\n  scf.for %i = %c0 to %n step %n : i64 {\n  }\n  return\n}",
            "f.mlir:3:3: error: the MLIR import takes scf.for over index or i32\n",
        ),
        (
            "func.func @f(%a: memref<?xf32>, %k: index) {\n  %d = memref.dim %a, %k : memref<?xf32>\n  return\n}",
            "f.mlir:2:8: error: memref.dim of a dimension that is not a constant\n",
        ),
        (
            "func.func private @decl(f32)",
            "f.mlir:1:1: error: func @decl is a declaration: it has no body\n",
        ),
    ];
    for (src, want) in cases {
        let e = import_text(src, "f.mlir").expect_err(src);
        assert_eq!(e.0, want, "{src}");
    }
}
