// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Phase 1: exact depths by a longest path on the control-flow graph.

// Three pushes in straight-line code.
// CHECK-LABEL: qd.kernel @straight
// CHECK: adstack.alloca : f32 {id = 0, max_size = 3, size_expr = #adstack.size<3>}
qd.kernel @straight(%v: f32) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
}

// -----

// Upstream's `Basic`: push 1 2 3, pop 2, push 4 5 6, pop 2, push 7 peaks at [1, 4, 5, 6]; a
// second stack with one push.
// CHECK-LABEL: qd.kernel @basic
// CHECK: adstack.alloca : f32 {id = 0, max_size = 4, size_expr = #adstack.size<4>}
// CHECK: adstack.alloca : i32 {id = 1, max_size = 1, size_expr = #adstack.size<1>}
qd.kernel @basic(%v: f32, %w: i32) {
  %s = adstack.alloca : f32
  %t = adstack.alloca : i32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
  adstack.pop %s : f32
  adstack.pop %s : f32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
  adstack.pop %s : f32
  adstack.pop %s : f32
  adstack.push %s, %v : f32
  adstack.push %t, %w : i32
}

// -----

// Pushes in two branches: one common push, then 3 or 4: the max (5), not the sum (8).
// CHECK-LABEL: qd.kernel @branches
// CHECK: adstack.alloca : f32 {id = 0, max_size = 5, size_expr = #adstack.size<5>}
qd.kernel @branches(%c: i1, %v: f32) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  qd.if %c {
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
  } else {
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
  }
}

// -----

// A branch without else: 2 pushes or none, then one more.
// CHECK-LABEL: qd.kernel @no_else
// CHECK: adstack.alloca : f32 {id = 0, max_size = 3, size_expr = #adstack.size<3>}
qd.kernel @no_else(%c: i1, %v: f32) {
  %s = adstack.alloca : f32
  qd.if %c {
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
  }
  adstack.push %s, %v : f32
}

// -----

// Upstream's `EmptyNodes`: empty branches between two pushes.
// CHECK-LABEL: qd.kernel @empty_nodes
// CHECK: adstack.alloca : f32 {id = 0, max_size = 2, size_expr = #adstack.size<2>}
qd.kernel @empty_nodes(%c: i1, %v: f32) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  qd.if %c {
    %a = arith.constant 2 : i32
  } else {
    %b = arith.constant 3 : i32
  }
  adstack.push %s, %v : f32
}

// -----

// Upstream's `Loop`: a balanced loop (push then pop each iteration) needs one entry, whatever
// its trip count.
// CHECK-LABEL: qd.kernel @balanced_loop
// CHECK: adstack.alloca : f32 {id = 0, max_size = 1, size_expr = #adstack.size<1>}
qd.kernel @balanced_loop(%n: i32, %v: f32) {
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    adstack.push %s, %v : f32
    adstack.pop %s : f32
  }
}

// -----

// Balanced nested loops with a branch: the if-condition snapshot pattern (push the condition,
// branch, pop).
// CHECK-LABEL: qd.kernel @snapshot
// CHECK: adstack.alloca : i1 {id = 0, max_size = 1, size_expr = #adstack.size<1>}
// CHECK: adstack.alloca : f32 {id = 1, max_size = 3, size_expr = #adstack.size<3>}
qd.kernel @snapshot(%n: i32, %c: i1, %v: f32) {
  %b = adstack.alloca : i1
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  adstack.push %s, %v : f32
  qd.range_for %i = %c0 to %n : i32 {
    qd.range_for %j = %c0 to %n : i32 {
      adstack.push %b, %c : i1
      qd.if %c {
        adstack.push %s, %v : f32
        adstack.push %s, %v : f32
        adstack.pop %s : f32
        adstack.pop %s : f32
      }
      adstack.pop %b : i1
    }
  }
}

// -----

// A balanced while loop.
// CHECK-LABEL: qd.kernel @balanced_while
// CHECK: adstack.alloca : f32 {id = 0, max_size = 2, size_expr = #adstack.size<2>}
qd.kernel @balanced_while(%c: i1, %v: f32) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  qd.while {
    qd.condition %c
  } do {
    adstack.push %s, %v : f32
    adstack.pop %s : f32
  }
}

// -----

// Pops saturate at 0: pop, push, push holds 2 entries (a plain running sum would say 1).
// CHECK-LABEL: qd.kernel @pop_first
// CHECK: adstack.alloca : f32 {id = 0, max_size = 2, size_expr = #adstack.size<2>}
qd.kernel @pop_first(%v: f32) {
  %s = adstack.alloca : f32
  adstack.pop %s : f32
  adstack.push %s, %v : f32
  adstack.push %s, %v : f32
}

// -----

// A break that skips the pop (in a serial loop): the loop leaves one entry behind, then two more
// are pushed.
// CHECK-LABEL: qd.kernel @break_skips_pop
// CHECK: adstack.alloca : f32 {id = 0, max_size = 3, size_expr = #adstack.size<3>}
qd.kernel @break_skips_pop(%n: i32, %c: i1, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.range_for %i = %c0 to %n : i32 {
      adstack.push %s, %v : f32
      qd.if %c {
        qd.break
      }
      adstack.pop %s : f32
    }
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
  }
}

// -----

// An alloca inside a loop starts empty each iteration: the loop around it does not multiply.
// CHECK-LABEL: qd.kernel @alloca_in_loop
// CHECK: adstack.alloca : f32 {id = 0, max_size = 2, size_expr = #adstack.size<2>}
qd.kernel @alloca_in_loop(%n: i32, %v: f32) {
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    %s = adstack.alloca : f32
    adstack.push %s, %v : f32
    adstack.push %s, %v : f32
  }
}

// -----

// A stack never pushed needs no entry.
// CHECK-LABEL: qd.kernel @unused
// CHECK: adstack.alloca : f32 {id = 0, max_size = 0, size_expr = #adstack.size<0>}
qd.kernel @unused() {
  %s = adstack.alloca : f32
  %t = adstack.load_top %s : f32
}

// -----

// A continue that skips the pop: every iteration may leave an entry, so the depth grows with the
// trip count (a positive cycle) and phase 2 bounds it by the pushes.
// CHECK-LABEL: qd.kernel @continue_skips_pop
// CHECK: adstack.alloca : f32 {id = 0, max_size = 11, size_expr = #adstack.size<11>}
qd.kernel @continue_skips_pop(%c: i1, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    qd.range_for %i = %c0 to %c10 : i32 {
      adstack.push %s, %v : f32
      qd.if %c {
        qd.continue
      }
      adstack.pop %s : f32
    }
    adstack.push %s, %v : f32
  }
}
