// RUN: qd-opt %s | qd-opt | FileCheck %s
// Element-addressed loads and stores of local aggregates: a path of one entry per level, values
// (i32) or literals for array elements, literals for struct members.

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%i: i32, %j: i32) {
  // CHECK: %[[A:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // CHECK: %[[V:.*]] = ad.load_element %[[A]][%[[I:.*]]] : !qd.ptr<!qd.array<10xf32>>
  %v = ad.load_element %a[%i] : !qd.ptr<!qd.array<10xf32>>
  // CHECK: ad.store_element %[[V]], %[[A]][3] : !qd.ptr<!qd.array<10xf32>>
  ad.store_element %v, %a[3] : !qd.ptr<!qd.array<10xf32>>
  // Nested: an array of structs holding an array.
  // CHECK: %[[N:.*]] = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  %n = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  // CHECK: %[[D:.*]] = ad.load_element %[[N]][%[[I]], 1, %[[J:.*]]] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  %d = ad.load_element %n[%i, 1, %j] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  // CHECK: ad.store_element %[[D]], %[[N]][0, 1, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  ad.store_element %d, %n[0, 1, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  // CHECK: %[[C:.*]] = ad.load_element %[[N]][%[[J]], 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  %c = ad.load_element %n[%j, 2] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  // CHECK: ad.store_element %[[C]], %[[N]][%[[I]], 2] {note = "kept"} : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  ad.store_element %c, %n[%i, 2] {note = "kept"} : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf64>, i32>>>
  // A struct at the root; a 2-D array.
  // CHECK: %[[S:.*]] = qd.alloca : !qd.ptr<!qd.struct<i32, f32>>
  %s = qd.alloca : !qd.ptr<!qd.struct<i32, f32>>
  // CHECK: %{{.*}} = ad.load_element %[[S]][1] {note} : !qd.ptr<!qd.struct<i32, f32>>
  %m = ad.load_element %s[1] {note} : !qd.ptr<!qd.struct<i32, f32>>
  %g = qd.alloca : !qd.ptr<!qd.array<2x5xf32>>
  // CHECK: ad.store_element %{{.*}}, %{{.*}}[%[[J]], %[[I]]] : !qd.ptr<!qd.array<2x5xf32>>
  ad.store_element %m, %g[%j, %i] : !qd.ptr<!qd.array<2x5xf32>>
}
