// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.if with and without else; an empty else prints as no else.

qd.field @y : !qd.field<f32>

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%c: i1, %x: f32) {
  // CHECK: qd.if %[[C:.*]] {
  // CHECK-NEXT: qd.store %{{.*}}, @y[] : f32
  // CHECK-NEXT: }{{$}}
  qd.if %c {
    qd.store %x, @y[] : f32
  }
  // CHECK: qd.if %{{.*}} {
  // CHECK-NEXT: qd.store
  // CHECK-NEXT: } else {
  // CHECK-NEXT: arith.constant {{.*}} : f32
  // CHECK-NEXT: qd.store
  // CHECK-NEXT: }
  qd.if %c {
    qd.store %x, @y[] : f32
  } else {
    %z = arith.constant 0.0 : f32
    qd.store %z, @y[] : f32
  }
  // CHECK: qd.if %{{.*}} {
  // CHECK-NEXT: } {note = "kept"}
  qd.if %c {
  } else {
  } {note = "kept"}
  // Nested ifs.
  // CHECK: qd.if %{{.*}} {
  // CHECK-NEXT: qd.if %{{.*}} {
  // CHECK-NEXT: qd.atomic_add %{{.*}}, @y[] : f32
  qd.if %c {
    qd.if %c {
      qd.atomic_add %x, @y[] : f32
    }
  }
}
