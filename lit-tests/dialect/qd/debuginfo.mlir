// RUN: qd-opt %s --mlir-print-debuginfo | qd-opt --mlir-print-debuginfo | FileCheck %s
// Op locations survive a round trip through the custom syntax of every qd op family.

// CHECK: qd.field @x : !qd.field<4xf32> {needs_grad} loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:1)
qd.field @x : !qd.field<4xf32> {needs_grad}
// CHECK: qd.kernel @k(
qd.kernel @k(%a: !qd.ndarray<?xf32>, %c: i1) {
  // CHECK: qd.struct_for
  qd.struct_for (%i) in @x {
    // CHECK: qd.load @x[%{{.*}}] : f32 loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:5)
    %v = qd.load @x[%i] : f32
    // CHECK: qd.alloca : !qd.ptr<!qd.struct<f32>> loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:5)
    %s = qd.alloca : !qd.ptr<!qd.struct<f32>>
    // CHECK: qd.member_ptr {{.*}} loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:5)
    %p = qd.member_ptr %s[0] : !qd.ptr<!qd.struct<f32>>
    // CHECK: qd.local_store {{.*}} loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:5)
    qd.local_store %v, %p : !qd.ptr<f32>
    // CHECK: qd.ndarray_shape {{.*}} loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:5)
    %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
    %c0 = arith.constant 0 : i32
    qd.range_for %t = %c0 to %n : i32 {
      qd.if %c {
        // CHECK: qd.break loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:9)
        qd.break
      // CHECK: } loc("{{.*}}debuginfo.mlir":[[@LINE-3]]:7)
      }
    // CHECK: } loc("{{.*}}debuginfo.mlir":[[@LINE-6]]:5)
    }
    // CHECK: qd.atomic_add {{.*}} loc("{{.*}}debuginfo.mlir":[[@LINE+1]]:5)
    qd.atomic_add %v, @x[%i] : f32
  // CHECK: } loc("{{.*}}debuginfo.mlir":[[@LINE-22]]:3)
  }
// CHECK: } loc("{{.*}}debuginfo.mlir":[[@LINE-26]]:1)
}
