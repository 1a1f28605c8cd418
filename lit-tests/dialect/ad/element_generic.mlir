// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// Element access in the generic form: the path is an array<i64> property, one entry per level,
// with -9223372036854775808 (MLIR's kDynamic) where the index is the next operand.

// GENERIC: %[[N:.*]] = "qd.alloca"() : () -> !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
// GENERIC: %[[V:.*]] = "ad.load_element"(%[[N]], %[[I:.*]], %[[J:.*]]) <{path = array<i64: -9223372036854775808, 1, -9223372036854775808>}> : (!qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>, i32, i32) -> f32
// GENERIC: "ad.store_element"(%[[V]], %[[N]], %[[J]]) <{path = array<i64: 2, 1, -9223372036854775808>}> : (f32, !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>, i32) -> ()
// GENERIC: "ad.store_element"(%[[V]], %[[N]]) <{path = array<i64: 0, 0>}> : (f32, !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>) -> ()
// CHECK: %[[V:.*]] = ad.load_element %[[N:.*]][%[[I:.*]], 1, %[[J:.*]]] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
// CHECK: ad.store_element %[[V]], %[[N]][2, 1, %[[J]]] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
// CHECK: ad.store_element %[[V]], %[[N]][0, 0] : !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
qd.kernel @k(%i: i32, %j: i32) {
  %n = "qd.alloca"() : () -> !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>
  %v = "ad.load_element"(%n, %i, %j) <{path = array<i64: -9223372036854775808, 1, -9223372036854775808>}> : (!qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>, i32, i32) -> f32
  "ad.store_element"(%v, %n, %j) <{path = array<i64: 2, 1, -9223372036854775808>}> : (f32, !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>, i32) -> ()
  "ad.store_element"(%v, %n) <{path = array<i64: 0, 0>}> : (f32, !qd.ptr<!qd.array<4x!qd.struct<f32, !qd.array<3xf32>>>>) -> ()
}
