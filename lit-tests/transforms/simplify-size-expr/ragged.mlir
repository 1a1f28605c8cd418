// RUN: qd-opt %s --pass=simplify-size-expr --split-input-file | FileCheck %s
// Ragged segments starts[i + 1] - starts[i]: the longest segment, never 0 (upstream once fused
// two opaque maxima into starts[v] - starts[v] = 0 and the stack overflowed).

qd.field @starts : !qd.field<4xi32>
// CHECK-LABEL: qd.kernel @segments
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<3 * max(@starts[v1 + 1]:i32 - @starts[v1]:i32 for v1 in range(0, 3))>}
qd.kernel @segments(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))>}
  %t = adstack.alloca : f32 {size_expr = #adstack.size<3 * max(@starts[v1 + 1]:i32 - @starts[v1]:i32 for v1 in range(0, 3))>}
  adstack.push %s, %v : f32
  adstack.push %t, %v : f32
}

// -----

// The two maxima over one loop fuse into the segment form, not into 0.
qd.field @starts : !qd.field<4xi32>
// CHECK-LABEL: qd.kernel @two_maxima
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))>}
qd.kernel @two_maxima(%v: f32) {
  %s = adstack.alloca : f32 {size_expr = #adstack.size<max(@starts[v0 + 1]:i32 for v0 in range(0, 3)) - max(@starts[v0]:i32 for v0 in range(0, 3))>}
  adstack.push %s, %v : f32
}
