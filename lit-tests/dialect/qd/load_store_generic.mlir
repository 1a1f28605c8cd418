// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// Field access in the generic form: the field is a symbol-reference property, the operands are
// (value,) indices.

// GENERIC: %[[S:.*]] = "qd.load"() <{field = @s}> : () -> f32
// GENERIC: "qd.store"(%[[S]]) <{field = @s}> : (f32) -> ()
// GENERIC: %[[M:.*]] = "qd.load"(%[[I:.*]], %[[J:.*]]) <{field = @m}> : (i32, i32) -> f64
// GENERIC: "qd.store"(%[[M]], %[[J]], %[[I]]) <{field = @m}> : (f64, i32, i32) -> ()
// CHECK: %[[S:.*]] = qd.load @s[] : f32
// CHECK: qd.store %[[S]], @s[] : f32
// CHECK: %[[M:.*]] = qd.load @m[%[[I:.*]], %[[J:.*]]] : f64
// CHECK: qd.store %[[M]], @m[%[[J]], %[[I]]] : f64
qd.field @s : !qd.field<f32>
qd.field @m : !qd.field<4x10xf64>
qd.kernel @k(%i: i32, %j: i32) {
  %s = qd.load @s[] : f32
  qd.store %s, @s[] : f32
  %m = qd.load @m[%i, %j] : f64
  qd.store %m, @m[%j, %i] : f64
}
