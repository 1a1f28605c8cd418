// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// The sub-of-MaxOverRange fusion: over one loop (same variable, same begin, an end no later
// than the subtrahend's) and in a position where a larger value is a larger bound.

// CHECK-LABEL: qd.kernel @same_loop
// CHECK: %[[S:.*]] = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 4))>}
// CHECK-NEXT: adstack.push %[[S]]
qd.kernel @same_loop(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 4))>}
  adstack.push %s, %v : f32
}

// -----

// Independent loops over different ndarrays never fuse: with a = [0, 0, 0, 100], b = [1, 1]
// the bound is 99, and the min-capped fusion over range(0, min(4, 2)) would give 0.
// CHECK-LABEL: qd.kernel @independent
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0])) - max(arg1[v0]:i32 for v0 in range(0, arg1.shape[0]))>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 2))>}
qd.kernel @independent(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0])) - max(arg1[v0]:i32 for v0 in range(0, arg1.shape[0]))>}
  %t = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 2))>}
  adstack.push %s, %v : f32
  adstack.push %t, %v : f32
}

// -----

// A minuend over a shorter range fuses over its own range: min(2, 4) = 2.
// CHECK-LABEL: qd.kernel @shorter
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 2))>}
qd.kernel @shorter(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 2)) - max(arg1[v0]:i32 for v0 in range(0, 4))>}
  adstack.push %s, %v : f32
}

// -----

// Other variables do not fuse; a difference that is itself subtracted does not either (a larger
// value there is a smaller bound).
// CHECK-LABEL: qd.kernel @refused
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v1]:i32 for v1 in range(0, 4))>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<10 - (max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 4)))>}
qd.kernel @refused(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v1]:i32 for v1 in range(0, 4))>}
  %t = adstack.alloca : f32 {size_expr = #adstack.size<10 - (max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 4)))>}
  adstack.push %s, %v : f32
  adstack.push %t, %v : f32
}
