// RUN: qd-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-error@+1 {{'builtin.unrealized_conversion_cast' op expects at least one result}}
"builtin.unrealized_conversion_cast"() : () -> ()

// -----

%a = "test.source"() : () -> i32
// expected-error@+1 {{'builtin.unrealized_conversion_cast' op expects no regions and no successors}}
%b = "builtin.unrealized_conversion_cast"(%a) ({
}) : (i32) -> f32

// -----

// expected-error@+1 {{'builtin.module' op Operations with a 'SymbolTable' must have exactly one region}}
"builtin.module"() : () -> ()

// -----

// expected-error@+1 {{'builtin.module' op's body block takes no arguments}}
"builtin.module"() ({
^bb0(%x: i32):
}) : () -> ()

// -----

// expected-error@+1 {{'builtin.module' op takes no operands and has no results}}
%m = "builtin.module"() ({
  "test.op"() : () -> ()
}) : () -> i32

// -----

// expected-error@+1 {{'builtin.module' op's sym_name must be a string}}
"builtin.module"() ({
  "test.op"() : () -> ()
}) {sym_name = 3 : i32} : () -> ()

// -----

// As mlir-opt 22: in a func.func, names without a dialect resolve in func only.
func.func @f() {
  // expected-error@+1 {{custom op 'module' is unknown (tried 'func.module' as well)}}
  module {
  }
  return
}
