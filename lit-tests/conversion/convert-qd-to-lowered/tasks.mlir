// RUN: qd-opt %s -p convert-qd-to-lowered --split-input-file | FileCheck %s
// Tasks: each top-level loop is a range task, the code between loops a serial task; bounds are
// constants or temporaries slots filled by the serial task before; values crossing tasks are
// rematerialized (pure) or spilled to temporaries slots.

qd.field @x : !qd.field<4x10xf32>
qd.field @y : !qd.field<f32>

// A struct_for over a 2-D field: range(0, numel), indices delinearized row-major.
// CHECK-LABEL: lowered.kernel @struct2d() attributes {temps = 0} {
// CHECK: lowered.task @struct2d_0 range(0, 40) {
// CHECK: %[[T:.*]] = lowered.thread_id : i64
// CHECK: %[[C10:.*]] = arith.constant 10 : i64
// CHECK: %[[J:.*]] = arith.remui %[[T]], %[[C10]] : i64
// CHECK: %[[R:.*]] = arith.divui %[[T]], %[[C10]] : i64
// CHECK: %[[J32:.*]] = arith.trunci %[[J]] : i64 to i32
// CHECK: %[[I32:.*]] = arith.trunci %[[R]] : i64 to i32
// The struct_for's own indices are in range: no bounds check.
// CHECK-NOT: lowered.bounds_check
// CHECK: lowered.load
// CHECK: lowered.return
qd.kernel @struct2d() {
  qd.struct_for (%i, %j) in @x {
    %v = qd.load @x[%i, %j] : f32
    qd.atomic_add %v, @y[] : f32
  }
}

// -----

qd.field @n : !qd.field<i32>
qd.field @y : !qd.field<16xf32>

// A range_for with a constant begin and a bound loaded from a field: a serial task stores the
// i64 bound in slot 0; the range task reads it at launch. The thread's iteration is
// begin + thread_id.
// CHECK-LABEL: lowered.kernel @dyn() attributes {temps = 1} {
// CHECK: lowered.task @dyn_0 serial {
// CHECK: %[[N:.*]] = lowered.load %{{.*}} : !lowered.ptr<i32>
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: %[[SLOT:.*]] = lowered.temp_ptr 0 : !lowered.ptr<i64>
// CHECK: lowered.store %[[N64]], %[[SLOT]] : !lowered.ptr<i64>
// CHECK: lowered.return
// CHECK: lowered.task @dyn_1 range(2, temp 0) {
// CHECK: %[[T:.*]] = lowered.thread_id : i64
// CHECK: %[[C2:.*]] = arith.constant 2 : i64
// CHECK: %[[K:.*]] = arith.addi %[[T]], %[[C2]] : i64
// CHECK: %[[I:.*]] = arith.trunci %[[K]] : i64 to i32
// CHECK: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "field @y"} : i64
qd.kernel @dyn() {
  %c2 = arith.constant 2 : i32
  %n = qd.load @n[] : i32
  qd.range_for %i = %c2 to %n : i32 {
    %f = arith.sitofp %i : i32 to f32
    qd.store %f, @y[%i] : f32
  }
}

// -----

// Bounds from an ndarray's shape and from a scalar argument: rematerialized in a serial task
// made for the purpose (the loop is the kernel's first code); a dynamic begin is read in the
// task with lowered.task_begin.
// CHECK-LABEL: lowered.kernel @shape(
// CHECK: lowered.task @shape_0 serial {
// CHECK-DAG: %[[LO:.*]] = lowered.arg 1 : i32
// CHECK-DAG: %[[D:.*]] = lowered.ndarray_dim 0, 0 : i64
// CHECK-DAG: %[[HI:.*]] = arith.trunci %[[D]] : i64 to i32
// CHECK: %[[LO64:.*]] = arith.extsi %[[LO]] : i32 to i64
// CHECK: lowered.store %[[LO64]], %{{.*}} : !lowered.ptr<i64>
// CHECK: %[[HI64:.*]] = arith.extsi %[[HI]] : i32 to i64
// CHECK: lowered.store %[[HI64]], %{{.*}} : !lowered.ptr<i64>
// CHECK: lowered.task @shape_1 range(temp 0, temp 1) {
// CHECK: %[[T:.*]] = lowered.thread_id : i64
// CHECK: %[[B:.*]] = lowered.task_begin : i64
// CHECK: %[[K:.*]] = arith.addi %[[T]], %[[B]] : i64
// The index is not provably in range (the loop starts at an argument): checked.
// CHECK: lowered.bounds_check [%{{.*}}] in [%{{.*}}] {what = "ndarray argument 0"} : i64
// CHECK: lowered.store
qd.kernel @shape(%a: !qd.ndarray<?xf32>, %lo: i32) {
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %lo to %n : i32 {
    %z = arith.constant 0.0 : f32
    qd.ndarray_store %z, %a[%i] : !qd.ndarray<?xf32>
  }
}

// -----

qd.field @x : !qd.field<8xf32>
qd.field @s : !qd.field<f32>

// Serial code between loops: one serial task per run of code. A value computed in serial code
// and used by a later task is spilled to a slot; a pure value of constants and arguments is
// recomputed where it is used.
// CHECK-LABEL: lowered.kernel @phases(%{{.*}}: f32) attributes {temps = 1} {
// CHECK: lowered.task @phases_0 range(0, 8) {
// CHECK: lowered.task @phases_1 serial {
// CHECK-DAG: %[[SUM:.*]] = lowered.load %{{.*}} : !lowered.ptr<f32>
// CHECK-DAG: %[[ARG:.*]] = lowered.arg 0 : f32
// CHECK: %[[SC:.*]] = arith.mulf %[[SUM]], %[[ARG]] : f32
// CHECK: %[[SLOT:.*]] = lowered.temp_ptr 0 : !lowered.ptr<f32>
// CHECK: lowered.store %[[SC]], %[[SLOT]] : !lowered.ptr<f32>
// CHECK: lowered.task @phases_2 range(0, 8) {
// CHECK-DAG: %[[R:.*]] = lowered.temp_ptr 0 : !lowered.ptr<f32>
// CHECK-DAG: %[[V:.*]] = lowered.load %[[R]] : !lowered.ptr<f32>
// CHECK-DAG: %[[A2:.*]] = lowered.arg 0 : f32
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[H:.*]] = arith.mulf %[[A2]], %[[TWO]] : f32
// CHECK: arith.addf %[[V]], %[[H]] : f32
qd.kernel @phases(%k: f32) {
  %two = arith.constant 2.0 : f32
  %half = arith.mulf %k, %two : f32
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    qd.atomic_add %v, @s[] : f32
  }
  %sum = qd.load @s[] : f32
  %scaled = arith.mulf %sum, %k : f32
  qd.struct_for (%i) in @x {
    %w = arith.addf %scaled, %half : f32
    qd.store %w, @x[%i] : f32
  }
}

// -----

qd.field @y : !qd.field<f32>

// Two consecutive loops with dynamic bounds: a serial task in between computes the second
// loop's bound. A scalar field (rank 0) is addressed without an offset.
// CHECK-LABEL: lowered.kernel @two(
// CHECK: lowered.task @two_0 serial {
// CHECK: lowered.task @two_1 range(0, temp 0) {
// CHECK: lowered.task @two_2 serial {
// CHECK: lowered.task @two_3 range(0, temp 1) {
// CHECK-NOT: lowered.offset
// CHECK: lowered.atomic_add
qd.kernel @two(%n: i32) {
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    %one = arith.constant 1.0 : f32
    qd.atomic_add %one, @y[] : f32
  }
  qd.range_for %i = %c0 to %n : i32 {
    %one = arith.constant 1.0 : f32
    qd.atomic_add %one, @y[] : f32
  }
}

// -----

// A kernel without code has no task; a struct_for over a scalar field has one thread.
qd.field @s : !qd.field<f32>
// CHECK-LABEL: lowered.kernel @nothing() attributes {temps = 0} {
// CHECK-NEXT: }
qd.kernel @nothing() {
}
// CHECK-LABEL: lowered.kernel @scalar_for() attributes {temps = 0} {
// CHECK: lowered.task @scalar_for_0 range(0, 1) {
qd.kernel @scalar_for() {
  qd.struct_for () in @s {
    %one = arith.constant 1.0 : f32
    qd.store %one, @s[] : f32
  }
}
