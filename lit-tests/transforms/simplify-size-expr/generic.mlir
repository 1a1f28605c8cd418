// RUN: qd-opt %s --pass=simplify-size-expr --print-op-generic | FileCheck %s
// The generic form in and out: the bound is a property, max_size joins it as an i64.

// CHECK: %[[S:.*]] = "adstack.alloca"() <{max_size = 36 : i64, size_expr = #adstack.size<36>}> : () -> !adstack.stack<f32>
// CHECK: %[[T:.*]] = "adstack.alloca"() <{size_expr = #adstack.size<@n[]:i32 - 1>}> : () -> !adstack.stack<f32>
// CHECK: "adstack.push"(%[[S]], %{{.*}}) : (!adstack.stack<f32>, f32) -> ()
// CHECK: "adstack.push"(%[[T]], %{{.*}}) : (!adstack.stack<f32>, f32) -> ()
"builtin.module"() ({
  "qd.field"() <{sym_name = "n", type = !qd.field<i32>}> : () -> ()
  "qd.kernel"() <{function_type = (f32) -> (), sym_name = "k"}> ({
  ^bb0(%arg0: f32):
    %0 = "adstack.alloca"() <{size_expr = #adstack.size<6 * max(6 - v0 for v0 in range(0, 6))>}> : () -> !adstack.stack<f32>
    %1 = "adstack.alloca"() <{size_expr = #adstack.size<max(v0 for v0 in range(0, @n[]:i32))>}> : () -> !adstack.stack<f32>
    "adstack.push"(%0, %arg0) : (!adstack.stack<f32>, f32) -> ()
    "adstack.push"(%1, %arg0) : (!adstack.stack<f32>, f32) -> ()
  }) : () -> ()
}) : () -> ()
