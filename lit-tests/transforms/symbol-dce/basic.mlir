// RUN: qd-opt %s --pass=symbol-dce --allow-unregistered-dialect --split-input-file | FileCheck %s

// Private symbols that nothing live refers to are erased; public ones stay.
// CHECK: qd.field @used_field
// CHECK-NOT: @dead_field
// CHECK: qd.field @public_field
// CHECK: qd.kernel @helper
// CHECK-NOT: @dead_kernel
// CHECK: qd.kernel @main
qd.field @used_field : !qd.field<f32> {sym_visibility = "private"}
qd.field @dead_field : !qd.field<f32> {sym_visibility = "private"}
qd.field @public_field : !qd.field<f32>

qd.kernel @helper() attributes {sym_visibility = "private"} {
  %0 = qd.load @used_field[] : f32
  "test.use"(%0) : (f32) -> ()
}

qd.kernel @dead_kernel() attributes {sym_visibility = "private"} {
  %0 = qd.load @used_field[] : f32
  "test.use"(%0) : (f32) -> ()
}

qd.kernel @main() {
  "test.launch"() {kernel = @helper} : () -> ()
}

// -----

// Liveness is transitive, and cycles of dead symbols go together.
// CHECK: // -----
// CHECK-NOT: _dead
// CHECK: qd.field @f
// CHECK-NOT: _dead
// CHECK: qd.kernel @entry
// CHECK-NOT: _dead
qd.field @f : !qd.field<f32> {sym_visibility = "private"}

qd.kernel @a_dead() attributes {sym_visibility = "private"} {
  "test.launch"() {kernel = @b_dead} : () -> ()
}

qd.kernel @b_dead() attributes {sym_visibility = "private"} {
  "test.launch"() {kernel = @a_dead} : () -> ()
}

qd.kernel @entry() {
  %0 = qd.load @f[] : f32
  "test.use"(%0) : (f32) -> ()
}
