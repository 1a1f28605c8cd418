// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --save x.grad=%t.grad.npy --save n=%t.n.npy --print x.grad > %t.grad.txt
// RUN: FileCheck %s --check-prefix=GRAD < %t.grad.txt
// RUN: qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --set n=%t.n.npy --set x=%t.grad.npy --print x --print n > %t.back.txt
// RUN: FileCheck %s --check-prefix=BACK < %t.back.txt
// RUN: head -n 1 %t.back.txt | sed 's/^x = /x.grad = /' | diff %t.grad.txt -
// RUN: not qd-run %S/../../examples/dynamic_loop.mlir --kernel compute --save z=%t.z.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// --save writes a field (here the gradient, after the gradient kernel) as .npy with its element
// type and shape; qd-run reads it back bit for bit (numpy.load reads the same files).

// GRAD: x.grad = [3.93{{[0-9]*}}e-12,

// BACK: x = [3.93{{[0-9]*}}e-12,
// BACK-NEXT: n = 512

// UNKNOWN: qd-run: error: --save z: unknown field 'z' (fields: n, x, y)
