// RUN: qd-opt %s -canonicalize | FileCheck %s
// truncf of a constant folds only when the conversion is exact, as MLIR's convertFloatValue:
// a lossy f32 -> bf16 (1.444e25), an inexact f64 -> f32 (0.1, any rounding mode), an overflow
// to f16 and a signaling NaN stay; exact ones fold whatever the rounding mode. CHECK text is
// mlir-opt 22 output; constants are unordered because MLIR places folded constants first.

// CHECK-LABEL: func.func @truncf_fold() -> (bf16, bf16, f32, f32, f32, bf16, f16) {
// CHECK-DAG:     %[[QNAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG:     %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK-DAG:     %[[BIG:.*]] = arith.constant 1.444000e+25 : f32
// CHECK-DAG:     %[[TENTH:.*]] = arith.constant 1.000000e-01 : f64
// CHECK-DAG:     %[[SNAN:.*]] = arith.constant 0x7F800001 : f32
// CHECK-DAG:     %[[HUGE:.*]] = arith.constant 1.000000e+10 : f32
// CHECK:         %[[R0:.*]] = arith.truncf %[[BIG]] : f32 to bf16
// CHECK-NEXT:    %[[R1:.*]] = arith.truncf %[[TENTH]] downward : f64 to f32
// CHECK-NEXT:    %[[R2:.*]] = arith.truncf %[[SNAN]] : f32 to bf16
// CHECK-NEXT:    %[[R3:.*]] = arith.truncf %[[HUGE]] : f32 to f16
// CHECK-NEXT:    return %[[R0]], %[[ONE]], %[[R1]], %[[HALF]], %[[QNAN]], %[[R2]], %[[R3]] : bf16, bf16, f32, f32, f32, bf16, f16
func.func @truncf_fold() -> (bf16, bf16, f32, f32, f32, bf16, f16) {
  %big = arith.constant 1.444e25 : f32
  %one = arith.constant 1.0 : f32
  %tenth = arith.constant 0.1 : f64
  %half = arith.constant 0.5 : f64
  %qnan = arith.constant 0x7FF8000000000000 : f64
  %snan = arith.constant 0x7F800001 : f32
  %huge = arith.constant 1.0e10 : f32
  %0 = arith.truncf %big : f32 to bf16
  %1 = arith.truncf %one : f32 to bf16
  %2 = arith.truncf %tenth downward : f64 to f32
  %3 = arith.truncf %half upward : f64 to f32
  %4 = arith.truncf %qnan : f64 to f32
  %5 = arith.truncf %snan : f32 to bf16
  %6 = arith.truncf %huge : f32 to f16
  return %0, %1, %2, %3, %4, %5, %6 : bf16, bf16, f32, f32, f32, bf16, f16
}
