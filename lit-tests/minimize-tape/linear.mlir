// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape | FileCheck %s
// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape,determine-ad-stack-size | FileCheck %s --check-prefix=SIZED
// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape,determine-ad-stack-size{ad-stack-size=32} | FileCheck %s --check-prefix=SIZED
// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape,canonicalize,cse,dce,symbol-dce | FileCheck %s --check-prefix=CLEAN
// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape,determine-ad-stack-size,convert-qd-to-lowered | FileCheck %s --check-prefix=LOWERED
// RUN: qd-opt %s --pass=element-access-ad,reverse-mode-ad,minimize-tape --pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// The linear body v = v*0.95 + 0.01: the adjoint of v needs no primal (d/dv = 0.95), so the
// stack reverse-mode-ad gives v keeps no entries. Its primal becomes a local (stored, read by
// the forward replay only) and its adjoint a second local; the alloca stays as the record,
// marked primal_elided, with no uses, and is sized 0 (no size_expr), even when a size is forced.
// The generic clean-ups keep the record (an alloca has effects); lowering drops it: the task
// lists no adstack and has no heap access, so the stack costs no memory and no overflow check.

qd.field @n : !qd.field<i32>
qd.field @x : !qd.field<16xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @compute() {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %v = qd.alloca : !qd.ptr<f32>
    qd.local_store %x_i, %v : !qd.ptr<f32>
    %n = qd.load @n[] : i32
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      %a = qd.local_load %v : !qd.ptr<f32>
      %k = arith.constant 0.95 : f32
      %b = arith.constant 0.01 : f32
      %m = arith.mulf %a, %k : f32
      %s = arith.addf %m, %b : f32
      qd.local_store %s, %v : !qd.ptr<f32>
    }
    %r = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %r, @y[] : f32
  }
}

// CHECK-LABEL: qd.kernel @compute_grad
// CHECK: qd.struct_for
// CHECK-NEXT: adstack.alloca : f32 {max_size = 0, primal_elided}
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[P:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: qd.local_store %[[ZERO]], %[[P]]
// CHECK-NEXT: %[[A:.*]] = qd.alloca : !qd.ptr<f32>
// CHECK-NEXT: qd.local_store %[[ZERO]], %[[A]]
// The forward replay: pushes became stores, load_top a load of the primal local.
// CHECK: qd.range_for
// CHECK-NEXT: qd.local_load %[[P]]
// CHECK: qd.local_store %{{.*}}, %[[P]]
// CHECK-NEXT: }
// acc_adjoint: a = a + dy.
// CHECK: %[[DY:.*]] = ad.load_field_adjoint @y[]
// CHECK-NEXT: %[[OLD:.*]] = qd.local_load %[[A]]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[DY]]
// CHECK-NEXT: qd.local_store %[[NEW]], %[[A]]
// The reversed loop: load_top_adj, pop (a = 0), acc_adjoint.
// CHECK: qd.range_for
// CHECK-NEXT: %[[T:.*]] = qd.local_load %[[A]]
// CHECK-NEXT: qd.local_store %[[ZERO]], %[[A]]
// CHECK: arith.mulf %[[T]]
// CHECK-NOT: adstack.
// CHECK: ad.acc_field_adjoint

// SIZED-LABEL: qd.kernel @compute_grad
// SIZED: adstack.alloca : f32 {id = 0, max_size = 0, primal_elided}
// SIZED-NOT: adstack.

// STATS: MinimizeTape
// STATS-DAG: (S) 1 num-elided
// STATS-DAG: (S) 0 num-kept

// CLEAN-LABEL: qd.kernel @compute_grad
// CLEAN: adstack.alloca : f32 {max_size = 0, primal_elided}

// LOWERED-LABEL: lowered.kernel @compute_grad
// LOWERED-NEXT: lowered.task @compute_grad_0 range(0, 16) {
// LOWERED-NOT: adstack
// LOWERED: lowered.return
