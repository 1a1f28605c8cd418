// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.struct_for: one i32 induction variable per field dimension; a scalar field has none.

qd.field @v : !qd.field<8xf32>
qd.field @m : !qd.field<4x10xf32>
qd.field @s : !qd.field<f32>

// CHECK-LABEL: qd.kernel @k()
qd.kernel @k() {
  // CHECK: qd.struct_for (%[[I:.*]]) in @v {
  // CHECK-NEXT: qd.load @v[%[[I]]] : f32
  qd.struct_for (%i) in @v {
    %x = qd.load @v[%i] : f32
  }
  // CHECK: qd.struct_for (%[[R:.*]], %[[C:.*]]) in @m {
  // CHECK-NEXT: qd.load @m[%[[R]], %[[C]]] : f32
  qd.struct_for (%r, %c) in @m {
    %x = qd.load @m[%r, %c] : f32
  }
  // CHECK: qd.struct_for () in @s {
  // CHECK-NEXT: qd.load @s[] : f32
  qd.struct_for () in @s {
    %x = qd.load @s[] : f32
  }
  // CHECK: qd.struct_for (%{{.*}}) in @v {
  // CHECK-NEXT: } {note = "kept"}
  qd.struct_for (%i) in @v {
  } {note = "kept"}
}
