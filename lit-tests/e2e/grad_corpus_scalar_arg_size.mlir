// DEFINE: %{run} = qd-run %S/../../examples/grad/scalar_arg_trip.mlir --kernel compute --set 'x=linspace(0.2,1.6)' --grad y=1 --print x.grad
// RUN: %{run} --arg n=15 | FileCheck %s
// RUN: %{run} --arg n=15 --device interp | FileCheck %s
// RUN: %{run} --arg n=15 --ad-stack-size 32 | FileCheck %s
// RUN: %{run} --arg n=31 > %t.31 && %{run} --arg n=31 --ad-stack-size 64 | diff %t.31 -
// RUN: %{run} --arg n=32 > %t.32 && %{run} --arg n=32 --ad-stack-size 64 | diff %t.32 -
// RUN: %{run} --arg n=40 > %t.40 && %{run} --arg n=40 --ad-stack-size 64 | diff %t.40 -
// RUN: %{run} --arg n=40 --device interp | FileCheck %s --check-prefix=N40
// RUN: %{run} --arg n=-3 | FileCheck %s --check-prefix=NONE
// RUN: not %{run} --arg n=15 --ad-stack-size 16 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// A corpus kernel whose trip count is a scalar argument: the stack's size expression reads n
// from each launch's arguments, so it runs with n below, at and above the 32 entries it once
// had to be forced to, with no forced size, and gives the gradient a forced 64 gives; a forced
// size still overrides it: 16 entries are too few for the 15 iterations plus v's zero and x
// (17 pushes). A negative n runs no iteration (the size clamps at 0, as for a field).
// v <- v - 0.1 (v^3 - 1) pulls every x towards 1, so every gradient lies in (0, 1), shrinking
// with n.

// CHECK: x.grad = [0.05630937, 0.02244811, 0.009503333, 0.0042376798, 0.0018864778, 0.000684164]
// N40: x.grad = [7.907274e-6, 3.0610618e-6, 1.2804506e-6, 5.680099e-7, 2.5227067e-7, 9.1400295e-8]
// NONE: x.grad = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]

// OVERFLOW: error: adstack overflow in kernel 'compute_grad': stack at {{.*}}scalar_arg_trip.mlir:[[#]]:12 exceeded its capacity of 16
// OVERFLOW-NOT: x.grad
