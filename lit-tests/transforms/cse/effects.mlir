// RUN: qd-opt %s --pass=cse --allow-unregistered-dialect --split-input-file | FileCheck %s

// Unregistered ops may have any effect: never merged, never erased.
// CHECK-LABEL: qd.kernel @unregistered
// CHECK-NEXT: %[[X:.*]] = "test.pure"() : () -> i32
// CHECK-NEXT: %[[Y:.*]] = "test.pure"() : () -> i32
// CHECK-NEXT: "test.pure"() : () -> i32
// CHECK-NEXT: "test.use"(%[[X]], %[[Y]])
qd.kernel @unregistered() {
  %0 = "test.pure"() : () -> i32
  %1 = "test.pure"() : () -> i32
  %2 = "test.pure"() : () -> i32
  "test.use"(%0, %1) : (i32, i32) -> ()
}

// -----

// Reads of memory are not merged: a write may come between them.
qd.field @x : !qd.field<4xf32>

// CHECK-LABEL: qd.kernel @loads
// CHECK-SAME: (%[[I:.*]]: i32)
// CHECK-NEXT: %[[L1:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant
// CHECK-NEXT: qd.store %[[C]]
// CHECK-NEXT: %[[L2:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: "test.use"(%[[L1]], %[[L2]])
qd.kernel @loads(%i: i32) {
  %0 = qd.load @x[%i] : f32
  %c = arith.constant 1.0 : f32
  qd.store %c, @x[%i] : f32
  %1 = qd.load @x[%i] : f32
  "test.use"(%0, %1) : (f32, f32) -> ()
}

// -----

// As MLIR's CSE, pure ops found dead on the way are erased.
// CHECK-LABEL: qd.kernel @dead
// CHECK-NEXT: "test.use"
// CHECK-NEXT: }
qd.kernel @dead(%a: i32, %b: i32) {
  %0 = arith.addi %a, %b : i32
  "test.use"(%a) : (i32) -> ()
}
