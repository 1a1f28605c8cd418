// RUN: qd-opt %s | qd-opt | FileCheck %s
// Local aggregates, addressed element by element: qd.elem_ptr into arrays (nested arrays step one
// level at a time), qd.member_ptr into structs, and their mixes.

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%k: i32, %x: f32) {
  // CHECK: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  %arr = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // CHECK: %[[E:.*]] = qd.elem_ptr %[[ARR]][%[[K:.*]]] : !qd.ptr<!qd.array<10xf32>>
  %e = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>
  // CHECK: qd.local_store %{{.*}}, %[[E]] : !qd.ptr<f32>
  qd.local_store %x, %e : !qd.ptr<f32>
  // CHECK: %[[ST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // CHECK: %{{.*}} = qd.member_ptr %[[ST]][0] : !qd.ptr<!qd.struct<f32, i32>>
  %m0 = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, i32>>
  // CHECK: %[[M1:.*]] = qd.member_ptr %[[ST]][1] : !qd.ptr<!qd.struct<f32, i32>>
  %m1 = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>>
  // CHECK: qd.local_store %[[K]], %[[M1]] : !qd.ptr<i32>
  qd.local_store %k, %m1 : !qd.ptr<i32>
  // CHECK: %[[G:.*]] = qd.alloca : !qd.ptr<!qd.array<4x10xf32>>
  %grid = qd.alloca : !qd.ptr<!qd.array<4x10xf32>>
  // CHECK: %[[ROW:.*]] = qd.elem_ptr %[[G]][%[[K]]] : !qd.ptr<!qd.array<4x10xf32>>
  %row = qd.elem_ptr %grid[%k] : !qd.ptr<!qd.array<4x10xf32>>
  // CHECK: %[[CELL:.*]] = qd.elem_ptr %[[ROW]][%[[K]]] : !qd.ptr<!qd.array<10xf32>>
  %cell = qd.elem_ptr %row[%k] : !qd.ptr<!qd.array<10xf32>>
  // CHECK: qd.local_load %[[CELL]] : !qd.ptr<f32>
  %v = qd.local_load %cell : !qd.ptr<f32>
  // A struct holding an array, an array of structs.
  // CHECK: %[[SA:.*]] = qd.alloca : !qd.ptr<!qd.struct<i32, !qd.array<3xf64>>>
  %sa = qd.alloca : !qd.ptr<!qd.struct<i32, !qd.array<3xf64>>>
  // CHECK: %[[SAM:.*]] = qd.member_ptr %[[SA]][1] : !qd.ptr<!qd.struct<i32, !qd.array<3xf64>>>
  %sam = qd.member_ptr %sa[1] : !qd.ptr<!qd.struct<i32, !qd.array<3xf64>>>
  // CHECK: qd.elem_ptr %[[SAM]][%{{.*}}] : !qd.ptr<!qd.array<3xf64>>
  %c2 = arith.constant 2 : i32
  %sae = qd.elem_ptr %sam[%c2] : !qd.ptr<!qd.array<3xf64>>
  // CHECK: %[[AS:.*]] = qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<f32, f32>>>
  %as = qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<f32, f32>>>
  // CHECK: %[[ASE:.*]] = qd.elem_ptr %[[AS]][%{{.*}}] : !qd.ptr<!qd.array<2x!qd.struct<f32, f32>>>
  %c1 = arith.constant 1 : i32
  %ase = qd.elem_ptr %as[%c1] : !qd.ptr<!qd.array<2x!qd.struct<f32, f32>>>
  // CHECK: qd.member_ptr %[[ASE]][1] {note = "kept"} : !qd.ptr<!qd.struct<f32, f32>>
  %asm = qd.member_ptr %ase[1] {note = "kept"} : !qd.ptr<!qd.struct<f32, f32>>
}
