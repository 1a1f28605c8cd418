// RUN: qd-opt %S/../../../examples/ndarray_bound.mlir --pass=reverse-mode-ad | FileCheck %s
// examples/ndarray_bound.mlir: the inner trip count a[i] is re-read in reverse (the integer
// ndarray has no adjoint); v is a stack, and sin's operand is read back from its top entry.
// One stack.

// CHECK-LABEL: qd.kernel @compute_grad(
// CHECK-SAME: %[[A:[^:]*]]: !qd.ndarray<?xi32>) {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[V:.*]] = adstack.alloca : f32
// CHECK-NOT: adstack.alloca
// CHECK: %[[N:.*]] = qd.ndarray_load %[[A]][%[[I]]]
// CHECK: qd.range_for %{{.*}} = %{{.*}} to %[[N]] : i32 {
// CHECK: math.sin
// CHECK: adstack.push %[[V]]
// CHECK: %[[D:.*]] = arith.subi %[[N]], %{{.*}} : i32
// CHECK-NEXT: %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT: %[[CNT:.*]] = arith.maxsi %[[D]], %{{.*}} : i32
// CHECK: qd.range_for %{{.*}} = %{{.*}} to %[[CNT]] : i32 {
// CHECK-NEXT: %[[G:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK: %[[T:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[T]] : f32
// CHECK: adstack.acc_adjoint %[[V]]
// CHECK-NEXT: }
// CHECK: ad.acc_field_adjoint %{{.*}}, @x[%[[I]]] : f32
// CHECK: ad.reverse @compute -> @compute_grad {active = [false]}
