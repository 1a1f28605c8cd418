// RUN: qd-translate %s --kernel k --emit=mlir | FileCheck %s
// RUN: qd-translate %s --kernel k --emit=mlir | mlir-opt | FileCheck %s
// Deadlines (docs/timeouts.md): a task with a while loop takes the address of the launch's cancel
// flag (%arg9, an i64, after %status); the scf.while carries "cancelled at the last back edge"
// (false on entry), its condition runs only while that is false, and the back edge (the end of
// the do region) is the one place that reads the flag: an atomic load that LLVM neither hoists
// nor merges, and when it is set the loop's error site (0) and the thread go into %status (%arg8).
// A task without a while loop neither takes nor reads the flag.

// CHECK-LABEL: func.func @k_task0(
// CHECK-SAME: %arg8: memref<?xi64>, %arg9: i64, %arg10: f32, %arg11: memref<?xf32>)
// CHECK-NOT: llvm.
// CHECK: %[[W:.*]] = scf.while (%[[S:.*]] = %false) : (i1) -> i1 {
// CHECK-NOT: llvm.
// CHECK: %[[GO:.*]] = arith.xori %[[S]], %true : i1
// CHECK-NEXT: %[[C:.*]] = scf.if %[[GO]] -> (i1) {
// CHECK-NOT: llvm.
// CHECK: scf.condition(%[[C]]) %[[S]] : i1
// CHECK-NEXT: } do {
// CHECK-NOT: llvm.
// CHECK: %[[P:.*]] = llvm.inttoptr %arg9 : i64 to !llvm.ptr
// CHECK-NEXT: %[[F:.*]] = llvm.load %[[P]] atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
// CHECK-NEXT: %[[X:.*]] = arith.cmpi ne, %[[F]], %{{.*}} : i32
// CHECK-NEXT: scf.if %[[X]] {
// CHECK-NEXT: memref.store %{{.*}}, %arg8[%{{.*}}] : memref<?xi64>
// CHECK-NEXT: memref.store %{{.*}}, %arg8[%{{.*}}] : memref<?xi64>
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield %[[X]] : i1
// CHECK-NEXT: }
// CHECK-NOT: llvm.
// CHECK-LABEL: func.func @k_task1(
// CHECK-SAME: %arg8: memref<?xi64>, %arg9: f32, %arg10: memref<?xf32>)
// CHECK-NOT: llvm.

module {
  qd.field @y : !qd.field<8xf32>
  qd.kernel @k(%limit: f32) {
    %c0 = arith.constant 0 : i32
    %c8 = arith.constant 8 : i32
    qd.range_for %i = %c0 to %c8 : i32 {
      %v = qd.alloca : !qd.ptr<f32>
      %z = arith.constant 0.0 : f32
      qd.local_store %z, %v : !qd.ptr<f32>
      qd.while {
        %o = qd.local_load %v : !qd.ptr<f32>
        %go = arith.cmpf olt, %o, %limit : f32
        qd.condition %go
      } do {
        %o = qd.local_load %v : !qd.ptr<f32>
        %h = arith.constant 0.5 : f32
        %n = arith.mulf %o, %h : f32
        qd.local_store %n, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
    }
    qd.range_for %i = %c0 to %c8 : i32 {
      qd.store %limit, @y[%i] : f32
    }
  }
}
