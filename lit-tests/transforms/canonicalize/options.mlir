// Options are parsed and checked.
// RUN: qd-opt %s --allow-unregistered-dialect --pass='canonicalize{max-iterations=3 max-num-rewrites=-1}' | FileCheck %s
// RUN: qd-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(qd.kernel(canonicalize{test-convergence}))' | FileCheck %s
// RUN: not qd-opt %s --pass='canonicalize{max-iterations=abc}' 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not qd-opt %s --pass='canonicalize{max-iteration=3}' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not qd-opt %s --pass='canonicalize{max-iterations=0}' 2>&1 | FileCheck %s --check-prefix=RANGE

// BADVALUE: invalid value 'abc' for option 'max-iterations': expected an integer
// UNKNOWN: unknown option 'max-iteration' for pass 'canonicalize'; known options: max-iterations, max-num-rewrites, disable-patterns, enable-patterns, test-convergence
// RANGE: max-iterations must be at least 1, got 0

// CHECK-LABEL: qd.kernel @k
// CHECK-NEXT: %[[C:.*]] = arith.constant 6 : i32
// CHECK-NEXT: "test.use"(%[[C]])
qd.kernel @k() {
  %0 = arith.constant 2 : i32
  %1 = arith.constant 3 : i32
  %2 = arith.muli %0, %1 : i32
  "test.use"(%2) : (i32) -> ()
}
