// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.break and qd.continue in serial loops (nested in a parallel one), directly or through
// qd.if, and in a while's body.

qd.field @x : !qd.field<8xf32>
qd.field @y : !qd.field<f32>

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    // CHECK: qd.range_for
    // CHECK: qd.if %{{.*}} {
    // CHECK-NEXT: qd.break
    // CHECK-NEXT: }
    qd.range_for %t = %c0 to %n : i32 {
      %big = arith.cmpi sgt, %t, %i : i32
      qd.if %big {
        qd.break
      }
    }
    // CHECK: qd.range_for
    // CHECK: qd.if %{{.*}} {
    // CHECK-NEXT: qd.continue
    // CHECK-NEXT: } else {
    // CHECK-NEXT: qd.break
    // CHECK-NEXT: }
    qd.range_for %t = %c0 to %n : i32 {
      %odd = arith.cmpi eq, %t, %i : i32
      qd.if %odd {
        qd.continue
      } else {
        qd.break
      }
    }
    // CHECK: qd.range_for
    // CHECK-NEXT: qd.continue
    // CHECK-NEXT: }
    qd.range_for %t = %c0 to %n : i32 {
      qd.continue
    }
    // CHECK: } do {
    // CHECK-NEXT: qd.break {note = "kept"}
    qd.while {
      %t = arith.constant true
      qd.condition %t
    } do {
      qd.break {note = "kept"}
    }
  }
  // A top-level while is serial.
  // CHECK: } do {
  // CHECK-NEXT: qd.continue
  qd.while {
    %f = arith.constant false
    qd.condition %f
  } do {
    qd.continue
  }
}
