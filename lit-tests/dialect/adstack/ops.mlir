// RUN: qd-opt %s | qd-opt | FileCheck %s
// Custom form of every adstack op, on float, integer and i1 stacks.

// CHECK-LABEL: qd.kernel @k(
qd.kernel @k(%v: f32, %n: i32, %b: i1, %d: f64) {
  // CHECK: %[[S:.*]] = adstack.alloca : f32 {max_size = 100}
  %s = adstack.alloca : f32 {max_size = 100}
  // The stable id that determine-ad-stack-size sets prints first.
  // CHECK: adstack.alloca : f64 {id = 3, max_size = 2}
  %sid = adstack.alloca : f64 {max_size = 2, id = 3}
  // CHECK: adstack.push %[[S]], %[[V:.*]] : f32
  adstack.push %s, %v : f32
  // CHECK: %[[T:.*]] = adstack.load_top %[[S]] : f32
  %t = adstack.load_top %s : f32
  // CHECK: %[[A:.*]] = adstack.load_top_adj %[[S]] : f32
  %a = adstack.load_top_adj %s : f32
  // CHECK: adstack.acc_adjoint %[[S]], %[[T]] : f32
  adstack.acc_adjoint %s, %t : f32
  // CHECK: adstack.acc_adjoint %[[S]], %[[A]] : f32
  adstack.acc_adjoint %s, %a : f32
  // CHECK: adstack.pop %[[S]] : f32
  adstack.pop %s : f32

  // Integer and i1 stacks: push, pop and load_top only.
  // CHECK: %[[I:.*]] = adstack.alloca : i32{{$}}
  %i = adstack.alloca : i32
  // CHECK: adstack.push %[[I]], %{{.*}} : i32
  adstack.push %i, %n : i32
  // CHECK: adstack.load_top %[[I]] : i32
  %it = adstack.load_top %i : i32
  // CHECK: adstack.pop %[[I]] : i32
  adstack.pop %i : i32
  // CHECK: %[[B:.*]] = adstack.alloca : i1 {max_size = 0}
  %bs = adstack.alloca : i1 {max_size = 0}
  // CHECK: adstack.push %[[B]], %{{.*}} : i1
  adstack.push %bs, %b : i1
  // CHECK: adstack.load_top %[[B]] : i1
  %bt = adstack.load_top %bs : i1

  // size_expr and discardable attributes share the dictionary.
  // CHECK: %[[D:.*]] = adstack.alloca : f64 {max_size = 7, size_expr = #adstack.size<7>, note = "kept"}
  %ds = adstack.alloca : f64 {note = "kept", size_expr = #adstack.size<7>, max_size = 7}
  // CHECK: adstack.push %[[D]], %{{.*}} {note = "kept"} : f64
  adstack.push %ds, %d {note = "kept"} : f64
  // CHECK: adstack.load_top_adj %[[D]] {note = "kept"} : f64
  %da = adstack.load_top_adj %ds {note = "kept"} : f64
  // CHECK: adstack.pop %[[D]] {note = "kept"} : f64
  adstack.pop %ds {note = "kept"} : f64
}

// Other element types, and the largest max_size.
// CHECK-LABEL: qd.kernel @types(
qd.kernel @types(%h: f16) {
  // CHECK: adstack.alloca : f16
  %s = adstack.alloca : f16
  // CHECK: adstack.alloca : i64 {max_size = 9223372036854775807}
  %l = adstack.alloca : i64 {max_size = 9223372036854775807}
}
