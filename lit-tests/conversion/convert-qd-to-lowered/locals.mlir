// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// Locals as private pointers: qd.alloca -> lowered.alloca (private), local loads and stores ->
// lowered.load/store, qd.elem_ptr -> bounds check + lowered.elem_ptr (i64 index), qd.member_ptr
// -> lowered.member_ptr; ad.load_element/store_element -> the same chain, then the access.

qd.field @x : !qd.field<10xf32>

// CHECK-LABEL: lowered.task @locals_0 range(0, 10) {
// CHECK-DAG: %[[C10:.*]] = arith.constant 10 : i64
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i64
// CHECK: %[[V:.*]] = lowered.alloca : !lowered.ptr<f32, private>
// CHECK: lowered.store %{{.*}}, %[[V]] : !lowered.ptr<f32, private>
// CHECK: %[[ARR:.*]] = lowered.alloca : !lowered.ptr<!qd.array<10xf32>, private>
// The struct_for's index over a field of 10 elements is in range of the array: no check.
// CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: %[[E:.*]] = lowered.elem_ptr %[[ARR]][%[[I]]] : !lowered.ptr<!qd.array<10xf32>, private>
// CHECK: lowered.store %{{.*}}, %[[E]] : !lowered.ptr<f32, private>
// A computed index is checked.
// CHECK: %[[K:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: lowered.bounds_check [%[[K]]] in [%[[C10]]] {what = "local array '!qd.array<10xf32>'", local} : i64
// CHECK-NEXT: %[[EK:.*]] = lowered.elem_ptr %[[ARR]][%[[K]]] : !lowered.ptr<!qd.array<10xf32>, private>
// CHECK-NEXT: lowered.load %[[EK]] : !lowered.ptr<f32, private>
// An array of structs, addressed element then member.
// CHECK: %[[AS:.*]] = lowered.alloca : !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
// CHECK: %[[E3:.*]] = lowered.elem_ptr %[[AS]][%[[C3]]] : !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
// CHECK-NEXT: %[[M:.*]] = lowered.member_ptr %[[E3]][1] : !lowered.ptr<!qd.struct<f32, i32>, private>
// CHECK-NEXT: lowered.load %[[M]] : !lowered.ptr<i32, private>
qd.kernel @locals() {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %xi = qd.load @x[%i] : f32
    qd.local_store %xi, %v : !qd.ptr<f32>
    %arr = qd.alloca : !qd.ptr<!qd.array<10xf32>>
    %e = qd.elem_ptr %arr[%i] : !qd.ptr<!qd.array<10xf32>>
    qd.local_store %xi, %e : !qd.ptr<f32>
    %c7 = arith.constant 7 : i32
    %k = arith.muli %i, %c7 : i32
    %ek = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>
    %w = qd.local_load %ek : !qd.ptr<f32>
    %as = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<f32, i32>>>
    %c3 = arith.constant 3 : i32
    %e3 = qd.elem_ptr %as[%c3] : !qd.ptr<!qd.array<4x!qd.struct<f32, i32>>>
    %m = qd.member_ptr %e3[1] : !qd.ptr<!qd.struct<f32, i32>>
    %mv = qd.local_load %m : !qd.ptr<i32>
  }
}

// Element-addressed accesses (what element-access-ad makes): a literal array index needs no
// check, a value index does.
// CHECK-LABEL: lowered.task @elements_0 serial {
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i64
// CHECK: %[[S:.*]] = lowered.alloca : !lowered.ptr<!qd.array<4x!qd.struct<i32, f32>>, private>
// CHECK: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NEXT: lowered.bounds_check [%[[I]]] in [%[[C4]]] {what = "local array '!qd.array<4x!qd.struct<i32, f32>>'", local} : i64
// CHECK-NEXT: %[[EI:.*]] = lowered.elem_ptr %[[S]][%[[I]]] : !lowered.ptr<!qd.array<4x!qd.struct<i32, f32>>, private>
// CHECK-NEXT: %[[MI:.*]] = lowered.member_ptr %[[EI]][1] : !lowered.ptr<!qd.struct<i32, f32>, private>
// CHECK-NEXT: %[[L:.*]] = lowered.load %[[MI]] : !lowered.ptr<f32, private>
// CHECK-NEXT: %[[E1:.*]] = lowered.elem_ptr %[[S]][%[[C1]]] : !lowered.ptr<!qd.array<4x!qd.struct<i32, f32>>, private>
// CHECK-NEXT: %[[M1:.*]] = lowered.member_ptr %[[E1]][1] : !lowered.ptr<!qd.struct<i32, f32>, private>
// CHECK-NEXT: lowered.store %[[L]], %[[M1]] : !lowered.ptr<f32, private>
qd.kernel @elements(%i: i32) {
  %s = qd.alloca : !qd.ptr<!qd.array<4x!qd.struct<i32, f32>>>
  %e = ad.load_element %s[%i, 1] : !qd.ptr<!qd.array<4x!qd.struct<i32, f32>>>
  ad.store_element %e, %s[1, 1] : !qd.ptr<!qd.array<4x!qd.struct<i32, f32>>>
}
