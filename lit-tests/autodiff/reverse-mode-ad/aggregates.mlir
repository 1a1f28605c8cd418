// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Local arrays and structs keep element-addressed loads and stores (reverse-mode-ad runs
// element-access-ad first): their adjoint is a local of the same type, addressed with the same
// path and the index's primal. Each store saves only the element it overwrites (one f32 stack),
// never the whole array; sin's operand is re-read from the restored array.

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
// CHECK: %[[DST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NEXT: %[[DARR:.*]] = qd.alloca : !qd.ptr<!qd.array<4xf32>>
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<4xf32>>
// CHECK-NEXT: %[[ST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK-NOT: adstack.alloca
// CHECK: qd.range_for
// CHECK: qd.range_for %[[T:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[A:.*]] = ad.load_element %[[ARR]][%[[T]]] : !qd.ptr<!qd.array<4xf32>>
// CHECK-NEXT: %[[SN:.*]] = math.sin %[[A]] : f32
// CHECK-NEXT: adstack.push %[[S]], %[[A]] : f32
// CHECK-NEXT: ad.store_element %[[SN]], %[[ARR]][%[[T]]]
// CHECK-NEXT: ad.load_element %[[ST]][0] : !qd.ptr<!qd.struct<f32, i32>>
// Reverse of the t loop: the struct member's and the element's adjoints, element by element;
// the element is restored, then re-read for cos.
// CHECK: qd.range_for %[[K:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK: %[[TR:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: ad.load_element %[[DST]][0]
// CHECK: %[[G:.*]] = ad.load_element %[[DARR]][%[[TR]]]
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_element %[[Z]], %[[DARR]][%[[TR]]]
// CHECK: %[[OLD:.*]] = adstack.load_top %[[S]] : f32
// CHECK-NEXT: ad.store_element %[[OLD]], %[[ARR]][%[[TR]]]
// CHECK-NEXT: adstack.pop %[[S]] : f32
// CHECK-NEXT: %[[AR:.*]] = ad.load_element %[[ARR]][%[[TR]]]
// CHECK-NEXT: math.cos %[[AR]]
// CHECK: ad.store_element %{{.*}}, %[[DARR]][%[[TR]]]
// CHECK-NEXT: }
// The k loop: each element's adjoint goes to x[r, k]; nothing was saved for these stores.
// CHECK: qd.range_for
// CHECK: %[[KR:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[G2:.*]] = ad.load_element %[[DARR]][%[[KR]]]
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_element %[[Z2]], %[[DARR]][%[[KR]]]
// CHECK-NEXT: ad.acc_field_adjoint %[[G2]], @x[%{{.*}}, %[[KR]]]
