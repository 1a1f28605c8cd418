// The func dialect's custom and generic forms. CHECK lines are mlir-opt 22's output for this
// input (`mlir-opt --allow-unregistered-dialect [--mlir-print-op-generic]`), with SSA names
// captured where mlir-opt gives name hints (`%f`) and without its `// pred:` block comments.
// RUN: qd-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace --match-full-lines
// RUN: qd-opt %s --allow-unregistered-dialect | qd-opt --allow-unregistered-dialect | FileCheck %s --strict-whitespace --match-full-lines
// RUN: qd-opt %s --allow-unregistered-dialect --mlir-print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %s --strict-whitespace --match-full-lines
// RUN: qd-opt %s --allow-unregistered-dialect --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC --strict-whitespace --match-full-lines
// RUN: qd-opt %s --allow-unregistered-dialect --verify-roundtrip > /dev/null

// CHECK:module {
// CHECK-NEXT:  func.func private @decl(i32, f32 {t.x}) -> (i1 {t.r = 1 : i32})
// CHECK-NEXT:  func.func @callee(%arg0: i32 {t.attr = 1 : i32}, %arg1: f32) -> (i32, f32) attributes {t.fattr} {
// CHECK-NEXT:    return %arg0, %arg1 : i32, f32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func public @caller(%arg0: i32, %arg1: f32) -> i32 {
// CHECK-NEXT:    %[[R:.*]]:2 = call @callee(%arg0, %arg1) : (i32, f32) -> (i32, f32)
// CHECK-NEXT:    %{{.*}} = call @decl(%arg0, %arg1) : (i32, f32) -> i1
// CHECK-NEXT:    %{{.*}} = call @decl(%arg0, %arg1) {no_inline, t.d} : (i32, f32) -> i1
// CHECK-NEXT:    %[[F:.*]] = constant @callee : (i32, f32) -> (i32, f32)
// CHECK-NEXT:    %{{.*}}:2 = call_indirect %[[F]](%arg0, %arg1) {t.e} : (i32, f32) -> (i32, f32)
// CHECK-NEXT:    return %[[R]]#0 : i32
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func nested @n() {
// CHECK-NEXT:    return {t.f}
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @noresult() {
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @blocks(%arg0: i1, %arg1: f64) -> f64 {
// CHECK-NEXT:    "t.br"()[^bb1, ^bb2] : () -> ()
// CHECK-NEXT:  ^bb1:{{.*}}
// CHECK-NEXT:    return %arg1 : f64
// CHECK-NEXT:  ^bb2:{{.*}}
// CHECK-NEXT:    %[[W:.*]] = arith.addf %arg1, %arg1 : f64
// CHECK-NEXT:    return %[[W]] : f64
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @nested_prefix(%arg0: (i32) -> i32, %arg1: i32) {
// CHECK-NEXT:    "t.region"() ({
// CHECK-NEXT:      %{{.*}} = func.call_indirect %arg0(%arg1) : (i32) -> i32
// CHECK-NEXT:    }) : () -> ()
// CHECK-NEXT:    return
// CHECK-NEXT:  }
// CHECK-NEXT:}
// CHECK-EMPTY:

// GENERIC:"builtin.module"() ({
// GENERIC-NEXT:  "func.func"() <{arg_attrs = [{}, {t.x}], function_type = (i32, f32) -> i1, res_attrs = [{t.r = 1 : i32}], sym_name = "decl", sym_visibility = "private"}> ({
// GENERIC-NEXT:  }) : () -> ()
// GENERIC-NEXT:  "func.func"() <{arg_attrs = [{t.attr = 1 : i32}, {}], function_type = (i32, f32) -> (i32, f32), sym_name = "callee"}> ({
// GENERIC-NEXT:  ^bb0(%[[A:.*]]: i32, %[[B:.*]]: f32):
// GENERIC-NEXT:    "func.return"(%[[A]], %[[B]]) : (i32, f32) -> ()
// GENERIC-NEXT:  }) {t.fattr} : () -> ()
// GENERIC-NEXT:  "func.func"() <{function_type = (i32, f32) -> i32, sym_name = "caller", sym_visibility = "public"}> ({
// GENERIC-NEXT:  ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: f32):
// GENERIC-NEXT:    %[[R:.*]]:2 = "func.call"(%[[X]], %[[Y]]) <{callee = @callee}> : (i32, f32) -> (i32, f32)
// GENERIC-NEXT:    %{{.*}} = "func.call"(%[[X]], %[[Y]]) <{callee = @decl}> : (i32, f32) -> i1
// GENERIC-NEXT:    %{{.*}} = "func.call"(%[[X]], %[[Y]]) <{callee = @decl, no_inline}> {t.d} : (i32, f32) -> i1
// GENERIC-NEXT:    %[[F:.*]] = "func.constant"() <{value = @callee}> : () -> ((i32, f32) -> (i32, f32))
// GENERIC-NEXT:    %{{.*}}:2 = "func.call_indirect"(%[[F]], %[[X]], %[[Y]]) {t.e} : ((i32, f32) -> (i32, f32), i32, f32) -> (i32, f32)
// GENERIC-NEXT:    "func.return"(%[[R]]#0) : (i32) -> ()
// GENERIC-NEXT:  }) : () -> ()
// GENERIC-NEXT:  "func.func"() <{function_type = () -> (), sym_name = "n", sym_visibility = "nested"}> ({
// GENERIC-NEXT:    "func.return"() {t.f} : () -> ()
// GENERIC-NEXT:  }) : () -> ()
// GENERIC-NEXT:  "func.func"() <{function_type = () -> (), sym_name = "noresult"}> ({
// GENERIC-NEXT:    "func.return"() : () -> ()
// GENERIC-NEXT:  }) : () -> ()

func.func private @decl(i32, f32 {t.x}) -> (i1 {t.r = 1 : i32})
func.func @callee(%a: i32 {t.attr = 1 : i32}, %b: f32) -> (i32, f32) attributes {t.fattr} {
  return %a, %b : i32, f32
}
func.func public @caller(%x: i32, %y: f32) -> i32 {
  %0:2 = func.call @callee(%x, %y) : (i32, f32) -> (i32, f32)
  %1 = call @decl(%x, %y) : (i32, f32) -> i1
  %2 = "func.call"(%x, %y) <{callee = @decl, no_inline}> {t.d} : (i32, f32) -> i1
  %f = func.constant @callee : (i32, f32) -> (i32, f32)
  %3:2 = func.call_indirect %f(%x, %y) {t.e} : (i32, f32) -> (i32, f32)
  func.return %0#0 : i32
}
func.func nested @n() {
  return {t.f}
}
func.func @noresult() -> () {
  return
}
func.func @blocks(%c: i1, %v: f64) -> (f64) {
  "t.br"()[^bb1, ^bb2] : () -> ()
^bb1:
  return %v : f64
^bb2:
  %w = arith.addf %v, %v : f64
  return %w : f64
}
func.func @nested_prefix(%h: (i32) -> i32, %x: i32) {
  "t.region"() ({
    %r = func.call_indirect %h(%x) : (i32) -> i32
  }) : () -> ()
  return
}
