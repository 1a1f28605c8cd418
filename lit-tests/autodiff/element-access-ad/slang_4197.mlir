// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// RUN: qd-opt %s --pass=element-access-ad --pass=reverse-mode-ad | FileCheck %s
// RUN: qd-opt %s --pass='reverse-mode-ad{aggregates=ssa}' | FileCheck %s --check-prefix=SSA
// The example of Slang issue #4197, `float[10] g(float[10] a) { for (i..) a[i] = f(a[i]); }`:
// an SSA pass would make the array one loop-carried value, saved whole at every iteration (10
// values per iteration), and each element read in reverse would materialise a zeroed copy of the
// whole adjoint array. Here the element accesses stay addressed: no stack holds an aggregate,
// one scalar f32 stack holds the element each iteration overwrites, and each element's adjoint
// goes straight into its slot of the adjoint array.

qd.field @x : !qd.field<4x10xf32> {needs_grad}
qd.field @y : !qd.field<4x10xf32> {needs_grad}
qd.kernel @g() {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c10 = arith.constant 10 : i32
  qd.range_for %r = %c0 to %c4 : i32 {
    %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
    qd.range_for %k = %c0 to %c10 : i32 {
      %v = qd.load @x[%r, %k] : f32
      %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<10xf32>>
      qd.local_store %v, %p : !qd.ptr<f32>
    }
    qd.range_for %i = %c0 to %c10 : i32 {
      %p = qd.elem_ptr %a[%i] : !qd.ptr<!qd.array<10xf32>>
      %v = qd.local_load %p : !qd.ptr<f32>
      %s = math.sin %v : f32
      %f = arith.mulf %s, %v : f32
      qd.local_store %f, %p : !qd.ptr<f32>
    }
    qd.range_for %k = %c0 to %c10 : i32 {
      %p = qd.elem_ptr %a[%k] : !qd.ptr<!qd.array<10xf32>>
      %v = qd.local_load %p : !qd.ptr<f32>
      qd.store %v, @y[%r, %k] : f32
    }
  }
}

// The primal kernel's accesses are addressed loads and stores too.
// CHECK-LABEL: qd.kernel @g()
// CHECK-NOT: qd.elem_ptr
// CHECK: ad.load_element
// CHECK-LABEL: qd.kernel @g_grad()
// CHECK-NOT: qd.elem_ptr
// CHECK-NOT: adstack.alloca : !qd
// CHECK: qd.range_for %[[R:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[DA:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[S:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[A:.*]] = qd.alloca : !qd.ptr<!qd.array<10xf32>>
// CHECK-NOT: adstack.alloca
// The filling stores save nothing; the update saves the element it overwrites, which is the
// element f read.
// CHECK-NOT: adstack.push
// CHECK: ad.store_element %{{.*}}, %[[A]][%{{.*}}] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: }
// CHECK-NEXT: qd.range_for %[[I:.*]] = %{{.*}} to %{{.*}} : i32 {
// CHECK-NEXT: %[[V:.*]] = ad.load_element %[[A]][%[[I]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[SN:.*]] = math.sin %[[V]] : f32
// CHECK-NEXT: %[[F:.*]] = arith.mulf %[[SN]], %[[V]] : f32
// CHECK-NEXT: adstack.push %[[S]], %[[V]] : f32
// CHECK-NEXT: ad.store_element %[[F]], %[[A]][%[[I]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: }
// CHECK-NOT: adstack.push
// Reverse of the output loop: y's adjoints into the adjoint array's slots.
// CHECK: ad.load_field_adjoint @y[%[[R]], %[[K:.*]]] : f32
// CHECK: ad.store_element %{{.*}}, %[[DA]][%[[K]]] : !qd.ptr<!qd.array<10xf32>>
// Reverse of the update loop: take the slot's adjoint, zero it, restore the element, pop, re-read
// it for f's derivative, and deposit into the same slot.
// CHECK: qd.range_for
// CHECK: %[[IR:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT: %[[G:.*]] = ad.load_element %[[DA]][%[[IR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: ad.store_element %[[Z]], %[[DA]][%[[IR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[OLD:.*]] = adstack.load_top %[[S]] : f32
// CHECK-NEXT: ad.store_element %[[OLD]], %[[A]][%[[IR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: adstack.pop %[[S]] : f32
// CHECK-NEXT: %[[VR:.*]] = ad.load_element %[[A]][%[[IR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK: math.cos %[[VR]] : f32
// CHECK: %[[T:.*]] = ad.load_element %[[DA]][%[[IR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[T]], %{{.*}} : f32
// CHECK-NEXT: ad.store_element %[[SUM]], %[[DA]][%[[IR]]] : !qd.ptr<!qd.array<10xf32>>
// CHECK-NEXT: }
// Reverse of the filling loop: the slots' adjoints go to x.
// CHECK: ad.acc_field_adjoint %{{.*}}, @x[%[[R]], %{{.*}}] : f32
// CHECK-NOT: adstack

// The naive mode: one f32 stack per element (10), and every store pushes all 10 of them.
// SSA-LABEL: qd.kernel @g_grad()
// SSA-COUNT-10: adstack.alloca : f32
// SSA-NOT: adstack.alloca
// SSA-COUNT-10: adstack.push
// SSA: qd.range_for
// SSA-COUNT-10: adstack.push
// SSA: qd.range_for
// SSA-COUNT-10: adstack.push
// SSA: }
