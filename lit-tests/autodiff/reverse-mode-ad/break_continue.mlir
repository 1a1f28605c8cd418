// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// break and continue. The ops after a jump ran only in iterations that did not take it, so
// their reverse is guarded by `jid == 0 || jid > k`, jid being the number of the jump that
// ended the iteration (0: none) and k the number of jumps before those ops.
// - break: the loop's trip count is the iterations started (counted), and only the last one
//   can have broken; the jump taken is recorded before the break (a local, read after the loop).
// - continue: each iteration pushes its jump number on an i32 stack.

qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%w: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %n = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
    qd.range_for %t = %c0 to %n : i32 {
      %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
      %o = qd.local_load %v : !qd.ptr<f32>
      %lim = arith.constant 3.0 : f32
      %big = arith.cmpf ogt, %o, %lim : f32
      qd.if %big {
        qd.break
      }
      %m = arith.mulf %o, %wt : f32
      qd.local_store %m, %v : !qd.ptr<f32>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}
qd.kernel @c(%w: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %n = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
    qd.range_for %t = %c0 to %n : i32 {
      %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
      %z = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %wt, %z : f32
      qd.if %neg {
        qd.continue
      }
      %o = qd.local_load %v : !qd.ptr<f32>
      %m = arith.mulf %o, %wt : f32
      qd.local_store %m, %v : !qd.ptr<f32>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK: %[[CNT:.*]] = qd.alloca : !qd.ptr<i32>
// CHECK-NEXT: %[[JP:.*]] = qd.alloca : !qd.ptr<i32>
// CHECK-NEXT: qd.range_for
// CHECK-NEXT: %[[N0:.*]] = qd.local_load %[[CNT]]
// CHECK: qd.if %{{.*}} {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: qd.local_store %[[ONE]], %[[JP]] : !qd.ptr<i32>
// CHECK-NEXT: qd.break
// CHECK-NEXT: }
// CHECK: %[[LJ:.*]] = qd.local_load %[[JP]]
// CHECK-NEXT: %[[N:.*]] = qd.local_load %[[CNT]]
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %[[K:.*]] = %[[Z]] to %[[N]] : i32 {
// The first reversed iteration is the last forward one: the only one that can have broken.
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[K]], %[[Z]] : i32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[JID:.*]] = arith.select %[[FIRST]], %[[LJ]], %[[Z2]] : i32
// CHECK-NEXT: %[[Z3:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[J1:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[NONE:.*]] = arith.cmpi eq, %[[JID]], %[[Z3]] : i32
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi sgt, %[[JID]], %[[J1]] : i32
// CHECK-NEXT: %[[RAN:.*]] = arith.ori %[[NONE]], %[[LATER]] : i1
// CHECK-NEXT: qd.if %[[RAN]] {
// CHECK-NEXT: adstack.load_top_adj
// CHECK-NEXT: adstack.pop
// CHECK: }

// CHECK-LABEL: qd.kernel @c_grad(
// CHECK: %[[JS:.*]] = adstack.alloca : i32
// CHECK: qd.range_for
// CHECK: qd.if %{{.*}} {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: adstack.push %[[JS]], %[[ONE]] : i32
// CHECK-NEXT: qd.continue
// CHECK-NEXT: }
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: adstack.push %[[JS]], %[[ZERO]] : i32
// CHECK-NEXT: }
// CHECK: qd.range_for
// CHECK: %[[JID:.*]] = adstack.load_top %[[JS]] : i32
// CHECK: %[[NONE:.*]] = arith.cmpi eq, %[[JID]]
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi sgt, %[[JID]]
// CHECK-NEXT: %[[RAN:.*]] = arith.ori %[[NONE]], %[[LATER]] : i1
// CHECK-NEXT: qd.if %[[RAN]] {
// CHECK: }
// CHECK: adstack.pop %[[JS]] : i32
// CHECK-NEXT: }
