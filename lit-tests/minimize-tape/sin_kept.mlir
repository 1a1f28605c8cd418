// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape | FileCheck %s
// The sin body v = sin(v)*0.9 + 0.1: the adjoint needs cos(v) of every iteration, so the reverse
// pass reads the stack's primal (load_top after the first pop): the stack is kept.

qd.field @x : !qd.field<16xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @compute(%a: !qd.ndarray<?xi32>) {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %v = qd.alloca : !qd.ptr<f32>
    qd.local_store %x_i, %v : !qd.ptr<f32>
    %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %t = qd.local_load %v : !qd.ptr<f32>
      %sn = math.sin %t : f32
      %k = arith.constant 0.9 : f32
      %b = arith.constant 0.1 : f32
      %m = arith.mulf %sn, %k : f32
      %s = arith.addf %m, %b : f32
      qd.local_store %s, %v : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %r, @y[] : f32
  }
}

// CHECK-LABEL: qd.kernel @compute_grad
// CHECK: %[[S:.*]] = adstack.alloca : f32
// CHECK-NOT: primal_elided
// CHECK: adstack.push %[[S]]
// CHECK: qd.range_for
// CHECK: adstack.push %[[S]]
// CHECK: qd.range_for
// CHECK: adstack.load_top_adj %[[S]]
// CHECK: adstack.pop %[[S]]
// CHECK: adstack.load_top %[[S]]
// CHECK: math.cos
// CHECK: adstack.acc_adjoint %[[S]]
