// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Bounds that flow through locals and stacks: the max (from below, the min) of what is stored,
// over every loop between the store and the local's allocation.

// A local with several stores: 3, or 7 under a branch: at most 7.
// CHECK-LABEL: qd.kernel @two_stores
// CHECK: adstack.alloca : f32 {id = 0, max_size = 7, size_expr = #adstack.size<7>}
qd.kernel @two_stores(%c: i1, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    %c3 = arith.constant 3 : i32
    qd.local_store %c3, %k : !qd.ptr<i32>
    qd.if %c {
      %c7 = arith.constant 7 : i32
      qd.local_store %c7, %k : !qd.ptr<i32>
    }
    %n = qd.local_load %k : !qd.ptr<i32>
    qd.range_for %i = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A local stored in a loop and read after it: the max over that loop's iterations (the last
// store is j = 9 at most, so the next loop runs at most 2 * 9 times).
// CHECK-LABEL: qd.kernel @stored_in_loop
// CHECK: adstack.alloca : f32 {id = 0, max_size = 18, size_expr = #adstack.size<18>}
qd.kernel @stored_in_loop(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c10 = arith.constant 10 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.local_store %c0, %k : !qd.ptr<i32>
    qd.range_for %j = %c0 to %c10 : i32 {
      %jj = arith.muli %j, %c2 : i32
      qd.local_store %jj, %k : !qd.ptr<i32>
    }
    %n = qd.local_load %k : !qd.ptr<i32>
    qd.range_for %i = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A local that may be read before any store holds its zero: range(k, 5) may run 5 times.
// CHECK-LABEL: qd.kernel @maybe_unset
// CHECK: adstack.alloca : f32 {id = 0, max_size = 5, size_expr = #adstack.size<5>}
qd.kernel @maybe_unset(%c: i1, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c5 = arith.constant 5 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.if %c {
      %c3 = arith.constant 3 : i32
      qd.local_store %c3, %k : !qd.ptr<i32>
    }
    %b = qd.local_load %k : !qd.ptr<i32>
    qd.range_for %i = %b to %c5 : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A member of a local struct, its other member stored in between.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @struct_member
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 - 0>}
qd.kernel @struct_member(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
    %m0 = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, i32>>
    %m1 = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, i32>>
    %n = qd.load @n[] : i32
    qd.local_store %n, %m1 : !qd.ptr<i32>
    qd.local_store %v, %m0 : !qd.ptr<f32>
    %k = qd.local_load %m1 : !qd.ptr<i32>
    qd.range_for %i = %c0 to %k : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// Reverse mode spills a bound to a stack and reads it back with load_top: the bound is the max
// of the pushed values, over their loop (for j < 6: push 6 - j; for _ < load_top). The bound
// stack itself holds its first push and six more.
// CHECK-LABEL: qd.kernel @stack_bound
// CHECK: adstack.alloca : i32 {id = 0, max_size = 7, size_expr = #adstack.size<7>}
// CHECK: adstack.alloca : f32 {id = 1, max_size = 36, size_expr = #adstack.size<36>}
qd.kernel @stack_bound(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c6 = arith.constant 6 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %b = adstack.alloca : i32
    %s = adstack.alloca : f32
    adstack.push %b, %c0 : i32
    qd.range_for %j = %c0 to %c6 : i32 {
      %r = arith.subi %c6, %j : i32
      adstack.push %b, %r : i32
      %n = adstack.load_top %b : i32
      qd.range_for %k = %c0 to %n : i32 {
        adstack.push %s, %v : f32
      }
    }
    qd.range_for %j = %c0 to %c6 : i32 {
      adstack.pop %b : i32
    }
  }
}

// -----

// A stack read before anything is pushed in this activation may hold what an earlier one
// pushed: its values are maximised over every loop (here the outer i, so 2 * 3 = 6).
// CHECK-LABEL: qd.kernel @stack_stale
// CHECK: adstack.alloca : i32 {id = 0, max_size = 1, size_expr = #adstack.size<1>}
// CHECK: adstack.alloca : f32 {id = 1, max_size = 6, size_expr = #adstack.size<6>}
qd.kernel @stack_stale(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %b = adstack.alloca : i32
    %s = adstack.alloca : f32
    %n = adstack.load_top %b : i32
    qd.range_for %k = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
    %ii = arith.muli %i, %c2 : i32
    adstack.push %b, %ii : i32
  }
}

// -----

// A local stored in one loop (j, variable v1) and read in a sibling loop (i, also v1): the stored
// values' max over j is placed under the sum over i, and gets its own variable.
// CHECK-LABEL: qd.kernel @sibling_loops
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(max(arg0[v63]:i32 for v63 in range(0, 5)) + v1 for v1 in range(0, 3))>}
qd.kernel @sibling_loops(%a: !qd.ndarray<?xi32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.local_store %c0, %k : !qd.ptr<i32>
    qd.range_for %j = %c0 to %c5 : i32 {
      %x = qd.ndarray_load %a[%j] : !qd.ndarray<?xi32>
      qd.local_store %x, %k : !qd.ptr<i32>
    }
    qd.range_for %i = %c0 to %c3 : i32 {
      %n = qd.local_load %k : !qd.ptr<i32>
      %m = arith.addi %n, %i : i32
      qd.range_for %q = %c0 to %m : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}
