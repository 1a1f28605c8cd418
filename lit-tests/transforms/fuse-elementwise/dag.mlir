// A diamond of same-shape ops is one kernel that loads the shared input once; an op of another
// shape has its own kernel. An op that needs a value computed outside the group from the group's
// own result (a reduction of it) cannot join the group (that would be a cycle): it starts a
// kernel of its own.
// RUN: qd-opt %s --pass=fuse-elementwise | FileCheck %s

// CHECK-LABEL: qd.kernel @dag_k0(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[R:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[OUT:[a-z0-9]+]]: !qd.ndarray<?xf32>)
// The broadcast input (shared by the rows) is the one parameter whose elements several threads
// read: its adjoint alone keeps atomic accumulation in the gradient.
// CHECK-SAME: attributes {fusion.exclusive = "101"}
// CHECK: qd.range_for %[[I:.*]] = %{{.*}} to %c32_i32 : i32 {
// CHECK-NEXT: %[[XI:.*]] = qd.ndarray_load %[[X]][%[[I]]]
// CHECK-NEXT: %[[E:.*]] = math.exp %[[XI]] : f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[XI]] : f32
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[E]], %[[T]] : f32
// CHECK: qd.ndarray_load %[[R]]
// CHECK: %[[S:.*]] = arith.subf %[[M]], %{{.*}} : f32
// CHECK-NEXT: qd.ndarray_store %[[S]], %[[OUT]][%[[I]]]
// CHECK-LABEL: qd.kernel @dag_k1(
// CHECK: arith.addf
// CHECK-LABEL: func.func @dag(
// CHECK-NEXT: %[[W2:.*]] = ndarray.launch @dag_k1(%arg1) : !ndarray.array<1x8xf32> -> !ndarray.array<1x8xf32>
// CHECK-NEXT: %[[Y:.*]] = ndarray.launch @dag_k0(%arg0, %[[W2]]) : !ndarray.array<4x8xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @dag(%x: !ndarray.array<4x8xf32>, %w: !ndarray.array<1x8xf32>) -> !ndarray.array<4x8xf32> {
  %e = ndarray.exp %x : !ndarray.array<4x8xf32>
  %t = ndarray.tanh %x : !ndarray.array<4x8xf32>
  %m = ndarray.mul %e, %t : !ndarray.array<4x8xf32>, !ndarray.array<4x8xf32> -> !ndarray.array<4x8xf32>
  %r = ndarray.add %w, %w : !ndarray.array<1x8xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<1x8xf32>
  %s = ndarray.sub %m, %r : !ndarray.array<4x8xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
  return %s : !ndarray.array<4x8xf32>
}

// CHECK-LABEL: qd.kernel @normalize_k0(
// CHECK: math.exp
// CHECK-NOT: arith.subf
// CHECK-LABEL: qd.kernel @normalize_k0_reduce(
// CHECK-LABEL: qd.kernel @normalize_k1(
// CHECK: arith.subf
// CHECK-LABEL: func.func @normalize(
// CHECK-NEXT: %[[P:.*]]:2 = ndarray.launch @normalize_k0(%arg0)
// CHECK-NEXT: %[[SUM:.*]] = ndarray.launch @normalize_k0_reduce(%[[P]]#1)
// CHECK-NEXT: %[[D:.*]] = ndarray.launch @normalize_k1(%[[P]]#0, %[[SUM]])
// CHECK-NEXT: return %[[D]]
func.func @normalize(%x: !ndarray.array<4x8xf32>) -> !ndarray.array<4x8xf32> {
  %a = ndarray.exp %x : !ndarray.array<4x8xf32>
  %r = ndarray.sum %a {axis = 0} : !ndarray.array<4x8xf32> -> !ndarray.array<8xf32>
  %s = ndarray.sub %a, %r : !ndarray.array<4x8xf32>, !ndarray.array<8xf32> -> !ndarray.array<4x8xf32>
  return %s : !ndarray.array<4x8xf32>
}
