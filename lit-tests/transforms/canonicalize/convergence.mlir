// A second run of canonicalize finds nothing to do: the output is a fixed point.
// RUN: qd-opt %s --allow-unregistered-dialect --pass=canonicalize | qd-opt --allow-unregistered-dialect --pass=canonicalize --print-ir-after-all 2>&1 | FileCheck %s
// RUN: qd-opt %s --allow-unregistered-dialect -p canonicalize,canonicalize | FileCheck %s --check-prefix=TWICE

// CHECK: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// CHECK: arith.constant 10 : i32
// TWICE: %[[C:.*]] = arith.constant 10 : i32
// TWICE: %[[S:.*]] = arith.addi %{{.*}}, %[[C]] : i32
// TWICE-NEXT: "test.use"(%[[S]])
qd.kernel @k(%a: i32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %0 = arith.addi %a, %c1 : i32
  %1 = arith.addi %0, %c2 : i32
  %2 = arith.addi %1, %c3 : i32
  %3 = arith.addi %2, %c4 : i32
  "test.use"(%3) : (i32) -> ()
}
