// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.field: a symbol with a field type, the optional {needs_grad} property, discardable
// attributes kept after it.

// CHECK: qd.field @x : !qd.field<6xf32> {needs_grad}
qd.field @x : !qd.field<6xf32> {needs_grad}
// CHECK: qd.field @y : !qd.field<f32>{{$}}
qd.field @y : !qd.field<f32>
// CHECK: qd.field @steps : !qd.field<6xi32>{{$}}
qd.field @steps : !qd.field<6xi32>
// CHECK: qd.field @tagged : !qd.field<2xf32> {needs_grad, note = "kept"}
qd.field @tagged : !qd.field<2xf32> {needs_grad, note = "kept"}
// CHECK: qd.field @other : !qd.field<2xf32> {note = "only"}
qd.field @other : !qd.field<2xf32> {note = "only"}
// CHECK: qd.field @"quoted name" : !qd.field<1xi32>
qd.field @"quoted name" : !qd.field<1xi32>
