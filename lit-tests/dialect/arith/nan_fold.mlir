// RUN: qd-opt %s -canonicalize | FileCheck %s
// A NaN made by folding an invalid operation (0/0, inf - inf, 0 * inf) is APFloat's positive quiet
// NaN, as mlir-opt folds it (not the negative default NaN of x86 hardware); a NaN operand
// propagates with its sign and payload. CHECK text is mlir-opt 22's output; constants are
// unordered because MLIR places folded constants first.

// CHECK-LABEL: func.func @invalid_nan() -> (f32, f64, f32, f32, f32) {
// CHECK-DAG:     %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[QNAN64:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK-DAG:     %[[NEG:.*]] = arith.constant 0xFFC00001 : f32
// CHECK:         return %[[QNAN]], %[[QNAN64]], %[[QNAN]], %[[QNAN]], %[[NEG]] : f32, f64, f32, f32, f32
func.func @invalid_nan() -> (f32, f64, f32, f32, f32) {
  %z = arith.constant 0.0 : f32
  %zd = arith.constant 0.0 : f64
  %inf = arith.constant 0x7F800000 : f32
  %neg = arith.constant 0xFFC00001 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.divf %z, %z : f32
  %1 = arith.divf %zd, %zd : f64
  %2 = arith.subf %inf, %inf : f32
  %3 = arith.mulf %z, %inf : f32
  %4 = arith.addf %neg, %one : f32
  return %0, %1, %2, %3, %4 : f32, f64, f32, f32, f32
}
