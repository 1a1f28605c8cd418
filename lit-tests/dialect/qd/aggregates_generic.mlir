// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// Aggregate addressing in the generic form: elem_ptr takes (base, index), member_ptr an i64
// `index` property; results are typed pointers to the element/member.

// GENERIC: %[[ARR:.*]] = "qd.alloca"() : () -> !qd.ptr<!qd.array<10xf32>>
// GENERIC: %{{.*}} = "qd.elem_ptr"(%[[ARR]], %{{.*}}) : (!qd.ptr<!qd.array<10xf32>>, i32) -> !qd.ptr<f32>
// GENERIC: %[[ST:.*]] = "qd.alloca"() : () -> !qd.ptr<!qd.struct<f32, i32>>
// GENERIC: %{{.*}} = "qd.member_ptr"(%[[ST]]) <{index = 1 : i64}> : (!qd.ptr<!qd.struct<f32, i32>>) -> !qd.ptr<i32>
// CHECK: %[[ARR:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK: qd.elem_ptr %[[ARR]][%{{.*}}] : !qd.ptr<!qd.array<10xf32>>
// CHECK: %[[ST:.*]] = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
// CHECK: qd.member_ptr %[[ST]][1] : !qd.ptr<!qd.struct<f32, i32>>
qd.kernel @k(%k: i32) {
  %arr = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  %e = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>
  %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  %m = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>>
}
