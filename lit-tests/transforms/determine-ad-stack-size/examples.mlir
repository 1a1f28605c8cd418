// Every example of the project, differentiated, then sized: no stack needs a forced size.
// RUN: qd-opt %S/../../../examples/dynamic_loop.mlir --pass=reverse-mode-ad --pass=determine-ad-stack-size | FileCheck %s --check-prefix=DYNAMIC
// RUN: qd-opt %S/../../../examples/ndarray_bound.mlir --pass=reverse-mode-ad --pass=determine-ad-stack-size | FileCheck %s --check-prefix=NDARRAY
// RUN: qd-opt %S/../../../examples/triangular.mlir --pass=reverse-mode-ad --pass=determine-ad-stack-size | FileCheck %s --check-prefix=TRIANGULAR
// RUN: qd-opt %S/../../../examples/local_array.mlir --pass=reverse-mode-ad --pass=determine-ad-stack-size | FileCheck %s --check-prefix=LOCAL
// RUN: qd-opt %S/../../../examples/control_flow.mlir --pass=reverse-mode-ad --pass=determine-ad-stack-size | FileCheck %s --check-prefix=CONTROL

// v is pushed once per iteration of range(n), plus twice around the loop: n + 2.
// DYNAMIC-LABEL: qd.kernel @compute_grad
// DYNAMIC: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<2 + (@n[]:i32 - 0)>}
// DYNAMIC-NOT: adstack.alloca

// The inner trip count is a[i] for thread i: the max over the threads, plus 2.
// NDARRAY-LABEL: qd.kernel @compute_grad
// NDARRAY: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<max(2 + (arg0[v0]:i32 - 0) for v0 in range(0, 8))>}
// NDARRAY-NOT: adstack.alloca

// for j < m: v = x[i]; for t < j: each j pushes 1 + j values: the sum over j of 1 + j, plus 1
// (79 at m = 12, exactly what the kernel pushes).
// TRIANGULAR-LABEL: qd.kernel @compute_grad
// TRIANGULAR: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<1 + sum(1 + v1 for v1 in range(0, @m[]:i32))>}
// TRIANGULAR-NOT: adstack.alloca

// One overwritten element is saved per iteration of range(n).
// LOCAL-LABEL: qd.kernel @compute_grad
// LOCAL: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<@n[]:i32 - 0>}
// LOCAL-NOT: adstack.alloca

// One value per iteration over the ndarray's length (the loop may break early).
// CONTROL-LABEL: qd.kernel @compute_grad
// CONTROL: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<arg0.shape[0]>}
// CONTROL-NOT: adstack.alloca
