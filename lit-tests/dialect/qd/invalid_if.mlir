// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.if ops.

qd.kernel @k(%n: i32) {
  // expected-error@+1 {{'qd.if' op expects the condition to be i1, got i32}}
  "qd.if"(%n) ({
  }, {
  }) : (i32) -> ()
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.if' op expects 2 regions, got 1}}
  "qd.if"(%c) ({
  }) : (i1) -> ()
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.if' op expects its then block to have 0 arguments, got 1}}
  "qd.if"(%c) ({
  ^bb0(%a: i32):
  }, {
  }) : (i1) -> ()
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.if' op expects its else block to have 0 arguments, got 1}}
  "qd.if"(%c) ({
  }, {
  ^bb0(%a: f32):
  }) : (i1) -> ()
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'qd.if' op expects 1 operand, got 0}}
  "qd.if"() ({
  }, {
  }) : () -> ()
}

// -----

qd.kernel @k(%c: i1) {
  // expected-error@+1 {{'qd.if' op expects 0 results, got 1}}
  %r = "qd.if"(%c) ({
  }, {
  }) : (i1) -> i32
}
