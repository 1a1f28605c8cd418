// RUN: qd-opt %s | FileCheck %s
// RUN: qd-opt %s | qd-opt | FileCheck %s
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// #adstack.size<...> is parsed once into the SizeExpr the Context holds, and prints back from it,
// as MLIR prints an attribute from its value: spaces and redundant parentheses are not kept.

qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @k
qd.kernel @k(%v: f32) {
  // CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 + 1>}
  %a = adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 + 1>}
  // CHECK: adstack.alloca : f32 {size_expr = #adstack.size<(@n[]:i32 + 1) * 2>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<( @n[]:i32+1 ) * 2>}
  // CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(v0 * 2 for v0 in range(0, @n[]:i32))>}
  %c = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 * 2 for v0 in range(0, @n[]:i32))>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
  adstack.push %c, %v : f32
}
