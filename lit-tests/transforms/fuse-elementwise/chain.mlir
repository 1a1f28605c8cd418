// A chain with a broadcast input and a scalar constant, ending in a sum: one partial kernel (one
// parallel loop, each input loaded once per element, the chain in registers, the elementwise
// output stored once, the sum accumulated in a local) and one reduce kernel.
// RUN: qd-opt %s --pass=fuse-elementwise | FileCheck %s
// RUN: qd-opt %s --pass='fuse-elementwise{fuse=false}' | FileCheck %s --check-prefix=UNFUSED

// CHECK-LABEL: qd.kernel @chain_k0(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[B:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[Y:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[P:[a-z0-9]+]]: !qd.ndarray<?xf32>)
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: qd.range_for %[[T:.*]] = {{.*}} : i32 {
// CHECK: %[[ACC:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK: qd.range_for %{{.*}} = {{.*}} : i32 {
// CHECK: %[[XI:.*]] = qd.ndarray_load %[[X]][%[[I:.*]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[XI]], %[[TWO]] : f32
// CHECK: %[[J:.*]] = arith.remsi %[[I]], %c8_i32 : i32
// CHECK-NEXT: %[[BI:.*]] = qd.ndarray_load %[[B]][%[[J]]] : !qd.ndarray<?xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[M]], %[[BI]] : f32
// CHECK: %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// CHECK-NEXT: qd.ndarray_store %[[R]], %[[Y]][%[[I]]] : !qd.ndarray<?xf32>
// CHECK: arith.addf %{{.*}}, %[[R]] : f32
// CHECK: qd.ndarray_store %{{.*}}, %[[P]][%[[T]]] : !qd.ndarray<?xf32>
// CHECK-NOT: qd.ndarray_load
// CHECK-LABEL: qd.kernel @chain_k0_reduce(
// CHECK-LABEL: func.func @chain(
// CHECK: %[[L:.*]]:2 = ndarray.launch @chain_k0(%{{.*}}, %{{.*}}) : !ndarray.array<4x8xf32>, !ndarray.array<8xf32> -> !ndarray.array<4x8xf32>, !ndarray.array<1xf32>
// CHECK-NEXT: %[[SUM:.*]] = ndarray.launch @chain_k0_reduce(%[[L]]#1) : !ndarray.array<1xf32> -> !ndarray.array<f32>
// CHECK-NEXT: return %[[L]]#0, %[[SUM]]

// Unfused: one kernel per op (mul, add, relu, and the sum's partial + reduce).
// UNFUSED-COUNT-5: qd.kernel @
// UNFUSED-NOT: qd.kernel @
// UNFUSED: ndarray.launch @chain_k0(
// UNFUSED: ndarray.launch @chain_k1(
// UNFUSED: ndarray.launch @chain_k2(
// UNFUSED: ndarray.launch @chain_k3(
// UNFUSED: ndarray.launch @chain_k3_reduce(
func.func @chain(%x: !ndarray.array<4x8xf32>, %b: !ndarray.array<8xf32>) -> (!ndarray.array<4x8xf32>, !ndarray.array<f32>) {
  %c = arith.constant 2.0 : f32
  %0 = ndarray.mul %x, %c : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
  %1 = ndarray.add %0, %b : !ndarray.array<4x8xf32>, !ndarray.array<8xf32> -> !ndarray.array<4x8xf32>
  %2 = ndarray.relu %1 : !ndarray.array<4x8xf32>
  %3 = ndarray.sum %2 : !ndarray.array<4x8xf32> -> !ndarray.array<f32>
  return %2, %3 : !ndarray.array<4x8xf32>, !ndarray.array<f32>
}
