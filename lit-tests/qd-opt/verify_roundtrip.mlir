// --verify-roundtrip (mlir-opt's, on upstream Math/ops.mlir's RUN line): after parsing, the
// generic form with locations must re-parse and print the same; the output is unchanged.
// RUN: qd-opt %s --verify-roundtrip | FileCheck %s
// RUN: qd-opt %s -verify-roundtrip -canonicalize | FileCheck %s --check-prefix=CANON

// CHECK: qd.kernel @k(%arg0: !qd.ndarray<?xf32>) {
// CHECK:   func.func @f(%arg0: f32) -> f32 {
// CHECK-NEXT:    %[[S:.*]] = math.sin %arg0 : f32
// CHECK-NEXT:    return %[[S]] : f32
// CANON: func.func @f

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    qd.store %v, @x[%i] : f32
  }
}
func.func @f(%a: f32) -> f32 {
  %0 = math.sin %a : f32
  return %0 : f32
}
