// DEFINE: %{main} = qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --set x='linspace(0,1.5)' --grad y=1 --print y --print x.grad --report-adstack
// RUN: %{main} | FileCheck %s --strict-whitespace
// RUN: %{main} --device interp | FileCheck %s --strict-whitespace
// RUN: %{main} --ad-stack-size 32 | FileCheck %s --strict-whitespace
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --set x='linspace(0,1.5)' --grad y=1 --report-adstack --json | FileCheck %s --check-prefix=JSON
// RUN: qd-run %S/../../examples/local_array.mlir --kernel compute --set n=3 --grad y=1 --report-adstack | FileCheck %s --check-prefix=SMALL --strict-whitespace
// RUN: qd-run %S/../../examples/local_array.mlir --kernel compute --set n=40 --grad y=1 --report-adstack --ad-stack-size 600 | FileCheck %s --check-prefix=FORCED --strict-whitespace
// RUN: qd-run %S/../../examples/local_array.mlir --kernel compute --set n=3 --grad y=1 --report-adstack --device interp | FileCheck %s --check-prefix=MEASURED --strict-whitespace
// RUN: qd-run %S/../../examples/local_array.mlir --kernel compute --set n=40 --grad y=1 --report-adstack --ad-stack-size 600 --device interp | FileCheck %s --check-prefix=MEASURED-FORCED --strict-whitespace
// The README's main job with its gradient and the adstack report: reverse-mode-ad keeps v on an
// adstack of @compute_grad, but the linear body v = v*0.95 + 0.01 never needs v's value in
// reverse, so minimize-tape replaces the stack by a local and an adjoint register: the report
// lists the stack as elided, with depth 0 and no memory, on cpu (the default) and on the
// interpreter, and a forced size (which would overflow a kept stack: 32 < 514) does not apply.
// A kept stack (the local array's, whose sin body needs every value) is sized from @n at every
// launch: n entries of an f32 primal and its adjoint (8 bytes) plus the 8-byte count, or the
// forced size. The interpreter measures each stack's peak (0 for the elided stack, which has no
// ratio; n for the local array's, exactly its depth: ratio 1.000, or 15.000 when forced to 600);
// other devices show `-`.

// CHECK: y = 3.2000{{[0-9]*}}
// CHECK-NEXT: x.grad = [{{(3\.93[0-9]*e-12, )+}}3.93{{[0-9]*}}e-12]
// CHECK-NEXT: adstack report (per thread, as sized for this launch):
// CHECK-NEXT: {{^}}kernel        stack  location {{ +}}type  primal {{ +}}size_expr  depth  peak  depth/peak  bytes/thread{{$}}
// CHECK-NEXT: {{^}}compute_grad  #0     {{.*}}dynamic_loop.mlir:15:12  f32   elided, adjoint in a register  -              0     {{[-0]}}           -             0{{$}}
// CHECK-NEXT: {{^}}compute_grad  total {{ +}}0{{$}}
// CHECK-NOT: {{.}}

// JSON: "adstack": [{"kernel": "compute_grad", "stack": 0, "loc": "{{.*}}dynamic_loop.mlir:15:12", "type": "f32", "primal_kept": false, "size_expr": null, "depth": 0, "measured_peak": null, "ratio": null, "bytes_per_thread": 0}], "timings_ms":

// SMALL: compute_grad  #0     {{.*}}local_array.mlir:18:14  f32   kept    @n[]:i32 - 0 {{ +}}3 {{ +}}- {{ +}}- {{ +}}32{{$}}
// SMALL: compute_grad  total {{ +}}32{{$}}

// FORCED: compute_grad  #0 {{.*}} kept {{.*}} 600 (forced) {{ +}}- {{ +}}- {{ +}}4808{{$}}

// MEASURED: compute_grad  #0     {{.*}}local_array.mlir:18:14  f32   kept    @n[]:i32 - 0 {{ +}}3 {{ +}}3 {{ +}}1.000 {{ +}}32{{$}}

// MEASURED-FORCED: compute_grad  #0 {{.*}} kept {{.*}} 600 (forced) {{ +}}40 {{ +}}15.000 {{ +}}4808{{$}}
