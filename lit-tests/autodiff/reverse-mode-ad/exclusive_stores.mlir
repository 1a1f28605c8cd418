// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file --verify-diagnostics
// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file | FileCheck %s
// Stores to one element in the two exclusive arms of a qd.if (at any depth inside each arm) are
// one write: only one arm runs. The reverse of each arm reads and zeroes the adjoint under the
// forward's condition. A store after a store in sequence, in the same arm, or after the if is a
// second write: the last one wins, and reversed last to first, the earlier stores read the
// adjoint the later one zeroed (docs/access-rule.md).

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @both_arms() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %t = arith.constant 0.6 : f32
    %c = arith.cmpf ogt, %a, %t : f32
    qd.if %c {
      %sq = arith.mulf %a, %a : f32
      qd.store %sq, @y[%i] : f32
    } else {
      %k = arith.constant 3.0 : f32
      %lin = arith.mulf %k, %a : f32
      qd.store %lin, @y[%i] : f32
    }
  }
}

// CHECK-LABEL: qd.kernel @both_arms_grad(
// CHECK: %[[C:.*]] = arith.cmpf ogt
// CHECK-NEXT: qd.if %[[C]] {
// CHECK-NEXT: }
// CHECK-NEXT: qd.if %[[C]] {
// CHECK-NEXT: %[[D1:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK-NEXT: %[[Z1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z1]], @y[%arg0] : f32
// CHECK: } else {
// CHECK-NEXT: %[[D2:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z2]], @y[%arg0] : f32
// CHECK: ad.acc_field_adjoint {{.*}}, @x[%arg0] : f32

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @nested_arms() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %t = arith.constant 0.6 : f32
    %c = arith.cmpf ogt, %a, %t : f32
    %u = arith.constant 0.9 : f32
    %d = arith.cmpf ogt, %a, %u : f32
    qd.if %c {
      qd.if %d {
        qd.store %a, @y[%i] : f32
      } else {
        %sq = arith.mulf %a, %a : f32
        qd.store %sq, @y[%i] : f32
      }
    } else {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      qd.range_for %j = %c0 to %c2 : i32 {
        qd.if %d {
          %m = arith.mulf %t, %a : f32
          qd.atomic_add %m, @y[%i] : f32
        }
      }
    }
  }
}

// CHECK-LABEL: qd.kernel @nested_arms_grad(

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @in_sequence() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    qd.store %a, @y[%i] : f32
    %b = arith.mulf %a, %a : f32
    qd.store %b, @y[%i] : f32
  }
}

// The second store's reverse takes y's adjoint and zeroes it; the first one's then reads 0.
// CHECK-LABEL: qd.kernel @in_sequence_grad(
// CHECK: %[[G2:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z2]], @y[%arg0] : f32
// CHECK: %[[G1:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %{{.*}}, %[[G1]] : f32
// CHECK-NEXT: %[[Z1:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z1]], @y[%arg0] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[S]], @x[%arg0] : f32

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @same_arm() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %t = arith.constant 0.6 : f32
    %c = arith.cmpf ogt, %a, %t : f32
    qd.if %c {
      qd.store %a, @y[%i] : f32
    } else {
      qd.store %t, @y[%i] : f32
      %b = arith.mulf %a, %a : f32
      qd.if %c {
        qd.store %b, @y[%i] : f32
      }
    }
  }
}

// CHECK-LABEL: qd.kernel @same_arm_grad(

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @after_the_if() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %t = arith.constant 0.6 : f32
    %c = arith.cmpf ogt, %a, %t : f32
    qd.if %c {
      qd.store %a, @y[%i] : f32
    } else {
      qd.store %t, @y[%i] : f32
    }
    qd.store %a, @y[%i] : f32
  }
}

// The last store comes first in reverse: the if's stores read the zeroed adjoint.
// CHECK-LABEL: qd.kernel @after_the_if_grad(
// CHECK: %[[G:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z]], @y[%arg0] : f32
// CHECK-NEXT: qd.if
// CHECK-NEXT: ad.load_field_adjoint @y[%arg0] : f32
