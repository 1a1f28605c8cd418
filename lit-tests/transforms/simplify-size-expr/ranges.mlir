// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// MaxOverRange: free bodies, monotone bodies at the end of their range, emptiness kept.

// for j in range(6): for _ in range(6 - j): at most 6 trips for each of 6 values of j (the
// upstream system sized this as if the inner loop never ran).
// CHECK-LABEL: qd.kernel @six_minus_j
// CHECK: %[[S:.*]] = adstack.alloca : f32 {max_size = 36, size_expr = #adstack.size<36>}
// CHECK: %[[T:.*]] = adstack.alloca : f32 {max_size = 6, size_expr = #adstack.size<6>}
// CHECK: adstack.push %[[S]]
// CHECK: adstack.push %[[T]]
qd.kernel @six_minus_j(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<6 * max(6 - v0 for v0 in range(0, 6))>}
  %t = adstack.alloca : f32 {size_expr = #adstack.size<max(6 - v0 for v0 in range(0, 6))>}
  adstack.push %s, %v : f32
  adstack.push %t, %v : f32
}

// -----

// The same bound read from a field, as reverse mode lays it out: n - j is largest at j = 0.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @field_minus_j
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<6 * (2 + (@n[]:i32 - 0))>}
qd.kernel @field_minus_j(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<6 * max(2 + (@n[]:i32 - v1) for v1 in range(0, 6))>}
  adstack.push %s, %v : f32
}

// -----

// A triangle: range(0, m) may be empty, so the end point m - 1 keeps a guard that simplifies to
// the saturating m - 1 (0 when m <= 0).
qd.field @m : !qd.field<i32>
// CHECK-LABEL: qd.kernel @triangle
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@m[]:i32 - 1>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<(@m[]:i32 - 0) * (@m[]:i32 - 0)>}
qd.kernel @triangle(%v: f32) {
  %a = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 for v0 in range(0, @m[]:i32))>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<(@m[]:i32 - 0) * max(1 + v1 for v1 in range(0, @m[]:i32))>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
}

// -----

// A body free of its variable over a range that surely runs; an ndarray read at the loop
// variable is not monotone and keeps its range.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @free_body
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<arg0.shape[0] + 2>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))>}
qd.kernel @free_body(%a: !qd.ndarray<?xi32>, %v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0.shape[0] + 2 for v0 in range(1, 3))>}
  %t = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))>}
  adstack.push %s, %v : f32
  adstack.push %t, %v : f32
}

// -----

// A body that reads an ndarray element keeps its range when the range may be empty: the input
// reads nothing then, and arg0[3] may be out of bounds.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @guarded_read
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(v0 + arg0[3]:i8 for v0 in range(0, @n[]:i32))>}
qd.kernel @guarded_read(%a: !qd.ndarray<?xi8>, %v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 + arg0[3]:i8 for v0 in range(0, @n[]:i32))>}
  adstack.push %s, %v : f32
}
