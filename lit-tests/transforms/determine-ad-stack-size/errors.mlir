// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file --verify-diagnostics --allow-unregistered-dialect
// Stacks whose bound is outside the SizeExpr grammar: an error at the alloca that names the
// value that could not be bounded, with a note where it is defined.

qd.field @n : !qd.field<i32>
qd.field @m : !qd.field<i32>
qd.kernel @division(%v: f32) {
  // expected-error@+1 {{cannot size this adstack: %3 (the result of 'arith.divsi') cannot be bounded: 'arith.divsi' is in the grammar only by a literal in [1, 9223372036854775807] (force a size with the pass option ad-stack-size=N)}}
  %s = adstack.alloca : f32
  %n = qd.load @n[] : i32
  %m = qd.load @m[] : i32
  // expected-note@+1 {{%3 is defined here}}
  %q = arith.divsi %n, %m : i32
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %q : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// A scalar kernel argument is a leaf only when its type is one of the grammar's (i1 is not).
qd.kernel @scalar_argument(%n: i1, %v: f32) {
  // expected-error@+1 {{cannot size this adstack: %arg0 (argument 0 of 'qd.kernel') cannot be bounded: the argument's type is not in the grammar}}
  %s = adstack.alloca : f32
  %c0 = arith.constant 0 : i32
  %m = arith.extsi %n : i1 to i32
  qd.range_for %i = %c0 to %m : i32 {
    adstack.push %s, %v : f32
  }
}

// -----

// A while loop with no counter has no trip count: the error names its condition.
qd.kernel @while_loop(%c: i1, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    // expected-error@+1 {{cannot size this adstack: %arg0 (argument 0 of 'qd.kernel') cannot be bounded: the trip count of the qd.while it controls has no provable bound}}
    %s = adstack.alloca : f32
    qd.while {
      qd.condition %c
    } do {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A counter the loop also decreases proves nothing.
qd.kernel @while_two_updates(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    // expected-error@+1 {{cannot size this adstack: %3 (the result of 'arith.cmpi') cannot be bounded: the trip count of the qd.while it controls has no provable bound}}
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.local_store %c0, %k : !qd.ptr<i32>
    qd.while {
      %kv = qd.local_load %k : !qd.ptr<i32>
      %c9 = arith.constant 9 : i32
      // expected-note@+1 {{%3 is defined here}}
      %go = arith.cmpi slt, %kv, %c9 : i32
      qd.condition %go
    } do {
      adstack.push %s, %v : f32
      %kv = qd.local_load %k : !qd.ptr<i32>
      %k1 = arith.addi %kv, %c1 : i32
      qd.local_store %k1, %k : !qd.ptr<i32>
      %k2 = arith.subi %k1, %c1 : i32
      qd.local_store %k2, %k : !qd.ptr<i32>
    }
  }
}

// -----

// A field this kernel writes cannot bound anything at launch.
qd.field @n : !qd.field<i32>
qd.kernel @written_field(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    // expected-error@+1 {{field @n is written by this kernel, so its value at launch does not bound it}}
    %s = adstack.alloca : f32
    %n = qd.load @n[] : i32
    qd.range_for %i = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
    qd.store %c1, @n[] : i32
  }
}

// -----

// A local counter updated in the loop it bounds, by m + m, depends on itself (sums of a
// literal step are bounded: carried.mlir).
qd.kernel @self_dependent(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    // expected-error@+1 {{cannot size this adstack: %2 (the result of 'qd.local_load') cannot be bounded: it is loop-carried (its local is stored, in a loop around it, a value computed from its own): it is stored 'arith.addi' of its own value and a step that is not a literal; sizing bounds such a local only when it is updated by `m + c`, `m - c` (c a literal), `min(m + c, cap)` or `max(m - c, floor)` once per iteration of a qd.range_for}}
    %s = adstack.alloca : f32
    %k = qd.alloca : !qd.ptr<i32>
    qd.local_store %c1, %k : !qd.ptr<i32>
    qd.range_for %j = %c0 to %c4 : i32 {
      %kv = qd.local_load %k : !qd.ptr<i32>
      %k2 = arith.addi %kv, %kv : i32
      qd.local_store %k2, %k : !qd.ptr<i32>
      qd.range_for %i = %c0 to %kv : i32 {
        adstack.push %s, %v : f32
      }
    }
  }
}

// -----

// A float-derived bound is outside the grammar.
qd.kernel @float_bound(%w: f32, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    // expected-error@+1 {{'arith.fptosi' is not in the SizeExpr grammar}}
    %s = adstack.alloca : f32
    %n = arith.fptosi %w : f32 to i32
    qd.range_for %i = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// Pushes inside an op sizing does not model.
qd.kernel @unknown_region(%v: f32) {
  // expected-error@+1 {{pushes inside 'test.region', which sizing does not model}}
  %s = adstack.alloca : f32
  "test.region"() ({
    adstack.push %s, %v : f32
  }) : () -> ()
}
