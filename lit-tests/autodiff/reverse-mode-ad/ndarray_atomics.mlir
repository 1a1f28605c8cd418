// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Ndarrays as outputs: qd.ndarray_atomic_add / sub into a float ndarray argument make it an
// active output, so the gradient kernel gets its adjoint ndarray (%[[OUT_ADJ]]), reads it at the
// atomic's indices and accumulates it (negated for sub) into the value's adjoint; the element
// keeps its adjoint (earlier contributions still count). The atomics themselves are not replayed
// (the gradient kernel writes no primal data); an integer ndarray's atomics carry no gradient.

qd.kernel @k(%x: !qd.ndarray<?xf32>, %q: !qd.ndarray<?xi32>, %out: !qd.ndarray<?xf32>, %cnt: !qd.ndarray<?xi32>) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %x, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    %xi = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %b = qd.ndarray_load %q[%i] : !qd.ndarray<?xi32>
    %v = arith.mulf %xi, %xi : f32
    qd.ndarray_atomic_add %v, %out[%b] : !qd.ndarray<?xf32>
    qd.ndarray_atomic_sub %xi, %out[%i] : !qd.ndarray<?xf32>
    %c1 = arith.constant 1 : i32
    qd.ndarray_atomic_add %c1, %cnt[%b] : !qd.ndarray<?xi32>
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK-SAME: %[[X:[^:]*]]: !qd.ndarray<?xf32>, %[[Q:[^:]*]]: !qd.ndarray<?xi32>, %{{[^:]*}}: !qd.ndarray<?xf32>, %{{[^:]*}}: !qd.ndarray<?xi32>, %[[X_ADJ:[^:]*]]: !qd.ndarray<?xf32>, %[[OUT_ADJ:[^:]*]]: !qd.ndarray<?xf32>)
// CHECK: qd.range_for %[[I:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[XI:.*]] = qd.ndarray_load %[[X]][%[[I]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[B:.*]] = qd.ndarray_load %[[Q]][%[[I]]] : !qd.ndarray<?xi32>
// The sub, reversed first: adj(x_i) -= out_adj[i].
// CHECK-NEXT: %[[G1:.*]] = qd.ndarray_load %[[OUT_ADJ]][%[[I]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[NG1:.*]] = arith.negf %[[G1]] : f32
// The add: adj(v) = out_adj[b], then v = x_i * x_i.
// CHECK-NEXT: %[[G2:.*]] = qd.ndarray_load %[[OUT_ADJ]][%[[B]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[P1:.*]] = arith.mulf %[[G2]], %[[XI]] : f32
// CHECK-NEXT: %[[P2:.*]] = arith.mulf %[[G2]], %[[XI]] : f32
// CHECK-NEXT: %[[S1:.*]] = arith.addf %[[NG1]], %[[P1]] : f32
// CHECK-NEXT: %[[S2:.*]] = arith.addf %[[S1]], %[[P2]] : f32
// CHECK-NEXT: ad.acc_ndarray_adjoint %[[S2]], %[[X_ADJ]][%[[I]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: }
// CHECK-NOT: ndarray_atomic
// CHECK: ad.reverse @k -> @k_grad {active = [true, false, true, false]}
