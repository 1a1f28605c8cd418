// REQUIRES: qd-translate, x86
// RUN: qd-translate %s --kernel scale --emit=llvm | FileCheck %s
// RUN: qd-translate %s --kernel inplace --emit=llvm | FileCheck %s --check-prefix=INPLACE
// Streaming stores (backends/llvm/src/simd/driver.rs): a loop-free task that writes an ndarray
// it does not read stores its full groups non-temporally when the launch streams (the context's
// bound per thread, compared once in the entry block, against the 8 bytes a thread writes) and
// the group's address is aligned; else, and in the partial group, the store is the usual one.
// A call that may have streamed ends with an sfence. A task that reads what it writes (in
// place) keeps plain stores and has no fence.

// CHECK-LABEL: define {{.*}}i32 @scale_task0(
// CHECK: %streams = icmp {{ult|ule}} i64 %w{{[0-9]+}}, {{8|9}}
// CHECK: nt.store:
// CHECK-NEXT: store <{{[0-9]+}} x double> %{{[a-z0-9.]+}}, ptr %{{[a-z0-9.]+}}, align {{32|64}}, !nontemporal
// CHECK: nt.not:
// CHECK-NEXT: store <{{[0-9]+}} x double> %{{[a-z0-9.]+}}, ptr %{{[a-z0-9.]+}}, align 8{{$}}
// CHECK: call void @llvm.masked.store
// CHECK: fence{{[0-9]*}}:
// CHECK-NEXT: call void @llvm.x86.sse.sfence()

// INPLACE-LABEL: define {{.*}}i32 @inplace_task0(
// INPLACE-NOT: nontemporal
// INPLACE-NOT: sfence
// INPLACE: {{^}}}

qd.kernel @scale(%x: !qd.ndarray<?xf64>, %y: !qd.ndarray<?xf64>) {
  %c0 = arith.constant 0 : i32
  %n = arith.constant 4096 : i32
  qd.range_for %i = %c0 to %n : i32 {
    %v = qd.ndarray_load %x[%i] : !qd.ndarray<?xf64>
    %c = arith.constant 2.0 : f64
    %s = arith.mulf %v, %c : f64
    qd.ndarray_store %s, %y[%i] : !qd.ndarray<?xf64>
  }
}

qd.kernel @inplace(%x: !qd.ndarray<?xf64>) {
  %c0 = arith.constant 0 : i32
  %n = arith.constant 4096 : i32
  qd.range_for %i = %c0 to %n : i32 {
    %v = qd.ndarray_load %x[%i] : !qd.ndarray<?xf64>
    %c = arith.constant 2.0 : f64
    %s = arith.mulf %v, %c : f64
    qd.ndarray_store %s, %x[%i] : !qd.ndarray<?xf64>
  }
}
