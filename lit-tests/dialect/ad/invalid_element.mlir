// RUN: qd-opt %s --split-input-file --verify-diagnostics
// Invalid element accesses: custom syntax whose path does not fit the type, and generic forms
// that break the verifier's rules.

qd.kernel @k(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{the path stops at !qd.array<10xf32>, not at a scalar}}
  %v = ad.load_element %a[] : !qd.ptr<!qd.array<10xf32>>
}

// -----

qd.kernel @k(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{the path does not fit !qd.struct<f32, i32>: one entry per level, values for array elements, literals for struct members}}
  %v = ad.load_element %a[%i] : !qd.ptr<!qd.struct<f32, i32>>
}

// -----

qd.kernel @k(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{the path does not fit !qd.array<10xf32>: one entry per level, values for array elements, literals for struct members}}
  %v = ad.load_element %a[%i, %i] : !qd.ptr<!qd.array<10xf32>>
}

// -----

qd.kernel @k(%v: f32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{the path does not fit !qd.array<10xf32>: one entry per level, values for array elements, literals for struct members}}
  ad.store_element %v, %a[10] : !qd.ptr<!qd.array<10xf32>>
}

// -----

qd.kernel @k(%v: f32) {
  %a = qd.alloca : !qd.ptr<f32>
  // expected-error@+1 {{expected a !qd.ptr to a local array or struct}}
  ad.store_element %v, %a[0] : f32
}

// -----

qd.kernel @k(%v: f32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{expected an SSA value or an integer literal in the path}}
  ad.store_element %v, %a[@x] : !qd.ptr<!qd.array<10xf32>>
}

// -----

qd.kernel @k(%v: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{use of value '%v' expects different type than prior uses: 'f32' vs 'i32'}}
  ad.store_element %v, %a[0] : !qd.ptr<!qd.array<10xf32>>
}

// -----

qd.kernel @k(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{'ad.load_element' op path entry 0 addresses a struct member: it must be a literal, not a value}}
  %v = "ad.load_element"(%a, %i) <{path = array<i64: -9223372036854775808>}> : (!qd.ptr<!qd.struct<f32, i32>>, i32) -> f32
}

// -----

qd.kernel @k(%i: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op expects one index operand per dynamic path entry (1), got 0}}
  %v = "ad.load_element"(%a) <{path = array<i64: -9223372036854775808>}> : (!qd.ptr<!qd.array<10xf32>>) -> f32
}

// -----

qd.kernel @k(%i: i64) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op expects the index of path entry 0 to be i32, got i64}}
  %v = "ad.load_element"(%a, %i) <{path = array<i64: -9223372036854775808>}> : (!qd.ptr<!qd.array<10xf32>>, i64) -> f32
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op expects the result type to match the addressed element type f32, got f64}}
  %v = "ad.load_element"(%a) <{path = array<i64: 1>}> : (!qd.ptr<!qd.array<10xf32>>) -> f64
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op has a path of 2 entries, but !qd.array<10xf32> has only 1 levels}}
  %v = "ad.load_element"(%a) <{path = array<i64: 1, 0>}> : (!qd.ptr<!qd.array<10xf32>>) -> f32
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<f32, i32>>>
  // expected-error@+1 {{'ad.load_element' op expects the path to reach a scalar, but it stops at !qd.struct<f32, i32>}}
  %v = "ad.load_element"(%a) <{path = array<i64: 1>}> : (!qd.ptr<!qd.array<2x!qd.struct<f32, i32>>>) -> f32
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
  // expected-error@+1 {{'ad.load_element' op path entry 0 is out of bounds: member 2 of a struct of 2 members}}
  %v = "ad.load_element"(%a) <{path = array<i64: 2>}> : (!qd.ptr<!qd.struct<f32, i32>>) -> f32
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op expects a non-empty path}}
  %v = "ad.load_element"(%a) <{path = array<i64>}> : (!qd.ptr<!qd.array<10xf32>>) -> f32
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op requires property 'path'}}
  %v = "ad.load_element"(%a) : (!qd.ptr<!qd.array<10xf32>>) -> f32
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.load_element' op property 'path' must be an array<i64: ...> of indices}}
  %v = "ad.load_element"(%a) <{path = [1]}> : (!qd.ptr<!qd.array<10xf32>>) -> f32
}

// -----

qd.kernel @k(%v: f32) {
  %a = qd.alloca : !qd.ptr<f32>
  // expected-error@+1 {{'ad.store_element' op expects the base to point to a local array or struct, got a pointer to f32}}
  "ad.store_element"(%v, %a) <{path = array<i64: 0>}> : (f32, !qd.ptr<f32>) -> ()
}

// -----

qd.kernel @k(%v: f32, %w: f32) {
  // expected-error@+1 {{'ad.store_element' op expects the base to be a !qd.ptr to a local array or struct, got f32}}
  "ad.store_element"(%v, %w) <{path = array<i64: 0>}> : (f32, f32) -> ()
}

// -----

qd.kernel @k(%v: i32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.store_element' op expects the value type to match the addressed element type f32, got i32}}
  "ad.store_element"(%v, %a) <{path = array<i64: 0>}> : (i32, !qd.ptr<!qd.array<10xf32>>) -> ()
}

// -----

qd.kernel @k() {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.store_element' op expects at least 2 operands, got 1}}
  "ad.store_element"(%a) <{path = array<i64: 0>}> : (!qd.ptr<!qd.array<10xf32>>) -> ()
}

// -----

qd.kernel @k(%v: f32) {
  %a = qd.alloca : !qd.ptr<!qd.array<10xf32>>
  // expected-error@+1 {{'ad.store_element' op has unknown property 'other'}}
  "ad.store_element"(%v, %a) <{path = array<i64: 0>, other = 1}> : (f32, !qd.ptr<!qd.array<10xf32>>) -> ()
}
