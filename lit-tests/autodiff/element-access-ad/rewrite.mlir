// RUN: qd-opt %s --pass=element-access-ad | FileCheck %s
// RUN: qd-opt %s --pass=element-access-ad --pass=element-access-ad | FileCheck %s
// RUN: qd-opt %s --pass=element-access-ad --print-op-generic | FileCheck %s --check-prefix=GENERIC
// element-access-ad on its own: every local_load / local_store through an elem_ptr / member_ptr
// chain becomes one ad.load_element / ad.store_element on the chain's root with the whole path
// (constant indices as literals); address ops left unused are erased; scalar locals and field
// accesses are left alone. The rewrite computes the same thing (see qd-interp's tests).

// CHECK-LABEL: qd.kernel @k(
// CHECK-SAME: %[[I:[^:]*]]: i32, %[[V:[^:]*]]: f32)
qd.kernel @k(%i: i32, %v: f32) {
  // CHECK: %[[N:.*]] = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  %n = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  %c2 = arith.constant 2 : i32
  %e = qd.elem_ptr %n[%i] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  %m = qd.member_ptr %e[1] : !qd.ptr<!qd.struct<f32, !qd.array<3xf32>, i32>>
  %q = qd.elem_ptr %m[%c2] : !qd.ptr<!qd.array<3xf32>>
  // CHECK: %[[A:.*]] = ad.load_element %[[N]][%[[I]], 1, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  %a = qd.local_load %q : !qd.ptr<f32>
  %f = qd.member_ptr %e[0] : !qd.ptr<!qd.struct<f32, !qd.array<3xf32>, i32>>
  // CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[V]] : f32
  %s = arith.addf %a, %v : f32
  // CHECK-NEXT: ad.store_element %[[S]], %[[N]][%[[I]], 0] {note = "kept"} : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  qd.local_store %s, %f {note = "kept"} : !qd.ptr<f32>
  %c = qd.member_ptr %e[2] : !qd.ptr<!qd.struct<f32, !qd.array<3xf32>, i32>>
  // CHECK-NEXT: %[[CT:.*]] = ad.load_element %[[N]][%[[I]], 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  %ct = qd.local_load %c : !qd.ptr<i32>
  // An element op on an address is re-rooted.
  // CHECK-NEXT: ad.store_element %[[CT]], %[[N]][3, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  ad.store_element %ct, %n[3, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  // CHECK-NEXT: %[[B:.*]] = ad.load_element %[[N]][%[[I]], 1, %[[I]]] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>
  %b = ad.load_element %m[%i] : !qd.ptr<!qd.array<3xf32>>
  // A scalar local stays as it is.
  // CHECK-NEXT: %[[P:.*]] = qd.alloca : !qd.ptr<f32>
  // CHECK-NEXT: qd.local_store %[[B]], %[[P]] : !qd.ptr<f32>
  %p = qd.alloca : !qd.ptr<f32>
  qd.local_store %b, %p : !qd.ptr<f32>
  // CHECK-NOT: qd.elem_ptr
  // CHECK-NOT: qd.member_ptr
}

// GENERIC: "ad.load_element"(%{{.*}}, %{{.*}}) <{path = array<i64: -9223372036854775808, 1, 2>}> : (!qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>, i32>>>, i32) -> f32
