// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.while: a condition region ending in qd.condition, then `do` and the body; state lives in
// locals. A while at a kernel's top level is serial, so it may hold a break.

// CHECK-LABEL: qd.kernel @count(
qd.kernel @count(%limit: i32) {
  %p = qd.alloca : !qd.ptr<i32>
  %c0 = arith.constant 0 : i32
  qd.local_store %c0, %p : !qd.ptr<i32>
  // CHECK: qd.while {
  // CHECK-NEXT: %[[K:.*]] = qd.local_load %{{.*}} : !qd.ptr<i32>
  // CHECK-NEXT: %[[GO:.*]] = arith.cmpi slt, %[[K]], %{{.*}} : i32
  // CHECK-NEXT: qd.condition %[[GO]]
  // CHECK-NEXT: } do {
  // CHECK-NEXT: qd.local_load
  // CHECK: qd.local_store
  // CHECK-NEXT: }
  qd.while {
    %k = qd.local_load %p : !qd.ptr<i32>
    %go = arith.cmpi slt, %k, %limit : i32
    qd.condition %go
  } do {
    %k = qd.local_load %p : !qd.ptr<i32>
    %c1 = arith.constant 1 : i32
    %k1 = arith.addi %k, %c1 : i32
    qd.local_store %k1, %p : !qd.ptr<i32>
  }
  // CHECK: qd.while {
  // CHECK: qd.condition %{{.*}}
  // CHECK-NEXT: } do {
  // CHECK-NEXT: qd.break
  // CHECK-NEXT: } {note = "kept"}
  qd.while {
    %t = arith.constant true
    qd.condition %t
  } do {
    qd.break
  } {note = "kept"}
  // An empty body prints as an empty region.
  // CHECK: qd.while {
  // CHECK: } do {
  // CHECK-NEXT: }
  qd.while {
    %f = arith.constant false
    qd.condition %f
  } do {
  }
}
