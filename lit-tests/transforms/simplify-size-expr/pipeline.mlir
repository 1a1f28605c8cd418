// RUN: qd-opt %s --pass=determine-ad-stack-size --pass=simplify-size-expr --split-input-file | FileCheck %s
// After determine-ad-stack-size: the captured bounds of triangular nests lose their ranges.

// for i < m: (stack) for j < i: push. The largest inner trip is m - 1.
qd.field @m : !qd.field<i32>
// CHECK-LABEL: qd.kernel @triangle_per_row
// CHECK: %[[S:.*]] = adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@m[]:i32 - 1>}
// CHECK: adstack.push %[[S]]
qd.kernel @triangle_per_row(%v: f32) {
  %c0 = arith.constant 0 : i32
  %m = qd.load @m[] : i32
  qd.range_for %i = %c0 to %m : i32 {
    %s = adstack.alloca : f32
    qd.range_for %j = %c0 to %i : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// for i < n: (stack) for j in [i, n): push. At most n.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @upper_triangle
// CHECK: %[[S:.*]] = adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 - 0>}
// CHECK: adstack.push %[[S]]
qd.kernel @upper_triangle(%v: f32) {
  %c0 = arith.constant 0 : i32
  %n = qd.load @n[] : i32
  qd.range_for %i = %c0 to %n : i32 {
    %s = adstack.alloca : f32
    qd.range_for %j = %i to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// for j < 6: for k < n - j: push, one stack for all j: the sum over j of n - j, each term
// saturating at 0: the terms above 0 are the w = n - j in [(n - 6) + 1, (n - 0) + 1), a series
// in closed form (sum-reflect): n = 3 gives 3 + 2 + 1 = 6, n = -2 gives 0.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @field_minus_j
// CHECK: %[[S:.*]] = adstack.alloca : f32 {id = 0, size_expr = #adstack.size<(1 + (@n[]:i32 - 0) - (1 + (@n[]:i32 - 6))) * (1 + (@n[]:i32 - 0 + (@n[]:i32 - 6))) / 2>}
// CHECK: adstack.push %[[S]]
qd.kernel @field_minus_j(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.range_for %j = %c0 to %c6 : i32 {
      %n = qd.load @n[] : i32
      %r = arith.subi %n, %j : i32
      qd.range_for %k = %c0 to %r : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}
