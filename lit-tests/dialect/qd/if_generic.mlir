// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// qd.if in the generic form: always two regions; the second is empty when there is no else.

// GENERIC: "qd.if"(%[[C:.*]]) ({
// GENERIC: "qd.store"
// GENERIC-NEXT: }, {
// GENERIC-NEXT: }) : (i1) -> ()
// GENERIC: "qd.if"(%[[C]]) ({
// GENERIC: }, {
// GENERIC: "arith.constant"
// GENERIC: }) : (i1) -> ()
// CHECK: qd.if %[[C:.*]] {
// CHECK-NEXT: qd.store
// CHECK-NEXT: }{{$}}
// CHECK: qd.if %[[C]] {
// CHECK: } else {
qd.field @y : !qd.field<f32>
qd.kernel @k(%c: i1, %x: f32) {
  qd.if %c {
    qd.store %x, @y[] : f32
  }
  qd.if %c {
    qd.store %x, @y[] : f32
  } else {
    %z = arith.constant 0.0 : f32
    qd.store %z, @y[] : f32
  }
}
