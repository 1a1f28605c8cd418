// RUN: qd-opt %S/../../../examples/local_array.mlir --pass=reverse-mode-ad | FileCheck %s
// examples/local_array.mlir: the array keeps element-addressed loads and stores (its adjoint is
// an array local of the same type); each store of the t loop saves the one element it overwrites
// (n entries on one f32 stack), never the whole array; the filling stores save nothing. In
// reverse the element is restored and re-read for cos.

// CHECK-LABEL: qd.kernel @compute_grad()
// CHECK: qd.range_for %[[R:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[DARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NOT: adstack.alloca
// CHECK-NOT: adstack.push
// CHECK: %[[J:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[A:.*]] = ad.load_element %[[ARR]][%[[J]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: math.sin %[[A]]
// CHECK: adstack.push %[[S]], %[[A]] : f32
// CHECK-NEXT: ad.store_element %{{.*}}, %[[ARR]][%[[J]]]
// CHECK-NOT: adstack.push
// The reverse of the t loop: the index is recomputed from the reversed t.
// CHECK: %[[JR:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[G:.*]] = ad.load_element %[[DARR]][%[[JR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK: %[[OLD:.*]] = adstack.load_top %[[S]] : f32
// CHECK-NEXT: ad.store_element %[[OLD]], %[[ARR]][%[[JR]]]
// CHECK-NEXT: adstack.pop %[[S]] : f32
// CHECK: %[[AR:.*]] = ad.load_element %[[ARR]][%[[JR]]]
// CHECK-NEXT: math.cos %[[AR]]
// CHECK: ad.store_element %{{.*}}, %[[DARR]][%[[JR]]]
// CHECK: ad.acc_field_adjoint %{{.*}}, @x[%[[R]], %{{.*}}] : f32
