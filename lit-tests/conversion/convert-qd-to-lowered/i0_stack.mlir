// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// An adstack of i0 (found by the passes fuzz target): its zero is the i0 constant 0; building it
// shifted by 64 bits and panicked. The runtime refuses i0 stacks with a located error.

// CHECK-LABEL: lowered.kernel @k
// CHECK: arith.constant 0 : i0
// CHECK: lowered.store %{{.*}} : !lowered.ptr<i0>
qd.kernel @k() {
  %u = adstack.alloca : i0 {id = 0}
}
