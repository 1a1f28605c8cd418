// The func verifiers and parser, with mlir-opt 22's messages (every expected-* text below is
// what mlir-opt gives for the same chunk; positions are qd's where an op has results: qd
// locates an op at its first result, mlir-opt at its name).
// RUN: qd-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

func.func @f() -> i32 {
  // expected-error@+1 {{'func.return' op has 0 operands, but enclosing function (@f) returns 1}}
  return
}

// -----

func.func @f(%a: f32) -> i32 {
  // expected-error@+1 {{type of return operand 0 ('f32') doesn't match function result type ('i32') in function @f}}
  return %a : f32
}

// -----

"t.x"() ({
  // expected-error@+1 {{'func.return' op expects parent op 'func.func'}}
  func.return
}) : () -> ()

// -----

func.func @f(%a: f32) {
  // expected-error@+1 {{'func.call' op 'nope' does not reference a valid function}}
  %0 = call @nope(%a) : (f32) -> i32
  return
}

// -----

func.func private @g(%a: i32) -> i32
func.func @f(%a: f32) {
  // expected-error@+1 {{'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0}}
  %0 = call @g(%a) : (f32) -> i32
  return
}

// -----

func.func private @g(%a: i32) -> i32
func.func @f(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of operands for callee}}
  %0 = call @g(%a, %a) : (i32, i32) -> i32
  return
}

// -----

func.func private @g(%a: i32) -> i32
func.func @f(%a: i32) {
  // expected-error@+1 {{'func.call' op incorrect number of results for callee}}
  call @g(%a) : (i32) -> ()
  return
}

// -----

func.func private @g(%a: i32) -> i32
func.func @f(%a: i32) {
  // expected-error@+3 {{'func.call' op result type mismatch at index 0}}
  // expected-note@+2 {{      op result types: 'f32'}}
  // expected-note@+1 {{function result types: 'i32'}}
  %0 = call @g(%a) : (i32) -> f32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'func.call' op requires attribute 'callee'}}
  "func.call"() : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'func.constant' op reference to undefined function 'nope'}}
  %0 = constant @nope : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{'func.constant' op reference to function with mismatched type}}
  %0 = constant @f : (i32) -> ()
  return
}

// -----

// expected-error@+1 {{'func.func' op symbol declaration cannot have public visibility}}
func.func @f(i32)

// -----

// expected-error@+1 {{'func.func' op entry block must have 1 arguments to match function signature}}
func.func @f(i32) {
  return
}

// -----

// expected-error@+1 {{'func.func' op type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
^bb0(%a: f32):
  func.return
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op visibility expected to be one of ["public", "private", "nested"], but got "foo"}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f", sym_visibility = "foo"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
"func.func"() <{function_type = i32, sym_name = "f"}> ({
}) : () -> ()

// -----

// expected-error@+1 {{'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"func.func"() <{function_type = (i32) -> (), sym_name = "f", sym_visibility = "private", arg_attrs = [{}, {}]}> ({
}) : () -> ()

// -----

// expected-error@+1 {{custom op 'func.func' expected non-empty function body}}
func.func @f() {}

// -----

// expected-error@+1 {{custom op 'func.func' expected SSA identifier}}
func.func @f(%a: i32, ...) -> i32

// -----

// expected-error@+1 {{custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary}}
func.func @f() -> (i32 {a}, f32) attributes {sym_visibility = "private"} {
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{custom op 'nope' is unknown (tried 'func.nope' as well)}}
  nope {}
  return
}
