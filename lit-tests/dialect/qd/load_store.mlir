// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.load / qd.store on scalar, 1-D and 2-D fields, float and integer elements.

qd.field @s : !qd.field<f32>
qd.field @v : !qd.field<16xi32>
qd.field @m : !qd.field<4x10xf64>

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%i: i32, %j: i32) {
  // CHECK: %[[S:.*]] = qd.load @s[] : f32
  %s = qd.load @s[] : f32
  // CHECK: qd.store %[[S]], @s[] : f32
  qd.store %s, @s[] : f32
  // CHECK: %[[V:.*]] = qd.load @v[%[[I:.*]]] : i32
  %v = qd.load @v[%i] : i32
  // CHECK: qd.store %[[V]], @v[%[[I]]] : i32
  qd.store %v, @v[%i] : i32
  // CHECK: %[[M:.*]] = qd.load @m[%[[I]], %[[J:.*]]] : f64
  %m = qd.load @m[%i, %j] : f64
  // CHECK: qd.store %[[M]], @m[%[[J]], %[[I]]] : f64
  qd.store %m, @m[%j, %i] : f64
  // Constant indices in bounds.
  %c3 = arith.constant 3 : i32
  %c9 = arith.constant 9 : i32
  // CHECK: qd.load @m[%{{.*}}, %{{.*}}] {note = "kept"} : f64
  %e = qd.load @m[%c3, %c9] {note = "kept"} : f64
  // CHECK: qd.store %{{.*}}, @m[%{{.*}}, %{{.*}}] {note = "kept"} : f64
  qd.store %e, @m[%c3, %c9] {note = "kept"} : f64
}
