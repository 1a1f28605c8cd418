// RUN: qd-opt %S/../../../examples/triangular.mlir | qd-opt | FileCheck %s
// RUN: qd-opt %S/../../../examples/triangular.mlir --print-op-generic | qd-opt | FileCheck %s
// examples/triangular.mlir parses, verifies and prints back (custom and through the generic form):
// the inner loop's upper bound is the outer serial loop's induction variable.

// CHECK: qd.field @m : !qd.field<i32>
// CHECK-NEXT: qd.field @x : !qd.field<4xf32> {needs_grad}
// CHECK-NEXT: qd.field @y : !qd.field<f32> {needs_grad}
// CHECK-NEXT: qd.kernel @compute() {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[V:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: %[[M:.*]] = qd.load @m[] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %[[J:.*]] = %[[C0]] to %[[M]] : i32 {
// CHECK-NEXT: %[[XI:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: qd.local_store %[[XI]], %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: qd.range_for %{{.*}} = %[[C0]] to %[[J]] : i32 {
// CHECK-NEXT: %[[A:.*]] = qd.local_load %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: %[[TH:.*]] = math.tanh %[[A]] : f32
// CHECK-NEXT: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[TH]], %[[H]] : f32
// CHECK-NEXT: qd.local_store %[[S]], %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = qd.local_load %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: qd.atomic_add %[[R]], @y[] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
