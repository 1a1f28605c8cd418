// RUN: qd-opt %s -p convert-qd-to-lowered | FileCheck %s
// Structured control flow: nested serial loops become lowered.for, qd.while lowered.while,
// qd.if lowered.if; break and continue become private i1 flags (`broken`, checked by the loop
// condition; `running`, guarding the code after an if that may jump).

qd.field @x : !qd.field<8xf32>
qd.field @g : !qd.field<2x3xf32>

// CHECK-LABEL: lowered.task @nested_0 range(0, 8) {
// CHECK-DAG: %[[N:.*]] = lowered.arg 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: lowered.for %[[J:.*]] = %[[ZERO]] to %[[N]] step %[[ONE]] : i32 {
// CHECK-NEXT: lowered.for %{{.*}} = %[[ZERO]] to %[[J]] step %[[ONE]] : i32 {
// CHECK: arith.mulf
// CHECK: lowered.yield
// CHECK-NEXT: }
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: }
qd.kernel @nested(%n: i32) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      qd.range_for %k = %c0 to %j : i32 {
        %v = qd.load @x[%i] : f32
        %c = arith.constant 0.5 : f32
        %m = arith.mulf %v, %c : f32
        qd.store %m, @x[%i] : f32
      }
    }
  }
}

// A range_for with a break: a while over a private counter that stops once broken; the code
// after the if runs while the iteration is running; the counter advances unguarded.
// CHECK-LABEL: lowered.task @brk_0 range(0, 8) {
// CHECK-DAG: %[[N:.*]] = lowered.arg 0 : i32
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[BROKEN:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: %[[RUNNING:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[CTR:.*]] = lowered.alloca : !lowered.ptr<i32, private>
// CHECK: lowered.store %[[ZERO]], %[[CTR]] : !lowered.ptr<i32, private>
// CHECK: lowered.while {
// CHECK: %[[K:.*]] = lowered.load %[[CTR]] : !lowered.ptr<i32, private>
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[K]], %[[N]] : i32
// CHECK: %[[B:.*]] = lowered.load %[[BROKEN]] : !lowered.ptr<i1, private>
// CHECK: %[[NB:.*]] = arith.xori %[[B]], %[[TRUE]] : i1
// CHECK: %[[GO:.*]] = arith.andi %[[LT]], %[[NB]] : i1
// CHECK: lowered.condition %[[GO]]
// CHECK: } do {
// CHECK: %[[I:.*]] = lowered.load %[[CTR]] : !lowered.ptr<i32, private>
// CHECK: lowered.store %[[TRUE]], %[[RUNNING]] : !lowered.ptr<i1, private>
// CHECK: lowered.if %{{.*}} {
// CHECK-NEXT: lowered.store %[[TRUE]], %[[BROKEN]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.store %[[FALSE]], %[[RUNNING]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = lowered.load %[[RUNNING]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.if %[[R]] {
// CHECK: arith.subf
// CHECK: lowered.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[I]], %[[ONE]] : i32
// CHECK-NEXT: lowered.store %[[NEXT]], %[[CTR]] : !lowered.ptr<i32, private>
// CHECK-NEXT: lowered.yield
qd.kernel @brk(%n: i32) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %v = qd.load @x[%i] : f32
      %z = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %v, %z : f32
      qd.if %neg {
        qd.break
      }
      %one = arith.constant 1.0 : f32
      %s = arith.subf %v, %one : f32
      qd.store %s, @x[%i] : f32
    }
  }
}

// A continue (in the then branch of an if with an else): the loop stays a lowered.for; each
// iteration sets `running`, the continue clears it, the rest runs under it.
// CHECK-LABEL: lowered.task @cont_0 range(0, 8) {
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK: %[[RUNNING:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: lowered.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: lowered.store %[[TRUE]], %[[RUNNING]] : !lowered.ptr<i1, private>
// CHECK: lowered.if %{{.*}} {
// CHECK-NEXT: lowered.store %[[FALSE]], %[[RUNNING]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: } else {
// CHECK: lowered.store
// CHECK: lowered.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.*]] = lowered.load %[[RUNNING]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.if %[[R]] {
// CHECK-NOT: lowered.alloca
qd.kernel @cont(%n: i32) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %c2 = arith.constant 2 : i32
      %r = arith.remsi %j, %c2 : i32
      %odd = arith.cmpi ne, %r, %c0 : i32
      qd.if %odd {
        qd.continue
      } else {
        %v = qd.load @x[%i] : f32
        qd.store %v, @x[%i] : f32
      }
      %one = arith.constant 1.0 : f32
      qd.store %one, @x[%i] : f32
    }
  }
}

// A while with a break: the condition region runs only while not broken (it may read memory,
// and qd never evaluates it after a break); its verdict goes through the private flag `go`.
// CHECK-LABEL: lowered.task @wh_0 range(0, 8) {
// CHECK: %[[P:.*]] = lowered.alloca : !lowered.ptr<f32, private>
// CHECK-DAG: %[[FALSE:.*]] = arith.constant false
// CHECK-DAG: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[BROKEN:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: %[[RUNNING:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: %[[GO:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: lowered.while {
// CHECK-NEXT: lowered.store %[[FALSE]], %[[GO]] : !lowered.ptr<i1, private>
// CHECK-NEXT: %[[B:.*]] = lowered.load %[[BROKEN]] : !lowered.ptr<i1, private>
// CHECK-NEXT: %[[NB:.*]] = arith.xori %[[B]], %[[TRUE]] : i1
// CHECK-NEXT: lowered.if %[[NB]] {
// CHECK-NEXT: lowered.load %[[P]] : !lowered.ptr<f32, private>
// CHECK: %[[C:.*]] = arith.cmpf olt
// CHECK-NEXT: lowered.store %[[C]], %[[GO]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[G:.*]] = lowered.load %[[GO]] : !lowered.ptr<i1, private>
// CHECK-NEXT: lowered.condition %[[G]]
// CHECK-NEXT: } do {
// CHECK-NEXT: lowered.store %[[TRUE]], %[[RUNNING]] : !lowered.ptr<i1, private>
qd.kernel @wh() {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    qd.while {
      %v = qd.local_load %p : !qd.ptr<f32>
      %lim = arith.constant 10.0 : f32
      %c = arith.cmpf olt, %v, %lim : f32
      qd.condition %c
    } do {
      %v = qd.local_load %p : !qd.ptr<f32>
      %big = arith.constant 5.0 : f32
      %b = arith.cmpf ogt, %v, %big : f32
      qd.if %b {
        qd.break
      }
      %one = arith.constant 1.0 : f32
      %w = arith.addf %v, %one : f32
      qd.local_store %w, %p : !qd.ptr<f32>
    }
  }
}

// A while without jumps keeps its condition region as it is.
// CHECK-LABEL: lowered.task @plain_while_0 serial {
// CHECK: lowered.while {
// CHECK-NEXT: %[[V:.*]] = lowered.load
// CHECK-NEXT: lowered.condition %[[V]]
// CHECK-NEXT: } do {
// CHECK-NEXT: arith.constant false
// CHECK-NEXT: lowered.store
// CHECK-NEXT: lowered.yield
qd.kernel @plain_while() {
  %p = qd.alloca : !qd.ptr<i1>
  qd.while {
    %v = qd.local_load %p : !qd.ptr<i1>
    qd.condition %v
  } do {
    %f = arith.constant false
    qd.local_store %f, %p : !qd.ptr<i1>
  }
}

// A serial struct_for over a 2-D field with a break that ends the body: a while over the i64
// linear index (no `running` flag: nothing follows the jump); the index loop runs over `index`.
// CHECK-LABEL: lowered.task @serial_struct_0 range(0, 2) {
// CHECK: %{{.*}} = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[BROKEN:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6 : i64
// CHECK: %[[CTR:.*]] = lowered.alloca : !lowered.ptr<i64, private>
// CHECK-NEXT: lowered.store %[[Z]], %[[CTR]] : !lowered.ptr<i64, private>
// CHECK: arith.cmpi slt, %{{.*}}, %[[SIX]] : i64
// CHECK: } do {
// CHECK-NEXT: %[[K:.*]] = lowered.load %[[CTR]] : !lowered.ptr<i64, private>
// CHECK-NEXT: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK-NEXT: %[[J:.*]] = arith.remui %[[K]], %[[THREE]] : i64
// CHECK-NEXT: %[[I:.*]] = arith.divui %[[K]], %[[THREE]] : i64
qd.kernel @serial_struct() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  qd.range_for %r = %c0 to %c2 : index {
    qd.struct_for (%i, %j) in @g {
      %v = qd.load @g[%i, %j] : f32
      %z = arith.constant 0.0 : f32
      %b = arith.cmpf olt, %v, %z : f32
      qd.if %b {
        qd.break
      }
    }
  }
}

// A break that ends the loop body directly needs no flag but `broken`; a continue that ends it
// needs nothing (the loop stays a lowered.for). Loops in a top-level if are serial.
// CHECK-LABEL: lowered.task @tail_jumps_0 serial {
// CHECK: %[[BROKEN:.*]] = lowered.alloca : !lowered.ptr<i1, private>
// CHECK: %[[CTR:.*]] = lowered.alloca : !lowered.ptr<i32, private>
// CHECK: } do {
// CHECK-NEXT: %[[K:.*]] = lowered.load %[[CTR]]
// CHECK-NEXT: lowered.store %{{.*}}, %[[BROKEN]] : !lowered.ptr<i1, private>
// CHECK-NEXT: arith.addi %[[K]]
// CHECK: lowered.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT: lowered.yield
qd.kernel @tail_jumps(%go: i1) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.if %go {
    qd.range_for %i = %c0 to %c4 : i32 {
      qd.break
    }
    qd.range_for %i = %c0 to %c4 : i32 {
      qd.continue
    }
  }
}
