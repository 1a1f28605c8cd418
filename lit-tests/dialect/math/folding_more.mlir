// RUN: qd-opt %s --allow-unregistered-dialect --pass=canonicalize | FileCheck %s
// mlir-opt's canonicalizer folds this file alike: interop/math.mlir checks its output against
// these CHECK lines.
// The ops added for issue #14 fold as upstream MLIR 22's: the transcendental ones, trunc and
// round in f32 and f64 only (acosh below 1 to a NaN); roundeven, copysign, the classifications
// and absi at every width; cbrt and fpowi never; log10 of a value with its sign bit set and
// log1p where 1 + a < 0 stay.
// CHECK-LABEL: "test.new_f32"
// CHECK-DAG: %[[M2:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG: %[[MZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[ASIN:.*]] = arith.constant 0.52359879 : f32
// CHECK-DAG: %[[ACOS:.*]] = arith.constant 1.04719758 : f32
// CHECK-DAG: %[[ATAN:.*]] = arith.constant 0.463647604 : f32
// CHECK-DAG: %[[SINH:.*]] = arith.constant 0.521095276 : f32
// CHECK-DAG: %[[COSH:.*]] = arith.constant 1.12762594 : f32
// CHECK-DAG: %[[ASINH:.*]] = arith.constant 0.481211841 : f32
// CHECK-DAG: %[[ACOSH:.*]] = arith.constant 1.31695795 : f32
// CHECK-DAG: %[[ATANH:.*]] = arith.constant 0.549306154 : f32
// CHECK-DAG: %[[LOG1P:.*]] = arith.constant 0.405465096 : f32
// CHECK-DAG: %[[EXPM1:.*]] = arith.constant 0.648721277 : f32
// CHECK-DAG: %[[LOG10:.*]] = arith.constant -3.010300e-01 : f32
// CHECK-DAG: %[[ERF:.*]] = arith.constant 0.520499885 : f32
// CHECK-DAG: %[[ERFC:.*]] = arith.constant 0.479500115 : f32
// CHECK-DAG: %[[M3:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-DAG: %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x{{7|F}}FC00000 : f32
// CHECK: "test.use"(%[[ASIN]], %[[ACOS]], %[[ATAN]], %[[SINH]], %[[COSH]], %[[ASINH]], %[[ACOSH]], %[[ATANH]], %[[LOG1P]], %[[EXPM1]], %[[LOG10]], %[[ERF]], %[[ERFC]], %[[M2]], %[[M3]], %[[M2]], %[[M2]], %[[SEVEN]], %[[TRUE]], %[[TRUE]], %[[FALSE]], %[[NINF]], %[[NAN]])
// CHECK-NEXT: math.cbrt %[[TWO]] : f32
// CHECK-NEXT: math.fpowi %[[TWO]], %[[THREE]] : f32, i32
// CHECK-NEXT: math.log10 %[[M2]] : f32
// CHECK-NEXT: math.log10 %[[MZ]] : f32
// CHECK-NEXT: math.log1p %[[M2]] : f32
"test.new_f32"() ({
  %half = arith.constant 0.5 : f32
  %m2 = arith.constant -2.0 : f32
  %m1 = arith.constant -1.0 : f32
  %mz = arith.constant -0.0 : f32
  %two = arith.constant 2.0 : f32
  %m25 = arith.constant -2.5 : f32
  %inf = arith.constant 0x7F800000 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %three = arith.constant 3 : i32
  %mseven = arith.constant -7 : i32
  %0 = math.asin %half : f32
  %1 = math.acos %half : f32
  %2 = math.atan %half : f32
  %3 = math.sinh %half : f32
  %4 = math.cosh %half : f32
  %5 = math.asinh %half : f32
  %6 = math.acosh %two : f32
  %7 = math.atanh %half : f32
  %8 = math.log1p %half : f32
  %9 = math.expm1 %half : f32
  %10 = math.log10 %half : f32
  %11 = math.erf %half : f32
  %12 = math.erfc %half : f32
  %13 = math.trunc %m25 : f32
  %14 = math.round %m25 : f32
  %15 = math.roundeven %m25 : f32
  %16 = math.copysign %two, %mz : f32
  %17 = math.absi %mseven : i32
  %18 = math.isnan %nan : f32
  %19 = math.isinf %inf : f32
  %20 = math.isfinite %inf : f32
  %21 = math.log1p %m1 : f32
  %22 = math.acosh %half : f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, i32, i1, i1, i1, f32, f32) -> ()
  // Not folded: cbrt and fpowi never; log10 and log1p below their domain.
  %n0 = math.cbrt %two : f32
  %n1 = math.fpowi %two, %three : f32, i32
  %n2 = math.log10 %m2 : f32
  %n3 = math.log10 %mz : f32
  %n4 = math.log1p %m2 : f32
  "test.use"(%n0, %n1, %n2, %n3, %n4) : (f32, f32, f32, f32, f32) -> ()
}) : () -> ()

// CHECK-LABEL: "test.new_f16"
// CHECK-DAG: %[[H:.*]] = arith.constant 2.500000e+00 : f16
// CHECK-DAG: %[[B:.*]] = arith.constant -1.500000e+00 : bf16
// CHECK-DAG: %[[RE:.*]] = arith.constant 2.000000e+00 : f16
// CHECK-DAG: %[[CS:.*]] = arith.constant -2.500000e+00 : f16
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK: %[[TR:.*]] = math.trunc %[[H]] : f16
// CHECK-NEXT: %[[RO:.*]] = math.round %[[H]] : f16
// CHECK-NEXT: %[[AS:.*]] = math.asin %[[B]] : bf16
// CHECK-NEXT: %[[ER:.*]] = math.erf %[[H]] : f16
// CHECK-NEXT: "test.use"(%[[RE]], %[[CS]], %[[T]], %[[T]], %[[TR]], %[[RO]], %[[AS]], %[[ER]])
"test.new_f16"() ({
  %h = arith.constant 2.5 : f16
  %m = arith.constant -1.5 : bf16
  %nan = arith.constant 0x7E00 : f16
  %m2 = arith.constant -1.0 : f16
  %0 = math.roundeven %h : f16
  %1 = math.copysign %h, %m2 : f16
  %2 = math.isnan %nan : f16
  %3 = math.isfinite %m : bf16
  %n0 = math.trunc %h : f16
  %n1 = math.round %h : f16
  %n2 = math.asin %m : bf16
  %n3 = math.erf %h : f16
  "test.use"(%0, %1, %2, %3, %n0, %n1, %n2, %n3) : (f16, f16, i1, i1, f16, f16, bf16, f16) -> ()
}) : () -> ()
