// A reduction's partial kernel: every lane runs the same number of iterations, ceil(n / lanes),
// and tiles of 16 lanes each own a run of 16 * trip consecutive elements, read 16 at a time
// (element (p / 16) * 16 * trip + j * 16 + p % 16), so that a SIMD group streams its tile in
// order. 8200 elements: 32 lanes, 257 iterations, the last one guarded (32 * 257 > 8200). Over an
// axis with an inner extent, each lane walks its own run of the row (p * trip + j).
// RUN: qd-opt %s --pass=fuse-elementwise | FileCheck %s

// CHECK-LABEL: qd.kernel @total_k0(
// CHECK: qd.range_for %[[P:[a-z0-9]+]] = %{{.*}} to %c32_i32
// CHECK: qd.range_for %[[J:[a-z0-9]+]] = %{{.*}} to %c257_i32
// CHECK: %[[T:.*]] = arith.divsi %[[P]], %c16_i32
// CHECK: %[[L:.*]] = arith.remsi %[[P]], %c16_i32
// CHECK: %[[S:.*]] = arith.muli %[[T]], %c4112_i32
// CHECK: %[[JB:.*]] = arith.muli %[[J]], %c16_i32
// CHECK: %[[A:.*]] = arith.addi %[[S]], %[[JB]]
// CHECK: %[[I:.*]] = arith.addi %[[A]], %[[L]]
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[I]], %c8200_i32
// CHECK: qd.if %[[IN]] {
// CHECK: qd.ndarray_load %arg0[%[[I]]]
func.func @total(%x: !ndarray.array<8200xf32>) -> !ndarray.array<f32> {
  %e = ndarray.exp %x : !ndarray.array<8200xf32>
  %s = ndarray.sum %e : !ndarray.array<8200xf32> -> !ndarray.array<f32>
  return %s : !ndarray.array<f32>
}

// CHECK-LABEL: qd.kernel @columns_k0(
// CHECK: %[[P:.*]] = arith.divsi %{{.*}}, %c8_i32
// CHECK: qd.range_for %[[J:[a-z0-9]+]] = %{{.*}} to %c256_i32
// CHECK-NOT: qd.if
// CHECK: %[[S:.*]] = arith.muli %[[P]], %c256_i32
// CHECK: %[[R:.*]] = arith.addi %[[S]], %[[J]]
// CHECK: arith.muli %[[R]], %c8_i32
func.func @columns(%x: !ndarray.array<512x8xf32>) -> !ndarray.array<8xf32> {
  %s = ndarray.sum %x {axis = 0} : !ndarray.array<512x8xf32> -> !ndarray.array<8xf32>
  return %s : !ndarray.array<8xf32>
}
