// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// Adstacks as heap slices: per stack, base = row * stride + offset[id] (bytes), capacity
// max_size[id], an i64 count at base and the entries from base + 8 ([primal, adjoint] for float
// stacks, the primal for int stacks, i1 as i32). A stack without entries (capacity 0) reads its
// zero count header instead of an entry.

qd.field @x : !qd.field<4xf32>

// CHECK-LABEL: lowered.task @stacks_0 range(0, 4) adstacks [0, 1] {
// Metadata and the slice addresses, once per task.
// CHECK-DAG: %[[ROW:.*]] = lowered.adstack_row : i64
// CHECK-DAG: %[[FS:.*]] = lowered.adstack_stride float : i64
// CHECK-DAG: %[[OFF:.*]] = lowered.adstack_offset 0 : i64
// CHECK-DAG: %[[CAP:.*]] = lowered.adstack_max_size 0 : i64
// CHECK-DAG: %[[IS:.*]] = lowered.adstack_stride int : i64
// CHECK-DAG: %[[IOFF:.*]] = lowered.adstack_offset 1 : i64
// CHECK-DAG: %[[ICAP:.*]] = lowered.adstack_max_size 1 : i64
// CHECK-DAG: %[[RS:.*]] = arith.muli %[[ROW]], %[[FS]] : i64
// CHECK-DAG: %[[BASE:.*]] = arith.addi %[[RS]], %[[OFF]] : i64
// CHECK-DAG: %[[HAS:.*]] = arith.cmpi sgt, %[[CAP]], %[[ZERO:.*]] : i64
// CHECK-DAG: %[[FIRST:.*]] = arith.addi %[[BASE]], %[[EIGHT:.*]] : i64
// CHECK-DAG: %[[P0:.*]] = arith.select %[[HAS]], %[[FIRST]], %[[BASE]] : i64
// CHECK-DAG: %[[A1:.*]] = arith.addi %[[FIRST]], %[[FOUR:.*]] : i64
// CHECK-DAG: %[[A0:.*]] = arith.select %[[HAS]], %[[A1]], %[[BASE]] : i64
// CHECK-DAG: %[[CNT:.*]] = lowered.heap_ptr float, %[[BASE]] : !lowered.ptr<i64>
// CHECK-DAG: %[[ZERO]] = arith.constant 0 : i64
// CHECK-DAG: %[[EIGHT]] = arith.constant 8 : i64
// CHECK-DAG: %[[FOUR]] = arith.constant 4 : i64
// CHECK-DAG: %[[FZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
//
// alloca: entry 0 := (0, 0), count := 0.
// CHECK-DAG: %[[Z0:.*]] = lowered.heap_ptr float, %[[P0]] : !lowered.ptr<f32>
// CHECK: lowered.store %[[FZ]], %[[Z0]] : !lowered.ptr<f32>
// CHECK-NEXT: %[[Z1:.*]] = lowered.heap_ptr float, %[[A0]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.store %[[FZ]], %[[Z1]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.store %[[ZERO]], %[[CNT]] : !lowered.ptr<i64>
//
// push: when count < capacity, entry[count] := (v, 0) and count += 1, else the overflow flag.
// CHECK: %[[C:.*]] = lowered.load %[[CNT]] : !lowered.ptr<i64>
// CHECK-NEXT: %[[FULL:.*]] = arith.cmpi sge, %[[C]], %[[CAP]] : i64
// CHECK-NEXT: lowered.if %[[FULL]] {
// CHECK-NEXT: lowered.adstack_overflow 0
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[EO:.*]] = arith.muli %[[C]], %[[EIGHT]] : i64
// CHECK-NEXT: %[[PA:.*]] = arith.addi %[[P0]], %[[EO]] : i64
// CHECK-NEXT: %[[PP:.*]] = lowered.heap_ptr float, %[[PA]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.store %[[V:.*]], %[[PP]] : !lowered.ptr<f32>
// CHECK-NEXT: %[[EO2:.*]] = arith.muli %[[C]], %[[EIGHT]] : i64
// CHECK-NEXT: %[[AA:.*]] = arith.addi %[[A0]], %[[EO2]] : i64
// CHECK-NEXT: %[[AP:.*]] = lowered.heap_ptr float, %[[AA]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.store %[[FZ]], %[[AP]] : !lowered.ptr<f32>
// CHECK-NEXT: %[[C1:.*]] = arith.addi %[[C]], %[[ONE]] : i64
// CHECK-NEXT: lowered.store %[[C1]], %[[CNT]] : !lowered.ptr<i64>
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: }
//
// load_top: entry max(count - 1, 0).
// CHECK-NEXT: %[[C:.*]] = lowered.load %[[CNT]] : !lowered.ptr<i64>
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[C]], %[[ONE]] : i64
// CHECK-NEXT: %[[T:.*]] = arith.maxsi %[[M]], %[[ZERO]] : i64
// CHECK-NEXT: %[[TO:.*]] = arith.muli %[[T]], %[[EIGHT]] : i64
// CHECK-NEXT: %[[TA:.*]] = arith.addi %[[P0]], %[[TO]] : i64
// CHECK-NEXT: %[[TP:.*]] = lowered.heap_ptr float, %[[TA]] : !lowered.ptr<f32>
// CHECK-NEXT: %[[TOP:.*]] = lowered.load %[[TP]] : !lowered.ptr<f32>
//
// acc_adjoint: only when the stack has entries.
// CHECK-NEXT: lowered.if %[[HAS]] {
// CHECK-NEXT: %[[C:.*]] = lowered.load %[[CNT]] : !lowered.ptr<i64>
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[C]], %[[ONE]] : i64
// CHECK-NEXT: %[[T:.*]] = arith.maxsi %[[M]], %[[ZERO]] : i64
// CHECK-NEXT: %[[TO:.*]] = arith.muli %[[T]], %[[EIGHT]] : i64
// CHECK-NEXT: %[[TA:.*]] = arith.addi %[[A0]], %[[TO]] : i64
// CHECK-NEXT: %[[TP:.*]] = lowered.heap_ptr float, %[[TA]] : !lowered.ptr<f32>
// CHECK-NEXT: %[[OLD:.*]] = lowered.load %[[TP]] : !lowered.ptr<f32>
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[TOP]] : f32
// CHECK-NEXT: lowered.store %[[NEW]], %[[TP]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: }
//
// load_top_adj: the adjoint of the top entry.
// CHECK-NEXT: %[[C:.*]] = lowered.load %[[CNT]] : !lowered.ptr<i64>
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[C]], %[[ONE]] : i64
// CHECK-NEXT: %[[T:.*]] = arith.maxsi %[[M]], %[[ZERO]] : i64
// CHECK-NEXT: %[[TO:.*]] = arith.muli %[[T]], %[[EIGHT]] : i64
// CHECK-NEXT: %[[TA:.*]] = arith.addi %[[A0]], %[[TO]] : i64
// CHECK-NEXT: %[[TP:.*]] = lowered.heap_ptr float, %[[TA]] : !lowered.ptr<f32>
// CHECK-NEXT: lowered.load %[[TP]] : !lowered.ptr<f32>
//
// pop: count := max(count - 1, 0).
// CHECK-NEXT: %[[C:.*]] = lowered.load %[[CNT]] : !lowered.ptr<i64>
// CHECK-NEXT: %[[M:.*]] = arith.subi %[[C]], %[[ONE]] : i64
// CHECK-NEXT: %[[T:.*]] = arith.maxsi %[[M]], %[[ZERO]] : i64
// CHECK-NEXT: lowered.store %[[T]], %[[CNT]] : !lowered.ptr<i64>
//
// An i1 stack lives in the int heap as i32 entries (4 bytes, no adjoint).
// CHECK: %[[IZ:.*]] = lowered.heap_ptr int, %{{.*}} : !lowered.ptr<i32>
// CHECK-NEXT: lowered.store %{{.*}}, %[[IZ]] : !lowered.ptr<i32>
// CHECK-NEXT: lowered.store %[[ZERO]], %{{.*}} : !lowered.ptr<i64>
// CHECK: lowered.adstack_overflow 1
// CHECK: %[[W:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK-NEXT: %[[WP:.*]] = lowered.heap_ptr int, %{{.*}} : !lowered.ptr<i32>
// CHECK-NEXT: lowered.store %[[W]], %[[WP]] : !lowered.ptr<i32>
// CHECK: %[[BT:.*]] = lowered.load %{{.*}} : !lowered.ptr<i32>
// CHECK-NEXT: arith.trunci %[[BT]] : i32 to i1
qd.kernel @stacks() {
  qd.struct_for (%i) in @x {
    %s = adstack.alloca : f32 {id = 0, max_size = 4}
    %v = qd.load @x[%i] : f32
    adstack.push %s, %v : f32
    %t = adstack.load_top %s : f32
    adstack.acc_adjoint %s, %t : f32
    %a = adstack.load_top_adj %s : f32
    adstack.pop %s : f32
    %b = adstack.alloca : i1 {id = 1, max_size = 2}
    %z = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %v, %z : f32
    adstack.push %b, %pos : i1
    %bt = adstack.load_top %b : i1
  }
}

// An f64 stack: 16-byte entries, the adjoint 8 bytes after the primal; an i32 stack: 4-byte
// entries in the int heap. Ids need not be dense: they are the stacks' own.
// CHECK-LABEL: lowered.task @wide_0 serial adstacks [7, 3] {
// CHECK-DAG: %[[EIGHT:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[SIXTEEN:.*]] = arith.constant 16 : i64
// CHECK-DAG: %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK-DAG: lowered.adstack_offset 7 : i64
// CHECK-DAG: lowered.adstack_offset 3 : i64
// CHECK: arith.muli %{{.*}}, %[[SIXTEEN]] : i64
// CHECK: lowered.heap_ptr float, %{{.*}} : !lowered.ptr<f64>
// CHECK: arith.muli %{{.*}}, %[[FOUR]] : i64
// CHECK: lowered.heap_ptr int, %{{.*}} : !lowered.ptr<i32>
qd.kernel @wide(%d: f64, %n: i32) {
  %s = adstack.alloca : f64 {id = 7, max_size = 2}
  adstack.push %s, %d : f64
  %i = adstack.alloca : i32 {id = 3, max_size = 2}
  adstack.push %i, %n : i32
}
