// Simplifying a simplified bound changes nothing, and the output does not depend on the run.
// RUN: qd-opt %s --pass=simplify-size-expr -o %t.once
// RUN: qd-opt %t.once --pass=simplify-size-expr -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: qd-opt %s --pass=simplify-size-expr --pass=simplify-size-expr | diff %t.once -
// RUN: FileCheck %s < %t.once

// CHECK-LABEL: qd.kernel @k
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<@n[]:i32 - 1>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 - arg1[v0]:i32 for v0 in range(0, 4))>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<max(@a[]:i32, @b[]:i32)>}
// CHECK: adstack.alloca : f32 {size_expr = #adstack.size<6 * (2 + (@n[]:i32 - 0))>}
qd.field @n : !qd.field<i32>
qd.field @a : !qd.field<i32>
qd.field @b : !qd.field<i32>
qd.kernel @k(%x: !qd.ndarray<?xi32>, %y: !qd.ndarray<?xi32>, %v: f32) {
  %s0 = adstack.alloca : f32 {size_expr = #adstack.size<max(v0 for v0 in range(0, @n[]:i32))>}
  %s1 = adstack.alloca : f32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, 4)) - max(arg1[v0]:i32 for v0 in range(0, 4))>}
  %s2 = adstack.alloca : f32 {size_expr = #adstack.size<(@a[]:i32 - @b[]:i32) + @b[]:i32>}
  %s3 = adstack.alloca : f32 {size_expr = #adstack.size<6 * max(2 + (@n[]:i32 - v1) for v1 in range(0, 6))>}
  adstack.push %s0, %v : f32
  adstack.push %s1, %v : f32
  adstack.push %s2, %v : f32
  adstack.push %s3, %v : f32
}
