// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// qd.range_for in the generic form: operands (lower, upper), the induction variable is the body's
// entry block argument.

// GENERIC: "qd.range_for"(%[[LO:.*]], %[[HI:.*]]) ({
// GENERIC-NEXT: ^bb0(%[[I:.*]]: i32):
// GENERIC: "qd.store"(%{{.*}}, %[[I]]) <{field = @x}> : (f32, i32) -> ()
// GENERIC: }) : (i32, i32) -> ()
// CHECK: qd.range_for %[[I:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK: qd.store %{{.*}}, @x[%[[I]]] : f32
qd.field @x : !qd.field<8xf32>
qd.kernel @k(%n: i32) {
  %c0 = arith.constant 0 : i32
  %v = arith.constant 1.0 : f32
  qd.range_for %i = %c0 to %n : i32 {
    qd.store %v, @x[%i] : f32
  }
}
