// RUN: not qd-run %S/../../examples/ndarray_bound.mlir --kernel compute --arg a=1,2,3 --print y --check-bounds 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not qd-run %S/../../examples/ndarray_bound.mlir --kernel compute --arg a=1,2,3 --print y --device interp 2>&1 | FileCheck %s --check-prefix=OOB
// RUN: not qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set x=1,2 2>&1 | FileCheck %s --check-prefix=LEN
// RUN: not qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --print z 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not qd-run %S/../../examples/dynamic_loop.mlir --kernel missing 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --device nope 2>&1 | FileCheck %s --check-prefix=DEVICE
// Errors are diagnostics, never panics: located ones for the IR and runtime failures. An index
// out of bounds is an error on cpu (the default) with --check-bounds, on the interpreter always.

// OOB: ndarray_bound.mlir:16:12: error: index [3] is out of bounds for ndarray argument 0 of shape [3] (in kernel @compute)
// OOB-NEXT: %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
// OOB-NEXT: ^

// LEN: qd-run: error: --set x: expected 16 values, got 2

// FIELD: qd-run: error: --print z: unknown field 'z' (fields: n, x, y)

// KERNEL: qd-run: error: no kernel @missing in '{{.*}}dynamic_loop.mlir' (kernels: @compute)

// DEVICE: error: invalid value 'nope' for '--device <NAME>'
// DEVICE-NEXT: [possible values: interp, interp-lowered, cpu, vulkan{{(, mlir-cpu)?}}]
