// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file --verify-diagnostics
// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file | FileCheck %s
// Kernels the exact access rule (docs/access-rule.md) allows though they read what they write:
// no write comes after a read whose value the gradient needs. Refused ones:
// access_rule_errors.mlir.

// A read after a write in the same thread: the replay re-reads y as the forward left it, the
// value the load saw. The load's reverse adds to y's adjoint before the store's reverse takes it.
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @z : !qd.field<4xf32> {needs_grad}
qd.kernel @read_after_write() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    qd.store %a, @y[%i] : f32
    %b = qd.load @y[%i] : f32
    %c = arith.mulf %b, %b : f32
    qd.atomic_add %c, @z[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @read_after_write_grad(
// CHECK: %[[Y:.*]] = qd.load @y[%arg0] : f32
// CHECK: ad.acc_field_adjoint %{{.*}}, @y[%arg0] : f32
// CHECK-NEXT: %[[G:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @y[%arg0] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[G]], @x[%arg0] : f32

// -----

// x[i] = 2 x[i]: a write after a read, but the gradient does not need the value read (a product by a
// constant): the store's reverse takes and zeroes x's adjoint, the load's adds 2 g back.
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.kernel @double_in_place() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %two = arith.constant 2.0 : f32
    %b = arith.mulf %two, %a : f32
    qd.store %b, @x[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @double_in_place_grad(
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[G:.*]] = ad.load_field_adjoint @x[%arg0] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @x[%arg0] : f32
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[G]], %[[TWO]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[D]], @x[%arg0] : f32

// -----

// x[k, i+1] = sin(x[k, i]): each element is written once, before it is read; the reverse re-reads
// x[k, i] for cos (no adstack).
qd.field @x : !qd.field<3x6xf32> {needs_grad}
qd.kernel @sin_recurrence() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  qd.range_for %k = %c0 to %c3 : i32 {
    qd.range_for %i = %c0 to %c5 : i32 {
      %v = qd.load @x[%k, %i] : f32
      %s = math.sin %v : f32
      %n = arith.addi %i, %c1 : i32
      qd.store %s, @x[%k, %n] : f32
    }
  }
}

// CHECK-LABEL: qd.kernel @sin_recurrence_grad(
// CHECK-NOT: adstack
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK-NEXT: %[[G:.*]] = ad.load_field_adjoint @x[%arg0, %[[N]]] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @x[%arg0, %[[N]]] : f32
// CHECK-NEXT: %[[V:.*]] = qd.load @x[%arg0, %[[I]]] : f32
// CHECK-NEXT: %[[C:.*]] = math.cos %[[V]] : f32
// CHECK-NEXT: %[[D:.*]] = arith.mulf %[[G]], %[[C]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[D]], @x[%arg0, %[[I]]] : f32
// CHECK: ad.reverse @sin_recurrence

// -----

// Two tasks: task 1 scatters into b at data-dependent indices, task 2 reads b. The gradient handles
// task 2 first; b's adjoint flows into task 1's reverse.
qd.field @a : !qd.field<8xf32> {needs_grad}
qd.field @q : !qd.field<8xi32>
qd.field @b : !qd.field<5xf32> {needs_grad}
qd.field @f : !qd.field<f32> {needs_grad}
qd.kernel @two_tasks() {
  qd.struct_for (%i) in @a {
    %j = qd.load @q[%i] : i32
    %v = qd.load @a[%j] : f32
    qd.atomic_add %v, @b[%j] : f32
  }
  qd.struct_for (%k) in @b {
    %t = qd.load @b[%k] : f32
    %sq = arith.mulf %t, %t : f32
    qd.atomic_add %sq, @f[] : f32
  }
}

// CHECK-LABEL: qd.kernel @two_tasks_grad(
// CHECK: qd.struct_for (%arg0) in @b {
// CHECK: ad.acc_field_adjoint %{{.*}}, @b[%arg0] : f32
// CHECK: qd.struct_for (%arg0) in @a {
// CHECK-NEXT: %[[J:.*]] = qd.load @q[%arg0] : i32
// CHECK-NEXT: %[[G:.*]] = ad.load_field_adjoint @b[%[[J]]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[G]], @a[%[[J]]] : f32

// -----

// Sibling serial loops through a scratch field: the second loop's reverse (first) re-reads scratch
// and accumulates its adjoint, which the first loop's stores take and zero.
qd.field @x : !qd.field<3x5xf32> {needs_grad}
qd.field @scratch : !qd.field<3x5xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @sibling_scratch() {
  qd.struct_for (%i) in @y {
    %c0 = arith.constant 0 : i32
    %c5 = arith.constant 5 : i32
    qd.range_for %j = %c0 to %c5 : i32 {
      %v = qd.load @x[%i, %j] : f32
      %c = math.cos %v : f32
      qd.store %c, @scratch[%i, %j] : f32
    }
    qd.range_for %j = %c0 to %c5 : i32 {
      %s = qd.load @scratch[%i, %j] : f32
      %sq = arith.mulf %s, %s : f32
      qd.atomic_add %sq, @y[%i] : f32
    }
  }
}

// CHECK-LABEL: qd.kernel @sibling_scratch_grad(
// CHECK: qd.range_for
// CHECK: qd.load @scratch
// CHECK: ad.acc_field_adjoint %{{.*}}, @scratch
// CHECK: qd.range_for
// CHECK: ad.load_field_adjoint @scratch
// CHECK-NEXT: arith.constant 0.0
// CHECK-NEXT: ad.store_field_adjoint %{{.*}}, @scratch

// -----

// A store after atomic adds to p[i]: the store's reverse takes p's adjoint and zeroes it, so the adds
// (reversed after it) read 0.
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @p : !qd.field<4xf32> {needs_grad}
qd.kernel @store_after_atomics() {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    %v = qd.load @x[%i] : f32
    qd.range_for %j = %c0 to %c3 : i32 {
      qd.atomic_add %v, @p[%i] : f32
    }
    %c = math.cos %v : f32
    qd.store %c, @p[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @store_after_atomics_grad(
// CHECK: ad.load_field_adjoint @p[%arg0] : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @p[%arg0] : f32
// CHECK: qd.range_for
// CHECK-NEXT: ad.load_field_adjoint @p[%arg0] : f32
