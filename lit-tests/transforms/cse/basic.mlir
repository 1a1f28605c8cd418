// RUN: qd-opt %s --pass=cse --allow-unregistered-dialect --split-input-file | FileCheck %s

// Identical pure ops: the later one is replaced by the earlier one.
// CHECK-LABEL: qd.kernel @duplicates
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT: "test.use"(%[[S]], %[[S]]) : (i32, i32) -> ()
qd.kernel @duplicates(%a: i32, %b: i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b : i32
  "test.use"(%0, %1) : (i32, i32) -> ()
}

// -----

// Commutative ops match with their operands swapped; other ops do not.
// CHECK-LABEL: qd.kernel @commutative
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT: %[[ADD:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT: %[[SUB1:.*]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT: %[[SUB2:.*]] = arith.subi %[[B]], %[[A]] : i32
// CHECK-NEXT: "test.use"(%[[ADD]], %[[ADD]], %[[SUB1]], %[[SUB2]])
qd.kernel @commutative(%a: i32, %b: i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %b, %a : i32
  %2 = arith.subi %a, %b : i32
  %3 = arith.subi %b, %a : i32
  "test.use"(%0, %1, %2, %3) : (i32, i32, i32, i32) -> ()
}

// -----

// Constants are ops like any other: equal value and type merge.
// CHECK-LABEL: qd.kernel @constants
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[C1_64:.*]] = arith.constant 1 : i64
// CHECK-NEXT: "test.use"(%[[C1]], %[[C2]], %[[C1]], %[[C1_64]])
qd.kernel @constants() {
  %0 = arith.constant 1 : i32
  %1 = arith.constant 2 : i32
  %2 = arith.constant 1 : i32
  %3 = arith.constant 1 : i64
  "test.use"(%0, %1, %2, %3) : (i32, i32, i32, i64) -> ()
}

// -----

// Properties and discardable attributes are part of an op's identity.
// CHECK-LABEL: qd.kernel @attributes
// CHECK-NEXT: %[[PLAIN:.*]] = arith.addi
// CHECK-NEXT: %[[NSW:.*]] = arith.addi {{.*}} overflow<nsw>
// CHECK-NEXT: %[[TAGGED:.*]] = arith.addi {{.*}}tag
// CHECK-NEXT: "test.use"(%[[PLAIN]], %[[NSW]], %[[TAGGED]], %[[PLAIN]], %[[NSW]])
qd.kernel @attributes(%a: i32, %b: i32) {
  %0 = arith.addi %a, %b : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  %2 = arith.addi %a, %b {tag} : i32
  %3 = arith.addi %a, %b : i32
  %4 = arith.addi %a, %b overflow<nsw> : i32
  "test.use"(%0, %1, %2, %3, %4) : (i32, i32, i32, i32, i32) -> ()
}
