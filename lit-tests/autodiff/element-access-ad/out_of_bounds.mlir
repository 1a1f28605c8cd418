// RUN: qd-opt %s --pass=element-access-ad | FileCheck %s
// RUN: qd-opt %s --pass=canonicalize --pass=element-access-ad | qd-opt | FileCheck %s --check-prefix=FOLDED
// A constant index out of bounds (in code that never runs, or made by folding) stays a value
// path entry: a literal entry out of bounds would not verify, a value entry is checked when it
// runs (found by the passes fuzz target). In-bounds constants still become literals.

// CHECK-LABEL: qd.kernel @k(
// CHECK-SAME: %[[V:[^:]*]]: f32)
qd.kernel @k(%v: f32) {
  // CHECK: %[[A:.*]] = qd.alloca : !qd.ptr<!qd.array<3xf32>>
  %a = qd.alloca : !qd.ptr<!qd.array<3xf32>>
  // CHECK: %[[C3:.*]] = arith.constant 3 : i32
  %c3 = arith.constant 3 : i32
  %p = qd.elem_ptr %a[%c3] : !qd.ptr<!qd.array<3xf32>>
  // CHECK: ad.store_element %[[V]], %[[A]][%[[C3]]] : !qd.ptr<!qd.array<3xf32>>
  qd.local_store %v, %p : !qd.ptr<f32>
  %c2 = arith.constant 2 : i32
  %q = qd.elem_ptr %a[%c2] : !qd.ptr<!qd.array<3xf32>>
  // CHECK: ad.store_element %[[V]], %[[A]][2] : !qd.ptr<!qd.array<3xf32>>
  qd.local_store %v, %q : !qd.ptr<f32>
}

// FOLDED-LABEL: qd.kernel @folded(
// FOLDED-SAME: %[[V:[^:]*]]: f32)
qd.kernel @folded(%v: f32) {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.addi %c1, %c2 : i32
  %never = arith.cmpi sgt, %c1, %c2 : i32
  // The sum folds to a constant out of bounds (canonicalize puts constants first).
  // FOLDED: %[[C3:.*]] = arith.constant 3 : i32
  // FOLDED: %[[A:.*]] = qd.alloca : !qd.ptr<!qd.array<3xf32>>
  %a = qd.alloca : !qd.ptr<!qd.array<3xf32>>
  // FOLDED: qd.if
  qd.if %never {
    // FOLDED: ad.store_element %[[V]], %[[A]][%[[C3]]] : !qd.ptr<!qd.array<3xf32>>
    %p = qd.elem_ptr %a[%c3] : !qd.ptr<!qd.array<3xf32>>
    qd.local_store %v, %p : !qd.ptr<f32>
  }
}
