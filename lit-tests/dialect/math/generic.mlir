// RUN: qd-opt %s --allow-unregistered-dialect --print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %s
// RUN: qd-opt %s --allow-unregistered-dialect --print-op-generic | FileCheck %s --check-prefix=GENERIC
// The generic form of every math op (its fastmath property is #arith.fastmath) parses, prints
// back the same, and reads as the custom form; a missing fastmath stays missing.

// CHECK-LABEL: "test.func"() ({
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32):
// GENERIC-LABEL: "test.func"() ({
// GENERIC-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32):
"test.func"() ({
^bb0(%x: f32, %y: f32, %z: f32):
  // CHECK-NEXT: %{{.*}} = math.sin %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.sin"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %0 = "math.sin"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.cos %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.cos"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %1 = "math.cos"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.tan %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.tan"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %2 = "math.tan"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.exp %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.exp"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %3 = "math.exp"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.exp2 %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.exp2"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %4 = "math.exp2"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.log %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.log"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %5 = "math.log"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.log2 %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.log2"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %6 = "math.log2"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.sqrt %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.sqrt"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %7 = "math.sqrt"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.rsqrt %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.rsqrt"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %8 = "math.rsqrt"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.tanh %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.tanh"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %9 = "math.tanh"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.absf %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.absf"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %10 = "math.absf"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.floor %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.floor"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %11 = "math.floor"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.ceil %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.ceil"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %12 = "math.ceil"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.powf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.powf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %13 = "math.powf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.atan2 %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.atan2"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %14 = "math.atan2"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.fma %[[X]], %[[Y]], %[[Z]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.fma"(%[[X]], %[[Y]], %[[Z]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
  %15 = "math.fma"(%x, %y, %z) <{fastmath = #arith.fastmath<none>}> : (f32, f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.fma %[[X]], %[[Y]], %[[Z]] fastmath<contract> : f32
  // GENERIC-NEXT: %{{.*}} = "math.fma"(%[[X]], %[[Y]], %[[Z]]) <{fastmath = #arith.fastmath<contract>}> : (f32, f32, f32) -> f32
  %16 = "math.fma"(%x, %y, %z) <{fastmath = #arith.fastmath<contract>}> : (f32, f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.exp %[[X]] fastmath<fast> : f32
  // GENERIC-NEXT: %{{.*}} = "math.exp"(%[[X]]) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
  %17 = "math.exp"(%x) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.sin %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.sin"(%[[X]]) : (f32) -> f32
  %18 = "math.sin"(%x) : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.powf %[[X]], %[[Y]] {note = 1 : i32} : f32
  // GENERIC-NEXT: %{{.*}} = "math.powf"(%[[X]], %[[Y]]) {note = 1 : i32} : (f32, f32) -> f32
  %19 = "math.powf"(%x, %y) {note = 1 : i32} : (f32, f32) -> f32
  "test.end"() : () -> ()
}) : () -> ()
