// RUN: qd-run %S/../../examples/dynamic_loop.mlir --device interp-lowered --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print y --print x.grad | FileCheck %s
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --device interp --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print y --print x.grad > %t.interp
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --device interp-lowered --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print y --print x.grad > %t.lowered
// RUN: diff %t.interp %t.lowered
// RUN: not qd-run %S/../../examples/local_array.mlir --device interp-lowered --kernel compute --grad y=1 --set n=40 --print x.grad --ad-stack-size 32 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OVERFLOW < %t.err
// RUN: FileCheck %s --check-prefix=NOGRAD --allow-empty < %t.out
// The README's main job on the lowered interpreter: examples/dynamic_loop.mlir and its gradient
// lowered by convert-qd-to-lowered (tasks, pointers; its stack, elided by minimize-tape, lowered
// to nothing) print what the qd-level interpreter prints, byte for byte: y = 3.2 and x.grad[i] =
// 0.95^512 (about 3.9308e-12). A kept stack (examples/local_array.mlir, n = 40: a slice of the
// float heap sized by the runtime's heap layout) forced to 32 entries overflows with the
// interpreter's error, at the same alloca.

// CHECK: y = 3.2000{{[0-9]*}}
// CHECK: x.grad = [{{(3\.93[0-9]*e-12, )+}}3.93{{[0-9]*}}e-12]
// OVERFLOW: local_array.mlir:{{[0-9]+}}:{{[0-9]+}}: error: adstack overflow in kernel 'compute_grad': stack at {{.*}}local_array.mlir:{{[0-9]+}}:{{[0-9]+}} exceeded its capacity of 32{{$}}
// NOGRAD-NOT: x.grad
