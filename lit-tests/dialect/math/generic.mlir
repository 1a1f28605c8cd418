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

// The ops added for issue #14 in generic form: fpowi's two operand types, the classifications'
// i1 result, absi without properties.
// CHECK-LABEL: "test.func2"() ({
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[N:.*]]: i32, %[[D:.*]]: f64):
// GENERIC-LABEL: "test.func2"() ({
// GENERIC-NEXT: ^bb0(%[[X:.*]]: f32, %[[N:.*]]: i32, %[[D:.*]]: f64):
"test.func2"() ({
^bb0(%x: f32, %n: i32, %d: f64):
  // CHECK-NEXT: %{{.*}} = math.asin %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.asin"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %0 = "math.asin"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.acos %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.acos"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %1 = "math.acos"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.atan %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.atan"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %2 = "math.atan"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.sinh %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.sinh"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %3 = "math.sinh"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.cosh %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.cosh"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %4 = "math.cosh"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.asinh %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.asinh"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %5 = "math.asinh"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.acosh %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.acosh"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %6 = "math.acosh"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.atanh %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.atanh"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %7 = "math.atanh"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.log1p %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.log1p"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %8 = "math.log1p"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.expm1 %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.expm1"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %9 = "math.expm1"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.log10 %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.log10"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %10 = "math.log10"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.erf %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.erf"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %11 = "math.erf"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.erfc %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.erfc"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %12 = "math.erfc"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.cbrt %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.cbrt"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %13 = "math.cbrt"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.trunc %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.trunc"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %14 = "math.trunc"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.round %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.round"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %15 = "math.round"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.roundeven %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.roundeven"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %16 = "math.roundeven"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.copysign %[[X]], %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.copysign"(%[[X]], %[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %17 = "math.copysign"(%x, %x) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = math.fpowi %[[X]], %[[N]] : f32, i32
  // GENERIC-NEXT: %{{.*}} = "math.fpowi"(%[[X]], %[[N]]) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
  %18 = "math.fpowi"(%x, %n) <{fastmath = #arith.fastmath<none>}> : (f32, i32) -> f32
  // CHECK-NEXT: %{{.*}} = math.fpowi %[[D]], %[[N]] fastmath<fast> : f64, i32
  // GENERIC-NEXT: %{{.*}} = "math.fpowi"(%[[D]], %[[N]]) <{fastmath = #arith.fastmath<fast>}> : (f64, i32) -> f64
  %19 = "math.fpowi"(%d, %n) <{fastmath = #arith.fastmath<fast>}> : (f64, i32) -> f64
  // CHECK-NEXT: %{{.*}} = math.absi %[[N]] : i32
  // GENERIC-NEXT: %{{.*}} = "math.absi"(%[[N]]) : (i32) -> i32
  %20 = "math.absi"(%n) : (i32) -> i32
  // CHECK-NEXT: %{{.*}} = math.isnan %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.isnan"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
  %21 = "math.isnan"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
  // CHECK-NEXT: %{{.*}} = math.isinf %[[D]] {fastmath = #arith.fastmath<ninf>} : f64
  // GENERIC-NEXT: %{{.*}} = "math.isinf"(%[[D]]) <{fastmath = #arith.fastmath<ninf>}> : (f64) -> i1
  %22 = "math.isinf"(%d) <{fastmath = #arith.fastmath<ninf>}> : (f64) -> i1
  // CHECK-NEXT: %{{.*}} = math.isfinite %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.isfinite"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
  %23 = "math.isfinite"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> i1
  // CHECK-NEXT: %{{.*}} = math.isfinite %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "math.isfinite"(%[[X]]) : (f32) -> i1
  %24 = "math.isfinite"(%x) : (f32) -> i1
  "test.end"() : () -> ()
}) : () -> ()
