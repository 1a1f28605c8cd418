// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file --verify-diagnostics
// RUN: not qd-opt %s --pass=reverse-mode-ad --split-input-file 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// Stores to one element in the two exclusive arms of a qd.if (at any depth inside each arm) are
// one write: only one arm runs. The reverse of each arm reads and zeroes the adjoint under the
// forward's condition. A store after a store in sequence, in the same arm, or after the if is
// still refused.

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
// CHECK-NEXT: %[[Z1:.*]] = arith.constant 0.0 : f32
// CHECK-NEXT: ad.store_field_adjoint %[[Z1]], @y[%arg0] : f32
// CHECK: } else {
// CHECK-NEXT: %[[D2:.*]] = ad.load_field_adjoint @y[%arg0] : f32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.0 : f32
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
    // expected-note@+1 {{first written here}}
    qd.store %a, @y[%i] : f32
    %b = arith.mulf %a, %a : f32
    // expected-error@+1 {{this qd.store writes an element of @y that this kernel already wrote}}
    qd.store %b, @y[%i] : f32
  }
}

// CHECK-NOT: _grad(
// ERR: exclusive_stores.mlir:[[# @LINE - 5]]:5: error: global data access rule violated: this qd.store writes an element of @y that this kernel already wrote
// ERR: exclusive_stores.mlir:[[# @LINE - 9]]:5: note: first written here

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
      // expected-note@+1 {{first written here}}
      qd.store %t, @y[%i] : f32
      %b = arith.mulf %a, %a : f32
      qd.if %c {
        // expected-error@+1 {{this qd.store writes an element of @y that this kernel already wrote}}
        qd.store %b, @y[%i] : f32
      }
    }
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @after_the_if() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %t = arith.constant 0.6 : f32
    %c = arith.cmpf ogt, %a, %t : f32
    qd.if %c {
      // expected-note@+1 {{first written here}}
      qd.store %a, @y[%i] : f32
    } else {
      qd.store %t, @y[%i] : f32
    }
    // expected-error@+1 {{this qd.store writes an element of @y that this kernel already wrote}}
    qd.store %a, @y[%i] : f32
  }
}
