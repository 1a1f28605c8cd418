// RUN: qd-opt %s -split-input-file --pass=reverse-mode-ad,minimize-tape | FileCheck %s
// What the reverse pass stores and what it recomputes (passes/autodiff/src/tape.rs):
// 1. a cheap chain whose operands are available, t = x*x + 1 feeding sin(t) in a serial loop over
//    the stacked local v (x read from a field the kernel does not write), is recomputed in
//    reverse, not taped: the gradient kernel has v's stack and no other;
// 2. a load of memory the kernel changes (the local w, w = w + 1 every iteration) is taped on a
//    stack of its own and read back with load_top, never re-read from w; v = v * w needs only w
//    in reverse, so minimize-tape elides v's stack and keeps w's tape.
// (A field the kernel both reads and writes is a compile error, see field_written.mlir.)

// CHECK-LABEL: qd.kernel @compute_grad
// CHECK-NEXT: qd.struct_for
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32{{$}}
// CHECK-NOT: adstack.alloca
// CHECK: qd.range_for
// CHECK: qd.range_for
// CHECK-NEXT: adstack.load_top_adj %[[S]]
// CHECK-NEXT: adstack.pop %[[S]]
// CHECK-NEXT: %[[V:.*]] = adstack.load_top %[[S]]
// CHECK-NEXT: %[[X:.*]] = qd.load @x[%arg0]
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[SQ]],
// CHECK-NEXT: math.sin %[[T]]
// CHECK: math.cos %[[T]]
// CHECK-NOT: adstack.alloca

qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @compute() {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %v = qd.alloca : !qd.ptr<f32>
    qd.local_store %x_i, %v : !qd.ptr<f32>
    %w = qd.alloca : !qd.ptr<f32>
    %one = arith.constant 1.0 : f32
    qd.local_store %one, %w : !qd.ptr<f32>
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %a = qd.local_load %v : !qd.ptr<f32>
      %xx = qd.load @x[%i] : f32
      %sq = arith.mulf %xx, %xx : f32
      %t = arith.addf %sq, %one : f32
      %s = math.sin %t : f32
      %m = arith.mulf %a, %s : f32
      qd.local_store %m, %v : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %r, @y[] : f32
  }
}

// -----

// CHECK-LABEL: qd.kernel @compute_grad
// CHECK-NEXT: qd.struct_for
// CHECK-NEXT: adstack.alloca : f32 {max_size = 0, primal_elided}
// CHECK: %[[W:.*]] = adstack.alloca : f32{{$}}
// CHECK: %[[WL:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK: qd.range_for
// CHECK: %[[B:.*]] = qd.local_load %[[WL]]
// CHECK-NEXT: adstack.push %[[W]], %[[B]]
// CHECK: qd.range_for
// CHECK-NOT: qd.local_load %[[WL]]
// CHECK: adstack.load_top %[[W]]
// CHECK-NOT: qd.local_load %[[WL]]
// CHECK: adstack.pop %[[W]]
// CHECK-NOT: qd.local_load %[[WL]]
// CHECK: ad.acc_field_adjoint

qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @compute() {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %v = qd.alloca : !qd.ptr<f32>
    qd.local_store %x_i, %v : !qd.ptr<f32>
    %w = qd.alloca : !qd.ptr<f32>
    %one = arith.constant 1.0 : f32
    qd.local_store %one, %w : !qd.ptr<f32>
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %a = qd.local_load %v : !qd.ptr<f32>
      %b = qd.local_load %w : !qd.ptr<f32>
      %m = arith.mulf %a, %b : f32
      qd.local_store %m, %v : !qd.ptr<f32>
      %b2 = arith.addf %b, %one : f32
      qd.local_store %b2, %w : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %r, @y[] : f32
  }
}
