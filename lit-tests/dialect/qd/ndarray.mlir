// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.ndarray_load / ndarray_store / ndarray_shape on 1-D and 2-D ndarrays.

// CHECK-LABEL: qd.kernel @k(
// CHECK-SAME: %[[A:[^:]*]]: !qd.ndarray<?xf32>, %[[B:[^:]*]]: !qd.ndarray<?x?xi32>
qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?x?xi32>) {
  %c0 = arith.constant 0 : i32
  // CHECK: %[[N:.*]] = qd.ndarray_shape %[[A]], 0 : !qd.ndarray<?xf32>
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  // CHECK: %[[R:.*]] = qd.ndarray_shape %[[B]], 1 : !qd.ndarray<?x?xi32>
  %r = qd.ndarray_shape %b, 1 : !qd.ndarray<?x?xi32>
  // CHECK: qd.range_for %[[I:.*]] = %{{.*}} to %[[N]] : i32 {
  qd.range_for %i = %c0 to %n : i32 {
    // CHECK: %[[V:.*]] = qd.ndarray_load %[[A]][%[[I]]] : !qd.ndarray<?xf32>
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    // CHECK: qd.ndarray_store %[[V]], %[[A]][%[[I]]] : !qd.ndarray<?xf32>
    qd.ndarray_store %v, %a[%i] : !qd.ndarray<?xf32>
    // CHECK: %[[W:.*]] = qd.ndarray_load %[[B]][%[[I]], %{{.*}}] : !qd.ndarray<?x?xi32>
    %w = qd.ndarray_load %b[%i, %c0] : !qd.ndarray<?x?xi32>
    // CHECK: qd.ndarray_store %[[W]], %[[B]][%{{.*}}, %[[I]]] {note = "kept"} : !qd.ndarray<?x?xi32>
    qd.ndarray_store %w, %b[%c0, %i] {note = "kept"} : !qd.ndarray<?x?xi32>
  }
}
