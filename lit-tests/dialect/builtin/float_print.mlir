// Text fidelity (#17): float_print. CHECK lines are mlir-opt 22's exact output for
// this input (mlir-opt (no flags)).
// RUN: qd-opt %s  | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  func.func @floats() -> (f16, f16, f16, bf16, bf16, f32, f32, f32, f32, f32, f32, f32, f64, f64, f64, f64) {
// CHECK-NEXT:{{^}}    %cst = arith.constant 1.000000e+00 : f16
// CHECK-NEXT:{{^}}    %cst_0 = arith.constant 9.997550e-02 : f16
// CHECK-NEXT:{{^}}    %cst_1 = arith.constant 0x7C01 : f16
// CHECK-NEXT:{{^}}    %cst_2 = arith.constant 1.000980e-01 : bf16
// CHECK-NEXT:{{^}}    %cst_3 = arith.constant 0x7F81 : bf16
// CHECK-NEXT:{{^}}    %cst_4 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:{{^}}    %cst_5 = arith.constant 0.693147182 : f32
// CHECK-NEXT:{{^}}    %cst_6 = arith.constant 0x4B800000 : f32
// CHECK-NEXT:{{^}}    %cst_7 = arith.constant 0x7F800001 : f32
// CHECK-NEXT:{{^}}    %cst_8 = arith.constant 0xFFC00000 : f32
// CHECK-NEXT:{{^}}    %cst_9 = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:{{^}}    %cst_10 = arith.constant 1.401300e-45 : f32
// CHECK-NEXT:{{^}}    %cst_11 = arith.constant 0xC1CDC00000000000 : f64
// CHECK-NEXT:{{^}}    %cst_12 = arith.constant 1.000000e-01 : f64
// CHECK-NEXT:{{^}}    %cst_13 = arith.constant 0x7FF0000000000000 : f64
// CHECK-NEXT:{{^}}    %cst_14 = arith.constant 1.000000e+300 : f64
// CHECK-NEXT:{{^}}    return %cst, %cst_0, %cst_1, %cst_2, %cst_3, %cst_4, %cst_5, %cst_6, %cst_7, %cst_8, %cst_9, %cst_10, %cst_11, %cst_12, %cst_13, %cst_14 : f16, f16, f16, bf16, bf16, f32, f32, f32, f32, f32, f32, f32, f64, f64, f64, f64
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}

func.func @floats() -> (f16, f16, f16, bf16, bf16, f32, f32, f32, f32, f32, f32, f32, f64, f64, f64, f64) {
  %0 = arith.constant 1.0 : f16
  %1 = arith.constant 0.1 : f16
  %2 = arith.constant 0x7C01 : f16
  %3 = arith.constant 0.1 : bf16
  %4 = arith.constant 0x7F81 : bf16
  %5 = arith.constant 2.0 : f32
  %6 = arith.constant 0.693147182 : f32
  %7 = arith.constant 16777216.0 : f32
  %8 = arith.constant 0x7F800001 : f32
  %9 = arith.constant 0xFFC00000 : f32
  %10 = arith.constant -0.0 : f32
  %11 = arith.constant 1.0e-45 : f32
  %12 = arith.constant 0xC1CDC00000000000 : f64
  %13 = arith.constant 0.1 : f64
  %14 = arith.constant 0x7FF0000000000000 : f64
  %15 = arith.constant 1.0e300 : f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15 : f16, f16, f16, bf16, bf16, f32, f32, f32, f32, f32, f32, f32, f64, f64, f64, f64
}
