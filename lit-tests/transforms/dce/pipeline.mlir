// dce run twice changes nothing more; nested on kernels it does not touch module-level ops.
// RUN: qd-opt %s --allow-unregistered-dialect -p dce,dce | FileCheck %s --check-prefixes=CHECK,MODULE
// RUN: qd-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(qd.kernel(dce))' | FileCheck %s --check-prefixes=CHECK,NESTED

// NESTED: arith.constant 42 : i32
// MODULE-NOT: arith.constant 42
%unused = arith.constant 42 : i32

// CHECK-LABEL: qd.kernel @k
// CHECK-NEXT: }
qd.kernel @k(%a: i32) {
  %0 = arith.addi %a, %a : i32
}
