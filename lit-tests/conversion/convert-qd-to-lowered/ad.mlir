// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// The ad dialect's adjoint accesses: a field's adjoint buffer (`lowered.field_ptr @x grad`) is
// read, stored, or accumulated into by an atomic add; an adjoint ndarray argument is accumulated
// into by an atomic add. ad.reverse declarations stay, naming the lowered kernels.

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}

// CHECK: qd.field @x : !qd.field<8xf32> {needs_grad}
// CHECK-LABEL: lowered.kernel @k(
qd.kernel @k(%a: !qd.ndarray<?xf32>) {
}

// CHECK-LABEL: lowered.kernel @k_grad(
// CHECK-SAME: %{{.*}}: !qd.ndarray<?xf32>, %{{.*}}: !qd.ndarray<?xf32>) attributes {temps = 0} {
// CHECK: lowered.task @k_grad_0 range(0, 8) {
// CHECK-DAG: %[[YG:.*]] = lowered.field_ptr @y grad : !lowered.ptr<f32>
// CHECK-DAG: %[[XG:.*]] = lowered.field_ptr @x grad : !lowered.ptr<f32>
// CHECK-DAG: %[[DA:.*]] = lowered.ndarray_ptr 1 : !lowered.ptr<f32>
// CHECK-DAG: %[[DAN:.*]] = lowered.ndarray_dim 1, 0 : i64
// CHECK: %[[DY:.*]] = lowered.load %[[YG]] : !lowered.ptr<f32>
// CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[PX:.*]] = lowered.offset %[[XG]], %[[I]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.atomic_add %[[DY]], %[[PX]] : !lowered.ptr<f32>
// CHECK: %[[PX2:.*]] = lowered.offset %[[XG]], %{{.*}} : !lowered.ptr<f32>
// CHECK-NEXT: lowered.store %[[DY]], %[[PX2]] : !lowered.ptr<f32>
// CHECK: lowered.bounds_check [%{{.*}}] in [%[[DAN]]] {what = "adjoint ndarray argument 1"} : i64
// CHECK-NEXT: %[[PA:.*]] = lowered.offset %[[DA]], %{{.*}} : !lowered.ptr<f32>
// CHECK-NEXT: lowered.atomic_add %[[DY]], %[[PA]] : !lowered.ptr<f32>
qd.kernel @k_grad(%a: !qd.ndarray<?xf32>, %da: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %dy = ad.load_field_adjoint @y[] : f32
    ad.acc_field_adjoint %dy, @x[%i] : f32
    ad.store_field_adjoint %dy, @x[%i] : f32
    ad.acc_ndarray_adjoint %dy, %da[%i] : !qd.ndarray<?xf32>
  }
}

// CHECK: ad.reverse @k -> @k_grad
ad.reverse @k -> @k_grad
