// RUN: qd-opt %s --pass=determine-ad-stack-size | FileCheck %s
// Sizing replaces what an alloca carried before (a stale literal size goes when the new bound
// is symbolic), and running it twice changes nothing more.
// RUN: qd-opt %s --pass=determine-ad-stack-size --pass=determine-ad-stack-size | FileCheck %s

qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @resize
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 - 0>}
// CHECK: adstack.alloca : f32 {id = 1, max_size = 2, size_expr = #adstack.size<2>}
qd.kernel @resize(%v: f32) {
  %s = adstack.alloca : f32 {max_size = 7, size_expr = #adstack.size<7>}
  %t = adstack.alloca : f32 {max_size = 9}
  %n = qd.load @n[] : i32
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    adstack.push %s, %v : f32
  }
  adstack.push %t, %v : f32
  adstack.push %t, %v : f32
}
