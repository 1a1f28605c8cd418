// --verify-diagnostics takes the directives mlir-opt 22 takes: any spaces before `@` and `{{`,
// `-re` with regular expressions in `{{...}}` blocks, `@above`/`@below` skipping directive
// lines; text that does not match upstream's directive pattern (such as this sentence's
// "expected-error @ +1" or a mention of expected-* checks) is not a directive.
// RUN: qd-opt %s --split-input-file --verify-diagnostics
// RUN: not qd-opt %S/Inputs/unmatched_diagnostics.mlir --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISMATCH

func.func @f() -> i32 {
  // expected-error @+1 {{'func.return' op has 0 operands}}
  return
}

// -----

func.func @f() -> i32 {
  // expected-error  @+1  {{'func.return' op has 0 operands}}
  return
}

// -----

func.func @f() -> i32 {
  // expected-error@+1{{'func.return' op has 0 operands}}
  return
}

// -----

func.func @f() -> i32 {
  // expected-error @below {{'func.return' op has 0 operands}}
  return
}

// -----

func.func @f() -> i32 {
  return
  // expected-error @above {{'func.return' op has 0 operands}}
}

// -----

func.func @f(%a: f32) -> i32 {
  // expected-error-re @+1 {{type of return operand {{[0-9]+}} ('f32') doesn't match function result type ('{{i(8|32)}}')}}
  return %a : f32
}

// -----

func.func @f(%a: f32) -> i32 {
  // expected-error-re@+1 {{doesn't match {{.*}} in function @f}}
  return %a : f32
}

// MISMATCH: unmatched_diagnostics.mlir:4:3: error: unexpected error: 'func.return' op has 0 operands, but enclosing function (@f) returns 1
// MISMATCH: unmatched_diagnostics.mlir:3:6: error: expected error "this text is not in the message" was not produced
