// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Ndarrays: float ndarray arguments carry gradients by default, each with an adjoint ndarray
// appended to the gradient kernel's arguments (in argument order); reads accumulate into it
// (`ad.acc_ndarray_adjoint`), writes move its element to the stored value and zero it. An
// integer ndarray (an index here) has no adjoint.

qd.field @s : !qd.field<f32> {needs_grad}

qd.kernel @k(%a: !qd.ndarray<?xf32>, %idx: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %j = qd.ndarray_load %idx[%i] : !qd.ndarray<?xi32>
    %v = qd.ndarray_load %a[%j] : !qd.ndarray<?xf32>
    %w = arith.mulf %v, %v : f32
    qd.ndarray_store %w, %b[%i] : !qd.ndarray<?xf32>
    qd.atomic_add %v, @s[] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK-SAME: %[[A:[^:]*]]: !qd.ndarray<?xf32>, %[[IDX:[^:]*]]: !qd.ndarray<?xi32>, %[[B:[^:]*]]: !qd.ndarray<?xf32>, %[[DA:[^:]*]]: !qd.ndarray<?xf32>, %[[DB:[^:]*]]: !qd.ndarray<?xf32>)
// CHECK: %[[N:.*]] = qd.ndarray_shape %[[A]], 0
// CHECK-NEXT: qd.range_for %[[I:.*]] = %{{.*}} to %[[N]] : i32 {
// CHECK-NEXT: %[[J:.*]] = qd.ndarray_load %[[IDX]][%[[I]]]
// CHECK-NEXT: %[[V:.*]] = qd.ndarray_load %[[A]][%[[J]]]
// CHECK-NEXT: %[[DS:.*]] = ad.load_field_adjoint @s[] : f32
// CHECK-NEXT: %[[DW:.*]] = qd.ndarray_load %[[DB]][%[[I]]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: qd.ndarray_store %[[Z]], %[[DB]][%[[I]]]
// CHECK-NEXT: %[[G1:.*]] = arith.mulf %[[DW]], %[[V]] : f32
// CHECK-NEXT: %[[G2:.*]] = arith.mulf %[[DW]], %[[V]] : f32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[DS]], %[[G1]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[G2]] : f32
// CHECK-NEXT: ad.acc_ndarray_adjoint %[[S2]], %[[DA]][%[[J]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: }
// CHECK-NOT: qd.ndarray_store %{{.*}}, %[[B]]
// CHECK: ad.reverse @k -> @k_grad {active = [true, false, true]}
