// DEFINE: %{run} = qd-run %S/../../examples/triangular.mlir --kernel compute --set m=12 --set x='linspace(0.5,1.0)' --print y --print m
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// A triangular loop nest: for j in [0, m): for t in [0, j).

// CHECK: y = 5.44000{{[0-9]*}}
// CHECK-NEXT: m = 12
