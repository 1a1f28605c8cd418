// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// qd.struct_for in the generic form: the field is a symbol-reference property, the induction
// variables are the body's entry block arguments (i32).

// GENERIC: "qd.struct_for"() <{field = @m}> ({
// GENERIC-NEXT: ^bb0(%[[R:.*]]: i32, %[[C:.*]]: i32):
// GENERIC: "qd.load"(%[[R]], %[[C]]) <{field = @m}> : (i32, i32) -> f32
// GENERIC: }) : () -> ()
// CHECK: qd.struct_for (%[[R:.*]], %[[C:.*]]) in @m {
// CHECK: qd.load @m[%[[R]], %[[C]]] : f32
qd.field @m : !qd.field<4x10xf32>
qd.kernel @k() {
  qd.struct_for (%r, %c) in @m {
    %x = qd.load @m[%r, %c] : f32
  }
}
