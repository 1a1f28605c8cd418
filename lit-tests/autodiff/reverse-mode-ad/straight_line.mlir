// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Straight-line code: the gradient kernel replays the body without its primal writes, then
// reverses it. The store overwrote y[i]: its adjoint moves to the stored value and is zeroed.
// Each rule reads only the primals it needs (mulf by a constant reads the constant only).

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}

// The primal kernel is left as it was.
// CHECK-LABEL: qd.kernel @k()
// CHECK: qd.store %{{.*}}, @y
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %s = math.sin %a : f32
    %c = arith.constant 3.0 : f32
    %m = arith.mulf %s, %c : f32
    qd.store %m, @y[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad()
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[A:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.constant 3.000000e+00 : f32
// CHECK-NEXT: %[[DY:.*]] = ad.load_field_adjoint @y[%[[I]]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @y[%[[I]]] : f32
// CHECK-NEXT: %[[DS:.*]] = arith.mulf %[[DY]], %[[C]] : f32
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[A]] : f32
// CHECK-NEXT: %[[DA:.*]] = arith.mulf %[[DS]], %[[COS]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[DA]], @x[%[[I]]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: adstack
// CHECK: ad.reverse @k -> @k_grad {active = []}
