// RUN: qd-opt %s | qd-opt | FileCheck %s
// Scalar locals: qd.alloca, qd.local_load, qd.local_store, for float, integer and i1 values.

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%x: f32, %n: i32, %c: i1) {
  // CHECK: %[[P:.*]] = qd.alloca : !qd.ptr<f32>
  %p = qd.alloca : !qd.ptr<f32>
  // CHECK: qd.local_store %[[X:.*]], %[[P]] : !qd.ptr<f32>
  qd.local_store %x, %p : !qd.ptr<f32>
  // CHECK: %[[V:.*]] = qd.local_load %[[P]] : !qd.ptr<f32>
  %v = qd.local_load %p : !qd.ptr<f32>
  // CHECK: %[[Q:.*]] = qd.alloca : !qd.ptr<i32>
  %q = qd.alloca : !qd.ptr<i32>
  // CHECK: qd.local_store %{{.*}}, %[[Q]] : !qd.ptr<i32>
  qd.local_store %n, %q : !qd.ptr<i32>
  // CHECK: %[[B:.*]] = qd.alloca {note = "kept"} : !qd.ptr<i1>
  %b = qd.alloca {note = "kept"} : !qd.ptr<i1>
  // CHECK: qd.local_store %{{.*}}, %[[B]] {note = "kept"} : !qd.ptr<i1>
  qd.local_store %c, %b {note = "kept"} : !qd.ptr<i1>
  // CHECK: qd.local_load %[[B]] {note = "kept"} : !qd.ptr<i1>
  %c2 = qd.local_load %b {note = "kept"} : !qd.ptr<i1>
}
