// DEFINE: %{run} = qd-run %S/../../examples/local_array.mlir --kernel compute --set n=40 --set x='linspace(0,1)' --print x --print y
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// A local array updated one element per iteration; x is a 4x10 field, printed row by row.

// CHECK: x: shape [4, 10]
// CHECK-NEXT: x = {{\[\[}}0.0, 0.025641026, {{.*}}, 0.23076923],
// CHECK-NEXT:      [0.25641027, {{.*}}],
// CHECK-NEXT:      [0.51282054, {{.*}}],
// CHECK-NEXT:      [0.7692308, {{.*}}, 1.0]]
// CHECK-NEXT: y = 22.5889{{[0-9]*}}
