// RUN: qd-opt %S/../../../examples/local_array.mlir --pass=reverse-mode-ad | FileCheck %s
// examples/local_array.mlir: the array keeps element-addressed loads and stores (its adjoint is
// an array local of the same type); each iteration saves only the element sin reads (n entries
// on one f32 stack), never the whole array.

// CHECK-LABEL: qd.kernel @compute_grad()
// CHECK: qd.range_for %[[R:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32
// CHECK-NOT: adstack.alloca
// CHECK-NEXT: %[[DARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NOT: adstack.alloca
// CHECK: %[[J:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[P:.*]] = qd.elem_ptr %[[ARR]][%[[J]]]
// CHECK-NEXT: %[[A:.*]] = qd.local_load %[[P]] : !qd.ptr<f32>
// CHECK-NEXT: adstack.push %[[S]], %[[A]] : f32
// CHECK-NEXT: math.sin %[[A]]
// The reverse of the t loop: the index is recomputed from the reversed t.
// CHECK: %[[JR:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[DP:.*]] = qd.elem_ptr %[[DARR]][%[[JR]]]
// CHECK-NEXT: %[[G:.*]] = qd.local_load %[[DP]] : !qd.ptr<f32>
// CHECK: %[[AR:.*]] = adstack.load_top %[[S]] : f32
// CHECK-NEXT: math.cos %[[AR]]
// CHECK: qd.elem_ptr %[[DARR]][%[[JR]]]
// CHECK: adstack.pop %[[S]] : f32
// CHECK: ad.acc_field_adjoint %{{.*}}, @x[%[[R]], %{{.*}}] : f32
