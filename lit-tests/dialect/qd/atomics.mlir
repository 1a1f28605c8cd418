// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.atomic_add / atomic_min / atomic_max, without a result (the examples' form) and with one
// (the element's value before the update).

qd.field @y : !qd.field<f32>
qd.field @h : !qd.field<8xi32>

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%x: f32, %n: i32, %i: i32) {
  // CHECK: qd.atomic_add %[[X:.*]], @y[] : f32
  qd.atomic_add %x, @y[] : f32
  // CHECK: qd.atomic_min %[[X]], @y[] : f32
  qd.atomic_min %x, @y[] : f32
  // CHECK: qd.atomic_max %[[X]], @y[] : f32
  qd.atomic_max %x, @y[] : f32
  // CHECK: %[[OLD:.*]] = qd.atomic_add %[[N:.*]], @h[%[[I:.*]]] : i32
  %old = qd.atomic_add %n, @h[%i] : i32
  // CHECK: %{{.*}} = qd.atomic_max %[[OLD]], @h[%[[I]]] : i32
  %m = qd.atomic_max %old, @h[%i] : i32
  // CHECK: %{{.*}} = qd.atomic_min %[[N]], @h[%[[I]]] {note = "kept"} : i32
  %l = qd.atomic_min %n, @h[%i] {note = "kept"} : i32
}
