// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Serial range_for loops with dynamic bounds: a field load (@n), an ndarray read at an
// enclosing loop's index (%a[%j]), an ndarray shape, and arithmetic of these (lo = j + 1,
// hi = min(a[j], shape)). Each reversed loop runs max(hi - lo, 0) times over the recomputed
// bounds, its induction variable is lo + (count - 1 - k), and no bound needs a stack: they are
// recomputed in the reverse body from the reversed outer index.

qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xi32>, %w: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %ai = qd.ndarray_load %a[%j] : !qd.ndarray<?xi32>
      %lo = arith.addi %j, %c1 : i32
      %len = qd.ndarray_shape %w, 0 : !qd.ndarray<?xf32>
      %hi = arith.minsi %ai, %len : i32
      qd.range_for %t = %lo to %hi : i32 {
        %wt = qd.ndarray_load %w[%t] : !qd.ndarray<?xf32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %m = arith.mulf %o, %wt : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK-SAME: %[[A:[^:]*]]: !qd.ndarray<?xi32>, %[[W:[^:]*]]: !qd.ndarray<?xf32>, %[[DW:[^:]*]]: !qd.ndarray<?xf32>)
// CHECK: %[[V:.*]] = adstack.alloca : f32
// CHECK-NOT: adstack.alloca
// CHECK: %[[N:.*]] = qd.load @n[] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
// Forward: the loops as written.
// CHECK-NEXT: qd.range_for %[[J:.*]] = %[[C0]] to %[[N]] : i32 {
// CHECK: qd.range_for %{{.*}} = %{{.*}} to %{{.*}} : i32 {
// CHECK: adstack.push %[[V]]
// Reverse of the outer loop: count from the field load.
// CHECK: %[[D:.*]] = arith.subi %[[N]], %[[C0]] : i32
// CHECK: %[[CNT:.*]] = arith.maxsi %[[D]], %{{.*}} : i32
// CHECK: qd.range_for %[[K:.*]] = %{{.*}} to %[[CNT]] : i32 {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[CNT]], %[[ONE]] : i32
// CHECK-NEXT: %[[LIN:.*]] = arith.subi %[[LAST]], %[[K]] : i32
// CHECK-NEXT: %[[JR:.*]] = arith.addi %[[C0]], %[[LIN]] : i32
// The inner bounds, recomputed from the reversed j.
// CHECK-NEXT: %[[LO:.*]] = arith.addi %[[JR]], %[[C1]] : i32
// CHECK-NEXT: %[[AJ:.*]] = qd.ndarray_load %[[A]][%[[JR]]]
// CHECK-NEXT: %[[LEN:.*]] = qd.ndarray_shape %[[W]], 0
// CHECK-NEXT: %[[HI:.*]] = arith.minsi %[[AJ]], %[[LEN]] : i32
// CHECK-NEXT: %[[D2:.*]] = arith.subi %[[HI]], %[[LO]] : i32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[CNT2:.*]] = arith.maxsi %[[D2]], %[[Z]] : i32
// CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %[[K2:.*]] = %[[Z2]] to %[[CNT2]] : i32 {
// CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[LAST2:.*]] = arith.subi %[[CNT2]], %[[ONE2]] : i32
// CHECK-NEXT: %[[LIN2:.*]] = arith.subi %[[LAST2]], %[[K2]] : i32
// CHECK-NEXT: %[[T:.*]] = arith.addi %[[LO]], %[[LIN2]] : i32
// CHECK-NEXT: %[[G:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: %[[O:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[WT:.*]] = qd.ndarray_load %[[W]][%[[T]]]
// CHECK-NEXT: %[[GO:.*]] = arith.mulf %[[G]], %[[WT]] : f32
// CHECK-NEXT: %[[GW:.*]] = arith.mulf %[[G]], %[[O]] : f32
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[GO]] : f32
// CHECK-NEXT: ad.acc_ndarray_adjoint %[[GW]], %[[DW]][%[[T]]]
// CHECK-NEXT: }
// CHECK-NEXT: }
