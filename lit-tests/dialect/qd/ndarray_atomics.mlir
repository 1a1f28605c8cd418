// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.ndarray_atomic_add / sub / min / max on 1-D and 2-D ndarrays, without a result and with one
// (the element's value before the update).

// CHECK-LABEL: qd.kernel @k(
// CHECK-SAME: %[[A:[^:]*]]: !qd.ndarray<?x?xf32>, %[[B:[^:]*]]: !qd.ndarray<?xi32>, %[[X:[^:]*]]: f32, %[[N:[^:]*]]: i32, %[[I:[^:]*]]: i32
qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %b: !qd.ndarray<?xi32>, %x: f32, %n: i32, %i: i32) {
  // CHECK: qd.ndarray_atomic_add %[[X]], %[[A]][%[[I]], %[[N]]] : !qd.ndarray<?x?xf32>
  qd.ndarray_atomic_add %x, %a[%i, %n] : !qd.ndarray<?x?xf32>
  // CHECK: qd.ndarray_atomic_sub %[[X]], %[[A]][%[[I]], %[[I]]] : !qd.ndarray<?x?xf32>
  qd.ndarray_atomic_sub %x, %a[%i, %i] : !qd.ndarray<?x?xf32>
  // CHECK: qd.ndarray_atomic_min %[[X]], %[[A]][%[[I]], %[[I]]] : !qd.ndarray<?x?xf32>
  qd.ndarray_atomic_min %x, %a[%i, %i] : !qd.ndarray<?x?xf32>
  // CHECK: qd.ndarray_atomic_max %[[X]], %[[A]][%[[I]], %[[I]]] : !qd.ndarray<?x?xf32>
  qd.ndarray_atomic_max %x, %a[%i, %i] : !qd.ndarray<?x?xf32>
  // CHECK: %[[OLD:.*]] = qd.ndarray_atomic_add %[[N]], %[[B]][%[[I]]] : !qd.ndarray<?xi32>
  %old = qd.ndarray_atomic_add %n, %b[%i] : !qd.ndarray<?xi32>
  // CHECK: %{{.*}} = qd.ndarray_atomic_sub %[[OLD]], %[[B]][%[[I]]] : !qd.ndarray<?xi32>
  %s = qd.ndarray_atomic_sub %old, %b[%i] : !qd.ndarray<?xi32>
  // CHECK: %{{.*}} = qd.ndarray_atomic_max %[[N]], %[[B]][%[[I]]] {note = "kept"} : !qd.ndarray<?xi32>
  %m = qd.ndarray_atomic_max %n, %b[%i] {note = "kept"} : !qd.ndarray<?xi32>
}
