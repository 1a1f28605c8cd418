// Result name hints across regions (#17): a hint used in an enclosing region is taken in the
// nested ones, sibling regions start again from their parent's conflict counter, func.constant
// is %f; the generic form prints no hints and numbers every value uniquely (last region first).
// CHECK and GENERIC lines are mlir-opt 22's exact output for this input.
// RUN: qd-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace --match-full-lines
// RUN: qd-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC --strict-whitespace --match-full-lines

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  func.func @scopes(%arg0: i32) -> i32 {
// CHECK-NEXT:{{^}}    %c1_i32 = arith.constant 1 : i32
// CHECK-NEXT:{{^}}    "t.region"() ({
// CHECK-NEXT:{{^}}      %c1_i32_1 = arith.constant 1 : i32
// CHECK-NEXT:{{^}}      %c2_i32_2 = arith.constant 2 : i32
// CHECK-NEXT:{{^}}      %1 = arith.addi %c1_i32_1, %c2_i32_2 : i32
// CHECK-NEXT:{{^}}      "t.use"(%c1_i32, %1) : (i32, i32) -> ()
// CHECK-NEXT:{{^}}    }, {
// CHECK-NEXT:{{^}}      %c2_i32_1 = arith.constant 2 : i32
// CHECK-NEXT:{{^}}      %cst = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:{{^}}      "t.region"() ({
// CHECK-NEXT:{{^}}        %c2_i32_2 = arith.constant 2 : i32
// CHECK-NEXT:{{^}}        "t.use"(%c2_i32_2) : (i32) -> ()
// CHECK-NEXT:{{^}}      }) : () -> ()
// CHECK-NEXT:{{^}}      "t.use"(%c2_i32_1, %cst) : (i32, f32) -> ()
// CHECK-NEXT:{{^}}    }) : () -> ()
// CHECK-NEXT:{{^}}    %c2_i32 = arith.constant 2 : i32
// CHECK-NEXT:{{^}}    %f = constant @scopes : (i32) -> i32
// CHECK-NEXT:{{^}}    %f_0 = constant @scopes : (i32) -> i32
// CHECK-NEXT:{{^}}    %0 = arith.addi %c1_i32, %c2_i32 : i32
// CHECK-NEXT:{{^}}    return %0 : i32
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}

// GENERIC:{{^}}"builtin.module"() ({
// GENERIC-NEXT:{{^}}  "func.func"() <{function_type = (i32) -> i32, sym_name = "scopes"}> ({
// GENERIC-NEXT:{{^}}  ^bb0(%arg0: i32):
// GENERIC-NEXT:{{^}}    %0 = "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT:{{^}}    "t.region"() ({
// GENERIC-NEXT:{{^}}      %8 = "arith.constant"() <{value = 1 : i32}> : () -> i32
// GENERIC-NEXT:{{^}}      %9 = "arith.constant"() <{value = 2 : i32}> : () -> i32
// GENERIC-NEXT:{{^}}      %10 = "arith.addi"(%8, %9) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:{{^}}      "t.use"(%0, %10) : (i32, i32) -> ()
// GENERIC-NEXT:{{^}}    }, {
// GENERIC-NEXT:{{^}}      %5 = "arith.constant"() <{value = 2 : i32}> : () -> i32
// GENERIC-NEXT:{{^}}      %6 = "arith.constant"() <{value = 1.500000e+00 : f32}> : () -> f32
// GENERIC-NEXT:{{^}}      "t.region"() ({
// GENERIC-NEXT:{{^}}        %7 = "arith.constant"() <{value = 2 : i32}> : () -> i32
// GENERIC-NEXT:{{^}}        "t.use"(%7) : (i32) -> ()
// GENERIC-NEXT:{{^}}      }) : () -> ()
// GENERIC-NEXT:{{^}}      "t.use"(%5, %6) : (i32, f32) -> ()
// GENERIC-NEXT:{{^}}    }) : () -> ()
// GENERIC-NEXT:{{^}}    %1 = "arith.constant"() <{value = 2 : i32}> : () -> i32
// GENERIC-NEXT:{{^}}    %2 = "func.constant"() <{value = @scopes}> : () -> ((i32) -> i32)
// GENERIC-NEXT:{{^}}    %3 = "func.constant"() <{value = @scopes}> : () -> ((i32) -> i32)
// GENERIC-NEXT:{{^}}    %4 = "arith.addi"(%0, %1) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
// GENERIC-NEXT:{{^}}    "func.return"(%4) : (i32) -> ()
// GENERIC-NEXT:{{^}}  }) : () -> ()
// GENERIC-NEXT:{{^}}}) : () -> ()
func.func @scopes(%x: i32) -> i32 {
  %0 = arith.constant 1 : i32
  "t.region"() ({
    %1 = arith.constant 1 : i32
    %2 = arith.constant 2 : i32
    %3 = arith.addi %1, %2 : i32
    "t.use"(%0, %3) : (i32, i32) -> ()
  }, {
    %1 = arith.constant 2 : i32
    %2 = arith.constant 1.5 : f32
    "t.region"() ({
      %3 = arith.constant 2 : i32
      "t.use"(%3) : (i32) -> ()
    }) : () -> ()
    "t.use"(%1, %2) : (i32, f32) -> ()
  }) : () -> ()
  %4 = arith.constant 2 : i32
  %f = func.constant @scopes : (i32) -> i32
  %g = func.constant @scopes : (i32) -> i32
  %5 = arith.addi %0, %4 : i32
  return %5 : i32
}
