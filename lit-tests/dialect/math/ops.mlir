// RUN: qd-opt %s --allow-unregistered-dialect | qd-opt --allow-unregistered-dialect | FileCheck %s
// The custom syntax of every math op survives printing and parsing again.

// CHECK-LABEL: "test.func"() ({
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32, %[[D:.*]]: f64, %[[H:.*]]: f16):
"test.func"() ({
^bb0(%x: f32, %y: f32, %z: f32, %d: f64, %h: f16):
  // CHECK-NEXT: math.sin %[[X]] : f32
  %0 = math.sin %x : f32
  // CHECK-NEXT: math.cos %[[X]] : f32
  %1 = math.cos %x : f32
  // CHECK-NEXT: math.tan %[[X]] : f32
  %2 = math.tan %x : f32
  // CHECK-NEXT: math.exp %[[X]] : f32
  %3 = math.exp %x : f32
  // CHECK-NEXT: math.exp2 %[[X]] : f32
  %4 = math.exp2 %x : f32
  // CHECK-NEXT: math.log %[[X]] : f32
  %5 = math.log %x : f32
  // CHECK-NEXT: math.log2 %[[X]] : f32
  %6 = math.log2 %x : f32
  // CHECK-NEXT: math.sqrt %[[X]] : f32
  %7 = math.sqrt %x : f32
  // CHECK-NEXT: math.rsqrt %[[X]] : f32
  %8 = math.rsqrt %x : f32
  // CHECK-NEXT: math.tanh %[[X]] : f32
  %9 = math.tanh %x : f32
  // CHECK-NEXT: math.absf %[[X]] : f32
  %10 = math.absf %x : f32
  // CHECK-NEXT: math.floor %[[X]] : f32
  %11 = math.floor %x : f32
  // CHECK-NEXT: math.ceil %[[X]] : f32
  %12 = math.ceil %x : f32
  // CHECK-NEXT: math.powf %[[X]], %[[Y]] : f32
  %13 = math.powf %x, %y : f32
  // CHECK-NEXT: math.atan2 %[[X]], %[[Y]] : f32
  %14 = math.atan2 %x, %y : f32
  // CHECK-NEXT: math.fma %[[X]], %[[Y]], %[[Z]] : f32
  %15 = math.fma %x, %y, %z : f32
  // CHECK-NEXT: math.fma %[[D]], %[[D]], %[[D]] fastmath<contract> : f64
  %16 = math.fma %d, %d, %d fastmath<contract> : f64
  // CHECK-NEXT: math.sin %[[D]] fastmath<fast> : f64
  %17 = math.sin %d fastmath<fast> : f64
  // CHECK-NEXT: math.sqrt %[[H]] fastmath<nnan,afn> {note} : f16
  %18 = math.sqrt %h fastmath<afn,nnan> {note} : f16
  // CHECK-NEXT: math.powf %[[X]], %[[Y]] : f32
  %19 = math.powf %x, %y fastmath<none> : f32
  // CHECK-NEXT: math.atan2 %[[D]], %[[D]] fastmath<nsz> : f64
  %20 = math.atan2 %d, %d {fastmath = #arith.fastmath<nsz>} : f64
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f64, f64, f16, f32, f64) -> ()
}) : () -> ()

// The ops added for issue #14: the float functions, copysign, fpowi (`: T, U`), absi, and the
// classifications (an i1; their fastmath lives in the attribute dictionary, elided when none).
// CHECK-LABEL: "test.func2"() ({
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[N:.*]]: i32, %[[D:.*]]: f64, %[[K:.*]]: index, %[[I:.*]]: i8):
"test.func2"() ({
^bb0(%x: f32, %y: f32, %n: i32, %d: f64, %k: index, %i: i8):
  // CHECK-NEXT: math.asin %[[X]] : f32
  %0 = math.asin %x : f32
  // CHECK-NEXT: math.acos %[[X]] : f32
  %1 = math.acos %x : f32
  // CHECK-NEXT: math.atan %[[X]] : f32
  %2 = math.atan %x : f32
  // CHECK-NEXT: math.sinh %[[X]] : f32
  %3 = math.sinh %x : f32
  // CHECK-NEXT: math.cosh %[[X]] : f32
  %4 = math.cosh %x : f32
  // CHECK-NEXT: math.asinh %[[X]] : f32
  %5 = math.asinh %x : f32
  // CHECK-NEXT: math.acosh %[[X]] : f32
  %6 = math.acosh %x : f32
  // CHECK-NEXT: math.atanh %[[X]] : f32
  %7 = math.atanh %x : f32
  // CHECK-NEXT: math.log1p %[[X]] : f32
  %8 = math.log1p %x : f32
  // CHECK-NEXT: math.expm1 %[[X]] : f32
  %9 = math.expm1 %x : f32
  // CHECK-NEXT: math.log10 %[[X]] : f32
  %10 = math.log10 %x : f32
  // CHECK-NEXT: math.erf %[[X]] : f32
  %11 = math.erf %x : f32
  // CHECK-NEXT: math.erfc %[[X]] : f32
  %12 = math.erfc %x : f32
  // CHECK-NEXT: math.cbrt %[[X]] : f32
  %13 = math.cbrt %x : f32
  // CHECK-NEXT: math.copysign %[[X]], %[[Y]] : f32
  %14 = math.copysign %x, %y : f32
  // CHECK-NEXT: math.fpowi %[[X]], %[[N]] : f32, i32
  %15 = math.fpowi %x, %n : f32, i32
  // CHECK-NEXT: math.trunc %[[X]] : f32
  %16 = math.trunc %x : f32
  // CHECK-NEXT: math.round %[[X]] : f32
  %17 = math.round %x : f32
  // CHECK-NEXT: math.roundeven %[[X]] : f32
  %18 = math.roundeven %x : f32
  // CHECK-NEXT: math.absi %[[N]] : i32
  %19 = math.absi %n : i32
  // CHECK-NEXT: math.isnan %[[X]] : f32
  %20 = math.isnan %x : f32
  // CHECK-NEXT: math.isinf %[[X]] : f32
  %21 = math.isinf %x : f32
  // CHECK-NEXT: math.isfinite %[[X]] : f32
  %22 = math.isfinite %x : f32
  // CHECK-NEXT: math.fpowi %[[D]], %[[K]] fastmath<fast> : f64, index
  %23 = math.fpowi %d, %k fastmath<fast> : f64, index
  // CHECK-NEXT: math.erfc %[[D]] fastmath<nnan,afn> : f64
  %24 = math.erfc %d fastmath<afn,nnan> : f64
  // CHECK-NEXT: math.copysign %[[D]], %[[D]] fastmath<nsz> : f64
  %25 = math.copysign %d, %d {fastmath = #arith.fastmath<nsz>} : f64
  // CHECK-NEXT: math.absi %[[I]] : i8
  %26 = math.absi %i : i8
  // CHECK-NEXT: math.absi %[[K]] : index
  %27 = math.absi %k : index
  // CHECK-NEXT: math.isinf %[[D]] {fastmath = #arith.fastmath<ninf>} : f64
  %28 = math.isinf %d {fastmath = #arith.fastmath<ninf>} : f64
  // CHECK-NEXT: math.isnan %[[D]] : f64
  %29 = math.isnan %d {fastmath = #arith.fastmath<none>} : f64
  // CHECK-NEXT: math.roundeven %[[D]] fastmath<fast> : f64
  %30 = math.roundeven %d fastmath<fast> : f64
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i1, i1, i1, f64, f64, f64, i8, index, i1, i1, f64) -> ()
}) : () -> ()
