// RUN: qd-opt %S/../../../examples/triangular.mlir --pass=reverse-mode-ad | FileCheck %s
// examples/triangular.mlir: the inner loop's bound is the outer serial loop's index, so the
// reversed inner loop runs over the reversed outer index (lo + count - 1 - k), recomputed, with
// no stack for it; v is one stack (pushed sum over j of (1 + j) times, plus its zero).

// CHECK-LABEL: qd.kernel @compute_grad()
// CHECK-NEXT: qd.struct_for (%[[I:.*]]) in @x {
// CHECK-NEXT: %[[V:.*]] = adstack.alloca : f32
// CHECK-NOT: adstack.alloca
// CHECK: %[[M:.*]] = qd.load @m[] : i32
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT: qd.range_for %[[J:.*]] = %[[C0]] to %[[M]] : i32 {
// CHECK: qd.range_for %{{.*}} = %[[C0]] to %[[J]] : i32 {
// CHECK: math.tanh
// CHECK: %[[D:.*]] = arith.subi %[[M]], %[[C0]] : i32
// CHECK: %[[CNT:.*]] = arith.maxsi %[[D]]
// CHECK: qd.range_for %[[K:.*]] = %{{.*}} to %[[CNT]] : i32 {
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[CNT]], %[[ONE]] : i32
// CHECK-NEXT: %[[LIN:.*]] = arith.subi %[[LAST]], %[[K]] : i32
// CHECK-NEXT: %[[JR:.*]] = arith.addi %[[C0]], %[[LIN]] : i32
// CHECK-NEXT: %[[DY:.*]] = ad.load_field_adjoint @y[] : f32
// CHECK-NEXT: adstack.acc_adjoint %[[V]], %[[DY]] : f32
// CHECK-NEXT: %[[D2:.*]] = arith.subi %[[JR]], %[[C0]] : i32
// CHECK: %[[CNT2:.*]] = arith.maxsi %[[D2]]
// CHECK: qd.range_for %{{.*}} = %{{.*}} to %[[CNT2]] : i32 {
// The tanh rule reads its result: recomputed from the stack's top.
// CHECK: %[[T:.*]] = adstack.load_top %[[V]] : f32
// CHECK-NEXT: %[[TH:.*]] = math.tanh %[[T]] : f32
// CHECK-NEXT: arith.mulf %[[TH]], %[[TH]]
// CHECK: adstack.acc_adjoint %[[V]]
// CHECK-NEXT: }
// CHECK-NEXT: %[[GX:.*]] = adstack.load_top_adj %[[V]] : f32
// CHECK-NEXT: adstack.pop %[[V]] : f32
// CHECK-NEXT: ad.acc_field_adjoint %[[GX]], @x[%[[I]]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: adstack.pop %[[V]] : f32
