// RUN: qd-opt %s | qd-opt | FileCheck %s
// Adjoint access to needs_grad fields (scalar, 1-D, 2-D) and to adjoint ndarrays.

qd.field @y : !qd.field<f32> {needs_grad}
qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @m : !qd.field<4x10xf64> {needs_grad}

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%i: i32, %j: i32, %a: !qd.ndarray<?xf32>, %da: !qd.ndarray<?xf32>, %db: !qd.ndarray<?x?xf64>) {
  // CHECK: %[[DY:.*]] = ad.load_field_adjoint @y[] : f32
  %dy = ad.load_field_adjoint @y[] : f32
  // CHECK: ad.acc_field_adjoint %[[DY]], @x[%[[I:.*]]] : f32
  ad.acc_field_adjoint %dy, @x[%i] : f32
  // CHECK: ad.store_field_adjoint %[[DY]], @x[%[[I]]] : f32
  ad.store_field_adjoint %dy, @x[%i] : f32
  // CHECK: %[[DM:.*]] = ad.load_field_adjoint @m[%[[I]], %[[J:.*]]] : f64
  %dm = ad.load_field_adjoint @m[%i, %j] : f64
  // CHECK: ad.acc_field_adjoint %[[DM]], @m[%[[J]], %[[I]]] : f64
  ad.acc_field_adjoint %dm, @m[%j, %i] : f64
  // CHECK: ad.store_field_adjoint %[[DY]], @y[] : f32
  ad.store_field_adjoint %dy, @y[] : f32
  // CHECK: ad.acc_ndarray_adjoint %[[DY]], %[[DA:.*]][%[[I]]] : !qd.ndarray<?xf32>
  ad.acc_ndarray_adjoint %dy, %da[%i] : !qd.ndarray<?xf32>
  // CHECK: ad.acc_ndarray_adjoint %[[DM]], %{{.*}}[%[[I]], %[[J]]] : !qd.ndarray<?x?xf64>
  ad.acc_ndarray_adjoint %dm, %db[%i, %j] : !qd.ndarray<?x?xf64>
  // Constant indices in bounds, and discardable attributes.
  %c3 = arith.constant 3 : i32
  %c9 = arith.constant 9 : i32
  // CHECK: ad.load_field_adjoint @m[%{{.*}}, %{{.*}}] {note = "kept"} : f64
  %e = ad.load_field_adjoint @m[%c3, %c9] {note = "kept"} : f64
  // CHECK: ad.acc_field_adjoint %{{.*}}, @x[%{{.*}}] {note = "kept"} : f32
  ad.acc_field_adjoint %dy, @x[%c3] {note = "kept"} : f32
  // CHECK: ad.acc_ndarray_adjoint %[[DY]], %[[DA]][%{{.*}}] {note = "kept"} : !qd.ndarray<?xf32>
  ad.acc_ndarray_adjoint %dy, %da[%c9] {note = "kept"} : !qd.ndarray<?xf32>
}
