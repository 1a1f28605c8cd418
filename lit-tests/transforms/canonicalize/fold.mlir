// RUN: qd-opt %s --pass=canonicalize --allow-unregistered-dialect --split-input-file | FileCheck %s

// Constant operands fold; the folded constants are deduplicated and the dead ones erased.
// CHECK-LABEL: qd.kernel @constant_fold
// CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT: "test.use"(%[[C5]], %[[C5]]) : (i32, i32) -> ()
// CHECK-NEXT: }
qd.kernel @constant_fold() {
  %0 = arith.constant 2 : i32
  %1 = arith.constant 3 : i32
  %2 = arith.addi %0, %1 : i32
  %3 = arith.constant 5 : i32
  "test.use"(%2, %3) : (i32, i32) -> ()
}

// -----

// Identities fold to an operand.
// CHECK-LABEL: qd.kernel @identities
// CHECK-SAME: (%[[A:.*]]: i32)
// CHECK-NOT: arith.addi
// CHECK-NOT: arith.muli
// CHECK: "test.use"(%[[A]], %[[A]]) : (i32, i32) -> ()
qd.kernel @identities(%a: i32) {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %0 = arith.addi %a, %zero : i32
  %1 = arith.muli %one, %a : i32
  "test.use"(%0, %1) : (i32, i32) -> ()
}

// -----

// Canonicalization patterns: addi(addi(x, 1), 2) -> addi(x, 3).
// CHECK-LABEL: qd.kernel @chain
// CHECK-SAME: (%[[A:.*]]: i32)
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[S:.*]] = arith.addi %[[A]], %[[C3]] : i32
// CHECK-NEXT: "test.use"(%[[S]]) : (i32) -> ()
qd.kernel @chain(%a: i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %a, %c1 : i32
  %1 = arith.addi %0, %c2 : i32
  "test.use"(%1) : (i32) -> ()
}

// -----

// Ops nested in regions are canonicalized too.
// CHECK-LABEL: qd.kernel @nested
// CHECK-SAME: (%[[A:.*]]: i32, %[[C:.*]]: i1)
// CHECK: qd.if %[[C]] {
// CHECK-NEXT: "test.use"(%[[A]]) : (i32) -> ()
qd.kernel @nested(%a: i32, %c: i1) {
  qd.if %c {
    %zero = arith.constant 0 : i32
    %0 = arith.addi %zero, %a : i32
    "test.use"(%0) : (i32) -> ()
  }
}
