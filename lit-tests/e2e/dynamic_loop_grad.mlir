// DEFINE: %{run} = qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print y --print x.grad
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print x.grad --json | FileCheck %s --check-prefix=JSON
// RUN: %{run} --ad-stack-size 32 | FileCheck %s
// RUN: not qd-run %S/../../examples/local_array.mlir --kernel compute --grad y=1 --set n=40 --print x.grad --ad-stack-size 32 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OVERFLOW < %t.err
// RUN: FileCheck %s --check-prefix=NOGRAD --allow-empty < %t.out
// The README's main job with its gradient: reverse-mode-ad makes @compute_grad; with y.grad = 1,
// x.grad[i] = 0.95^512 (about 3.9308e-12). Its stack is elided by minimize-tape (the linear body
// never reads v in reverse), so a forced stack size of 32 changes nothing. A kept stack that
// needs 40 entries (examples/local_array.mlir, n = 40) does not fit in 32: qd-run reports the
// overflow and exits 1 without printing a gradient.

// CHECK: y = 3.2000{{[0-9]*}}
// CHECK: x.grad = [{{(3\.93[0-9]*e-12, )+}}3.93{{[0-9]*}}e-12]
// JSON: {"fields": {"x.grad": {"shape": [16], "data": [3.93{{[0-9]*}}e-12,
// JSON-SAME: "autodiff": {{.*}}, "grad": {{.*}}, "total": {{.*}}}}
// OVERFLOW: error: adstack overflow in kernel 'compute_grad': stack at {{.*}}local_array.mlir:{{[0-9]+}}:{{[0-9]+}} exceeded its capacity of 32{{$}}
// NOGRAD-NOT: x.grad
