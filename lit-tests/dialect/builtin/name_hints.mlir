// Text fidelity (#17): name_hints. CHECK lines are mlir-opt 22's exact output for
// this input (mlir-opt --allow-unregistered-dialect).
// RUN: qd-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  func.func @names(%arg0: i32) {
// CHECK-NEXT:{{^}}    %c42_i32 = arith.constant 42 : i32
// CHECK-NEXT:{{^}}    %c42_i32_0 = arith.constant 42 : i32
// CHECK-NEXT:{{^}}    %c43 = arith.constant 43 : index
// CHECK-NEXT:{{^}}    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:{{^}}    %cst_1 = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:{{^}}    %true = arith.constant true
// CHECK-NEXT:{{^}}    %false = arith.constant false
// CHECK-NEXT:{{^}}    %true_2 = arith.constant true
// CHECK-NEXT:{{^}}    %c-5_i8 = arith.constant -5 : i8
// CHECK-NEXT:{{^}}    %c7 = arith.constant {t.a} 7 : index
// CHECK-NEXT:{{^}}    %0 = arith.addi %arg0, %c42_i32 : i32
// CHECK-NEXT:{{^}}    "test.use"(%c42_i32, %c42_i32_0, %c43, %cst, %cst_1, %true, %false, %true_2, %c-5_i8, %c7, %0) : (i32, i32, index, f32, f32, i1, i1, i1, i8, index, i32) -> ()
// CHECK-NEXT:{{^}}    return
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}  func.func @restart() -> f32 {
// CHECK-NEXT:{{^}}    %cst = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:{{^}}    %cst_0 = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:{{^}}    %0 = arith.addf %cst, %cst_0 : f32
// CHECK-NEXT:{{^}}    return %0 : f32
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}

func.func @names(%x: i32) {
  %0 = arith.constant 42 : i32
  %1 = arith.constant 42 : i32
  %2 = arith.constant 43 : index
  %3 = arith.constant 1.0 : f32
  %4 = arith.constant 1.0 : f32
  %5 = arith.constant true
  %6 = arith.constant false
  %7 = arith.constant true
  %8 = arith.constant -5 : i8
  %9 = arith.constant {t.a} 7 : index
  %10 = arith.addi %x, %0 : i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10) : (i32, i32, index, f32, f32, i1, i1, i1, i8, index, i32) -> ()
  return
}
func.func @restart() -> f32 {
  %0 = arith.constant 1.0 : f32
  %1 = arith.constant 2.0 : f32
  %2 = arith.addf %0, %1 : f32
  return %2 : f32
}
