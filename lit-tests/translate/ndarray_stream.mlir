// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel copy --emit=llvm | FileCheck %s
// An elementwise loop over ndarrays at the thread's (i32) index streams (backends/llvm/src/simd):
// per group of W threads, the bounds checks are one scalar test of the group's lowest and
// highest index (the per-lane check runs only when it fails), and the accesses are contiguous
// vector loads and stores under one scalar test that the i32 index did not wrap within the
// group, not a comparison of every lane's address.

// CHECK-LABEL: define {{.*}}i32 @copy_task0(
// CHECK: group:
// CHECK: %nowrap = icmp slt i32 %{{.*}}, {{2147483633|2147483641|2147483645}}
// CHECK: %hi = add nsw i64 %{{.*}}, {{15|7|3}}
// CHECK: br i1 %{{.*}}, label %bounds.ok, label %bounds.lanes
// CHECK-NOT: %want
// CHECK: contig:
// CHECK-NEXT: add i64
// CHECK-NEXT: inttoptr
// CHECK-NEXT: call <{{[0-9]+}} x float> @llvm.masked.load
// CHECK-NOT: %want
// CHECK: call void @llvm.masked.store
// CHECK-NOT: %want
// CHECK: {{^}}}

qd.kernel @copy(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = arith.constant 4096 : i32
  qd.range_for %i = %c0 to %n : i32 {
    %v = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
    %c = arith.constant 0.0 : f32
    %s = arith.addf %v, %c : f32
    qd.ndarray_store %s, %y[%i] : !qd.ndarray<?xf32>
  }
}
