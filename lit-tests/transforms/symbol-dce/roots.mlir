// RUN: qd-opt %s --pass=symbol-dce --allow-unregistered-dialect | FileCheck %s

// Ops that are not symbols are live roots; their references keep private symbols alive, also
// from inside arrays and dictionaries. References to unknown symbols are ignored.
// CHECK: qd.field @by_array
// CHECK-NEXT: qd.field @by_dict
// CHECK-NEXT: qd.field @by_root
// CHECK-NEXT: {{^}}}
"test.root"() {refs = [@by_array, @nowhere], more = {x = @by_dict}} : () -> ()
"test.root"() {ref = @by_root} : () -> ()

qd.field @by_array : !qd.field<f32> {sym_visibility = "private"}
qd.field @by_dict : !qd.field<f32> {sym_visibility = "private"}
qd.field @by_root : !qd.field<f32> {sym_visibility = "private"}
qd.field @unused : !qd.field<f32> {sym_visibility = "private"}
