// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel tiles --emit=llvm | FileCheck %s
// An index blocked by lanes, as fuse-elementwise's partial kernels make it (thread t reads element
// (t / 16) * 1024 + j * 16 + t % 16 in iteration j): a group of lanes that lies in one block of
// 16 (its first thread >= 0 and a multiple of 16 here, one scalar test, %lblock) has one quotient
// in every lane and remainders l, so the load is one contiguous (masked) vector load; a group
// across blocks gathers (backends/llvm/src/simd/arith.rs, `block`).

// CHECK-LABEL: define {{.*}}i32 @tiles_task0(
// CHECK: %lq = sdiv i32 %{{.*}}, 16
// CHECK: %lr = srem i32 %{{.*}}, 16
// CHECK: %lblock = and i1
// CHECK: for.body:
// CHECK: and i1 %lblock
// CHECK: br i1 %{{.*}}, label %contig, label %gather
// CHECK: contig:
// CHECK: call <{{[0-9]+}} x float> @llvm.masked.load
// CHECK: gather:
// CHECK: call <{{[0-9]+}} x float> @llvm.masked.gather

qd.kernel @tiles(%x: !qd.ndarray<?xf32>, %y: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = arith.constant 64 : i32
  qd.range_for %t = %c0 to %n : i32 {
    %c16 = arith.constant 16 : i32
    %span = arith.constant 1024 : i32
    %q = arith.divsi %t, %c16 : i32
    %r = arith.remsi %t, %c16 : i32
    %start = arith.muli %q, %span : i32
    %acc = qd.alloca : !qd.ptr<f32>
    %zero = arith.constant 0.0 : f32
    qd.local_store %zero, %acc : !qd.ptr<f32>
    %z = arith.constant 0 : i32
    %trip = arith.constant 64 : i32
    qd.range_for %j = %z to %trip : i32 {
      %jb = arith.muli %j, %c16 : i32
      %a = arith.addi %start, %jb : i32
      %i = arith.addi %a, %r : i32
      %v = qd.ndarray_load %x[%i] : !qd.ndarray<?xf32>
      %s = qd.local_load %acc : !qd.ptr<f32>
      %u = arith.addf %s, %v : f32
      qd.local_store %u, %acc : !qd.ptr<f32>
    }
    %f = qd.local_load %acc : !qd.ptr<f32>
    qd.ndarray_store %f, %y[%t] : !qd.ndarray<?xf32>
  }
}
