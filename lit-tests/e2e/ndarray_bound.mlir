// DEFINE: %{run} = qd-run %S/../../examples/ndarray_bound.mlir --kernel compute --arg a=0,3,7,1,12,5,0,9 --set x='linspace(0.1,0.8)' --print y
// RUN: %{run} --print x | FileCheck %s
// RUN: %{run} --print x --device interp | FileCheck %s
// RUN: %{run} --device interp --shuffle 7 | FileCheck %s --check-prefix=SHUFFLED
// An ndarray argument (1-D from the value count) bounds each thread's inner loop.

// CHECK: y = 4.12574{{[0-9]*}}
// CHECK-NEXT: x = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]

// The sum is order-independent up to f32 rounding (--shuffle orders the interpreter's threads).
// SHUFFLED: y = 4.1257{{[0-9]*}}
