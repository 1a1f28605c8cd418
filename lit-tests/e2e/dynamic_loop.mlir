// DEFINE: %{run} = qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --set x='linspace(0,1.5)' --print y
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --set x='linspace(0,1.5)' --print y --print x --json | FileCheck %s --check-prefix=JSON
// The README's main job: n = 512 steps of v <- 0.95 v + 0.01 from x = linspace(0, 1.5, 16) bring
// every v to 0.2, so y = 16 * 0.2 = 3.2 up to f32 rounding.

// CHECK: y = 3.2000{{[0-9]*}}
// CHECK-NOT: =

// JSON: {"fields": {"y": {"shape": [], "data": [3.2000{{[0-9]*}}]}, "x": {"shape": [16], "data": [0.0, 0.1, {{.*}}, 1.4, 1.5]}}, "timings_ms": {"parse": {{.*}}, "verify": {{.*}}, "compile": {{.*}}, "launch": {{.*}}, "total": {{.*}}}}
