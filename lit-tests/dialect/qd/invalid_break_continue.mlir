// RUN: qd-opt %s --split-input-file --verify-diagnostics
// qd.break / qd.continue: only in serial loops, reached through qd.if only, never in a while's
// condition region.

qd.kernel @k(%n: i32) {
  %c0 = arith.constant 0 : i32
  qd.range_for %i = %c0 to %n : i32 {
    // expected-error@+1 {{'qd.break' op cannot leave the parallel loop 'qd.range_for' at the top level of a kernel; only serial loops allow it}}
    qd.break
  }
}

// -----

qd.field @x : !qd.field<4xf32>
qd.kernel @k(%c: i1) {
  qd.struct_for (%i) in @x {
    qd.if %c {
      // expected-error@+1 {{'qd.continue' op cannot leave the parallel loop 'qd.struct_for' at the top level of a kernel; only serial loops allow it}}
      qd.continue
    }
  }
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.continue' op expects to be nested in a serial loop, through 'qd.if' only; found 'qd.kernel'}}
  qd.continue
}

// -----

qd.kernel @k(%c: i1) {
  qd.if %c {
    // expected-error@+1 {{'qd.break' op expects to be nested in a serial loop, through 'qd.if' only; found 'qd.kernel'}}
    qd.break
  }
}

// -----

qd.kernel @k(%c: i1) {
  qd.while {
    qd.if %c {
      // expected-error@+1 {{'qd.break' op cannot be used in the condition region of 'qd.while'}}
      qd.break
    }
    qd.condition %c
  } do {
  }
}

// -----

qd.kernel @k(%c: i1) {
  qd.while {
    qd.condition %c
  } do {
    // expected-error@+1 {{'qd.break' op expects 0 operands, got 1}}
    "qd.break"(%c) : (i1) -> ()
  }
}

// -----

// expected-error@+1 {{'qd.continue' op expects to be nested in a serial loop}}
qd.continue
