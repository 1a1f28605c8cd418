// RUN: qd-opt %s | qd-opt | FileCheck %s
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// Custom form of every lowered op; it prints back as written, directly and through the generic
// form.

// CHECK: qd.field @x : !qd.field<4x10xf32> {needs_grad}
qd.field @x : !qd.field<4x10xf32> {needs_grad}
qd.field @flags : !qd.field<8xi1>

// CHECK-LABEL: lowered.kernel @k(
// CHECK-SAME: %{{.*}}: !qd.ndarray<?x?xf32>, %{{.*}}: f32) attributes {temps = 2} {
lowered.kernel @k(%a: !qd.ndarray<?x?xf32>, %s: f32) attributes {temps = 2} {
  // CHECK: lowered.task @k_0 serial {
  lowered.task @k_0 serial {
    // CHECK: %[[S:.*]] = lowered.arg 1 : f32
    %v = lowered.arg 1 : f32
    // CHECK: %[[D:.*]] = lowered.ndarray_dim 0, 1 : i64
    %d = lowered.ndarray_dim 0, 1 : i64
    // CHECK: %[[T0:.*]] = lowered.temp_ptr 0 : !lowered.ptr<i64>
    %t0 = lowered.temp_ptr 0 : !lowered.ptr<i64>
    // CHECK: lowered.store %[[D]], %[[T0]] : !lowered.ptr<i64>
    lowered.store %d, %t0 : !lowered.ptr<i64>
    // CHECK: %[[T1:.*]] = lowered.temp_ptr 1 : !lowered.ptr<f32>
    %t1 = lowered.temp_ptr 1 : !lowered.ptr<f32>
    // CHECK: lowered.store %[[S]], %[[T1]] : !lowered.ptr<f32>
    lowered.store %v, %t1 : !lowered.ptr<f32>
    // CHECK: lowered.return
    lowered.return
  }
  // CHECK: lowered.task @k_1 range(0, temp 0) adstacks [0, 3] {
  lowered.task @k_1 range(0, temp 0) adstacks [0, 3] {
    // CHECK: %[[TID:.*]] = lowered.thread_id : i64
    %t = lowered.thread_id : i64
    // CHECK: %[[B:.*]] = lowered.task_begin : i64
    %b = lowered.task_begin : i64
    // CHECK: %[[P:.*]] = lowered.ndarray_ptr 0 : !lowered.ptr<f32>
    %p = lowered.ndarray_ptr 0 : !lowered.ptr<f32>
    // CHECK: %[[Q:.*]] = lowered.offset %[[P]], %[[TID]] : !lowered.ptr<f32>
    %q = lowered.offset %p, %t : !lowered.ptr<f32>
    // CHECK: %[[N:.*]] = lowered.ndarray_dim 0, 0 : i64
    %n = lowered.ndarray_dim 0, 0 : i64
    // All the indices of one access, then their extents.
    // CHECK: lowered.bounds_check [%[[TID]], %[[B]]] in [%[[N]], %[[N]]] {what = "ndarray argument 0"} : i64
    lowered.bounds_check [%t, %b] in [%n, %n] {what = "ndarray argument 0"} : i64
    // CHECK: lowered.bounds_check [%[[TID]]] in [%[[N]]] {what = "field @x.grad"} : i64
    lowered.bounds_check [%t] in [%n] {what = "field @x.grad"} : i64
    // A local array's: `local` (the message's length form) prints after `what`.
    // CHECK: lowered.bounds_check [%[[TID]]] in [%[[N]]] {what = "local array '!qd.array<4xf32>'", local} : i64
    lowered.bounds_check [%t] in [%n] {local, what = "local array '!qd.array<4xf32>'"} : i64
    // CHECK: %[[L:.*]] = lowered.load %[[Q]] : !lowered.ptr<f32>
    %l = lowered.load %q : !lowered.ptr<f32>
    // CHECK: %[[X:.*]] = lowered.field_ptr @x : !lowered.ptr<f32>
    %x = lowered.field_ptr @x : !lowered.ptr<f32>
    // CHECK: %[[XG:.*]] = lowered.field_ptr @x grad : !lowered.ptr<f32>
    %xg = lowered.field_ptr @x grad : !lowered.ptr<f32>
    // CHECK: %{{.*}} = lowered.field_ptr @flags : !lowered.ptr<i8>
    %fl = lowered.field_ptr @flags : !lowered.ptr<i8>
    // CHECK: lowered.atomic_add %[[L]], %[[XG]] : !lowered.ptr<f32>
    %o1 = lowered.atomic_add %l, %xg : !lowered.ptr<f32>
    // CHECK: lowered.atomic_min %[[L]], %[[X]] : !lowered.ptr<f32>
    %o2 = lowered.atomic_min %l, %x : !lowered.ptr<f32>
    // CHECK: lowered.atomic_max %[[L]], %[[X]] : !lowered.ptr<f32>
    %o3 = lowered.atomic_max %l, %x : !lowered.ptr<f32>
    // CHECK: %[[AR:.*]] = lowered.alloca : !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
    %arr = lowered.alloca : !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
    // CHECK: %[[E:.*]] = lowered.elem_ptr %[[AR]][%[[TID]]] : !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
    %e = lowered.elem_ptr %arr[%t] : !lowered.ptr<!qd.array<4x!qd.struct<f32, i32>>, private>
    // CHECK: %[[M:.*]] = lowered.member_ptr %[[E]][1] : !lowered.ptr<!qd.struct<f32, i32>, private>
    %m = lowered.member_ptr %e[1] : !lowered.ptr<!qd.struct<f32, i32>, private>
    // CHECK: %[[MV:.*]] = lowered.load %[[M]] : !lowered.ptr<i32, private>
    %mv = lowered.load %m : !lowered.ptr<i32, private>
    // CHECK: %[[FLAG:.*]] = lowered.alloca : !lowered.ptr<i1, private>
    %flag = lowered.alloca : !lowered.ptr<i1, private>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: lowered.for %[[I:.*]] = %{{.*}} to %[[MV]] step %{{.*}} : i32 {
    lowered.for %i = %c0 to %mv step %c1 : i32 {
      // CHECK: %{{.*}} = arith.addi %[[I]], %[[I]] : i32
      %ii = arith.addi %i, %i : i32
      // CHECK: lowered.yield
      lowered.yield
    }
    %true = arith.constant true
    // CHECK: lowered.if %{{.*}} {
    lowered.if %true {
      // CHECK: lowered.store %{{.*}}, %[[FLAG]] : !lowered.ptr<i1, private>
      lowered.store %true, %flag : !lowered.ptr<i1, private>
      lowered.yield
    // CHECK: } else {
    } else {
      lowered.yield
    }
    // An if without an else prints none.
    // CHECK: lowered.if %{{.*}} {
    // CHECK-NEXT: lowered.yield
    // CHECK-NEXT: }{{$}}
    lowered.if %true {
      lowered.yield
    }
    // CHECK: lowered.while {
    lowered.while {
      // CHECK: %[[F:.*]] = lowered.load %[[FLAG]] : !lowered.ptr<i1, private>
      %f = lowered.load %flag : !lowered.ptr<i1, private>
      // CHECK: lowered.condition %[[F]]
      lowered.condition %f
    // CHECK: } do {
    } do {
      %false = arith.constant false
      lowered.store %false, %flag : !lowered.ptr<i1, private>
      // CHECK: lowered.yield
      lowered.yield
    }
    // CHECK: %[[ROW:.*]] = lowered.adstack_row : i64
    %row = lowered.adstack_row : i64
    // CHECK: %[[STR:.*]] = lowered.adstack_stride float : i64
    %stride = lowered.adstack_stride float : i64
    // CHECK: lowered.adstack_stride int : i64
    %istride = lowered.adstack_stride int : i64
    // CHECK: %[[OFF:.*]] = lowered.adstack_offset 3 : i64
    %off = lowered.adstack_offset 3 : i64
    // CHECK: %[[CAP:.*]] = lowered.adstack_max_size 3 : i64
    %cap = lowered.adstack_max_size 3 : i64
    // CHECK: %[[H:.*]] = lowered.heap_ptr float, %[[OFF]] : !lowered.ptr<i64>
    %h = lowered.heap_ptr float, %off : !lowered.ptr<i64>
    // CHECK: lowered.heap_ptr int, %[[ROW]] : !lowered.ptr<i32>
    %hi = lowered.heap_ptr int, %row : !lowered.ptr<i32>
    // CHECK: lowered.adstack_overflow 0
    lowered.adstack_overflow 0
    // CHECK: lowered.return
    lowered.return
  }
  // CHECK: lowered.task @k_2 range(-2, 16) attributes {note} {
  lowered.task @k_2 range(-2, 16) attributes {note} {
    lowered.return
  }
}

// A kernel without arguments or tasks.
// CHECK: lowered.kernel @empty() attributes {temps = 0} {
lowered.kernel @empty() attributes {temps = 0} {
}
