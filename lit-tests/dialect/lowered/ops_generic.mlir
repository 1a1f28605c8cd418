// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s | FileCheck %s
// RUN: qd-opt %s --print-op-generic | qd-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC
// The generic form of every lowered op (what ops.mlir writes in the custom form): symbols and
// keywords are properties (`sym_name`, `kind`, `heap`, `field = @x`, unit `grad`), integers of
// the syntax i64 properties, task bounds `begin`/`end` or `begin_temp`/`end_temp`, the task's
// stacks a dense i64 array, the for's induction variable its body block's argument.

// GENERIC: "lowered.kernel"() <{function_type = (!qd.ndarray<?x?xf32>, f32) -> (), sym_name = "k", temps = 2 : i64}> ({
// GENERIC: "lowered.task"() <{kind = "serial", sym_name = "k_0"}> ({
// GENERIC: "lowered.arg"() <{index = 1 : i64}> : () -> f32
// GENERIC: "lowered.ndarray_dim"() <{axis = 1 : i64, index = 0 : i64}> : () -> i64
// GENERIC: "lowered.temp_ptr"() <{slot = 0 : i64}> : () -> !lowered.ptr<i64>
// GENERIC: "lowered.store"(%{{.*}}, %{{.*}}) : (i64, !lowered.ptr<i64>) -> ()
// GENERIC: "lowered.return"() : () -> ()
// GENERIC: "lowered.task"() <{adstacks = array<i64: 0, 3>, begin = 0 : i64, end_temp = 0 : i64, kind = "range", sym_name = "k_1"}> ({
// GENERIC: "lowered.thread_id"() : () -> i64
// GENERIC: "lowered.task_begin"() : () -> i64
// GENERIC: "lowered.ndarray_ptr"() <{index = 0 : i64}> : () -> !lowered.ptr<f32>
// GENERIC: "lowered.offset"(%{{.*}}, %{{.*}}) : (!lowered.ptr<f32>, i64) -> !lowered.ptr<f32>
// GENERIC: "lowered.bounds_check"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{what = "ndarray argument 0"}> : (i64, i64, i64, i64) -> ()
// GENERIC: "lowered.bounds_check"(%{{.*}}, %{{.*}}) <{local, what = "local array '!qd.array<4xf32>'"}> : (i64, i64) -> ()
// GENERIC: "lowered.load"(%{{.*}}) : (!lowered.ptr<f32>) -> f32
// GENERIC: "lowered.field_ptr"() <{field = @x}> : () -> !lowered.ptr<f32>
// GENERIC: "lowered.field_ptr"() <{field = @x, grad}> : () -> !lowered.ptr<f32>
// GENERIC: "lowered.atomic_add"(%{{.*}}, %{{.*}}) : (f32, !lowered.ptr<f32>) -> f32
// GENERIC: "lowered.atomic_min"(%{{.*}}, %{{.*}}) : (f32, !lowered.ptr<f32>) -> f32
// GENERIC: "lowered.atomic_max"(%{{.*}}, %{{.*}}) : (f32, !lowered.ptr<f32>) -> f32
// GENERIC: "lowered.alloca"() : () -> !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
// GENERIC: "lowered.elem_ptr"(%{{.*}}, %{{.*}}) : (!lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>, i64) -> !lowered.ptr<!qd.struct<f32, i32>, private>
// GENERIC: "lowered.member_ptr"(%{{.*}}) <{index = 1 : i64}> : (!lowered.ptr<!qd.struct<f32, i32>, private>) -> !lowered.ptr<i32, private>
// GENERIC: "lowered.for"(%{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC-NEXT: ^bb0(%{{.*}}: i32):
// GENERIC: "lowered.yield"() : () -> ()
// GENERIC: }) : (i32, i32, i32) -> ()
// GENERIC: "lowered.if"(%{{.*}}) ({
// GENERIC: }, {
// GENERIC: }) : (i1) -> ()
// GENERIC: "lowered.while"() ({
// GENERIC: "lowered.condition"(%{{.*}}) : (i1) -> ()
// GENERIC: }, {
// GENERIC: "lowered.adstack_row"() : () -> i64
// GENERIC: "lowered.adstack_stride"() <{heap = "float"}> : () -> i64
// GENERIC: "lowered.adstack_offset"() <{id = 3 : i64}> : () -> i64
// GENERIC: "lowered.adstack_max_size"() <{id = 3 : i64}> : () -> i64
// GENERIC: "lowered.heap_ptr"(%{{.*}}) <{heap = "float"}> : (i64) -> !lowered.ptr<i64>
// GENERIC: "lowered.adstack_overflow"() <{id = 0 : i64}> : () -> ()
// GENERIC: "lowered.task"() <{begin = -2 : i64, end = 16 : i64, kind = "range", sym_name = "k_2"}> ({
// GENERIC: }) {note} : () -> ()

// CHECK: lowered.kernel @k(%{{.*}}: !qd.ndarray<?x?xf32>, %{{.*}}: f32) attributes {temps = 2} {
// CHECK: lowered.task @k_0 serial {
// CHECK: lowered.task @k_1 range(0, temp 0) adstacks [0, 3] {
// CHECK: lowered.bounds_check [%{{.*}}, %{{.*}}] in [%[[N:[0-9]+]], %[[N]]] {what = "ndarray argument 0"} : i64
// CHECK: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "local array '!qd.array<4xf32>'", local} : i64
// CHECK: lowered.field_ptr @x grad : !lowered.ptr<f32>
// CHECK: lowered.member_ptr %{{.*}}[1] : !lowered.ptr<!qd.struct<f32, i32>, private>
// CHECK: lowered.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK: lowered.task @k_2 range(-2, 16) attributes {note} {

"builtin.module"() ({
  "qd.field"() <{needs_grad, sym_name = "x", type = !qd.field<4x10xf32>}> : () -> ()
  "qd.field"() <{sym_name = "flags", type = !qd.field<8xi1>}> : () -> ()
  "lowered.kernel"() <{function_type = (!qd.ndarray<?x?xf32>, f32) -> (), sym_name = "k", temps = 2 : i64}> ({
  ^bb0(%arg0: !qd.ndarray<?x?xf32>, %arg1: f32):
    "lowered.task"() <{kind = "serial", sym_name = "k_0"}> ({
      %0 = "lowered.arg"() <{index = 1 : i64}> : () -> f32
      %1 = "lowered.ndarray_dim"() <{axis = 1 : i64, index = 0 : i64}> : () -> i64
      %2 = "lowered.temp_ptr"() <{slot = 0 : i64}> : () -> !lowered.ptr<i64>
      "lowered.store"(%1, %2) : (i64, !lowered.ptr<i64>) -> ()
      %3 = "lowered.temp_ptr"() <{slot = 1 : i64}> : () -> !lowered.ptr<f32>
      "lowered.store"(%0, %3) : (f32, !lowered.ptr<f32>) -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
    "lowered.task"() <{adstacks = array<i64: 0, 3>, begin = 0 : i64, end_temp = 0 : i64, kind = "range", sym_name = "k_1"}> ({
      %0 = "lowered.thread_id"() : () -> i64
      %1 = "lowered.task_begin"() : () -> i64
      %2 = "lowered.ndarray_ptr"() <{index = 0 : i64}> : () -> !lowered.ptr<f32>
      %3 = "lowered.offset"(%2, %0) : (!lowered.ptr<f32>, i64) -> !lowered.ptr<f32>
      %4 = "lowered.ndarray_dim"() <{axis = 0 : i64, index = 0 : i64}> : () -> i64
      "lowered.bounds_check"(%0, %1, %4, %4) <{what = "ndarray argument 0"}> : (i64, i64, i64, i64) -> ()
      "lowered.bounds_check"(%0, %4) <{local, what = "local array '!qd.array<4xf32>'"}> : (i64, i64) -> ()
      %5 = "lowered.load"(%3) : (!lowered.ptr<f32>) -> f32
      %6 = "lowered.field_ptr"() <{field = @x}> : () -> !lowered.ptr<f32>
      %7 = "lowered.field_ptr"() <{field = @x, grad}> : () -> !lowered.ptr<f32>
      %8 = "lowered.field_ptr"() <{field = @flags}> : () -> !lowered.ptr<i8>
      %9 = "lowered.atomic_add"(%5, %7) : (f32, !lowered.ptr<f32>) -> f32
      %10 = "lowered.atomic_min"(%5, %6) : (f32, !lowered.ptr<f32>) -> f32
      %11 = "lowered.atomic_max"(%5, %6) : (f32, !lowered.ptr<f32>) -> f32
      %12 = "lowered.alloca"() : () -> !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
      %13 = "lowered.elem_ptr"(%12, %0) : (!lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>, i64) -> !lowered.ptr<!qd.struct<f32, i32>, private>
      %14 = "lowered.member_ptr"(%13) <{index = 1 : i64}> : (!lowered.ptr<!qd.struct<f32, i32>, private>) -> !lowered.ptr<i32, private>
      %15 = "lowered.load"(%14) : (!lowered.ptr<i32, private>) -> i32
      %16 = "lowered.alloca"() : () -> !lowered.ptr<i1, private>
      %17 = "arith.constant"() <{value = 0 : i32}> : () -> i32
      %18 = "arith.constant"() <{value = 1 : i32}> : () -> i32
      "lowered.for"(%17, %15, %18) ({
      ^bb0(%arg2: i32):
        %27 = "arith.addi"(%arg2, %arg2) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
        "lowered.yield"() : () -> ()
      }) : (i32, i32, i32) -> ()
      %19 = "arith.constant"() <{value = true}> : () -> i1
      "lowered.if"(%19) ({
        "lowered.store"(%19, %16) : (i1, !lowered.ptr<i1, private>) -> ()
        "lowered.yield"() : () -> ()
      }, {
        "lowered.yield"() : () -> ()
      }) : (i1) -> ()
      "lowered.if"(%19) ({
        "lowered.yield"() : () -> ()
      }, {
      }) : (i1) -> ()
      "lowered.while"() ({
        %27 = "lowered.load"(%16) : (!lowered.ptr<i1, private>) -> i1
        "lowered.condition"(%27) : (i1) -> ()
      }, {
        %27 = "arith.constant"() <{value = false}> : () -> i1
        "lowered.store"(%27, %16) : (i1, !lowered.ptr<i1, private>) -> ()
        "lowered.yield"() : () -> ()
      }) : () -> ()
      %20 = "lowered.adstack_row"() : () -> i64
      %21 = "lowered.adstack_stride"() <{heap = "float"}> : () -> i64
      %22 = "lowered.adstack_stride"() <{heap = "int"}> : () -> i64
      %23 = "lowered.adstack_offset"() <{id = 3 : i64}> : () -> i64
      %24 = "lowered.adstack_max_size"() <{id = 3 : i64}> : () -> i64
      %25 = "lowered.heap_ptr"(%23) <{heap = "float"}> : (i64) -> !lowered.ptr<i64>
      %26 = "lowered.heap_ptr"(%20) <{heap = "int"}> : (i64) -> !lowered.ptr<i32>
      "lowered.adstack_overflow"() <{id = 0 : i64}> : () -> ()
      "lowered.return"() : () -> ()
    }) : () -> ()
    "lowered.task"() <{begin = -2 : i64, end = 16 : i64, kind = "range", sym_name = "k_2"}> ({
      "lowered.return"() : () -> ()
    }) {note} : () -> ()
  }) : () -> ()
  "lowered.kernel"() <{function_type = () -> (), sym_name = "empty", temps = 0 : i64}> ({
  ^bb0:
  }) : () -> ()
}) : () -> ()
