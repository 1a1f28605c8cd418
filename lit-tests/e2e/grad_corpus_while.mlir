// DEFINE: %{while} = qd-run %S/../../examples/grad/while_exit.mlir --kernel compute --set x=0.1,0.5,1.0,1.7,2.2,2.9,3.4 --arg limit=3.0 --grad y=1 --print x.grad --report-adstack
// DEFINE: %{empty} = qd-run %S/../../examples/grad/degenerate_trips.mlir --kernel compute --set lo=0,5,3,2 --set hi=4,2,3,6 --set x=0.2,0.5,0.9,1.1 --grad y=1 --print y --print x.grad
// RUN: %{while} | FileCheck %s
// RUN: %{while} --device interp | FileCheck %s
// RUN: %{empty} | FileCheck %s --check-prefix=EMPTY
// RUN: %{empty} --device interp | FileCheck %s --check-prefix=EMPTY
// Two corpus kernels end to end, with the gradients that have closed forms:
// - while_exit: while v < limit (and fewer than 40 steps), v <- 1.15 v + 0.1 sin(v) + 0.05; then
//   y += v^2. The last thread starts above the limit and runs no step: its gradient is
//   2 x = 6.8. The stack of v is sized by the counter: 40 steps plus v's zero and x (42).
// - degenerate_trips: threads 1 (lo = 5 > hi = 2) and 2 (lo = hi = 3) run no step, so
//   y[i] = x[i] and their gradients are 1.

// CHECK: x.grad = [{{[0-9.]+, [0-9.]+, [0-9.]+, [0-9.]+, [0-9.]+, [0-9.]+}}, 6.8]
// CHECK: compute_grad #0 {{.*}}while_exit.mlir:[[#]]:12 f32 kept 42 42 {{(- -|14 3\.000)}} 344

// EMPTY: y = [{{[0-9.]+}}, 0.5, 0.9, {{[0-9.]+}}]
// EMPTY-NEXT: x.grad = [{{-?[0-9.]+}}, 1.0, 1.0, {{-?[0-9.]+}}]
