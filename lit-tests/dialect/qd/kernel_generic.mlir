// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// qd.kernel in the generic form: sym_name and function_type properties, the body region's entry
// block arguments are the kernel arguments.

// GENERIC: "qd.kernel"() <{function_type = (!qd.ndarray<?xf32>, f32) -> (), sym_name = "k"}> ({
// GENERIC-NEXT: ^bb0(%[[A:.*]]: !qd.ndarray<?xf32>, %[[S:.*]]: f32):
// GENERIC: "qd.ndarray_store"(%[[S]], %[[A]], %{{.*}}) : (f32, !qd.ndarray<?xf32>, i32) -> ()
// GENERIC: }) {note = "kept"} : () -> ()
// GENERIC: "qd.kernel"() <{function_type = () -> (), sym_name = "none"}> ({
// CHECK-LABEL: qd.kernel @k(
// CHECK-SAME: %[[A:.*]]: !qd.ndarray<?xf32>, %[[S:.*]]: f32) attributes {note = "kept"} {
// CHECK: qd.ndarray_store %[[S]], %[[A]][%{{.*}}] : !qd.ndarray<?xf32>
// CHECK-LABEL: qd.kernel @none() {
qd.kernel @k(%a: !qd.ndarray<?xf32>, %s: f32) attributes {note = "kept"} {
  %c0 = arith.constant 0 : i32
  qd.ndarray_store %s, %a[%c0] : !qd.ndarray<?xf32>
}
"qd.kernel"() <{function_type = () -> (), sym_name = "none"}> ({
}) : () -> ()
