// RUN: qd-opt %s | qd-opt | FileCheck %s
// A kernel with several parallel tasks (its top-level range_for/struct_for) and serial code
// between them; loops nested in a task (or under a top-level qd.if or qd.while) are serial and
// may break/continue.

qd.field @x : !qd.field<8xf32>
qd.field @s : !qd.field<f32>
qd.field @count : !qd.field<i32>

// CHECK-LABEL: qd.kernel @tasks(
qd.kernel @tasks(%n: i32, %flag: i1) {
  // Top-level serial code.
  // CHECK: %[[C0:.*]] = arith.constant 0 : i32
  %c0 = arith.constant 0 : i32
  // CHECK-NEXT: qd.store %[[C0]], @count[] : i32
  qd.store %c0, @count[] : i32
  // Task 1: a parallel struct_for with a serial struct_for nested in it.
  // CHECK-NEXT: qd.struct_for (%{{.*}}) in @x {
  // CHECK-NEXT: qd.struct_for () in @s {
  qd.struct_for (%i) in @x {
    qd.struct_for () in @s {
      %v = qd.load @s[] : f32
      qd.atomic_add %v, @x[%i] : f32
    }
  }
  // Task 2: a parallel range_for holding a while with a break.
  // CHECK: qd.range_for %{{.*}} = %[[C0]] to %{{.*}} : i32 {
  // CHECK-NEXT: qd.while {
  // CHECK: } do {
  // CHECK-NEXT: qd.if
  // CHECK-NEXT: qd.break
  qd.range_for %i = %c0 to %n : i32 {
    qd.while {
      qd.condition %flag
    } do {
      qd.if %flag {
        qd.break
      }
    }
  }
  // Under a top-level qd.if a range_for is serial: it may continue.
  // CHECK: qd.if %{{.*}} {
  // CHECK-NEXT: qd.range_for
  // CHECK-NEXT: qd.continue
  qd.if %flag {
    qd.range_for %i = %c0 to %n : i32 {
      qd.continue
    }
  }
  // Under a top-level qd.while too.
  // CHECK: } do {
  // CHECK-NEXT: qd.range_for
  // CHECK-NEXT: qd.break
  qd.while {
    qd.condition %flag
  } do {
    qd.range_for %i = %c0 to %n : i32 {
      qd.break
    }
  }
}
