// RUN: not qd-run %S/../../examples/grad/scalar_arg_trip.mlir --kernel compute --set 'x=linspace(0.2,1.6)' --arg n=15 --grad y=1 --print x.grad 2>&1 | FileCheck %s --check-prefix=UNSIZED
// DEFINE: %{run} = qd-run %S/../../examples/grad/scalar_arg_trip.mlir --kernel compute --set 'x=linspace(0.2,1.6)' --arg n=15 --grad y=1 --print x.grad --ad-stack-size 32
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// RUN: not qd-run %S/../../examples/grad/scalar_arg_trip.mlir --kernel compute --set 'x=linspace(0.2,1.6)' --arg n=15 --grad y=1 --print x.grad --ad-stack-size 16 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// A corpus kernel whose trip count is a scalar argument, which the SizeExpr grammar cannot read:
// without a forced size the gradient's stack cannot be sized; its GRAD-AD-STACK-SIZE (32) runs;
// 16 entries are too few for the 15 iterations plus v's zero and x (17 pushes).
// v <- v - 0.1 (v^3 - 1) pulls every x towards 1, so every gradient lies in (0, 1).

// UNSIZED: scalar_arg_trip.mlir:[[#]]:7: error: cannot size this adstack: %arg0 (argument 0 of 'qd.kernel') cannot be bounded: scalar kernel arguments are not in the SizeExpr grammar
// UNSIZED-NOT: x.grad

// CHECK: x.grad = [{{0\.[0-9]+, 0\.[0-9]+, 0\.[0-9]+, 0\.[0-9]+, 0\.[0-9]+, 0\.[0-9]+}}]

// OVERFLOW: error: adstack overflow in kernel 'compute_grad': stack at {{.*}}scalar_arg_trip.mlir:[[#]]:7 exceeded its capacity of 16
// OVERFLOW-NOT: x.grad
