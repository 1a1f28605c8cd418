// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// A local holding x, then y under `qd.if %c` with %c a comparison of values exact at launch:
// the trip count is select(c, y, x), decided by the launch's data, not max(x, y).

qd.field @a : !qd.field<i32>
qd.field @b : !qd.field<i32>
// CHECK-LABEL: qd.kernel @decided
// CHECK: size_expr = #adstack.size<select(@a[]:i32 < @b[]:i32, @b[]:i32, 3) - 0>
qd.kernel @decided(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %m = qd.alloca : !qd.ptr<i32>
    qd.local_store %c3, %m : !qd.ptr<i32>
    %a = qd.load @a[] : i32
    %b = qd.load @b[] : i32
    %c = arith.cmpi slt, %a, %b : i32
    qd.if %c {
      qd.local_store %b, %m : !qd.ptr<i32>
    }
    %mv = qd.local_load %m : !qd.ptr<i32>
    qd.range_for %k = %c0 to %mv : i32 {
      adstack.push %s, %v : f32
    }
  }
}
