// Our own checks for the functions of upstream MLIR's mlir/test/Dialect/Math/canonicalize.mlir
// (as LLVM 22 spells it) that qd passes today (issue #17): inputs are mlir-opt 22's re-print,
// CHECK lines derived from mlir-opt 22's -canonicalize output.
// RUN: qd-opt %s --split-input-file -canonicalize="test-convergence" | FileCheck %s

// CHECK-LABEL: func.func @log2_fold2() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0xFF800000 : f32
// CHECK:      return %[[CST]] : f32
func.func @log2_fold2() -> f32 {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = math.log2 %cst : f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @log2_fold2_64() -> f64
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK:      return %[[CST]] : f64
func.func @log2_fold2_64() -> f64 {
  %cst = arith.constant 0.000000e+00 : f64
  %0 = math.log2 %cst : f64
  return %0 : f64
}

// -----

// CHECK-LABEL: func.func @log1p_fold() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant 2.8903718 : f32
// CHECK:      return %[[CST]] : f32
func.func @log1p_fold() -> f32 {
  %cst = arith.constant 1.700000e+01 : f32
  %0 = math.log1p %cst : f32
  return %0 : f32
}
