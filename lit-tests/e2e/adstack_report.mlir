// DEFINE: %{main} = qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --set x='linspace(0,1.5)' --grad y=1 --print y --print x.grad --report-adstack
// RUN: %{main} | FileCheck %s --strict-whitespace
// RUN: %{main} --device interp | FileCheck %s --strict-whitespace
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --set x='linspace(0,1.5)' --grad y=1 --report-adstack --json | FileCheck %s --check-prefix=JSON
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=3 --grad y=1 --report-adstack | FileCheck %s --check-prefix=SMALL --strict-whitespace
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=512 --grad y=1 --report-adstack --ad-stack-size 600 | FileCheck %s --check-prefix=FORCED --strict-whitespace
// The README's main job with its gradient and the adstack report: reverse-mode-ad keeps v on an
// adstack of @compute_grad, determine-ad-stack-size bounds it by a SizeExpr of @n, and the
// runtime evaluates it before the launch: n + 2 entries (v's zero, x_i, one per iteration), each
// an f32 primal and its adjoint (8 bytes), plus the 8-byte count: 8 + 514 * 8 = 4120 bytes per
// thread. The depth follows n at every launch; --ad-stack-size forces it. The report is the
// launch's plan, the same on cpu (the default) and on the interpreter.

// CHECK: y = 3.2000{{[0-9]*}}
// CHECK-NEXT: x.grad = [{{(3\.93[0-9]*e-12, )+}}3.93{{[0-9]*}}e-12]
// CHECK-NEXT: adstack report (per thread, as sized for this launch):
// CHECK-NEXT: {{^}}kernel        stack  location {{ +}}type  size_expr {{ +}}depth  bytes/thread{{$}}
// CHECK-NEXT: {{^}}compute_grad  #0     {{.*}}dynamic_loop.mlir:15:7  f32   {{.*[^ ]}} {{ +}}514 {{ +}}4120{{$}}
// CHECK-NEXT: {{^}}compute_grad  total {{ +}}4120{{$}}
// CHECK-NOT: {{.}}

// JSON: "adstack": [{"kernel": "compute_grad", "stack": 0, "loc": "{{.*}}dynamic_loop.mlir:15:7", "type": "f32", "size_expr": "{{[^"]+}}", "depth": 514, "bytes_per_thread": 4120}], "timings_ms":

// SMALL: compute_grad  #0 {{.*}} 5 {{ +}}48{{$}}
// SMALL: compute_grad  total {{ +}}48{{$}}

// FORCED: compute_grad  #0 {{.*}} 600 (forced) {{ +}}4808{{$}}
