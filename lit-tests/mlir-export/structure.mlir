// RUN: qd-translate %s --kernel k --emit=mlir | FileCheck %s
// RUN: qd-translate %s --kernel k --emit=mlir | mlir-opt | FileCheck %s
// RUN: qd-translate %s --kernel k --grad --emit=mlir | FileCheck %s --check-prefix=GRAD
// RUN: qd-translate %s --kernel k --grad --emit=mlir | mlir-opt --convert-scf-to-cf | FileCheck %s --check-prefix=CF
// What a task becomes: a func.func over memrefs, its threads an scf.for from %first to %last,
// the kernel's scalar argument and the fields it names as parameters after the runtime's
// (begin, row, temporaries, the two adstack heaps, metadata, status); a local is a
// memref.alloca in the entry block, zeroed where it was; loops stay structured (scf.for, here
// after the check of its step, which records an error in %status); += on a field is
// memref.atomic_rmw. In the gradient, the loop-carried local is an adstack: typed memref.view
// slices of the float heap (%arg5) at byte offsets computed from %meta (%arg7). mlir-opt takes
// the output as it is, and MLIR's own passes lower it.

// CHECK: func.func @k_task0(%arg0: index, %arg1: index, %arg2: i64, %arg3: i64, %arg4: memref<?xi8>, %arg5: memref<?xi8>, %arg6: memref<?xi8>, %arg7: memref<?xi64>, %arg8: memref<?xi64>, %arg9: i32, %arg10: memref<?xf32>, %arg11: memref<?xf32>) {
// CHECK: %[[A:.*]] = memref.alloca() : memref<1xf32>
// CHECK: %[[L:.*]] = memref.cast %[[A]] : memref<1xf32> to memref<?xf32>
// CHECK: scf.for %{{.*}} = %arg0 to %arg1 step %{{.*}} {
// CHECK: memref.load %arg10[%{{.*}}] : memref<?xf32>
// CHECK: arith.cmpi sle
// CHECK: memref.store %{{.*}}, %arg8[%{{.*}}] : memref<?xi64>
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg9 step %{{.*}} : i32 {
// CHECK: math.sin
// CHECK: memref.atomic_rmw addf %{{.*}}, %arg11[%{{.*}}] : (f32, memref<?xf32>) -> f32
// CHECK-NOT: qd.
// CHECK-NOT: lowered.

// GRAD: func.func @k_grad_task0(
// GRAD-SAME: %arg12: memref<?xf32>)
// GRAD: memref.load %arg7[
// GRAD: memref.view %arg5[%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xi64>
// GRAD: memref.view %arg5[%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xf32>

// CF: func.func @k_grad_task0
// CF-NOT: scf.
// CF: cf.cond_br

module {
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @k(%n: i32) {
    qd.struct_for (%i) in @x {
      %xi = qd.load @x[%i] : f32
      %s = qd.alloca : !qd.ptr<f32>
      qd.local_store %xi, %s : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %o = qd.local_load %s : !qd.ptr<f32>
        %t = math.sin %o : f32
        qd.local_store %t, %s : !qd.ptr<f32>
      }
      %f = qd.local_load %s : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
