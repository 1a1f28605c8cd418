// The fused loss pattern: weighted BCE + weighted smooth-L1 over pred, target, heat_weight and
// reg_weight becomes one detection_loss primitive (its backward analytic, so it stays one
// scalar_apply for reverse-mode-ad) and one sum: a partial kernel that reads each input once and
// a reduce kernel. Without patterns the same ops fuse generically (no primitive).
// RUN: qd-opt %s --pass=fuse-elementwise | FileCheck %s
// RUN: qd-opt %s --pass='fuse-elementwise{patterns=false}' | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: qd.kernel @loss_k0(
// CHECK-SAME: %[[P:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[T:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[HW:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[RW:[a-z0-9]+]]: !qd.ndarray<?xf32>, %[[PART:[a-z0-9]+]]: !qd.ndarray<?xf32>)
// CHECK: %[[PI:.*]] = qd.ndarray_load %[[P]]
// CHECK-NEXT: %[[TI:.*]] = qd.ndarray_load %[[T]]
// CHECK-NEXT: %[[HI:.*]] = qd.ndarray_load %[[HW]]
// CHECK-NEXT: %[[RI:.*]] = qd.ndarray_load %[[RW]]
// CHECK-NEXT: %[[L:.*]] = ndarray.scalar_apply "detection_loss"(%[[PI]], %[[TI]], %[[HI]], %[[RI]]) : f32, f32, f32, f32 -> f32
// CHECK-NOT: qd.ndarray_load
// CHECK: arith.addf %{{.*}}, %[[L]] : f32
// CHECK-LABEL: qd.kernel @loss_k0_reduce(
// CHECK-LABEL: func.func @loss(
// CHECK-NEXT: %[[PS:.*]] = ndarray.launch @loss_k0(%arg0, %arg1, %arg2, %arg3)
// CHECK-NEXT: %[[S:.*]] = ndarray.launch @loss_k0_reduce(%[[PS]])
// CHECK-NEXT: return %[[S]] : !ndarray.array<f32>

// GENERIC-NOT: detection_loss
// GENERIC: math.log
// GENERIC: arith.select
// GENERIC: ndarray.launch @loss_k0(
func.func @loss(%p: !ndarray.array<64x32xf32>, %t: !ndarray.array<64x32xf32>, %hw: !ndarray.array<64x32xf32>, %rw: !ndarray.array<64x32xf32>) -> !ndarray.array<f32> {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %relu = ndarray.relu %p : !ndarray.array<64x32xf32>
  %pt = ndarray.mul %p, %t : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %ap = ndarray.abs %p : !ndarray.array<64x32xf32>
  %na = ndarray.neg %ap : !ndarray.array<64x32xf32>
  %ex = ndarray.exp %na : !ndarray.array<64x32xf32>
  %l1p = ndarray.add %ex, %one : !ndarray.array<64x32xf32>, f32 -> !ndarray.array<64x32xf32>
  %lg = ndarray.log %l1p : !ndarray.array<64x32xf32>
  %b0 = ndarray.sub %relu, %pt : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %bce = ndarray.add %b0, %lg : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %wb = ndarray.mul %hw, %bce : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %heat = ndarray.sum %wb : !ndarray.array<64x32xf32> -> !ndarray.array<f32>
  %d = ndarray.sub %p, %t : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %ad = ndarray.abs %d : !ndarray.array<64x32xf32>
  %small = ndarray.lt %ad, %one : !ndarray.array<64x32xf32>, f32 -> !ndarray.array<64x32xi1>
  %sq = ndarray.mul %d, %d : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %hsq = ndarray.mul %sq, %half : !ndarray.array<64x32xf32>, f32 -> !ndarray.array<64x32xf32>
  %lin = ndarray.sub %ad, %half : !ndarray.array<64x32xf32>, f32 -> !ndarray.array<64x32xf32>
  %sl1 = ndarray.select %small, %hsq, %lin : !ndarray.array<64x32xi1>, !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %wr = ndarray.mul %rw, %sl1 : !ndarray.array<64x32xf32>, !ndarray.array<64x32xf32> -> !ndarray.array<64x32xf32>
  %reg = ndarray.sum %wr : !ndarray.array<64x32xf32> -> !ndarray.array<f32>
  %loss = ndarray.add %heat, %reg : !ndarray.array<f32>, !ndarray.array<f32> -> !ndarray.array<f32>
  return %loss : !ndarray.array<f32>
}
