//! The verifiers' messages, as mlir-opt 22 gives them for the same input. Positions are qd's:
//! an op with results is located at its first result (mlir-opt: at the op name), until #17's
//! location item lands.

use crate::*;

#[test]
fn return_checks_count_and_types_against_the_function() {
    assert_eq!(
        errors("func.func @f() -> i32 {\n  return\n}\n"),
        ["2:3: 'func.return' op has 0 operands, but enclosing function (@f) returns 1"]
    );
    assert_eq!(
        errors("func.func @f(%a: f32) -> i32 {\n  return %a : f32\n}\n"),
        ["2:3: type of return operand 0 ('f32') doesn't match function result type ('i32') in function @f"]
    );
    assert_eq!(
        errors("\"t.x\"() ({\n  func.return\n}) : () -> ()\n"),
        ["2:3: 'func.return' op expects parent op 'func.func'"]
    );
}

#[test]
fn call_checks_the_callee() {
    let decl = "func.func private @g(%a: i32) -> i32\n";
    let call = |line: &str| {
        errors(&format!(
            "{decl}func.func @f(%a: i32, %b: f32) {{\n  {line}\n  return\n}}\n"
        ))
    };
    assert_eq!(
        call("%0 = call @nope(%a) : (i32) -> i32"),
        ["3:8: 'func.call' op 'nope' does not reference a valid function"]
    );
    assert_eq!(
        call("%0 = call @g(%b) : (f32) -> i32"),
        ["3:8: 'func.call' op operand type mismatch: expected operand type 'i32', but provided 'f32' for operand number 0"]
    );
    assert_eq!(
        call("%0 = call @g(%a, %a) : (i32, i32) -> i32"),
        ["3:8: 'func.call' op incorrect number of operands for callee"]
    );
    assert_eq!(
        call("call @g(%a) : (i32) -> ()"),
        ["3:3: 'func.call' op incorrect number of results for callee"]
    );
    assert_eq!(
        call("%0 = call @g(%a) : (i32) -> f32"),
        [
            "3:8: 'func.call' op result type mismatch at index 0",
            "note 3:8:       op result types: 'f32'",
            "note 3:8: function result types: 'i32'"
        ]
    );
    assert_eq!(
        call("\"func.call\"() : () -> ()"),
        ["3:3: 'func.call' op requires attribute 'callee'"]
    );
}

#[test]
fn constant_checks_its_function() {
    assert_eq!(
        errors("func.func @f() {\n  %0 = constant @nope : () -> ()\n  return\n}\n"),
        ["2:8: 'func.constant' op reference to undefined function 'nope'"]
    );
    assert_eq!(
        errors("func.func @f() {\n  %0 = constant @f : (i32) -> ()\n  return\n}\n"),
        ["2:8: 'func.constant' op reference to function with mismatched type"]
    );
}

#[test]
fn func_checks_visibility_signature_and_entry_block() {
    assert_eq!(
        errors("func.func @f(i32)\n"),
        ["1:1: 'func.func' op symbol declaration cannot have public visibility"]
    );
    assert_eq!(
        errors("func.func @f(i32) {\n  return\n}\n"),
        ["1:1: 'func.func' op entry block must have 1 arguments to match function signature"]
    );
    assert_eq!(
        errors("\"func.func\"() <{function_type = (i32) -> (), sym_name = \"f\"}> ({\n^bb0(%a: f32):\n  func.return\n}) : () -> ()\n"),
        ["1:1: 'func.func' op type of entry block argument #0('f32') must match the type of the corresponding argument in function signature('i32')"]
    );
    assert_eq!(
        errors("\"func.func\"() <{function_type = (i32) -> (), sym_name = \"f\", sym_visibility = \"foo\"}> ({\n}) : () -> ()\n"),
        ["1:1: 'func.func' op visibility expected to be one of [\"public\", \"private\", \"nested\"], but got \"foo\""]
    );
    assert_eq!(
        errors("\"func.func\"() <{function_type = i32, sym_name = \"f\"}> ({\n}) : () -> ()\n"),
        ["1:1: 'func.func' op attribute 'function_type' failed to satisfy constraint: type attribute of function type"]
    );
    assert_eq!(
        errors("\"func.func\"() <{function_type = (i32) -> (), sym_name = \"f\", sym_visibility = \"private\", arg_attrs = [{}, {}]}> ({\n}) : () -> ()\n"),
        ["1:1: 'func.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1"]
    );
}

#[test]
fn parse_errors_are_located_as_mlir_opt_locates_them() {
    let parse_err = |src: &str| {
        let mut c = ctx();
        assert!(
            qd_ir::text::parse_source(&mut c, src, "t.mlir").is_none(),
            "{src}"
        );
        let d = &c.diagnostics()[0];
        let (_, l, col) = c.file_line_col(d.loc).unwrap();
        format!("{l}:{col}: {}", d.message)
    };
    assert_eq!(
        parse_err("func.func @f() {\n}\n"),
        "1:16: custom op 'func.func' expected non-empty function body"
    );
    assert_eq!(
        parse_err("func.func @f(%a: i32, ...) -> i32\n"),
        "1:23: custom op 'func.func' expected SSA identifier"
    );
    assert_eq!(
        parse_err("func.func @f() -> (i32 {a}, f32) attributes {sym_visibility = \"private\"} {\n  return\n}\n"),
        "1:45: custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary"
    );
    // In a func.func, names resolve in func only: a bare `module` is unknown, as in mlir-opt 22.
    assert_eq!(
        parse_err("func.func @f() {\n  module {}\n  nope\n}\n"),
        "2:3: custom op 'module' is unknown (tried 'func.module' as well)"
    );
    assert_eq!(
        parse_err("func.func @f() {\n  builtin.module {}\n  nope\n}\n"),
        "3:3: custom op 'nope' is unknown (tried 'func.nope' as well)"
    );
}
