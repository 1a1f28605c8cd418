// DEFINE: %{run} = qd-run %S/../../examples/control_flow.mlir --kernel compute --set x=0,0.5,1,2.5,12,-0.1 --arg w=0.5,-1.0,2.0,0.3,-0.2,1.5 --arg limit=2.0 --print steps --print y
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// RUN: qd-run %S/../../examples/control_flow.mlir --kernel compute --set x=0,0.1,0.2,-0.5,1,3 --arg 'w=fill(-1):2' --arg limit=1e9 --print steps | FileCheck %s --check-prefix=FIFTY
// A while loop with a data-dependent exit (0 steps for x >= limit), if/else, a break, an ndarray
// shape as a trip count and a scalar argument.

// CHECK: steps = [10, 5, 3, 0, 0, 14]
// CHECK-NEXT: y = 27.35{{[0-9]*}}

// A limit never reached: every while exits at 50 steps.
// FIFTY: steps = [50, 50, 50, 50, 50, 50]
