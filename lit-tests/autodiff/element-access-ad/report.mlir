// RUN: qd-run %S/../../../examples/local_array.mlir --kernel compute --set n=40 --set x='linspace(0,1)' --grad y=1 --print x.grad --report-adstack | FileCheck %s --check-prefixes=GRAD,ELEMENT
// RUN: qd-opt %S/../../../examples/local_array.mlir --pass='reverse-mode-ad{aggregates=ssa}' -o %t.ssa.mlir
// RUN: qd-run %t.ssa.mlir --kernel compute --set n=40 --set x='linspace(0,1)' --grad y=1 --print x.grad --report-adstack | FileCheck %s --check-prefixes=GRAD,SSA
// examples/local_array.mlir with n = 40, len = 10: the same gradient in both modes, and the
// adstack report per thread. Element mode: one f32 stack of the n elements the updates
// overwrite (40 values, 8 + 40 * 8 bytes). The naive whole-aggregate mode
// (aggregates=ssa, made by qd-opt; qd-run keeps the gradient kernel the file declares): one stack
// per element, each holding the array's value after every store (1 + 10 + 40 entries), 510
// values in all. The last digit of x.grad is the sin's: libm's on the interpreters, qd's own
// vector sin (within an ulp) on cpu.

// GRAD: x.grad: shape [4, 10]
// GRAD-NEXT: x.grad = {{\[\[}}0.61789364, 0.61033154, {{.*}}, 0.51682884],
// GRAD: [0.2104041, {{.*}}, 0.1224860{{[68]}}]]

// ELEMENT: adstack report (per thread, as sized for this launch):
// ELEMENT-NEXT: kernel        stack  location type  primal  size_expr     depth  peak  depth/peak  bytes/thread
// ELEMENT-NEXT: compute_grad  #0     {{.*}}local_array.mlir:18:14  f32   kept    @n[]:i32 - 0     40     -           -           328
// ELEMENT-NEXT: compute_grad  total {{ *}}328

// SSA: adstack report (per thread, as sized for this launch):
// SSA-NEXT: kernel
// SSA-NEXT: compute_grad  #0 {{.*}} f32   kept    11 + (@n[]:i32 - 0)     51     -           -           416
// SSA-COUNT-9: compute_grad  #{{[1-9]}} {{.*}} 51     -           -           416
// SSA-NEXT: compute_grad  total {{ *}}4160
