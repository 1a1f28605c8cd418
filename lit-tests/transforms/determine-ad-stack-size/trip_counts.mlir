// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Phase 2: loops that push more than they pop, bounded by their trip counts.

// Upstream's `LoopPushOnlyBoundByTripCount`: a constant trip of 100.
// CHECK-LABEL: qd.kernel @constant_trip
// CHECK: adstack.alloca : f32 {id = 0, max_size = 100, size_expr = #adstack.size<100>}
qd.kernel @constant_trip(%v: f32) {
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  %c100 = arith.constant 100 : i32
  qd.range_for %i = %c0 to %c100 : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// A trip count read from a scalar field at launch; `n - 0` is `max(n, 0)` (n may be negative).
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @field_trip
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<1 + (@n[]:i32 - 0)>}
qd.kernel @field_trip(%v: f32) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  %n = qd.load @n[] : i32
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// An ndarray's shape as the trip count (argument numbers count every argument).
// CHECK-LABEL: qd.kernel @shape_trip
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<arg1.shape[0]>}
qd.kernel @shape_trip(%v: f32, %a: !qd.ndarray<?xf32>) {
  %s = adstack.alloca : f32
  %len = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %len : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// Constant trips multiply through a nest: 3 * (4 * 2 + 1).
// CHECK-LABEL: qd.kernel @rectangular
// CHECK: adstack.alloca : f32 {id = 0, max_size = 27, size_expr = #adstack.size<27>}
qd.kernel @rectangular(%v: f32) {
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c3 : i32 {
    adstack.push %s, %v : f32
    qd.range_for %j = %c0 to %c4 : i32 {
      qd.range_for %k = %c0 to %c2 : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// Integer arithmetic on the bound: 2n + 1 by a shift and an add, max, min, a division and a
// remainder by literals, casts.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @arithmetic
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 * 2 + 1 - 0>}
// CHECK: adstack.alloca : f32 {id = 1, size_expr = #adstack.size<max(@n[]:i32, 4) - 2>}
// CHECK: adstack.alloca : f32 {id = 2, size_expr = #adstack.size<min(@n[]:i32, 4) - 0>}
// CHECK: adstack.alloca : f32 {id = 3, size_expr = #adstack.size<max(@n[]:i32 * 3, 0)>}
// CHECK: adstack.alloca : f32 {id = 4, size_expr = #adstack.size<min(max(@n[]:i32, 0), 9)>}
qd.kernel @arithmetic(%v: f32) {
  %n = qd.load @n[] : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c10 = arith.constant 10 : i32
  %shl = arith.shli %n, %c1 : i32
  %e1 = arith.addi %shl, %c1 : i32
  %s1 = adstack.alloca : f32
  qd.range_for %i = %c0 to %e1 : i32 {
    adstack.push %s1, %v : f32
  }
  %mx = arith.maxsi %n, %c4 : i32
  %s2 = adstack.alloca : f32
  qd.range_for %i = %c2 to %mx : i32 {
    adstack.push %s2, %v : f32
  }
  %mn = arith.minsi %n, %c4 : i32
  %s3 = adstack.alloca : f32
  qd.range_for %i = %c0 to %mn : i32 {
    adstack.push %s3, %v : f32
  }
  %m3 = arith.muli %c3, %n : i32
  %wide = arith.extsi %m3 : i32 to i64
  %c2i64 = arith.constant 2 : i64
  %q = arith.divsi %wide, %c2i64 : i64
  %s4 = adstack.alloca : f32
  %z64 = arith.constant 0 : i64
  qd.range_for %i = %z64 to %q : i64 {
    adstack.push %s4, %v : f32
  }
  %r = arith.remsi %n, %c10 : i32
  %s5 = adstack.alloca : f32
  qd.range_for %i = %c0 to %r : i32 {
    adstack.push %s5, %v : f32
  }
}

// -----

// A start below 0: range(-5, n) runs n + 5 times.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @negative_start
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 + 5 - 0>}
qd.kernel @negative_start(%v: f32) {
  %s = adstack.alloca : f32
  %m5 = arith.constant -5 : i32
  %n = qd.load @n[] : i32
  qd.range_for %i = %m5 to %n : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// A select between two bounds takes the larger.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @select
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(@n[]:i32, 7)>}
qd.kernel @select(%c: i1, %v: f32) {
  %s = adstack.alloca : f32
  %n = qd.load @n[] : i32
  %c0 = arith.constant 0 : i32
  %c7 = arith.constant 7 : i32
  %b = arith.select %c, %n, %c7 : i32
  qd.range_for %i = %c0 to %b : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// An inner struct_for walks its field's static index space: 3 * 4 iterations.
qd.field @g : !qd.field<3x4xf32>
// CHECK-LABEL: qd.kernel @inner_struct_for
// CHECK: adstack.alloca : f32 {id = 0, max_size = 12, size_expr = #adstack.size<12>}
qd.kernel @inner_struct_for(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.struct_for (%i, %j) in @g {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// Branches in phase 2: the longer of two loops (20), not both (30).
// CHECK-LABEL: qd.kernel @loop_branches
// CHECK: adstack.alloca : f32 {id = 0, max_size = 20, size_expr = #adstack.size<20>}
qd.kernel @loop_branches(%c: i1, %v: f32) {
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  %c10 = arith.constant 10 : i32
  %c20 = arith.constant 20 : i32
  qd.if %c {
    qd.range_for %i = %c0 to %c10 : i32 {
      adstack.push %s, %v : f32
    }
  } else {
    qd.range_for %i = %c0 to %c20 : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A while loop with a counter: `k < 50`, k starts at 0 and grows by 1: at most 50 iterations,
// one push each, plus the push before.
// CHECK-LABEL: qd.kernel @counted_while
// CHECK: adstack.alloca : f32 {id = 0, max_size = 51, size_expr = #adstack.size<51>}
qd.kernel @counted_while(%c: i1, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.local_store %c0, %k : !qd.ptr<i32>
    adstack.push %s, %v : f32
    qd.while {
      %kv = qd.local_load %k : !qd.ptr<i32>
      %c50 = arith.constant 50 : i32
      %few = arith.cmpi slt, %kv, %c50 : i32
      %go = arith.andi %c, %few : i1
      qd.condition %go
    } do {
      adstack.push %s, %v : f32
      %kv = qd.local_load %k : !qd.ptr<i32>
      %k1 = arith.addi %kv, %c1 : i32
      qd.local_store %k1, %k : !qd.ptr<i32>
    }
  }
}
