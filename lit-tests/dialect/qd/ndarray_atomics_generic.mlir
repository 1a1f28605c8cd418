// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s

// GENERIC: "qd.ndarray_atomic_add"(%[[X:.*]], %[[A:.*]], %[[I:.*]], %[[I]]) : (f32, !qd.ndarray<?x?xf32>, i32, i32) -> ()
// GENERIC: "qd.ndarray_atomic_sub"(%[[X]], %[[A]], %[[I]], %[[I]]) : (f32, !qd.ndarray<?x?xf32>, i32, i32) -> ()
// GENERIC: %[[OLD:.*]] = "qd.ndarray_atomic_max"(%[[N:.*]], %[[B:.*]], %[[I]]) : (i32, !qd.ndarray<?xi32>, i32) -> i32
// GENERIC: "qd.ndarray_atomic_min"(%[[OLD]], %[[B]], %[[I]]) : (i32, !qd.ndarray<?xi32>, i32) -> ()
// CHECK: qd.ndarray_atomic_add %[[X:.*]], %[[A:.*]][%[[I:.*]], %[[I]]] : !qd.ndarray<?x?xf32>
// CHECK: qd.ndarray_atomic_sub %[[X]], %[[A]][%[[I]], %[[I]]] : !qd.ndarray<?x?xf32>
// CHECK: %[[OLD:.*]] = qd.ndarray_atomic_max %{{.*}}, %[[B:.*]][%[[I]]] : !qd.ndarray<?xi32>
// CHECK: qd.ndarray_atomic_min %[[OLD]], %[[B]][%[[I]]] : !qd.ndarray<?xi32>
qd.kernel @k(%a: !qd.ndarray<?x?xf32>, %b: !qd.ndarray<?xi32>, %x: f32, %n: i32, %i: i32) {
  qd.ndarray_atomic_add %x, %a[%i, %i] : !qd.ndarray<?x?xf32>
  qd.ndarray_atomic_sub %x, %a[%i, %i] : !qd.ndarray<?x?xf32>
  %old = qd.ndarray_atomic_max %n, %b[%i] : !qd.ndarray<?xi32>
  qd.ndarray_atomic_min %old, %b[%i] : !qd.ndarray<?xi32>
}
