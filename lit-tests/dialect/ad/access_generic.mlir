// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// Adjoint access in the generic form: the field is a symbol-reference property; operands are
// (value,) indices, or (value, ndarray, indices...).

// GENERIC: %[[DY:.*]] = "ad.load_field_adjoint"() <{field = @y}> : () -> f32
// GENERIC: "ad.acc_field_adjoint"(%[[DY]], %[[I:.*]]) <{field = @x}> : (f32, i32) -> ()
// GENERIC: "ad.store_field_adjoint"(%[[DY]], %[[I]]) <{field = @x}> : (f32, i32) -> ()
// GENERIC: %[[DM:.*]] = "ad.load_field_adjoint"(%[[I]], %[[J:.*]]) <{field = @m}> : (i32, i32) -> f64
// GENERIC: "ad.acc_ndarray_adjoint"(%[[DY]], %[[DA:.*]], %[[I]]) : (f32, !qd.ndarray<?xf32>, i32) -> ()
// CHECK: %[[DY:.*]] = ad.load_field_adjoint @y[] : f32
// CHECK: ad.acc_field_adjoint %[[DY]], @x[%[[I:.*]]] : f32
// CHECK: ad.store_field_adjoint %[[DY]], @x[%[[I]]] : f32
// CHECK: ad.load_field_adjoint @m[%[[I]], %[[J:.*]]] : f64
// CHECK: ad.acc_ndarray_adjoint %[[DY]], %{{.*}}[%[[I]]] : !qd.ndarray<?xf32>
qd.field @y : !qd.field<f32> {needs_grad}
qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @m : !qd.field<4x10xf64> {needs_grad}
qd.kernel @k(%i: i32, %j: i32, %da: !qd.ndarray<?xf32>) {
  %dy = "ad.load_field_adjoint"() <{field = @y}> : () -> f32
  "ad.acc_field_adjoint"(%dy, %i) <{field = @x}> : (f32, i32) -> ()
  "ad.store_field_adjoint"(%dy, %i) <{field = @x}> : (f32, i32) -> ()
  %dm = "ad.load_field_adjoint"(%i, %j) <{field = @m}> : (i32, i32) -> f64
  "ad.acc_ndarray_adjoint"(%dy, %da, %i) : (f32, !qd.ndarray<?xf32>, i32) -> ()
}
