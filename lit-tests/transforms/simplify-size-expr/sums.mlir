// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// Sums over ranges get closed forms where they are exact: the triangle, a linear body, a body
// free of its variable, the reflected series of a range(6 - j) nest; no loop is left.

qd.field @m : !qd.field<i32>
// CHECK-LABEL: qd.kernel @triangle
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@m[]:i32 - 0 + (@m[]:i32 - 0) * (@m[]:i32 + -1) / 2>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<2 * ((@m[]:i32 - 0) * (@m[]:i32 + -1) / 2) + 3 * (@m[]:i32 - 0)>}
// CHECK: adstack.alloca : f32 {max_size = 21, size_expr = #adstack.size<21>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<(@m[]:i32 - 0) * (1 + (@m[]:i32 - 0)) / 2>}
qd.kernel @triangle(%v: f32) {
  %t = adstack.alloca : f32 {size_expr = #adstack.size<sum(1 + v0 for v0 in range(0, @m[]:i32))>}
  %l = adstack.alloca : f32 {size_expr = #adstack.size<sum(2 * v0 + 3 for v0 in range(0, @m[]:i32))>}
  %r = adstack.alloca : f32 {size_expr = #adstack.size<sum(6 - v0 for v0 in range(0, 6))>}
  %n = adstack.alloca : f32 {size_expr = #adstack.size<sum(@m[]:i32 - v0 for v0 in range(0, @m[]:i32))>}
  adstack.push %t, %v : f32
  adstack.push %l, %v : f32
  adstack.push %r, %v : f32
  adstack.push %n, %v : f32
}

// -----

// A read that may be out of bounds stays under its possibly empty range; sums over one loop
// fuse (an upper bound) when the subtrahend's extra terms are >= 0.
// CHECK-LABEL: qd.kernel @kept
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<sum(arg0[3]:i8 for v0 in range(0, arg0.shape[0]))>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<sum(arg0[v0]:i8 - arg1[v0]:ui8 for v0 in range(0, 2))>}
qd.kernel @kept(%a: !qd.ndarray<?xi8>, %b: !qd.ndarray<?xui8>, %v: f32) {
  %k = adstack.alloca : f32 {size_expr = #adstack.size<sum(arg0[3]:i8 for v0 in range(0, arg0.shape[0]))>}
  %f = adstack.alloca : f32 {size_expr = #adstack.size<sum(arg0[v0]:i8 for v0 in range(0, 2)) - sum(arg1[v0]:ui8 for v0 in range(0, 4))>}
  adstack.push %k, %v : f32
  adstack.push %f, %v : f32
}
