// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// Nested ranges, products and maxima inside range bodies.

// The inner range grows with v0, so the outer max is at v0 = n - 1: max(v1 < n - 1) = n - 2.
// v0 * v0 is monotone on [0, 8) (49) but not on [-3, 8), which keeps its range.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @monotone
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 - 2>}
// CHECK: adstack.alloca : f32 {max_size = 49, size_expr = #adstack.size<49>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(v0 * v0 for v0 in range(-3, 8))>}
qd.kernel @monotone(%v: f32) {
  %a = adstack.alloca : f32 {size_expr = #adstack.size<max(max(v1 for v1 in range(0, v0)) for v0 in range(0, @n[]:i32))>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 * v0 for v0 in range(0, 8))>}
  %c = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 * v0 for v0 in range(-3, 8))>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
  adstack.push %c, %v : f32
}

// -----

// A non-negative factor leaves the range; the max with a literal beats the variable.
qd.field @m : !qd.field<ui16>
// CHECK-LABEL: qd.kernel @factors
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@m[]:ui16 * 3>}
// CHECK: adstack.alloca : f32 {max_size = 7, size_expr = #adstack.size<7>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<4 * max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 + 4 for v0 in range(0, arg0.shape[0]))>}
qd.kernel @factors(%a: !qd.ndarray<?xi32>, %v: f32) {
  %s0 = adstack.alloca : f32 {size_expr = #adstack.size<max(@m[]:ui16 * v0 for v0 in range(0, 4))>}
  %s1 = adstack.alloca : f32 {size_expr = #adstack.size<max(max(v0, 7) for v0 in range(0, 4))>}
  %s2 = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 * max(v1 for v1 in range(0, 5)) for v0 in range(0, arg0.shape[0]))>}
  %s3 = adstack.alloca : f32 {size_expr = #adstack.size<max(max(arg0[v0]:i32 + v1 for v1 in range(0, 5)) for v0 in range(0, arg0.shape[0]))>}
  adstack.push %s0, %v : f32
  adstack.push %s1, %v : f32
  adstack.push %s2, %v : f32
  adstack.push %s3, %v : f32
}
