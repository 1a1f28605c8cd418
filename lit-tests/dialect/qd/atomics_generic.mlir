// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s

// GENERIC: "qd.atomic_add"(%[[X:.*]]) <{field = @y}> : (f32) -> ()
// GENERIC: %[[OLD:.*]] = "qd.atomic_max"(%[[N:.*]], %[[I:.*]]) <{field = @h}> : (i32, i32) -> i32
// GENERIC: "qd.atomic_min"(%[[OLD]], %[[I]]) <{field = @h}> : (i32, i32) -> ()
// CHECK: qd.atomic_add %[[X:.*]], @y[] : f32
// CHECK: %[[OLD:.*]] = qd.atomic_max %{{.*}}, @h[%[[I:.*]]] : i32
// CHECK: qd.atomic_min %[[OLD]], @h[%[[I]]] : i32
qd.field @y : !qd.field<f32>
qd.field @h : !qd.field<8xi32>
qd.kernel @k(%x: f32, %n: i32, %i: i32) {
  qd.atomic_add %x, @y[] : f32
  %old = qd.atomic_max %n, @h[%i] : i32
  qd.atomic_min %old, @h[%i] : i32
}
