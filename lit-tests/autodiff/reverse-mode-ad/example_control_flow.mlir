// RUN: qd-opt %S/../../../examples/control_flow.mlir --pass=reverse-mode-ad | FileCheck %s
// examples/control_flow.mlir: the while loop's trip count is counted (a plain local: the loop is
// at the top of the thread's body), the t loop's too (it breaks); the if takes its recorded
// branch, its condition recomputed from w[t]. The struct keeps element-addressed loads, stores
// and adjoints: the stores of the t loop save the member they overwrite (v before the if, the
// one stack, shared by both branches), and sin's operand is re-read from the restored struct.
// w (a float ndarray) gets an adjoint argument.

// CHECK-LABEL: qd.kernel @compute_grad(
// CHECK-SAME: %[[W:[^:]*]]: !qd.ndarray<?xf32>, %{{[^:]*}}: f32, %[[DW:[^:]*]]: !qd.ndarray<?xf32>) {
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[DST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[ST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NOT: adstack.alloca
// CHECK: %[[WC:.*]] = qd.alloca : !qd.ptr<i32>
// CHECK-NEXT: qd.while {
// CHECK: } do {
// CHECK-NEXT: qd.local_load %[[WC]]
// CHECK: %[[WN:.*]] = qd.local_load %[[WC]] : !qd.ptr<i32>
// CHECK: %[[TC:.*]] = qd.alloca : !qd.ptr<i32>
// CHECK-NEXT: qd.range_for
// CHECK: %[[V:.*]] = ad.load_element %[[ST]][0] : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: qd.if
// CHECK: adstack.push %[[S]], %[[V]] : f32
// CHECK-NEXT: ad.store_element %{{.*}}, %[[ST]][0]
// CHECK: } else {
// CHECK: adstack.push %[[S]], %[[V]] : f32
// CHECK-NEXT: ad.store_element %{{.*}}, %[[ST]][0]
// CHECK: qd.break
// CHECK: %[[TN:.*]] = qd.local_load %[[TC]] : !qd.ptr<i32>
// Reverse of the t loop, then of the while loop.
// CHECK: qd.range_for %{{.*}} = %{{.*}} to %[[TN]] : i32 {
// CHECK: %[[WT:.*]] = qd.ndarray_load %[[W]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[POS:.*]] = arith.cmpf ogt, %[[WT]], %[[Z]] : f32
// CHECK-NEXT: qd.if %[[POS]] {
// CHECK: %[[O1:.*]] = adstack.load_top %[[S]]
// CHECK-NEXT: ad.store_element %[[O1]], %[[ST]][0]
// CHECK-NEXT: adstack.pop %[[S]] : f32
// CHECK: %[[VR:.*]] = ad.load_element %[[ST]][0]
// CHECK-NEXT: math.sin %[[VR]]
// CHECK: } else {
// CHECK: %[[O2:.*]] = adstack.load_top %[[S]]
// CHECK-NEXT: ad.store_element %[[O2]], %[[ST]][0]
// CHECK-NEXT: adstack.pop %[[S]] : f32
// CHECK: }
// CHECK: ad.acc_ndarray_adjoint %{{.*}}, %[[DW]]
// CHECK: qd.range_for %{{.*}} = %{{.*}} to %[[WN]] : i32 {
// CHECK: arith.constant 1.3
// CHECK: }
// CHECK: ad.acc_field_adjoint %{{.*}}, @x[%[[I]]] : f32
// CHECK: ad.reverse @compute -> @compute_grad {active = [true, false]}
