// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// if/else in a serial loop: the reverse takes the branch the forward pass took. The condition
// reads v, which both branches overwrite, so v's value before the if is taped (a second stack)
// rather than read from v's stack.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @k(%n: i32) {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %p : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %o = qd.local_load %p : !qd.ptr<f32>
      %h = arith.constant 0.5 : f32
      %c = arith.cmpf ogt, %o, %h : f32
      qd.if %c {
        %s = math.sin %o : f32
        qd.local_store %s, %p : !qd.ptr<f32>
      } else {
        %q = arith.mulf %o, %o : f32
        qd.local_store %q, %p : !qd.ptr<f32>
      }
    }
    %r = qd.local_load %p : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK: %[[V:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[T:.*]] = adstack.alloca : f32
// CHECK: qd.range_for
// CHECK-NEXT: %[[O:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: adstack.push %[[T]], %[[O]] : f32
// CHECK: %[[C:.*]] = arith.cmpf ogt, %[[O]]
// CHECK-NEXT: qd.if %[[C]] {
// CHECK-NEXT: math.sin %[[O]]
// CHECK-NEXT: adstack.push %[[V]]
// CHECK-NEXT: } else {
// CHECK-NEXT: arith.mulf %[[O]], %[[O]]
// CHECK-NEXT: adstack.push %[[V]]
// CHECK-NEXT: }
// CHECK: qd.range_for
// CHECK-NEXT: %[[DO:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: %[[OR:.*]] = adstack.load_top %[[T]] : f32
// CHECK: %[[CR:.*]] = arith.cmpf ogt, %[[OR]]
// CHECK-NEXT: qd.if %[[CR]] {
// CHECK-NEXT: adstack.load_top_adj %[[V]]
// CHECK-NEXT: adstack.pop %[[V]]
// CHECK: math.cos
// CHECK: } else {
// CHECK-NEXT: adstack.load_top_adj %[[V]]
// CHECK-NEXT: adstack.pop %[[V]]
// CHECK: }
// CHECK-NEXT: %[[G:.*]] = qd.local_load %[[DO]]
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[G]]
// CHECK-NEXT: adstack.pop %[[T]] : f32
// CHECK-NEXT: }
