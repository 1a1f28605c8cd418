// RUN: qd-opt %s --pass=symbol-dce --allow-unregistered-dialect | FileCheck %s

// Nested symbol tables: their private symbols are judged the same way, and references resolve
// outward (from the inner module to the outer field) and through paths (@inner::@g).
// CHECK-LABEL: module @inner
// CHECK-NOT: @inner_dead
// CHECK: qd.field @g
// CHECK-NOT: @inner_dead
// CHECK: qd.kernel @k
// CHECK: qd.field @outer_used
// CHECK-NOT: @outer_dead
module @inner {
  qd.field @inner_dead : !qd.field<f32> {sym_visibility = "private"}
  qd.field @g : !qd.field<f32> {sym_visibility = "private"}
  qd.kernel @k() {
    %0 = qd.load @outer_used[] : f32
    "test.use"(%0) : (f32) -> ()
  }
}
qd.field @outer_used : !qd.field<f32> {sym_visibility = "private"}
qd.field @outer_dead : !qd.field<f32> {sym_visibility = "private"}
"test.root"() {ref = @inner::@g} : () -> ()
