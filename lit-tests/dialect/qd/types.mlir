// RUN: qd-opt %s | qd-opt | FileCheck %s
// Every qd type round-trips: fields (scalar, 1-D, 2-D, integer), ndarrays, pointers, local arrays
// (nested arrays print flat) and structs (nesting aggregates).

// CHECK: qd.field @scalar : !qd.field<f32>
qd.field @scalar : !qd.field<f32>
// CHECK: qd.field @vec : !qd.field<16xf32>
qd.field @vec : !qd.field<16xf32>
// CHECK: qd.field @mat : !qd.field<4x10xf64>
qd.field @mat : !qd.field<4x10xf64>
// CHECK: qd.field @ints : !qd.field<3x2x2xi64>
qd.field @ints : !qd.field<3x2x2xi64>
// CHECK: qd.field @flags : !qd.field<8xi1>
qd.field @flags : !qd.field<8xi1>

// CHECK-LABEL: qd.kernel @args(
// CHECK-SAME: %{{.*}}: !qd.ndarray<?xf32>, %{{.*}}: !qd.ndarray<?x?xi32>, %{{.*}}: !qd.ndarray<?x?x?xf64>, %{{.*}}: f32, %{{.*}}: i32)
qd.kernel @args(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?x?xi32>, %c: !qd.ndarray<?x?x?xf64>, %s: f32, %n: i32) {
}

// CHECK-LABEL: qd.kernel @locals()
qd.kernel @locals() {
  // CHECK: qd.alloca : !qd.ptr<f32>
  %0 = qd.alloca : !qd.ptr<f32>
  // CHECK: qd.alloca : !qd.ptr<!qd.array<10xf32>>
  %1 = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // CHECK: qd.alloca : !qd.ptr<!qd.array<4x10xi32>>
  %2 = qd.alloca : !qd.ptr<!qd.array<4x!qd.array<10xi32>>>
  // CHECK: qd.alloca : !qd.ptr<!qd.array<4x10xi32>>
  %3 = qd.alloca : !qd.ptr<!qd.array<4x10xi32>>
  // CHECK: qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  %4 = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // CHECK: qd.alloca : !qd.ptr<!qd.struct<f64, !qd.array<3xf32>, !qd.struct<i1>>>
  %5 = qd.alloca : !qd.ptr<!qd.struct<f64, !qd.array<3xf32>, !qd.struct<i1>>>
  // CHECK: qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<f32, f32>>>
  %6 = qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<f32, f32>>>
}
