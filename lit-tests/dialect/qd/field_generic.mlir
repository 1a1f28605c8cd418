// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// qd.field in the generic form: sym_name and type are properties, needs_grad a unit property,
// other attributes stay discardable.

// GENERIC: "qd.field"() <{needs_grad, sym_name = "x", type = !qd.field<6xf32>}> : () -> ()
// GENERIC: "qd.field"() <{sym_name = "y", type = !qd.field<f32>}> : () -> ()
// GENERIC: "qd.field"() <{sym_name = "t", type = !qd.field<2x3xi32>}> {note = "kept"} : () -> ()
// CHECK: qd.field @x : !qd.field<6xf32> {needs_grad}
// CHECK: qd.field @y : !qd.field<f32>
// CHECK: qd.field @t : !qd.field<2x3xi32> {note = "kept"}
qd.field @x : !qd.field<6xf32> {needs_grad}
"qd.field"() <{sym_name = "y", type = !qd.field<f32>}> : () -> ()
qd.field @t : !qd.field<2x3xi32> {note = "kept"}
