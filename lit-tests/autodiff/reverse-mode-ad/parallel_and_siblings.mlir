// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Parallel loops, loose statements and sibling loops. The gradient kernel first replays the
// loose statements (the prologue), then handles the top-level items last to first: each
// parallel loop is the same loop whose body replays, then reverses, the original body (sibling
// serial loops reversed in reverse order); loose statements are reversed at the top level.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @s : !qd.field<f32> {needs_grad}
qd.field @t : !qd.field<f32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %g = qd.load @s[] : f32
  %g2 = arith.mulf %g, %g : f32
  qd.store %g2, @t[] : f32
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %p = qd.alloca : !qd.ptr<f32>
    qd.local_store %a, %p : !qd.ptr<f32>
    qd.range_for %j = %c0 to %c4 : i32 {
      %o = qd.local_load %p : !qd.ptr<f32>
      %q = math.cos %o : f32
      qd.local_store %q, %p : !qd.ptr<f32>
    }
    qd.range_for %j = %c0 to %i : i32 {
      %o = qd.local_load %p : !qd.ptr<f32>
      %q = arith.mulf %o, %a : f32
      qd.local_store %q, %p : !qd.ptr<f32>
    }
    %r = qd.local_load %p : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
  %c2 = arith.constant 2 : i32
  qd.range_for %i = %c0 to %c2 : i32 {
    %a = qd.load @x[%i] : f32
    %e = math.exp %a : f32
    qd.atomic_add %e, @y[%c2] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad()
// The prologue: the loose statements, without the store to @t.
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-NEXT: %[[G:.*]] = qd.load @s[] : f32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// The last parallel loop first.
// CHECK-NEXT: qd.range_for %[[I:.*]] = %[[C0]] to %[[C2]] : i32 {
// CHECK-NEXT: %[[A:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: %[[E:.*]] = math.exp %[[A]] : f32
// CHECK-NEXT: %[[DY:.*]] = ad.load_field_adjoint @y[%[[C2]]] : f32
// CHECK-NEXT: %[[DA:.*]] = arith.mulf %[[DY]], %[[E]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[DA]], @x[%[[I]]] : f32
// CHECK-NEXT: }
// Then the struct_for: forward replay of both serial loops, then their reverse, last first.
// CHECK-NEXT: qd.struct_for (%[[J:.*]]) in @x {
// CHECK: %[[P:.*]] = adstack.alloca : f32
// CHECK: qd.range_for %{{.*}} = %[[C0]] to %[[C4]] : i32 {
// CHECK: math.cos
// CHECK: qd.range_for %{{.*}} = %[[C0]] to %[[J]] : i32 {
// CHECK: arith.mulf
// CHECK: ad.store_field_adjoint %{{.*}}, @y[%[[J]]]
// CHECK: arith.subi %[[J]], %[[C0]]
// CHECK: qd.range_for
// CHECK: arith.mulf
// CHECK: arith.subi %[[C4]], %[[C0]]
// CHECK: qd.range_for
// CHECK: math.sin
// CHECK: ad.acc_field_adjoint %{{.*}}, @x[%[[J]]]
// CHECK-NEXT: }
// Then the loose statements, reversed: t = s * s.
// CHECK-NEXT: %[[DT:.*]] = ad.load_field_adjoint @t[] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @t[] : f32
// CHECK-NEXT: %[[G1:.*]] = arith.mulf %[[DT]], %[[G]] : f32
// CHECK-NEXT: %[[G2:.*]] = arith.mulf %[[DT]], %[[G]] : f32
// CHECK-NEXT: %[[GS:.*]] = arith.addf %[[G1]], %[[G2]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[GS]], @s[] : f32
// CHECK-NEXT: }
