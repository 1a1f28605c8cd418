// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// Literal bounds: constant folding with the evaluator's saturating semantics, and max_size set
// once the bound is a literal.

// CHECK-LABEL: qd.kernel @arith
// CHECK: %[[S:.*]] = adstack.alloca : f32 {max_size = 14, size_expr = #adstack.size<14>}
// CHECK-NEXT: adstack.push %[[S]], %{{.*}} : f32
qd.kernel @arith(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<2 + 3 * 4>}
  adstack.push %s, %v : f32
}

// -----

// Sub saturates at 0: an i8 minus 200 is never above 0; a negative literal needs no entry.
qd.field @f : !qd.field<4xi8>
// CHECK-LABEL: qd.kernel @saturated
// CHECK: %[[A:.*]] = adstack.alloca : f32 {max_size = 0, size_expr = #adstack.size<0>}
// CHECK: %[[B:.*]] = adstack.alloca : f32 {max_size = 0, size_expr = #adstack.size<-2>}
// CHECK: adstack.push %[[A]]
// CHECK: adstack.push %[[B]]
qd.kernel @saturated(%v: f32) {
  %a = adstack.alloca : f32 {size_expr = #adstack.size<@f[0]:i8 - 200>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<-2>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
}

// -----

// An empty range is 0; so is a range whose body is never above 0.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @empty
// CHECK: adstack.alloca : f32 {max_size = 0, size_expr = #adstack.size<0>}
// CHECK: adstack.alloca : f32 {max_size = 0, size_expr = #adstack.size<0>}
qd.kernel @empty(%v: f32) {
  %a = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 for v0 in range(5, 2))>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<max(-3 - v0 for v0 in range(0, @n[]:i32))>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
}

// -----

// A stack without a bound, and one whose bound is already simplest, stay as they are.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @untouched
// CHECK: %[[A:.*]] = adstack.alloca : f32 {max_size = 3}
// CHECK: %[[B:.*]] = adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 + 1>}
// CHECK: adstack.push %[[A]]
// CHECK: adstack.push %[[B]]
qd.kernel @untouched(%v: f32) {
  %a = adstack.alloca : f32 {max_size = 3}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 + 1>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
}
