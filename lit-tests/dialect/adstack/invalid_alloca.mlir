// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid adstack.alloca ops (generic form reaches every check).

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op expects its result to be an !adstack.stack, got f32}}
  %s = "adstack.alloca"() : () -> f32
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op expects 1 result, got 0}}
  "adstack.alloca"() : () -> ()
}

// -----

qd.kernel @k(%v: f32) {
  // expected-error@+1 {{'adstack.alloca' op expects 0 operands, got 1}}
  %s = "adstack.alloca"(%v) : (f32) -> !adstack.stack<f32>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op property 'max_size' must be a non-negative i64 integer}}
  %s = "adstack.alloca"() <{max_size = -1 : i64}> : () -> !adstack.stack<f32>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op property 'max_size' must be a non-negative i64 integer}}
  %s = adstack.alloca : f32 {max_size = 4 : i32}
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op property 'max_size' must be a non-negative i64 integer}}
  %s = adstack.alloca : f32 {max_size = "big"}
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op has unknown property 'capacity'}}
  %s = "adstack.alloca"() <{capacity = 4 : i64}> : () -> !adstack.stack<f32>
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op expects no regions, got 1}}
  %s = "adstack.alloca"() ({
  }) : () -> !adstack.stack<f32>
}

// -----

module {
  qd.kernel @k() {
    // expected-error@+1 {{property 'size_expr' must be a #adstack.size<...>}}
    %s = "adstack.alloca"() <{size_expr = "n"}> : () -> !adstack.stack<f32>
  }
}

// -----

module {
  qd.kernel @k() {
    // expected-error@+1 {{invalid #adstack.size: expected an expression}}
    %s = adstack.alloca : f32 {size_expr = #adstack.size<1 +>}
  }
}

// -----

qd.kernel @k() {
  // expected-error@+1 {{'adstack.alloca' op property 'id' must be a non-negative i64 integer}}
  %s = "adstack.alloca"() <{id = -2 : i64}> : () -> !adstack.stack<f32>
}
