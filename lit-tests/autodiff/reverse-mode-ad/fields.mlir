// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Field access: a load of a needs_grad field accumulates into its adjoint field; a store
// overwrites (its adjoint goes to the stored value, then is zeroed); an atomic_add passes the
// adjoint on and leaves it; a field without needs_grad is an input without gradient. The
// gradient kernel writes no primal field.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @w : !qd.field<4xf32>
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @s : !qd.field<f32> {needs_grad}

qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %w = qd.load @w[%i] : f32
    %m = arith.mulf %a, %w : f32
    qd.store %m, @y[%i] : f32
    %e = math.exp %a : f32
    qd.atomic_add %e, @s[] : f32
    %c = arith.constant 1.0 : f32
    qd.atomic_add %c, @s[] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad()
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[A:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[W:.*]] = qd.load @w[%[[I]]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[A]] : f32
// The atomic_add of the exp: its adjoint is read, not zeroed.
// CHECK-NEXT: %[[DS:.*]] = ad.load_field_adjoint @s[] : f32
// CHECK-NEXT: %[[DE:.*]] = arith.mulf %[[DS]], %[[E]] : f32
// The store: read, then zero, y's adjoint.
// CHECK-NEXT: %[[DY:.*]] = ad.load_field_adjoint @y[%[[I]]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @y[%[[I]]] : f32
// CHECK-NEXT: %[[DM:.*]] = arith.mulf %[[DY]], %[[W]] : f32
// CHECK-NEXT: %[[DA:.*]] = arith.addf %[[DE]], %[[DM]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[DA]], @x[%[[I]]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NOT: qd.store
// CHECK-NOT: qd.atomic_add
// CHECK: ad.reverse @k -> @k_grad
