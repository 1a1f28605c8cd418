// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// Ndarray access in the generic form: operands (value,) array, indices; the axis of
// ndarray_shape is an i64 property.

// GENERIC: ^bb0(%[[A:.*]]: !qd.ndarray<?x?xf32>):
// GENERIC: %[[N:.*]] = "qd.ndarray_shape"(%[[A]]) <{axis = 1 : i64}> : (!qd.ndarray<?x?xf32>) -> i32
// GENERIC: %[[V:.*]] = "qd.ndarray_load"(%[[A]], %[[N]], %[[N]]) : (!qd.ndarray<?x?xf32>, i32, i32) -> f32
// GENERIC: "qd.ndarray_store"(%[[V]], %[[A]], %[[N]], %[[N]]) : (f32, !qd.ndarray<?x?xf32>, i32, i32) -> ()
// CHECK: %[[N:.*]] = qd.ndarray_shape %[[A:.*]], 1 : !qd.ndarray<?x?xf32>
// CHECK: %[[V:.*]] = qd.ndarray_load %[[A]][%[[N]], %[[N]]] : !qd.ndarray<?x?xf32>
// CHECK: qd.ndarray_store %[[V]], %[[A]][%[[N]], %[[N]]] : !qd.ndarray<?x?xf32>
qd.kernel @k(%a: !qd.ndarray<?x?xf32>) {
  %n = qd.ndarray_shape %a, 1 : !qd.ndarray<?x?xf32>
  %v = qd.ndarray_load %a[%n, %n] : !qd.ndarray<?x?xf32>
  qd.ndarray_store %v, %a[%n, %n] : !qd.ndarray<?x?xf32>
}
