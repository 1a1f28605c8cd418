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
