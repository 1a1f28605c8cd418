// RUN: qd-opt %s -split-input-file --pass=minimize-tape | FileCheck %s
// minimize-tape on hand-written stacks: elided exactly when every push and load_top (mapped to
// its ancestor in the alloca's block) comes strictly before every pop, load_top_adj and
// acc_adjoint; kept otherwise, and kept when the stack has a use the pass does not know.

// A primal read after a pop (the reverse pass reads the primal): kept.
// CHECK-LABEL: qd.kernel @read_in_reverse
// CHECK-NEXT: qd.alloca
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32 {id = 0}
// CHECK-NEXT: adstack.push %[[S]], %arg0
// CHECK-NEXT: adstack.push %[[S]], %arg0
// CHECK-NEXT: adstack.pop %[[S]]
// CHECK-NEXT: adstack.load_top %[[S]]
qd.kernel @read_in_reverse(%v: f32) {
  %out = qd.alloca : !qd.ptr<f32>
  %s = adstack.alloca : f32 {id = 0}
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
  adstack.pop %s : f32
  %p = adstack.load_top %s : f32
  qd.local_store %p, %out : !qd.ptr<f32>
}

// -----

// A loop that both pushes and accumulates adjoints: its ancestor is a forward and a reverse op at
// once, so the order is not strict: kept.
// CHECK-LABEL: qd.kernel @interleaved
// CHECK: adstack.alloca : f32 {id = 0}
// CHECK: qd.range_for
// CHECK-NEXT: adstack.push
// CHECK-NEXT: adstack.acc_adjoint
qd.kernel @interleaved(%v: f32, %n: i32) {
  %s = adstack.alloca : f32 {id = 0}
  %c0 = arith.constant 0 : i32
  qd.range_for %j = %c0 to %n : i32 {
    adstack.push %s, %v : f32
    adstack.acc_adjoint %s, %v : f32
  }
}

// -----

// A push after the reverse ops began (a pop comes first): kept.
// CHECK-LABEL: qd.kernel @push_after_pop
// CHECK: adstack.alloca : f32 {id = 0}
// CHECK-NEXT: adstack.push
// CHECK-NEXT: adstack.pop
// CHECK-NEXT: adstack.push
qd.kernel @push_after_pop(%v: f32) {
  %s = adstack.alloca : f32 {id = 0}
  adstack.push %s, %v : f32
  adstack.pop %s : f32
  adstack.push %s, %v : f32
}

// -----

// Forward pushes in a loop, the reverse in a later loop; primal reads in the forward only:
// elided, the adjoint in a local.
// CHECK-LABEL: qd.kernel @elided
// CHECK-NEXT: adstack.alloca : f32 {id = 0, max_size = 0, primal_elided}
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[P:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: qd.local_store %[[Z]], %[[P]]
// CHECK-NEXT: %[[A:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: qd.local_store %[[Z]], %[[A]]
// CHECK: qd.range_for
// CHECK-NEXT: %[[T:.*]] = qd.local_load %[[P]]
// CHECK-NEXT: %[[M:.*]] = arith.mulf %[[T]], %arg0
// CHECK-NEXT: qd.local_store %[[M]], %[[P]]
// CHECK: qd.range_for
// CHECK-NEXT: %[[ADJ:.*]] = qd.local_load %[[A]]
// CHECK-NEXT: qd.local_store %[[Z]], %[[A]]
// CHECK-NEXT: %[[OLD:.*]] = qd.local_load %[[A]]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[ADJ]]
// CHECK-NEXT: qd.local_store %[[NEW]], %[[A]]
// CHECK-NOT: adstack.
qd.kernel @elided(%v: f32, %n: i32) {
  %s = adstack.alloca : f32 {id = 0, max_size = 40}
  %c0 = arith.constant 0 : i32
  qd.range_for %j = %c0 to %n : i32 {
    %t = adstack.load_top %s : f32
    %m = arith.mulf %t, %v : f32
    adstack.push %s, %m : f32
  }
  qd.range_for %j = %c0 to %n : i32 {
    %a = adstack.load_top_adj %s : f32
    adstack.pop %s : f32
    adstack.acc_adjoint %s, %a : f32
  }
}

// -----

// An integer stack whose values are never read back in reverse: a plain local, the pops dropped.
// CHECK-LABEL: qd.kernel @int_stack
// CHECK-NEXT: adstack.alloca : i32 {id = 0, max_size = 0, primal_elided}
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[P:.*]] = qd.alloca : !qd.ptr<i32>
// CHECK-NEXT: qd.local_store %[[Z]], %[[P]]
// CHECK-NEXT: qd.local_store %arg0, %[[P]]
// CHECK-NEXT: qd.local_load %[[P]]
// CHECK-NOT: adstack.
qd.kernel @int_stack(%v: i32) {
  %s = adstack.alloca : i32 {id = 0}
  adstack.push %s, %v : i32
  %t = adstack.load_top %s : i32
  adstack.pop %s : i32
}
