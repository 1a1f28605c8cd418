// qd's passes work on qd.kernels: they leave func.func alone (and do not crash on it), the
// kernels beside a function are still compiled, and asking to differentiate a function is a
// located error.
// RUN: qd-opt %s -canonicalize -cse -dce -symbol-dce | FileCheck %s
// RUN: qd-opt %s -p element-access-ad,reverse-mode-ad,minimize-tape,determine-ad-stack-size,simplify-size-expr,convert-qd-to-lowered | FileCheck %s --check-prefix=PIPE
// RUN: not qd-opt %s --pass 'reverse-mode-ad{kernels=f}' 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @f(%arg0: f32) -> f32 {
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %arg0, %arg0 : f32
// CHECK-NEXT:    %[[C:.*]] = call @g(%[[M]]) : (f32) -> f32
// CHECK-NEXT:    return %[[C]] : f32
// CHECK:       func.func private @g(f32) -> f32
// CHECK-NOT:   @unused

// PIPE: func.func @f(%arg0: f32) -> f32 {
// PIPE: func.func private @g(f32) -> f32
// PIPE: lowered.kernel @k()
// PIPE: lowered.kernel @k_grad()

// ERR: passes.mlir:{{[0-9]+}}:{{[0-9]+}}: error: reverse-mode-ad: no kernel named @f (given in kernels=)

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
ad.reverse @k
func.func @f(%a: f32) -> f32 {
  %0 = arith.mulf %a, %a : f32
  %1 = arith.mulf %a, %a : f32
  %2 = call @g(%1) : (f32) -> f32
  return %2 : f32
}
func.func private @g(f32) -> f32
func.func private @unused(f32) -> f32
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    %s = arith.mulf %v, %v : f32
    qd.atomic_add %s, @y[] : f32
  }
}
