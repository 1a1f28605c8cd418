// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// qd.ndarray_atomic_*: the element's pointer as for ndarray_load/store (bounds-checked), then the
// lowered atomic; sub is an atomic add of the negated value (arith.negf for floats, 0 - v for
// integers, which wraps as the subtraction does); a used result is the lowered atomic's.

// CHECK-LABEL: lowered.task @k_0 range(0, 4) {
// CHECK-DAG: %[[A:.*]] = lowered.ndarray_ptr 0 : !lowered.ptr<f32>
// CHECK-DAG: %[[B:.*]] = lowered.ndarray_ptr 1 : !lowered.ptr<i32>
// CHECK-DAG: %[[D0:.*]] = lowered.ndarray_dim 0, 0 : i64
// CHECK-DAG: %[[E0:.*]] = lowered.ndarray_dim 1, 0 : i64
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i32
// CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: lowered.bounds_check [%[[I]]] in [%[[D0]]] {what = "ndarray argument 0"} : i64
// CHECK-NEXT: %[[P:.*]] = lowered.offset %[[A]], %[[I]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.atomic_add %[[X:.*]], %[[P]] : !lowered.ptr<f32>
// CHECK: %[[NX:.*]] = arith.negf %[[X]] : f32
// CHECK-NEXT: lowered.atomic_add %[[NX]], %{{.*}} : !lowered.ptr<f32>
// CHECK: lowered.atomic_min %[[X]], %{{.*}} : !lowered.ptr<f32>
// CHECK: lowered.atomic_max %[[X]], %{{.*}} : !lowered.ptr<f32>
// CHECK: lowered.bounds_check [%{{.*}}] in [%[[E0]]] {what = "ndarray argument 1"} : i64
// CHECK: %[[NN:.*]] = arith.subi %[[Z]], %[[N:.*]] : i32
// CHECK-NEXT: %[[OLD:.*]] = lowered.atomic_add %[[NN]], %{{.*}} : !lowered.ptr<i32>
// CHECK: lowered.atomic_max %[[OLD]], %{{.*}} : !lowered.ptr<i32>
// CHECK-NOT: qd.
qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xi32>, %x: f32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %q = qd.ndarray_load %b[%i] : !qd.ndarray<?xi32>
    qd.ndarray_atomic_add %x, %a[%q] : !qd.ndarray<?xf32>
    qd.ndarray_atomic_sub %x, %a[%q] : !qd.ndarray<?xf32>
    qd.ndarray_atomic_min %x, %a[%q] : !qd.ndarray<?xf32>
    qd.ndarray_atomic_max %x, %a[%q] : !qd.ndarray<?xf32>
    %old = qd.ndarray_atomic_sub %n, %b[%q] : !qd.ndarray<?xi32>
    qd.ndarray_atomic_max %old, %b[%q] : !qd.ndarray<?xi32>
  }
}
