// RUN: qd-run %S/../../examples/ndarray_bound.mlir --kernel compute --arg a=0,3,7,1,12,5,0,9 --set x='linspace(0.1,0.8)' --print y --print x | FileCheck %s
// RUN: qd-run %S/../../examples/ndarray_bound.mlir --kernel compute --arg a=0,3,7,1,12,5,0,9 --set x='linspace(0.1,0.8)' --print y --shuffle 7 | FileCheck %s --check-prefix=SHUFFLED
// An ndarray argument (1-D from the value count) bounds each thread's inner loop.

// CHECK: y = 4.12574{{[0-9]*}}
// CHECK-NEXT: x = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]

// The sum is order-independent up to f32 rounding.
// SHUFFLED: y = 4.1257{{[0-9]*}}
