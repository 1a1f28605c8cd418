// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file | FileCheck %s
// Locals. A pure accumulator (s = s + e) keeps a plain adjoint local and needs no stack, even
// with a non-linear summand; a loop-carried recurrence (v = sin(v)) becomes an adstack whose
// entries hold each iteration's value and adjoint: the store is a push, the load a load_top;
// in reverse the load accumulates into the top adjoint, the store hands it on and pops.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @accumulator(%n: i32) {
  qd.struct_for (%i) in @x {
    %s = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %e = math.sin %a : f32
      %o = qd.local_load %s : !qd.ptr<f32>
      %q = arith.addf %o, %e : f32
      qd.local_store %q, %s : !qd.ptr<f32>
    }
    %r = qd.local_load %s : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @accumulator_grad(
// CHECK-NOT: adstack
// CHECK: %[[DS:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK: %[[DA:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK: %[[S:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK: qd.range_for
// CHECK: qd.local_store %{{.*}}, %[[S]]
// CHECK: %[[DY:.*]] = ad.load_field_adjoint @y
// The load of s after the loop adds y's adjoint into s's adjoint local.
// CHECK: %[[T:.*]] = qd.local_load %[[DS]]
// CHECK-NEXT: %[[T2:.*]] = arith.addf %[[T]], %[[DY]]
// CHECK-NEXT: qd.local_store %[[T2]], %[[DS]]
// In each reversed iteration, the store takes s's adjoint (and zeroes it), the load gives it
// back: the summand gets it.
// CHECK: qd.range_for
// CHECK-NEXT: %[[G:.*]] = qd.local_load %[[DS]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.0
// CHECK-NEXT: qd.local_store %[[Z]], %[[DS]]
// CHECK: math.cos
// CHECK: ad.acc_field_adjoint
// CHECK-NOT: adstack
// CHECK: ad.reverse @accumulator -> @accumulator_grad

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @recurrence(%n: i32) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %o = qd.local_load %v : !qd.ptr<f32>
      %e = math.sin %o : f32
      qd.local_store %e, %v : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.store %r, @y[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @recurrence_grad(
// CHECK-SAME: %[[N:[^:]*]]: i32
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[V:.*]] = adstack.alloca : f32
// The local's zero initial value, then the stored x[i].
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: adstack.push %[[V]], %[[Z]] : f32
// CHECK-NEXT: %[[A:.*]] = qd.load @x[%[[I]]] : f32
// CHECK-NEXT: adstack.push %[[V]], %[[A]] : f32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %{{.*}} = %[[C0]] to %[[N]] : i32 {
// CHECK-NEXT: %[[O:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[E:.*]] = math.sin %[[O]] : f32
// CHECK-NEXT: adstack.push %[[V]], %[[E]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[DY:.*]] = ad.load_field_adjoint @y[%[[I]]] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z2]], @y[%[[I]]] : f32
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[DY]] : f32
// The trip count, max(n - 0, 0), from the bounds.
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK-NEXT: %[[Z3:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[CNT:.*]] = arith.maxsi %[[D]], %[[Z3]] : i32
// CHECK-NEXT: %[[Z4:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %{{.*}} = %[[Z4]] to %[[CNT]] : i32 {
// CHECK-NEXT: %[[DE:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// The value the sin read is now on top.
// CHECK-NEXT: %[[OR:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[COS:.*]] = math.cos %[[OR]] : f32
// CHECK-NEXT: %[[DO:.*]] = arith.mulf %[[DE]], %[[COS]] : f32
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[DO]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[DA:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[DA]], @x[%[[I]]] : f32
// The local's initial entry.
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: }
