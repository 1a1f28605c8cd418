// Nesting: cse run on each kernel does not touch the module's own region; run on the module, it
// does both.
// RUN: qd-opt %s --allow-unregistered-dialect --pass-pipeline='builtin.module(qd.kernel(cse))' | FileCheck %s --check-prefixes=CHECK,NESTED
// RUN: qd-opt %s --allow-unregistered-dialect --pass=cse | FileCheck %s --check-prefixes=CHECK,MODULE
// RUN: qd-opt %s --allow-unregistered-dialect -p cse,cse | FileCheck %s --check-prefixes=CHECK,MODULE

// CHECK: %[[M1:.*]] = arith.constant 7 : i32
// NESTED-NEXT: %[[M2:.*]] = arith.constant 7 : i32
// NESTED-NEXT: "test.use"(%[[M1]], %[[M2]])
// MODULE-NEXT: "test.use"(%[[M1]], %[[M1]])
%m1 = arith.constant 7 : i32
%m2 = arith.constant 7 : i32
"test.use"(%m1, %m2) : (i32, i32) -> ()

// CHECK-LABEL: qd.kernel @k
// CHECK-NEXT: %[[K:.*]] = arith.constant 7 : i32
// CHECK-NEXT: "test.use"(%[[K]], %[[K]])
qd.kernel @k() {
  %0 = arith.constant 7 : i32
  %1 = arith.constant 7 : i32
  "test.use"(%0, %1) : (i32, i32) -> ()
}
