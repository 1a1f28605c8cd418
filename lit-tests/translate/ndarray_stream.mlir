// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel copy --emit=llvm | FileCheck %s
// An elementwise loop over ndarrays at the thread's (i32) index streams (backends/llvm/src/simd):
// a full group (all W lanes below the task's end) is one scalar test, that the group's lowest and
// highest index are in bounds for both arrays and that the i32 index does not wrap within the
// group, then a plain vector load and a plain vector store: no mask, no index vector. When the
// test fails it runs again as a partial group (as does the last group, its lanes below the end),
// where the same scalar tests guard the per-lane check (which records the lowest failing lane)
// and the masked contiguous accesses, not a comparison of every lane's address. (The full
// group's store has a non-temporal twin for launches that stream: nontemporal.mlir.)

// CHECK-LABEL: define {{.*}}i32 @copy_task0(
// CHECK: group:
// CHECK: %nowrap = icmp slt i32 %{{.*}}, {{2147483633|2147483641|2147483645}}
// CHECK: %hi = add nsw i64 %{{.*}}, {{15|7|3}}
// CHECK: br i1 %{{.*}}, label %full.ok{{[0-9]*}}, label %partial
// CHECK: partial:
// CHECK: %lanes{{[0-9]+}} = phi <{{[0-9]+}} x i1> [ %lanes, %{{.*}} ], [ splat (i1 true), %group ]
// CHECK: br i1 %{{.*}}, label %bounds.ok, label %bounds.lanes
// CHECK: full.ok{{[0-9]*}}:
// CHECK-NOT: {{^[a-z.0-9]+:}}
// CHECK: load <{{[0-9]+}} x float>, ptr
// CHECK: store <{{[0-9]+}} x float>
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
