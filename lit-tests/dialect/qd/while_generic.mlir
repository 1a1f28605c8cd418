// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// qd.while in the generic form: two regions, the first ending in "qd.condition".

// GENERIC: "qd.while"() ({
// GENERIC: "qd.condition"(%{{.*}}) : (i1) -> ()
// GENERIC-NEXT: }, {
// GENERIC: "qd.local_store"
// GENERIC: }) : () -> ()
// CHECK: qd.while {
// CHECK: qd.condition %{{.*}}
// CHECK-NEXT: } do {
// CHECK: qd.local_store
qd.kernel @k(%x: f32) {
  %p = qd.alloca : !qd.ptr<f32>
  qd.local_store %x, %p : !qd.ptr<f32>
  qd.while {
    %v = qd.local_load %p : !qd.ptr<f32>
    %one = arith.constant 1.0 : f32
    %go = arith.cmpf olt, %v, %one : f32
    qd.condition %go
  } do {
    %v = qd.local_load %p : !qd.ptr<f32>
    %v2 = arith.addf %v, %v : f32
    qd.local_store %v2, %p : !qd.ptr<f32>
  }
}
