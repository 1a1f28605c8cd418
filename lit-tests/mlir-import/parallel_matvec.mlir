// RUN: qd-translate %s --import=mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=QD < %t.mlir
// RUN: qd-run %t.mlir --kernel matvec --arg 'arg0=arange():2x3' --arg 'arg1=0.1,0.2,0.3' --arg 'arg2=fill(0):2' --grad arg2=1 --print arg2 --print arg0.grad --print arg1.grad --device interp | FileCheck %s
// RUN: qd-run %t.mlir --kernel matvec --arg 'arg0=arange():2x3' --arg 'arg1=0.1,0.2,0.3' --arg 'arg2=fill(0):2' --grad arg2=1 --print arg2 --print arg0.grad --print arg1.grad | FileCheck %s --check-prefix=CPU
// A rank-2 memref in f64: y_i = sum_j tanh(A_ij x_j), the rows in parallel (scf.parallel at the
// top level stays a parallel loop), each row's sum a serial scf.for with an iter_arg. Gradients:
// dy/dA_ij = x_j (1 - tanh^2), dy/dx_j = sum_i A_ij (1 - tanh^2); the interpreter gives Python's
// f64 values bit for bit (0.7344248872229393, 1.8604976363643064; dx = 2.7454108854798873,
// 3.1972636538950914, 2.3266887197926884), the cpu device within its own tanh's ulps.

// QD: qd.kernel @matvec(%arg0: !qd.ndarray<?x?xf64>, %arg1: !qd.ndarray<?xf64>, %arg2: !qd.ndarray<?xf64>) {
// QD-NEXT: arith.constant 0 : i32
// QD-NEXT: arith.constant 1 : i32
// QD-NEXT: qd.ndarray_shape %arg0, 0
// QD-NEXT: qd.ndarray_shape %arg0, 1
// QD-NEXT: qd.range_for
// QD: qd.ndarray_load %arg0[%{{.*}}, %{{.*}}] : !qd.ndarray<?x?xf64>

// CHECK: arg2 = [0.7344248872229393, 1.8604976363643064]
// CHECK: arg0.grad = {{\[\[}}0.1, 0.1922085965932233, 0.21347332877616684],
// CHECK-NEXT: [0.09151369618266292, 0.11181103354644875, 0.05421199167709457]]
// CHECK: arg1.grad = [2.7454108854798873, 3.1972636538950914, 2.3266887197926884]

// CPU: arg2 = [0.73442488722293{{[0-9]*}}, 1.86049763636430{{[0-9]*}}]
// CPU: arg1.grad = [2.74541088547988{{[0-9]*}}, 3.19726365389509{{[0-9]*}}, 2.32668871979268{{[0-9]*}}]

func.func @matvec(%a: memref<?x?xf64>, %x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  scf.parallel (%i) = (%c0) to (%m) step (%c1) {
    %zero = arith.constant 0.0 : f64
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
      %aij = memref.load %a[%i, %j] : memref<?x?xf64>
      %xj = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %aij, %xj : f64
      %t = math.tanh %p : f64
      %r = arith.addf %acc, %t : f64
      scf.yield %r : f64
    }
    memref.store %s, %y[%i] : memref<?xf64>
    scf.reduce
  }
  return
}
