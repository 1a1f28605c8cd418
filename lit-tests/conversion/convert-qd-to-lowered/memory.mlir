// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// Fields and ndarrays as pointers: the buffer pointer once per task, the row-major offset in
// i64, one bounds check over all the indices of an access unless every one is provably in
// range, i1 elements stored as i8; atomics with their previous value.

qd.field @m : !qd.field<4x10xf32>
qd.field @s : !qd.field<i32>
qd.field @b : !qd.field<8xi1>
qd.field @u : !qd.field<8xui32>

// CHECK-LABEL: lowered.task @fields_0 serial {
// CHECK-DAG: %[[M:.*]] = lowered.field_ptr @m : !lowered.ptr<f32>
// CHECK-DAG: %[[S:.*]] = lowered.field_ptr @s : !lowered.ptr<i32>
// CHECK-DAG: %[[B:.*]] = lowered.field_ptr @b : !lowered.ptr<i8>
// CHECK-DAG: %[[U:.*]] = lowered.field_ptr @u : !lowered.ptr<ui32>
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : i64
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[C23:.*]] = arith.constant 23 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// Constant indices in range: no check, the offset folds (2 * 10 + 3).
// CHECK-DAG: %[[P23:.*]] = lowered.offset %[[M]], %[[C23]] : !lowered.ptr<f32>
// CHECK: %[[V:.*]] = lowered.load %[[P23]] : !lowered.ptr<f32>
// Dynamic indices: sign-extended to i64 and checked together against the whole shape.
// CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[J:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: lowered.bounds_check [%[[I]], %[[J]]] in [%[[C4]], %[[C10]]] {what = "field @m"} : i64
// CHECK-NEXT: %[[R:.*]] = arith.muli %[[I]], %[[C10]] : i64
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[R]], %[[J]] : i64
// CHECK-NEXT: %[[P:.*]] = lowered.offset %[[M]], %[[L]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.store %[[V]], %[[P]] : !lowered.ptr<f32>
// A scalar field: the buffer itself.
// CHECK: %[[OLD:.*]] = lowered.atomic_max %{{.*}}, %[[S]] : !lowered.ptr<i32>
// CHECK-NEXT: %[[OLD2:.*]] = lowered.atomic_min %[[OLD]], %[[S]] : !lowered.ptr<i32>
// CHECK-NEXT: lowered.atomic_add %[[OLD2]], %[[S]] : !lowered.ptr<i32>
// An index that folds to a constant out of range is checked (and fails at run time, as in qd).
// CHECK: lowered.bounds_check [%{{.*}}] in [%[[C8]]] {what = "field @b"} : i64
// i1 elements live as i8.
// CHECK: %[[BB:.*]] = lowered.load %{{.*}} : !lowered.ptr<i8>
// CHECK-NEXT: %[[B1:.*]] = arith.trunci %[[BB]] : i8 to i1
// CHECK: %[[W:.*]] = arith.extui %[[B1]] : i1 to i8
// CHECK: lowered.store %[[W]], %{{.*}} : !lowered.ptr<i8>
// Unsigned elements keep their type (atomics compare unsigned).
// CHECK: lowered.atomic_max %{{.*}}, %{{.*}} : !lowered.ptr<ui32>
// A constant index in range is checked with the others (the message prints every index).
// CHECK: %[[K:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: lowered.bounds_check [%[[C3]], %[[K]]] in [%[[C4]], %[[C10]]] {what = "field @m"} : i64
// CHECK-NEXT: %[[R3:.*]] = arith.addi %{{.*}}, %[[K]] : i64
// CHECK-NEXT: lowered.offset %[[M]], %[[R3]] : !lowered.ptr<f32>
qd.kernel @fields(%i: i32, %j: i32, %k: i32, %w: ui32) {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c9 = arith.addi %c4, %c5 : i32
  %v = qd.load @m[%c2, %c3] : f32
  qd.store %v, @m[%i, %j] : f32
  %old = qd.atomic_max %k, @s[] : i32
  %old2 = qd.atomic_min %old, @s[] : i32
  qd.atomic_add %old2, @s[] : i32
  %flag = qd.load @b[%c9] : i1
  qd.store %flag, @b[%i] : i1
  qd.atomic_max %w, @u[%i] : ui32
  %x = qd.load @m[%c3, %k] : f32
}

// ndarrays: data pointer and extents from the kernel arguments; an index running up to the
// array's own extent needs no check.
// CHECK-LABEL: lowered.task @arrays_0 range(0, 4) {
// CHECK-DAG: %[[A:.*]] = lowered.ndarray_ptr 0 : !lowered.ptr<f32>
// CHECK-DAG: %[[D0:.*]] = lowered.ndarray_dim 0, 0 : i64
// CHECK-DAG: %[[D1:.*]] = lowered.ndarray_dim 0, 1 : i64
// CHECK-DAG: %[[OUT:.*]] = lowered.ndarray_ptr 1 : !lowered.ptr<i32>
// CHECK-DAG: %[[N1:.*]] = arith.trunci %[[D1]] : i64 to i32
// CHECK: lowered.for %[[J:.*]] = %{{.*}} to %[[N1]] step %{{.*}} : i32 {
// CHECK: %[[I64:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[J64:.*]] = arith.extsi %[[J]] : i32 to i64
// The check names every index, in range (j) or not (i).
// CHECK-NEXT: lowered.bounds_check [%[[I64]], %[[J64]]] in [%[[D0]], %[[D1]]] {what = "ndarray argument 0"} : i64
// CHECK-NEXT: %[[R:.*]] = arith.muli %[[I64]], %[[D1]] : i64
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[R]], %[[J64]] : i64
// CHECK-NEXT: %[[P:.*]] = lowered.offset %[[A]], %[[L]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.load %[[P]] : !lowered.ptr<f32>
// CHECK: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "ndarray argument 1"} : i64
// CHECK: lowered.store %{{.*}}, %{{.*}} : !lowered.ptr<i32>
qd.kernel @arrays(%a: !qd.ndarray<?x?xf32>, %out: !qd.ndarray<?xi32>) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %n1 = qd.ndarray_shape %a, 1 : !qd.ndarray<?x?xf32>
    qd.range_for %j = %c0 to %n1 : i32 {
      %v = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xf32>
      %t = arith.fptosi %v : f32 to i32
      qd.ndarray_store %t, %out[%i] : !qd.ndarray<?xi32>
    }
  }
}
