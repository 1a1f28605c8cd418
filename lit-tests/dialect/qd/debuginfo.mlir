// RUN: qd-opt %s --mlir-print-debuginfo | qd-opt --mlir-print-debuginfo | FileCheck %s
// Op locations survive a round trip through the custom syntax of every qd op family. As mlir-opt,
// an op's location is the position of its name and prints as an alias defined after the module.

// CHECK: qd.field @x : !qd.field<4xf32> {needs_grad} loc([[L1:#loc[0-9]*]])
qd.field @x : !qd.field<4xf32> {needs_grad}
// CHECK: qd.kernel @k(
qd.kernel @k(%a: !qd.ndarray<?xf32>, %c: i1) {
  // CHECK: qd.struct_for
  qd.struct_for (%i) in @x {
    // CHECK: qd.load @x[%{{.*}}] : f32 loc([[L2:#loc[0-9]*]])
    %v = qd.load @x[%i] : f32
    // CHECK: qd.alloca : !qd.ptr<!qd.struct<f32>> loc([[L3:#loc[0-9]*]])
    %s = qd.alloca : !qd.ptr<!qd.struct<f32>>
    // CHECK: qd.member_ptr {{.*}} loc([[L4:#loc[0-9]*]])
    %p = qd.member_ptr %s[0] : !qd.ptr<!qd.struct<f32>>
    // CHECK: qd.local_store {{.*}} loc([[L5:#loc[0-9]*]])
    qd.local_store %v, %p : !qd.ptr<f32>
    // CHECK: qd.ndarray_shape {{.*}} loc([[L6:#loc[0-9]*]])
    %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
    %c0 = arith.constant 0 : i32
    qd.range_for %t = %c0 to %n : i32 {
      qd.if %c {
        // CHECK: qd.break loc([[L7:#loc[0-9]*]])
        qd.break
      // CHECK: } loc([[L8:#loc[0-9]*]])
      }
    // CHECK: } loc([[L9:#loc[0-9]*]])
    }
    // CHECK: qd.atomic_add {{.*}} loc([[L10:#loc[0-9]*]])
    qd.atomic_add %v, @x[%i] : f32
  // CHECK: } loc([[L11:#loc[0-9]*]])
  }
// CHECK: } loc([[L12:#loc[0-9]*]])
}
// CHECK-DAG: [[L1]] = loc("{{.*}}debuginfo.mlir":6:1)
// CHECK-DAG: [[L2]] = loc("{{.*}}debuginfo.mlir":12:10)
// CHECK-DAG: [[L3]] = loc("{{.*}}debuginfo.mlir":14:10)
// CHECK-DAG: [[L4]] = loc("{{.*}}debuginfo.mlir":16:10)
// CHECK-DAG: [[L5]] = loc("{{.*}}debuginfo.mlir":18:5)
// CHECK-DAG: [[L6]] = loc("{{.*}}debuginfo.mlir":20:10)
// CHECK-DAG: [[L7]] = loc("{{.*}}debuginfo.mlir":25:9)
// CHECK-DAG: [[L8]] = loc("{{.*}}debuginfo.mlir":23:7)
// CHECK-DAG: [[L9]] = loc("{{.*}}debuginfo.mlir":22:5)
// CHECK-DAG: [[L10]] = loc("{{.*}}debuginfo.mlir":31:5)
// CHECK-DAG: [[L11]] = loc("{{.*}}debuginfo.mlir":10:3)
// CHECK-DAG: [[L12]] = loc("{{.*}}debuginfo.mlir":8:1)
