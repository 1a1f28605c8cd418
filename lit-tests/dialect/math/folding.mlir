// RUN: qd-opt %s --allow-unregistered-dialect --pass=canonicalize | FileCheck %s
// math folds constants as upstream: f32 through the f32 libm functions, f64 through the f64
// ones; f16 only where the result is exact (absf, floor, ceil); logarithms and square roots of
// negative numbers stay. Folded constants are arith.constant ops.

// CHECK-LABEL: "test.f32"
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG: %[[E:.*]] = arith.constant 2.71828175 : f32
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[PI4:.*]] = arith.constant 0.785398185 : f32
// CHECK-DAG: %[[NINE:.*]] = arith.constant 9.000000e+00 : f32
// CHECK-DAG: %[[M3:.*]] = arith.constant -3.000000e+00 : f32
// CHECK-DAG: %[[M2:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG: %[[FMA:.*]] = arith.constant 7.000000e+00 : f32
// CHECK-NOT: math.
// CHECK: "test.use"(%[[ZERO]], %[[ONE]], %[[ZERO]], %[[E]], %[[FOUR]], %[[ZERO]], %[[TWO]], %[[TWO]], %[[HALF]], %[[ZERO]], %[[NINE]], %[[PI4]], %[[TWO]], %[[M3]], %[[M2]], %[[FMA]])
"test.f32"() ({
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %m2 = arith.constant -2.0 : f32
  %m25 = arith.constant -2.5 : f32
  %0 = math.sin %zero : f32
  %1 = math.cos %zero : f32
  %2 = math.tan %zero : f32
  %3 = math.exp %one : f32
  %4 = math.exp2 %two : f32
  %5 = math.log %one : f32
  %6 = math.log2 %four : f32
  %7 = math.sqrt %four : f32
  %8 = math.rsqrt %four : f32
  %9 = math.tanh %zero : f32
  %10 = math.powf %three, %two : f32
  %11 = math.atan2 %one, %one : f32
  %12 = math.absf %m2 : f32
  %13 = math.floor %m25 : f32
  %14 = math.ceil %m25 : f32
  %15 = math.fma %two, %three, %one : f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> ()
}) : () -> ()

// f64 folds in f64: e differs from the f32 one.
// CHECK-LABEL: "test.f64"
// CHECK-DAG: %[[E:.*]] = arith.constant 2.7182818284590451 : f64
// CHECK-DAG: %[[S:.*]] = arith.constant 0.8414709848078965 : f64
// CHECK: "test.use"(%[[E]], %[[S]])
"test.f64"() ({
  %one = arith.constant 1.0 : f64
  %0 = math.exp %one : f64
  %1 = math.sin %one : f64
  "test.use"(%0, %1) : (f64, f64) -> ()
}) : () -> ()

// What does not fold: negative inputs of log/sqrt, transcendental functions of f16, and
// non-constant operands.
// CHECK-LABEL: "test.no_fold"
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-DAG: %[[H:.*]] = arith.constant 1.500000e+00 : f16
// CHECK-DAG: %[[HF:.*]] = arith.constant 1.000000e+00 : f16
// CHECK-DAG: math.log %{{.*}} : f32
// CHECK-DAG: math.log2 %{{.*}} : f32
// CHECK-DAG: math.sqrt %{{.*}} : f32
// CHECK-DAG: math.rsqrt %{{.*}} : f32
// CHECK-DAG: math.sin %{{.*}} : f16
// CHECK-DAG: math.cos %[[X]] : f32
// CHECK: "test.use"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[H]], %[[HF]])
"test.no_fold"() ({
^bb0(%x: f32):
  %m1 = arith.constant -1.0 : f32
  %h = arith.constant 1.5 : f16
  %mh = arith.constant -1.5 : f16
  %0 = math.log %m1 : f32
  %1 = math.log2 %m1 : f32
  %2 = math.sqrt %m1 : f32
  %3 = math.rsqrt %m1 : f32
  %4 = math.sin %h : f16
  %5 = math.cos %x : f32
  %6 = math.absf %mh : f16
  %7 = math.floor %h : f16
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (f32, f32, f32, f32, f16, f32, f16, f16) -> ()
}) : () -> ()
