// RUN: qd-opt %s | qd-opt | FileCheck %s
// qd.kernel: a symbol whose body block takes the kernel's arguments (scalars and ndarrays);
// discardable attributes go after `attributes`.

// CHECK-LABEL: qd.kernel @empty() {
// CHECK-NEXT: }
qd.kernel @empty() {
}

// CHECK-LABEL: qd.kernel @scalars(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f64, %{{.*}}: i64) {
qd.kernel @scalars(%a: f32, %b: i32, %c: f64, %d: i64) {
}

// CHECK-LABEL: qd.kernel @uses_args(
// CHECK-SAME: %[[A:.*]]: !qd.ndarray<?xf32>, %[[S:.*]]: f32) {
// CHECK: qd.ndarray_store %[[S]], %[[A]][%{{.*}}] : !qd.ndarray<?xf32>
qd.kernel @uses_args(%a: !qd.ndarray<?xf32>, %s: f32) {
  %c0 = arith.constant 0 : i32
  qd.ndarray_store %s, %a[%c0] : !qd.ndarray<?xf32>
}

// CHECK-LABEL: qd.kernel @attrs() attributes {note = "kept"} {
qd.kernel @attrs() attributes {note = "kept"} {
}
