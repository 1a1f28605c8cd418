// RUN: qd-opt %s --pass=dce --allow-unregistered-dialect --split-input-file | FileCheck %s

// A chain of unused pure ops goes in one run; used ones stay.
// CHECK-LABEL: qd.kernel @chain
// CHECK-SAME: (%[[A:.*]]: i32)
// CHECK-NEXT: %[[USED:.*]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT: "test.use"(%[[USED]]) : (i32) -> ()
// CHECK-NEXT: }
qd.kernel @chain(%a: i32) {
  %c = arith.constant 3 : i32
  %0 = arith.addi %a, %c : i32
  %1 = arith.subi %0, %a : i32
  %2 = arith.muli %1, %1 : i32
  %used = arith.muli %a, %a : i32
  "test.use"(%used) : (i32) -> ()
}

// -----

// Ops with side effects stay, and so do their operands; unused reads go.
qd.field @x : !qd.field<4xf32>

// CHECK-LABEL: qd.kernel @effects
// CHECK-SAME: (%[[I:.*]]: i32)
// CHECK-NEXT: %[[V:.*]] = arith.constant 1.0{{.*}} : f32
// CHECK-NEXT: qd.store %[[V]], @x[%[[I]]] : f32
// CHECK-NEXT: }
qd.kernel @effects(%i: i32) {
  %v = arith.constant 1.0 : f32
  %unused = qd.load @x[%i] : f32
  qd.store %v, @x[%i] : f32
}

// -----

// Unregistered ops may have effects: they stay, with their operands.
// CHECK-LABEL: qd.kernel @unregistered
// CHECK-NEXT: %[[C:.*]] = arith.constant 4 : i32
// CHECK-NEXT: "test.op"(%[[C]]) : (i32) -> i32
// CHECK-NEXT: }
qd.kernel @unregistered() {
  %c = arith.constant 4 : i32
  %0 = "test.op"(%c) : (i32) -> i32
}
