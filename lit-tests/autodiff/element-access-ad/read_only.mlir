// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// A read-only array (filled once, then only read) saves nothing at all: no store overwrites
// what the reverse pass reads back, so both loaded elements are re-read from the array in
// reverse, and the accumulator needs no stack either. (examples/grad/element_read_only.mlir
// checks the gradient.)

qd.field @x : !qd.field<3x8xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %c8 = arith.constant 8 : i32
  %c21 = arith.constant 21 : i32
  qd.range_for %r = %c0 to %c3 : i32 {
    %a = qd.alloca : !qd.ptr<!qd.array<8xf32>>
    %acc = qd.alloca : !qd.ptr<f32>
    qd.range_for %k = %c0 to %c8 : i32 {
      %v = qd.load @x[%r, %k] : f32
      %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<8xf32>>
      qd.local_store %v, %p : !qd.ptr<f32>
    }
    qd.range_for %t = %c0 to %c21 : i32 {
      %j = arith.remsi %t, %c8 : i32
      %t3 = arith.addi %t, %c3 : i32
      %jn = arith.remsi %t3, %c8 : i32
      %p = qd.elem_ptr %a[%j] : !qd.ptr<!qd.array<8xf32>>
      %q = qd.elem_ptr %a[%jn] : !qd.ptr<!qd.array<8xf32>>
      %u = qd.local_load %p : !qd.ptr<f32>
      %w = qd.local_load %q : !qd.ptr<f32>
      %s = math.sin %u : f32
      %sw = arith.mulf %s, %w : f32
      %o = qd.local_load %acc : !qd.ptr<f32>
      %no = arith.addf %o, %sw : f32
      qd.local_store %no, %acc : !qd.ptr<f32>
    }
    %f = qd.local_load %acc : !qd.ptr<f32>
    qd.store %f, @y[%r] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad()
// CHECK-NOT: adstack
// CHECK: %[[DA:.*]] = qd.alloca : !qd.ptr<!qd.array<8xf32>>
// CHECK: %[[A:.*]] = qd.alloca : !qd.ptr<!qd.array<8xf32>>
// CHECK-NOT: adstack
// The forward replay of the t loop reads the two elements; its reverse re-reads them.
// CHECK: qd.range_for
// CHECK: qd.range_for
// CHECK: ad.load_element %[[A]]
// CHECK-NEXT: ad.load_element %[[A]]
// CHECK: qd.range_for
// CHECK: %[[J:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: ad.load_element %[[A]][%[[J]]] : !qd.ptr<!qd.array<8xf32>>
// CHECK: %[[JN:.*]] = arith.remsi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: ad.load_element %[[A]][%[[JN]]] : !qd.ptr<!qd.array<8xf32>>
// The adjoints go to the slots of the adjoint array.
// CHECK: ad.store_element %{{.*}}, %[[DA]][%[[JN]]]
// CHECK: ad.store_element %{{.*}}, %[[DA]][%[[J]]]
// CHECK-NOT: adstack
