// RUN: qd-opt %S/../../../examples/dynamic_loop.mlir | qd-opt | FileCheck %s
// RUN: qd-opt %S/../../../examples/dynamic_loop.mlir --print-op-generic | qd-opt | FileCheck %s
// examples/dynamic_loop.mlir parses, verifies and prints back (custom and through the generic form).

// CHECK: qd.field @n : !qd.field<i32>
// CHECK-NEXT: qd.field @x : !qd.field<16xf32> {needs_grad}
// CHECK-NEXT: qd.field @y : !qd.field<f32> {needs_grad}
// CHECK-NEXT: qd.kernel @compute() {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[XI:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[V:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: qd.local_store %[[XI]], %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: %[[N:.*]] = qd.load @n[] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %{{.*}} = %[[C0]] to %[[N]] : i32 {
// CHECK-NEXT: %[[A:.*]] = qd.local_load %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: %[[K:.*]] = arith.constant 0.949999988 : f32
// CHECK-NEXT: %[[B:.*]] = arith.constant 0.00999999977 : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[A]], %[[K]] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[B]] : f32
// CHECK-NEXT: qd.local_store %[[S]], %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = qd.local_load %[[V]] : !qd.ptr<f32>
// CHECK-NEXT: qd.atomic_add %[[R]], @y[] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
