// RUN: qd-opt %S/../../../examples/ndarray_bound.mlir | qd-opt | FileCheck %s
// RUN: qd-opt %S/../../../examples/ndarray_bound.mlir --print-op-generic | qd-opt | FileCheck %s
// examples/ndarray_bound.mlir parses, verifies and prints back (custom and through the generic form).

// CHECK: qd.field @x : !qd.field<8xf32> {needs_grad}
// CHECK-NEXT: qd.field @y : !qd.field<f32> {needs_grad}
// CHECK-NEXT: qd.kernel @compute(%[[A:.*]]: !qd.ndarray<?xi32>) {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[XI:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[V:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: qd.local_store %[[XI]], %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: %[[N:.*]] = qd.ndarray_load %[[A]][%[[I]]] : !qd.ndarray<?xi32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %{{.*}} = %[[C0]] to %[[N]] : i32 {
// CHECK-NEXT: %[[T:.*]] = qd.local_load %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: %[[SN:.*]] = math.sin %[[T]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.constant 0.899999976 : f32
// CHECK-NEXT: %[[B:.*]] = arith.constant 1.000000e-01 : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[SN]], %[[K]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[B]] : f32
// CHECK-NEXT: qd.local_store %[[S]], %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = qd.local_load %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: qd.atomic_add %[[R]], @y[] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
