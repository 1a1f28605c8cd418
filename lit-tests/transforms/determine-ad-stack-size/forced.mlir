// RUN: qd-opt %s --pass='determine-ad-stack-size{ad-stack-size=32}' | FileCheck %s
// The pass option ad-stack-size=N gives every stack N entries, even one whose bound is outside
// the grammar, and replaces what an earlier sizing wrote.

// CHECK-LABEL: qd.kernel @forced
// CHECK: adstack.alloca : f32 {id = 0, max_size = 32, size_expr = #adstack.size<32>}
// CHECK: adstack.alloca : i32 {id = 1, max_size = 32, size_expr = #adstack.size<32>}
qd.kernel @forced(%n: i32, %v: f32) {
  %s = adstack.alloca : f32
  %t = adstack.alloca : i32 {max_size = 3, size_expr = #adstack.size<3>}
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    adstack.push %s, %v : f32
    adstack.push %t, %c0 : i32
  }
}
