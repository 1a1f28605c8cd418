// RUN: qd-opt %S/../../../examples/local_array.mlir | qd-opt | FileCheck %s
// RUN: qd-opt %S/../../../examples/local_array.mlir --print-op-generic | qd-opt | FileCheck %s
// examples/local_array.mlir parses, verifies and prints back (custom and through the generic form):
// a local array addressed one element at a time, a parallel range_for at the top level.

// CHECK: qd.field @n : !qd.field<i32>
// CHECK-NEXT: qd.field @x : !qd.field<4x10xf32> {needs_grad}
// CHECK-NEXT: qd.field @y : !qd.field<f32> {needs_grad}
// CHECK-NEXT: qd.kernel @compute() {
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT: qd.range_for %[[R:.*]] = %[[C0]] to %[[C4]] : i32 {
// CHECK-NEXT: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[C10:.*]] = arith.constant 10 : i32
// CHECK-NEXT: qd.range_for %[[K:.*]] = %[[C0]] to %[[C10]] : i32 {
// CHECK-NEXT: %[[XRK:.*]] = qd.load @x[%[[R]], %[[K]]] : f32
// CHECK-NEXT: %[[P:.*]] = qd.elem_ptr %[[ARR]][%[[K]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: qd.local_store %[[XRK]], %[[P]] : !qd.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[N:.*]] = qd.load @n[] : i32
// CHECK-NEXT: qd.range_for %[[T:.*]] = %[[C0]] to %[[N]] : i32 {
// CHECK-NEXT: %[[J:.*]] = arith.remsi %[[T]], %[[C10]] : i32
// CHECK-NEXT: %[[P2:.*]] = qd.elem_ptr %[[ARR]][%[[J]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[A:.*]] = qd.local_load %[[P2]] : !qd.ptr<f32>
// CHECK-NEXT: %[[SN:.*]] = math.sin %[[A]] : f32
// CHECK-NEXT: arith.constant 0.899999976 : f32
// CHECK-NEXT: arith.constant 1.000000e-01 : f32
// CHECK-NEXT: arith.mulf %[[SN]], %{{.*}} : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf
// CHECK-NEXT: qd.local_store %[[S]], %[[P2]] : !qd.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: qd.range_for %[[K2:.*]] = %[[C0]] to %[[C10]] : i32 {
// CHECK-NEXT: %[[P3:.*]] = qd.elem_ptr %[[ARR]][%[[K2]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[A2:.*]] = qd.local_load %[[P3]] : !qd.ptr<f32>
// CHECK-NEXT: qd.atomic_add %[[A2]], @y[] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
