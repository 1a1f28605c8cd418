// RUN: not qd-opt %s 2>&1 | FileCheck %s
// A malformed #adstack.size body is an error at the attribute's '#', with the expression
// parser's message (the body is parsed once, when the IR is read).

qd.kernel @k(%v: f32) {
  // CHECK: size_attr_error.mlir:[[#@LINE+1]]:42: error: invalid #adstack.size: v3 is not bound
  %a = adstack.alloca : f32 {size_expr = #adstack.size<v3 + 1>}
}
