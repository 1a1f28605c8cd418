// RUN: qd-opt %s --pass=cse --allow-unregistered-dialect --split-input-file | FileCheck %s

// A nested region sees the ops before its parent op.
// CHECK-LABEL: qd.kernel @outer_reaches_in
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i1)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT: qd.if %[[C]] {
// CHECK-NEXT: "test.use"(%[[S]]) : (i32) -> ()
// CHECK-NEXT: }
qd.kernel @outer_reaches_in(%a: i32, %b: i32, %c: i1) {
  %0 = arith.addi %a, %b : i32
  qd.if %c {
    %1 = arith.addi %a, %b : i32
    "test.use"(%1) : (i32) -> ()
  }
  "test.use"(%0) : (i32) -> ()
}

// -----

// Ops inside a region are not visible to sibling regions nor after the region.
// CHECK-LABEL: qd.kernel @inner_stays_in
// CHECK: qd.if
// CHECK-NEXT: %[[T:.*]] = arith.muli
// CHECK-NEXT: "test.use"(%[[T]], %[[T]])
// CHECK: } else {
// CHECK-NEXT: %[[E:.*]] = arith.muli
// CHECK-NEXT: "test.use"(%[[E]])
// CHECK: }
// CHECK-NEXT: %[[AFTER:.*]] = arith.muli
// CHECK-NEXT: "test.use"(%[[AFTER]])
qd.kernel @inner_stays_in(%a: i32, %b: i32, %c: i1) {
  qd.if %c {
    %0 = arith.muli %a, %b : i32
    %1 = arith.muli %a, %b : i32
    "test.use"(%0, %1) : (i32, i32) -> ()
  } else {
    %2 = arith.muli %a, %b : i32
    "test.use"(%2) : (i32) -> ()
  }
  %3 = arith.muli %a, %b : i32
  "test.use"(%3) : (i32) -> ()
}

// -----

// Regions of unregistered ops might be isolated from above: they start with nothing known.
// CHECK-LABEL: qd.kernel @unregistered_region
// CHECK-NEXT: %[[OUT:.*]] = arith.constant 5 : i32
// CHECK-NEXT: "test.region"() ({
// CHECK-NEXT: %[[IN:.*]] = arith.constant 5 : i32
// CHECK-NEXT: "test.use"(%[[IN]], %[[IN]])
// CHECK: "test.use"(%[[OUT]])
qd.kernel @unregistered_region() {
  %0 = arith.constant 5 : i32
  "test.region"() ({
    %1 = arith.constant 5 : i32
    %2 = arith.constant 5 : i32
    "test.use"(%1, %2) : (i32, i32) -> ()
  }) : () -> ()
  "test.use"(%0) : (i32) -> ()
}

// -----

// Kernels are isolated from above: each keeps its own constant.
// CHECK-LABEL: qd.kernel @first
// CHECK-NEXT: arith.constant 3 : i32
// CHECK-LABEL: qd.kernel @second
// CHECK-NEXT: arith.constant 3 : i32
qd.kernel @first() {
  %0 = arith.constant 3 : i32
  "test.use"(%0) : (i32) -> ()
}
qd.kernel @second() {
  %0 = arith.constant 3 : i32
  "test.use"(%0) : (i32) -> ()
}
