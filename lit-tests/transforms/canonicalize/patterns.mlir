// Patterns can be switched off or selected by name; folding still applies.
// RUN: qd-opt %s --allow-unregistered-dialect --pass=canonicalize | FileCheck %s --check-prefix=ALL
// RUN: qd-opt %s --allow-unregistered-dialect --pass='canonicalize{disable-patterns=arith-addi-constant-chain}' | FileCheck %s --check-prefix=OFF
// RUN: qd-opt %s --allow-unregistered-dialect --pass='canonicalize{enable-patterns={arith-constant-to-rhs}}' | FileCheck %s --check-prefix=OFF

// ALL-LABEL: qd.kernel @chain
// ALL-SAME: (%[[A:.*]]: i32)
// ALL: %[[C3:.*]] = arith.constant 3 : i32
// ALL-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[C3]] : i32
// ALL-NEXT: "test.use"(%[[S]])

// OFF-LABEL: qd.kernel @chain
// OFF-SAME: (%[[A:.*]]: i32)
// OFF-DAG: %[[C1:.*]] = arith.constant 1 : i32
// OFF-DAG: %[[C2:.*]] = arith.constant 2 : i32
// OFF: %[[S1:.*]] = arith.addi %[[A]], %[[C1]] : i32
// OFF-NEXT: %[[S2:.*]] = arith.addi %[[S1]], %[[C2]] : i32
// OFF-NEXT: "test.use"(%[[S2]])
qd.kernel @chain(%a: i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %0 = arith.addi %c1, %a : i32
  %1 = arith.addi %0, %c2 : i32
  "test.use"(%1) : (i32) -> ()
}
