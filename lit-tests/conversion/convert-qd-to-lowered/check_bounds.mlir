// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s --check-prefix=CHECKED
// RUN: qd-opt %s -p 'convert-qd-to-lowered{check-bounds=true}' | FileCheck %s --check-prefix=CHECKED
// RUN: qd-opt %s -p 'convert-qd-to-lowered{check-bounds=false}' | FileCheck %s --check-prefix=UNCHECKED
// RUN: qd-opt --list-passes | FileCheck %s --check-prefix=LIST
// The option check-bounds (default true) keeps or drops the bounds checks of field and ndarray
// accesses, adjoints included; a local array's check stays either way (private memory out of
// range is undefined behaviour in LLVM, see convert_qd_to_lowered.rs).

// LIST: convert-qd-to-lowered
// LIST: check-bounds

qd.field @m : !qd.field<4x10xf32> {needs_grad}

// CHECKED-LABEL: lowered.task @access_0
// CHECKED: lowered.bounds_check [%{{.*}}, %{{.*}}] in [%{{.*}}, %{{.*}}] {what = "field @m"} : i64
// CHECKED: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "ndarray argument 0"} : i64
// CHECKED: lowered.bounds_check [%{{.*}}, %{{.*}}] in [%{{.*}}, %{{.*}}] {what = "field @m.grad"} : i64
// CHECKED: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "adjoint ndarray argument 1"} : i64
// CHECKED: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "local array '!qd.array<10xf32>'", local} : i64
// CHECKED-NOT: lowered.bounds_check

// UNCHECKED-LABEL: lowered.task @access_0
// UNCHECKED-NOT: lowered.bounds_check {{.*}} {what = "{{field|ndarray|adjoint}}
// The address computation stays: the indices widened, the row-major offset (here of task
// invariants, so in the task's prologue).
// UNCHECKED: %[[I:.*]] = arith.extsi %{{.*}} : i32 to i64
// UNCHECKED-NEXT: %[[J:.*]] = arith.extsi %{{.*}} : i32 to i64
// UNCHECKED-NEXT: %[[C10:.*]] = arith.constant 10 : i64
// UNCHECKED-NEXT: %[[R:.*]] = arith.muli %[[I]], %[[C10]] : i64
// UNCHECKED-NEXT: %[[L:.*]] = arith.addi %[[R]], %[[J]] : i64
// UNCHECKED-NEXT: lowered.offset %{{.*}}, %[[L]] : !lowered.ptr<f32>
// UNCHECKED-NOT: lowered.bounds_check {{.*}} {what = "{{field|ndarray|adjoint}}
// UNCHECKED: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "local array '!qd.array<10xf32>'", local} : i64
// UNCHECKED-NOT: lowered.bounds_check
qd.kernel @access(%a: !qd.ndarray<?xf32>, %da: !qd.ndarray<?xf32>, %i: i32, %j: i32, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %t = %c0 to %c4 : i32 {
    %v = qd.load @m[%i, %j] : f32
    %w = qd.ndarray_load %a[%k] : !qd.ndarray<?xf32>
    %s = arith.addf %v, %w : f32
    ad.acc_field_adjoint %s, @m[%i, %j] : f32
    ad.acc_ndarray_adjoint %s, %da[%k] : !qd.ndarray<?xf32>
    %arr = qd.alloca : !qd.ptr<!qd.array<10xf32>>
    %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<10xf32>>
    qd.local_store %s, %p : !qd.ptr<f32>
  }
}
