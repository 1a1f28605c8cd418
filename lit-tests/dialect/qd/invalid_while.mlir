// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.while and qd.condition ops.

qd.kernel @k() {
  // expected-error@+1 {{'qd.while' op expects its condition region to end with 'qd.condition'}}
  qd.while {
    %c = arith.constant true
  } do {
  }
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.while' op expects its condition region to end with 'qd.condition'}}
  "qd.while"() ({
  }, {
  }) : () -> ()
}

// -----

qd.kernel @k(%f: f32) {
  qd.while {
    // expected-error@+1 {{'qd.condition' op expects the condition to be i1, got f32}}
    "qd.condition"(%f) : (f32) -> ()
  } do {
  }
}

// -----

qd.kernel @k(%c: i1) {
  qd.while {
    qd.condition %c
  } do {
    // expected-error@+1 {{'qd.condition' op expects to terminate the condition region of a 'qd.while'}}
    qd.condition %c
  }
}

// -----

qd.field @x : !qd.field<4xf32>
qd.kernel @k(%c: i1) {
  qd.struct_for (%i) in @x {
    qd.if %c {
      // expected-error@+1 {{'qd.condition' op expects to terminate the condition region of a 'qd.while'}}
      qd.condition %c
    }
  }
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.while' op expects its condition block to have 0 arguments, got 1}}
  "qd.while"() ({
  ^bb0(%a: i32):
    qd.condition %c
  }, {
  }) : () -> ()
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.while' op expects 2 regions, got 1}}
  "qd.while"() ({
    qd.condition %c
  }) : () -> ()
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.while' op expects 0 operands, got 1}}
  "qd.while"(%c) ({
    qd.condition %c
  }, {
  }) : (i1) -> ()
}
