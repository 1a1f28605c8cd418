// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid qd.range_for ops.

qd.kernel @k(%a: f32, %b: f32) {
  // expected-error@+1 {{'qd.range_for' op expects integer or index bounds, got f32}}
  qd.range_for %i = %a to %b : f32 {
  }
}

// -----

qd.kernel @k(%a: i32, %b: i64) {
  // expected-error@+1 {{'qd.range_for' op expects both bounds to have the same type, got i32 and i64}}
  "qd.range_for"(%a, %b) ({
  ^bb0(%i: i32):
  }) : (i32, i64) -> ()
}

// -----

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{'qd.range_for' op expects body block argument 0 to have type i32, got i64}}
  "qd.range_for"(%a, %a) ({
  ^bb0(%i: i64):
  }) : (i32, i32) -> ()
}

// -----

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{'qd.range_for' op expects its body region to have a block with 1 argument}}
  "qd.range_for"(%a, %a) ({
  }) : (i32, i32) -> ()
}

// -----

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{'qd.range_for' op expects its body block to have 1 argument, got 0}}
  "qd.range_for"(%a, %a) ({
    %c = arith.constant 0 : i32
  }) : (i32, i32) -> ()
}

// -----

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{'qd.range_for' op expects 2 operands, got 3}}
  "qd.range_for"(%a, %a, %a) ({
  ^bb0(%i: i32):
  }) : (i32, i32, i32) -> ()
}

// -----

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{'qd.range_for' op expects 0 results, got 1}}
  %r = "qd.range_for"(%a, %a) ({
  ^bb0(%i: i32):
  }) : (i32, i32) -> i32
}

// -----

qd.kernel @k(%a: i32) {
  // expected-error@+1 {{'qd.range_for' op expects 1 region, got 0}}
  "qd.range_for"(%a, %a) : (i32, i32) -> ()
}
