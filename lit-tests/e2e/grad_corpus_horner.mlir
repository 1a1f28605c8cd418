// DEFINE: %{run} = qd-run %S/../../examples/grad/shape_trip_horner.mlir --kernel compute --set 'x=linspace(-1.0,1.0)' --arg c=0.5,-1.0,0.25,2.0,-0.75,1.5 --grad y=1 --print y --print x.grad --print c.grad
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// A corpus kernel end to end: Horner's rule p <- p x + c[k] over k in [1, shape(c, 0)) (a trip
// count from an ndarray shape, one adstack for p). With
// p(x) = 0.5 x^5 - x^4 + 0.25 x^3 + 2 x^2 - 0.75 x + 1.5 and y.grad = 1:
//   x.grad[i] = p'(x[i]) = 2.5 x^4 - 4 x^3 + 0.75 x^2 + 4 x - 0.75,
//   c.grad[k] = sum over i of x[i]^(5 - k) (the powers of -1, -0.5, 0, 0.5, 1).
// Every value is a short dyadic fraction, so the f32 results are exact.

// CHECK: y = [2.5, 2.265625, 1.5, 1.609375, 2.5]
// CHECK-NEXT: x.grad = [2.5, -1.90625, -0.75, 1.09375, 2.5]
// CHECK-NEXT: c.grad = [0.0, 2.125, 0.0, 2.5, 0.0, 5.0]
