// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Trip counts read from ndarrays: at loop indices (a max over the loop's range), at several
// axes, nested, and at indices that are not exact (a max over the whole axis).

// The shared example: n = a[i] for each thread i; the stack needs max over i of a[i].
qd.field @x : !qd.field<8xf32>
// CHECK-LABEL: qd.kernel @read_at_index
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(arg0[v0]:i32 - 0 for v0 in range(0, 8))>}
qd.kernel @read_at_index(%a: !qd.ndarray<?xi32>, %v: f32) {
  qd.struct_for (%i) in @x {
    %s = adstack.alloca : f32
    %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
    %c0 = arith.constant 0 : i32
    qd.range_for %j = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A 2-d ndarray bound under two loops over its shape (upstream: a[2, 2] = 100, the rest 0).
// CHECK-LABEL: qd.kernel @multi_dim
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(max(arg0[v0, v1]:i32 - 0 for v1 in range(0, arg0.shape[1])) for v0 in range(0, arg0.shape[0]))>}
qd.kernel @multi_dim(%a: !qd.ndarray<?x?xi32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %d0 = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?xi32>
  %d1 = qd.ndarray_shape %a, 1 : !qd.ndarray<?x?xi32>
  qd.range_for %i = %c0 to %d0 : i32 {
    qd.range_for %j = %c0 to %d1 : i32 {
      %s = adstack.alloca : f32
      %n = qd.ndarray_load %a[%i, %j] : !qd.ndarray<?x?xi32>
      qd.range_for %k = %c0 to %n : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// Nested trip counts (upstream: n = [2, 3, 4, 1]): for ie < n.shape0: for il < n[ie]:
// for j < n[il]. The alloca is per ie: the sum over il < n[ie] of n[il] (exact).
// CHECK-LABEL: qd.kernel @nested_reads
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(sum(arg0[v1]:i32 - 0 for v1 in range(0, arg0[v0]:i32)) for v0 in range(0, arg0.shape[0]))>}
qd.kernel @nested_reads(%n: !qd.ndarray<?xi32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %len = qd.ndarray_shape %n, 0 : !qd.ndarray<?xi32>
  qd.range_for %ie = %c0 to %len : i32 {
    %s = adstack.alloca : f32
    %m = qd.ndarray_load %n[%ie] : !qd.ndarray<?xi32>
    qd.range_for %il = %c0 to %m : i32 {
      %k = qd.ndarray_load %n[%il] : !qd.ndarray<?xi32>
      qd.range_for %j = %c0 to %k : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// Two independent loops over different ndarrays must not fuse: with a = [0, 0, 0, 100] and
// b = [1, 1] the largest a[ia] - b[ib] is 99, which a fused max over min(4, 2) indices misses.
// The bound keeps one sum per loop: the sum over ia, ib of (a[ia] - b[ib]), each clamped at 0.
// CHECK-LABEL: qd.kernel @independent
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(sum(arg0[v1]:i32 - arg1[v2]:i32 for v2 in range(0, arg1.shape[0])) for v1 in range(0, arg0.shape[0]))>}
qd.kernel @independent(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %na = qd.ndarray_shape %a, 0 : !qd.ndarray<?xi32>
    %nb = qd.ndarray_shape %b, 0 : !qd.ndarray<?xi32>
    qd.range_for %ia = %c0 to %na : i32 {
      qd.range_for %ib = %c0 to %nb : i32 {
        %x = qd.ndarray_load %a[%ia] : !qd.ndarray<?xi32>
        %y = qd.ndarray_load %b[%ib] : !qd.ndarray<?xi32>
        %d = arith.subi %x, %y : i32
        qd.range_for %k = %c0 to %d : i32 {
          adstack.push %s, %v : f32
        }
      }
    }
  }
}

// -----

// An index that is not exact (here from a float) falls back to the max over the whole axis.
qd.field @sel : !qd.field<16xi32>
// CHECK-LABEL: qd.kernel @opaque_index
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(@sel[v48]:i32 for v48 in range(0, 16))>}
qd.kernel @opaque_index(%w: f32, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %i = arith.fptosi %w : f32 to i32
    %n = qd.load @sel[%i] : i32
    qd.range_for %k = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// An ndarray read at a computed index stays exact: a[2 i + 1].
// CHECK-LABEL: qd.kernel @computed_index
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(arg0[v0 * 2 + 1]:i64 - 0 for v0 in range(0, 4))>}
qd.kernel @computed_index(%a: !qd.ndarray<?xi64>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %s = adstack.alloca : f32
    %d = arith.muli %i, %c2 : i32
    %j = arith.addi %d, %c1 : i32
    %n = qd.ndarray_load %a[%j] : !qd.ndarray<?xi64>
    %z = arith.constant 0 : i64
    qd.range_for %k = %z to %n : i64 {
      adstack.push %s, %v : f32
    }
  }
}
