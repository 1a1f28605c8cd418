// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s

// GENERIC: %[[P:.*]] = "qd.alloca"() : () -> !qd.ptr<f32>
// GENERIC: "qd.local_store"(%[[X:.*]], %[[P]]) : (f32, !qd.ptr<f32>) -> ()
// GENERIC: %{{.*}} = "qd.local_load"(%[[P]]) : (!qd.ptr<f32>) -> f32
// CHECK: %[[P:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK: qd.local_store %{{.*}}, %[[P]] : !qd.ptr<f32>
// CHECK: qd.local_load %[[P]] : !qd.ptr<f32>
qd.kernel @k(%x: f32) {
  %p = qd.alloca : !qd.ptr<f32>
  qd.local_store %x, %p : !qd.ptr<f32>
  %v = qd.local_load %p : !qd.ptr<f32>
}
