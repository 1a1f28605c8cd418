// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Triangular nests: inner bounds that depend on an enclosing loop's index. The index is exact
// under a sum (or, around the alloca, a max) over its loop's range, and a subtraction bounds its
// subtrahend from below.

// The upstream system sizes `for j in range(6): for _ in range(6 - j)` as if the inner loop never
// ran (it subtracts the upper bound of j). Here the bound is the sum over j of 6 - j: 21, the
// true need.
// CHECK-LABEL: qd.kernel @six_minus_j
// CHECK: adstack.alloca : f32 {id = 0, max_size = 21, size_expr = #adstack.size<21>}
qd.kernel @six_minus_j(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.range_for %j = %c0 to %c6 : i32 {
      %r = arith.subi %c6, %j : i32
      qd.range_for %k = %c0 to %r : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// The same with the alloca inside the j loop (a fresh stack per j): exactly 6, at j = 0.
// CHECK-LABEL: qd.kernel @six_minus_j_per_iteration
// CHECK: adstack.alloca : f32 {id = 0, max_size = 6, size_expr = #adstack.size<6>}
qd.kernel @six_minus_j_per_iteration(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    qd.range_for %j = %c0 to %c6 : i32 {
      %s = adstack.alloca : f32
      %r = arith.subi %c6, %j : i32
      qd.range_for %k = %c0 to %r : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// The reference kernel of the upstream flaw, as reverse mode lays it out: v = x[j] is pushed
// (twice: a zero, then the value) before the inner loop, and the bound is read from a field,
// n - j. Bound: the sum over j of (2 + (n - j)), exact.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @field_minus_j
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(2 + (@n[]:i32 - v1) for v1 in range(0, 6))>}
qd.kernel @field_minus_j(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.range_for %j = %c0 to %c6 : i32 {
      adstack.push %s, %v : f32
      adstack.push %s, %v : f32
      %n = qd.load @n[] : i32
      %r = arith.subi %n, %j : i32
      qd.range_for %k = %c0 to %r : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// The shared example's shape: for j in [0, m): for t in [0, j); the bound is the sum over j of
// j plus the push per j, exactly what the nest pushes.
qd.field @m : !qd.field<i32>
// CHECK-LABEL: qd.kernel @triangle
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(1 + v1 for v1 in range(0, @m[]:i32))>}
qd.kernel @triangle(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %s = adstack.alloca : f32
    %m = qd.load @m[] : i32
    qd.range_for %j = %c0 to %m : i32 {
      adstack.push %s, %v : f32
      qd.range_for %t = %c0 to %j : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// A triangle whose outer loop holds the alloca: the stack needs the largest inner trip, m - 1.
qd.field @m : !qd.field<i32>
// CHECK-LABEL: qd.kernel @triangle_per_row
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(v0 for v0 in range(0, @m[]:i32))>}
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

// The upper triangle: range(i, n) under i in [0, n) needs at most n entries.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @upper_triangle
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(@n[]:i32 - v0 for v0 in range(0, @n[]:i32))>}
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

// A stencil window range(i - 1, i + 2): three iterations wherever i is, though i - 1 may be -1.
// CHECK-LABEL: qd.kernel @window
// CHECK: adstack.alloca : f32 {id = 0, max_size = 3, size_expr = #adstack.size<3>}
qd.kernel @window(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  qd.range_for %i = %c0 to %c8 : i32 {
    %s = adstack.alloca : f32
    %lo = arith.subi %i, %c1 : i32
    %hi = arith.addi %i, %c2 : i32
    qd.range_for %j = %lo to %hi : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A window that reaches below its enclosing index (j from i - 1): the range of j, not just its
// trip count, matters (the inner loop runs 5 - j times), and i - 1 may be -1: the bound keeps
// the exact start, and the sum over j in [i - 1, i + 2) of (5 - j) is 15 at i = 0 (exact).
// CHECK-LABEL: qd.kernel @window_range
// CHECK: adstack.alloca : f32 {id = 0, max_size = 15, size_expr = #adstack.size<15>}
qd.kernel @window_range(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c5 = arith.constant 5 : i32
  %c8 = arith.constant 8 : i32
  qd.range_for %i = %c0 to %c8 : i32 {
    %s = adstack.alloca : f32
    %lo = arith.subi %i, %c1 : i32
    %hi = arith.addi %i, %c2 : i32
    qd.range_for %j = %lo to %hi : i32 {
      %r = arith.subi %c5, %j : i32
      qd.range_for %k = %c0 to %r : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}
