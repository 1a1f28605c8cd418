// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Structural rules around qd ops that the IR core enforces: induction variables are scoped to
// their loop, kernels are isolated from above, terminators end their block, symbols are unique.

qd.field @x : !qd.field<4xf32>
qd.kernel @k(%n: i32) {
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
  }
  // expected-error@+1 {{use of undeclared SSA value name '%i'}}
  %v = qd.load @x[%i] : f32
}

// -----

%c = arith.constant 0 : i32
qd.kernel @k() {
  // expected-error@+1 {{use of undeclared SSA value name '%c'}}
  qd.range_for %i = %c to %c : i32 {
  }
}

// -----

qd.kernel @k(%c: i1) {
  qd.while {
    qd.condition %c
  } do {
    // expected-error@+1 {{'qd.break' op must be the last operation in the parent block}}
    qd.break
    %z = arith.constant 0 : i32
  }
}

// -----

qd.kernel @k(%c: i1) {
  qd.while {
    // expected-error@+1 {{'qd.condition' op must be the last operation in the parent block}}
    qd.condition %c
    %z = arith.constant 0 : i32
  } do {
  }
}

// -----

qd.kernel @k(%c: i1, %n: i32) {
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    qd.range_for %j = %c0 to %n : i32 {
      // expected-error@+1 {{'qd.if' op expects region #0 to have 0 or 1 blocks}}
      "qd.if"(%c) ({
        "qd.break"() : () -> ()
      ^bb1:
        "qd.break"() : () -> ()
      }, {
      }) : (i1) -> ()
    }
  }
}

// -----

qd.field @x : !qd.field<4xf32>
// expected-error@+1 {{redefinition of symbol named 'x'}}
qd.field @x : !qd.field<8xf32>

// -----

// expected-note@+1 {{see existing symbol definition here}}
qd.field @k : !qd.field<4xf32>
// expected-error@+1 {{redefinition of symbol named 'k'}}
qd.kernel @k() {
}
