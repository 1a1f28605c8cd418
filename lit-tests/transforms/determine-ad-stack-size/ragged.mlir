// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Ragged segments: for j < starts[i + 1] - starts[i]. Both reads stay at the same i under one
// max, so the difference is the longest segment, never 0 (upstream once fused the two maxima
// into starts[v] - starts[v] = 0 and the stack overflowed).

// As SSA values, with the alloca per segment (upstream: starts = [0, 2, 3, 6]).
qd.field @starts : !qd.field<4xi32>
// CHECK-LABEL: qd.kernel @segments
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))>}
qd.kernel @segments(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  qd.range_for %i = %c0 to %c3 : i32 {
    %s = adstack.alloca : f32
    %b = qd.load @starts[%i] : i32
    %i1 = arith.addi %i, %c1 : i32
    %e = qd.load @starts[%i1] : i32
    %n = arith.subi %e, %b : i32
    qd.range_for %j = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// The segment as the loop's range itself: range(starts[i], starts[i + 1]), one stack for all
// segments: the sum of the 3 segment lengths (exact).
qd.field @starts : !qd.field<4xi32>
// CHECK-LABEL: qd.kernel @segment_range
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(@starts[v1 + 1]:i32 - @starts[v1]:i32 for v1 in range(0, 3))>}
qd.kernel @segment_range(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.range_for %i = %c0 to %c3 : i32 {
      %b = qd.load @starts[%i] : i32
      %i1 = arith.addi %i, %c1 : i32
      %e = qd.load @starts[%i1] : i32
      qd.range_for %j = %b to %e : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// Through locals set in the same iteration (a local per segment): still the same i.
qd.field @starts : !qd.field<4xi32>
// CHECK-LABEL: qd.kernel @segment_locals
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(@starts[v0 + 1]:i32 - @starts[v0]:i32 for v0 in range(0, 3))>}
qd.kernel @segment_locals(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  qd.range_for %i = %c0 to %c3 : i32 {
    %s = adstack.alloca : f32
    %pb = qd.alloca : !qd.ptr<i32>
    %pe = qd.alloca : !qd.ptr<i32>
    %b = qd.load @starts[%i] : i32
    qd.local_store %b, %pb : !qd.ptr<i32>
    %i1 = arith.addi %i, %c1 : i32
    %e = qd.load @starts[%i1] : i32
    qd.local_store %e, %pe : !qd.ptr<i32>
    %bl = qd.local_load %pb : !qd.ptr<i32>
    %el = qd.local_load %pe : !qd.ptr<i32>
    %n = arith.subi %el, %bl : i32
    qd.range_for %j = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// An ndarray of offsets (the upstream link/joint case): for il in range(ls[ie], le[ie]):
// for ij < je[il] - js[il]. The stack is per ie: the sum over il of the inner trip counts.
// CHECK-LABEL: qd.kernel @stashed_offsets
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(sum(arg3[v1]:i32 - arg2[v1]:i32 for v1 in range(arg0[v0]:i32, arg1[v0]:i32)) for v0 in range(0, arg0.shape[0]))>}
qd.kernel @stashed_offsets(%ls: !qd.ndarray<?xi32>, %le: !qd.ndarray<?xi32>, %js: !qd.ndarray<?xi32>, %je: !qd.ndarray<?xi32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %ne = qd.ndarray_shape %ls, 0 : !qd.ndarray<?xi32>
  qd.range_for %ie = %c0 to %ne : i32 {
    %s = adstack.alloca : f32
    %b = qd.ndarray_load %ls[%ie] : !qd.ndarray<?xi32>
    %e = qd.ndarray_load %le[%ie] : !qd.ndarray<?xi32>
    qd.range_for %il = %b to %e : i32 {
      %x = qd.ndarray_load %js[%il] : !qd.ndarray<?xi32>
      %y = qd.ndarray_load %je[%il] : !qd.ndarray<?xi32>
      %nj = arith.subi %y, %x : i32
      qd.range_for %ij = %c0 to %nj : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}
