// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s
// RUN: qd-opt %s --print-op-generic | qd-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC
// The generic form of every adstack op: the stack is operand 0, the alloca's bounds are
// properties, and the type is !adstack.stack<T>.

// GENERIC: %[[S:.*]] = "adstack.alloca"() <{max_size = 100 : i64}> : () -> !adstack.stack<f32>
// GENERIC: "adstack.push"(%[[S]], %[[V:.*]]) : (!adstack.stack<f32>, f32) -> ()
// GENERIC: %[[T:.*]] = "adstack.load_top"(%[[S]]) : (!adstack.stack<f32>) -> f32
// GENERIC: %[[A:.*]] = "adstack.load_top_adj"(%[[S]]) : (!adstack.stack<f32>) -> f32
// GENERIC: "adstack.acc_adjoint"(%[[S]], %[[A]]) : (!adstack.stack<f32>, f32) -> ()
// GENERIC: "adstack.pop"(%[[S]]) : (!adstack.stack<f32>) -> ()
// GENERIC: %[[I:.*]] = "adstack.alloca"() : () -> !adstack.stack<i1>
// GENERIC: "adstack.push"(%[[I]], %{{.*}}) : (!adstack.stack<i1>, i1) -> ()
// GENERIC: %{{.*}} = "adstack.alloca"() <{max_size = 3 : i64, size_expr = #adstack.size<@n[]:i32 + 1>}> {note} : () -> !adstack.stack<i32>

// CHECK: %[[S:.*]] = adstack.alloca : f32 {max_size = 100}
// CHECK: adstack.push %[[S]], %{{.*}} : f32
// CHECK: %[[T:.*]] = adstack.load_top %[[S]] : f32
// CHECK: %[[A:.*]] = adstack.load_top_adj %[[S]] : f32
// CHECK: adstack.acc_adjoint %[[S]], %[[A]] : f32
// CHECK: adstack.pop %[[S]] : f32
// CHECK: %[[I:.*]] = adstack.alloca : i1
// CHECK: adstack.push %[[I]], %{{.*}} : i1
// CHECK: adstack.alloca : i32 {max_size = 3, size_expr = #adstack.size<@n[]:i32 + 1>, note}

"qd.kernel"() <{function_type = (f32, i1) -> (), sym_name = "k"}> ({
^bb0(%v: f32, %b: i1):
  %s = "adstack.alloca"() <{max_size = 100 : i64}> : () -> !adstack.stack<f32>
  "adstack.push"(%s, %v) : (!adstack.stack<f32>, f32) -> ()
  %t = "adstack.load_top"(%s) : (!adstack.stack<f32>) -> f32
  %a = "adstack.load_top_adj"(%s) : (!adstack.stack<f32>) -> f32
  "adstack.acc_adjoint"(%s, %a) : (!adstack.stack<f32>, f32) -> ()
  "adstack.pop"(%s) : (!adstack.stack<f32>) -> ()
  %i = "adstack.alloca"() : () -> !adstack.stack<i1>
  "adstack.push"(%i, %b) : (!adstack.stack<i1>, i1) -> ()
  %n = "adstack.alloca"() <{max_size = 3 : i64, size_expr = #adstack.size<@n[]:i32 + 1>}> {note} : () -> !adstack.stack<i32>
}) : () -> ()
