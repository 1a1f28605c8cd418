// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// A counted qd.while with a qd.continue after the counter's update: the continue cannot skip
// the update, so the counter still bounds the trip count (every iteration counted as if it
// pushed: n, where the kernel pushes ceil(n / 2)). A continue before the update stays refused
// (errors.mlir).

qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @continue_after_update
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 - 0>}
qd.kernel @continue_after_update(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.local_store %c0, %k : !qd.ptr<i32>
    %n = qd.load @n[] : i32
    qd.while {
      %kv = qd.local_load %k : !qd.ptr<i32>
      %c = arith.cmpi slt, %kv, %n : i32
      qd.condition %c
    } do {
      %kv = qd.local_load %k : !qd.ptr<i32>
      %k1 = arith.addi %kv, %c1 : i32
      qd.local_store %k1, %k : !qd.ptr<i32>
      %r = arith.remsi %kv, %c2 : i32
      %odd = arith.cmpi eq, %r, %c1 : i32
      qd.if %odd {
        qd.continue
      }
      adstack.push %s, %v : f32
    }
  }
}
