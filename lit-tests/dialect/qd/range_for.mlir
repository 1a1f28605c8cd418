// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.range_for: bounds of one integer type (or index), the induction variable of that type,
// nested loops, a bound computed in an outer loop, discardable attributes after the body.

qd.field @x : !qd.field<4x10xf32>

// CHECK-LABEL: qd.kernel @nest(
qd.kernel @nest(%n: i32, %w: i64) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : i32
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  // CHECK: qd.range_for %[[R:.*]] = %[[C0]] to %{{.*}} : i32 {
  qd.range_for %r = %c0 to %c4 : i32 {
    // CHECK: qd.range_for %[[K:.*]] = %[[C0]] to %[[R]] : i32 {
    qd.range_for %k = %c0 to %r : i32 {
      // CHECK: qd.load @x[%[[R]], %[[K]]] : f32
      %v = qd.load @x[%r, %k] : f32
    }
  }
  // CHECK: qd.range_for %{{.*}} = %{{.*}} to %{{.*}} : i64 {
  %z = arith.constant 0 : i64
  qd.range_for %i = %z to %w : i64 {
  }
  // CHECK: qd.range_for %{{.*}} = %{{.*}} to %{{.*}} : index {
  %a = arith.constant 0 : index
  %b = arith.constant 3 : index
  qd.range_for %i = %a to %b : index {
  }
  // CHECK: qd.range_for %{{.*}} = %[[C0]] to %{{.*}} : i32 {
  // CHECK-NEXT: } {note = "kept"}
  qd.range_for %i = %c0 to %n : i32 {
  } {note = "kept"}
}
