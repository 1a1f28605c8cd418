// RUN: qd-opt %s -p canonicalize | FileCheck %s
// RUN: qd-opt %s -p canonicalize,cse | qd-opt | FileCheck %s
// Folding may make a constant of an index out of bounds (here in code that never runs): the
// result must still verify, so the verifier leaves such indices to the run-time check (found by
// the passes fuzz target: canonicalize made IR that no longer verified).

qd.field @x : !qd.field<8xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}

// CHECK-LABEL: qd.kernel @k
qd.kernel @k(%i: i32, %v: f32) {
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c9 = arith.addi %c4, %c5 : i32
  %never = arith.cmpi sgt, %c4, %c5 : i32
  // CHECK-DAG: %[[C9:.*]] = arith.constant 9 : i32
  qd.if %never {
    // CHECK: qd.load @x[%[[C9]]] : f32
    %a = qd.load @x[%c9] : f32
    qd.store %a, @y[] : f32
    // CHECK: qd.store %{{.*}}, @x[%[[C9]]] : f32
    qd.store %v, @x[%c9] : f32
    // CHECK: ad.load_field_adjoint @x[%[[C9]]] : f32
    %g = ad.load_field_adjoint @x[%c9] : f32
    qd.store %g, @y[] : f32
    // CHECK: qd.elem_ptr %{{.*}}[%[[C9]]] : !qd.ptr<!qd.array<8xf32>>
    %p = qd.alloca : !qd.ptr<!qd.array<8xf32>>
    %e = qd.elem_ptr %p[%c9] : !qd.ptr<!qd.array<8xf32>>
    qd.local_store %v, %e : !qd.ptr<f32>
    // CHECK: ad.load_element %{{.*}}[%[[C9]]] : !qd.ptr<!qd.array<8xf32>>
    %l = ad.load_element %p[%c9] : !qd.ptr<!qd.array<8xf32>>
    qd.store %l, @y[] : f32
  }
}
