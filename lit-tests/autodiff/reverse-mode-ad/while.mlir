// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// A qd.while has no fixed trip count: the forward replay counts the iterations (an i32 local
// incremented at the start of each) and, as the while sits in a serial loop here, pushes the
// count on an i32 stack (no adjoints); the reverse runs the body that many times. The
// condition region is replayed, never reversed.

qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%limit: f32) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %c3 = arith.constant 3 : i32
    qd.range_for %j = %c0 to %c3 : i32 {
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %small = arith.cmpf olt, %o, %limit : f32
        qd.condition %small
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %g = arith.constant 1.5 : f32
        %m = arith.mulf %o, %g : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %o = qd.local_load %v : !qd.ptr<f32>
      %h = arith.constant 0.25 : f32
      %d = arith.mulf %o, %h : f32
      qd.local_store %d, %v : !qd.ptr<f32>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK-NEXT: qd.struct_for
// CHECK-NEXT: %[[V:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[CS:.*]] = adstack.alloca : i32
// CHECK: qd.range_for
// CHECK-NEXT: %[[CNT:.*]] = qd.alloca : !qd.ptr<i32>
// CHECK-NEXT: qd.while {
// CHECK-NEXT: %[[O:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[C:.*]] = arith.cmpf olt, %[[O]]
// CHECK-NEXT: qd.condition %[[C]]
// CHECK-NEXT: } do {
// CHECK-NEXT: %[[N0:.*]] = qd.local_load %[[CNT]] : !qd.ptr<i32>
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[N1:.*]] = arith.addi %[[N0]], %[[ONE]] : i32
// CHECK-NEXT: qd.local_store %[[N1]], %[[CNT]] : !qd.ptr<i32>
// CHECK: adstack.push %[[V]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[N:.*]] = qd.local_load %[[CNT]] : !qd.ptr<i32>
// CHECK-NEXT: adstack.push %[[CS]], %[[N]] : i32
// Reverse: the while's body runs the recorded number of times.
// CHECK: %[[RN:.*]] = adstack.load_top %[[CS]] : i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %{{.*}} = %[[Z]] to %[[RN]] : i32 {
// CHECK-NEXT: adstack.load_top_adj %[[V]]
// CHECK-NEXT: adstack.pop %[[V]]
// CHECK-NEXT: arith.constant 1.5
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: adstack.acc_adjoint %[[V]]
// CHECK-NEXT: }
// CHECK-NEXT: adstack.pop %[[CS]] : i32
