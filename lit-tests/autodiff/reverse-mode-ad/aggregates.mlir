// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Local arrays and structs keep element-addressed loads and stores: their adjoint is a local of
// the same type, addressed through the same elem_ptr/member_ptr chain with the index's primal.
// Only the element a sin reads is saved per iteration (one f32 stack), never the whole array.

qd.field @x : !qd.field<2x4xf32> {needs_grad}
qd.field @y : !qd.field<2xf32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  qd.range_for %r = %c0 to %c2 : i32 {
    %arr = qd.alloca : !qd.ptr<!qd.array<4xf32>>
    %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
    %acc = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, i32>>
    %c4 = arith.constant 4 : i32
    qd.range_for %k = %c0 to %c4 : i32 {
      %v = qd.load @x[%r, %k] : f32
      %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<4xf32>>
      qd.local_store %v, %p : !qd.ptr<f32>
    }
    qd.range_for %t = %c0 to %c4 : i32 {
      %p = qd.elem_ptr %arr[%t] : !qd.ptr<!qd.array<4xf32>>
      %a = qd.local_load %p : !qd.ptr<f32>
      %s = math.sin %a : f32
      qd.local_store %s, %p : !qd.ptr<f32>
      %o = qd.local_load %acc : !qd.ptr<f32>
      %n = arith.addf %o, %s : f32
      qd.local_store %n, %acc : !qd.ptr<f32>
    }
    %f = qd.local_load %acc : !qd.ptr<f32>
    qd.store %f, @y[%r] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad()
// CHECK: %[[S:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[DST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: %[[DARR:.*]] = qd.alloca : !qd.ptr<!qd.array<4xf32>>
// CHECK-NEXT: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<4xf32>>
// CHECK-NOT: adstack.alloca
// CHECK: qd.range_for
// CHECK: qd.range_for %[[T:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[P:.*]] = qd.elem_ptr %[[ARR]][%[[T]]]
// CHECK-NEXT: %[[A:.*]] = qd.local_load %[[P]] : !qd.ptr<f32>
// CHECK-NEXT: adstack.push %[[S]], %[[A]] : f32
// Reverse of the t loop: the struct member's and the element's adjoints, element by element.
// CHECK: qd.range_for %[[K:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK: %[[TR:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: qd.member_ptr %[[DST]][0]
// CHECK: %[[DP:.*]] = qd.elem_ptr %[[DARR]][%[[TR]]]
// CHECK-NEXT: qd.local_load %[[DP]]
// CHECK: %[[AR:.*]] = adstack.load_top %[[S]] : f32
// CHECK-NEXT: math.cos %[[AR]]
// CHECK: qd.elem_ptr %[[DARR]][%[[TR]]]
// CHECK: adstack.pop %[[S]] : f32
// CHECK-NEXT: }
// The k loop: each element's adjoint goes to x[r, k].
// CHECK: qd.range_for
// CHECK: %[[KR:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[DP2:.*]] = qd.elem_ptr %[[DARR]][%[[KR]]]
// CHECK-NEXT: %[[G:.*]] = qd.local_load %[[DP2]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.0 : f32
// CHECK-NEXT: qd.local_store %[[Z]], %[[DP2]]
// CHECK-NEXT: ad.acc_field_adjoint %[[G]], @x[%{{.*}}, %[[KR]]]
