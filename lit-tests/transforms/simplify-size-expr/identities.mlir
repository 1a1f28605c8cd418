// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// Algebraic identities under saturating i64 semantics.

// Neutral elements, idempotence, absorption.
qd.field @n : !qd.field<i32>
qd.field @k : !qd.field<i32>
// CHECK-LABEL: qd.kernel @neutral
// CHECK: %[[S:.*]] = adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 + @k[]:i32>}
// CHECK-NEXT: adstack.push %[[S]]
qd.kernel @neutral(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(@n[]:i32, @n[]:i32) * 1 + 0 + min(@k[]:i32, max(@k[]:i32, 4))>}
  adstack.push %s, %v : f32
}

// -----

// (a - b) + b is max(a, b), not a (Sub saturates at 0).
qd.field @a : !qd.field<i32>
qd.field @b : !qd.field<i32>
// CHECK-LABEL: qd.kernel @cancel
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(@a[]:i32, @b[]:i32)>}
qd.kernel @cancel(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<(@a[]:i32 - @b[]:i32) + @b[]:i32>}
  adstack.push %s, %v : f32
}

// -----

// Literals gather across + and * where nothing can saturate (an i32 plus small literals) ...
qd.field @x : !qd.field<i32>
qd.field @w : !qd.field<i64>
// CHECK-LABEL: qd.kernel @assoc
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@x[]:i32 + 5>}
// ... but not where they can: (MAX + 1) + -1 is MAX - 1, MAX + (1 + -1) is MAX.
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@w[]:i64 + 1 + -1>}
qd.kernel @assoc(%v: f32) {
  %a = adstack.alloca : f32 {size_expr = #adstack.size<(2 + @x[]:i32) + 3>}
  %b = adstack.alloca : f32 {size_expr = #adstack.size<(@w[]:i64 + 1) + -1>}
  adstack.push %a, %v : f32
  adstack.push %b, %v : f32
}

// -----

// Equal terms of a sum of trip-count products factor.
qd.field @s : !qd.field<4xi32>
// CHECK-LABEL: qd.kernel @factor
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(@s[v0 + 1]:i32 - @s[v0]:i32 for v0 in range(0, 3)) * 5>}
qd.kernel @factor(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<3 * max(@s[v0 + 1]:i32 - @s[v0]:i32 for v0 in range(0, 3)) + 2 * max(@s[v0 + 1]:i32 - @s[v0]:i32 for v0 in range(0, 3))>}
  adstack.push %s, %v : f32
}
