// RUN: qd-opt %s --pass=canonicalize --allow-unregistered-dialect | FileCheck %s

// Unregistered ops have no patterns, no folder and unknown effects: left as they are, even unused.
// Unused pure ops are erased.
// CHECK-LABEL: qd.kernel @k
// CHECK-NEXT: %[[X:.*]] = "test.op"() : () -> i32
// CHECK-NEXT: "test.op"(%[[X]]) : (i32) -> i32
// CHECK-NEXT: "test.use"(%[[X]])
// CHECK-NEXT: }
qd.kernel @k(%a: i32) {
  %0 = "test.op"() : () -> i32
  %1 = "test.op"(%0) : (i32) -> i32
  %2 = arith.muli %a, %a : i32
  "test.use"(%0) : (i32) -> ()
}
