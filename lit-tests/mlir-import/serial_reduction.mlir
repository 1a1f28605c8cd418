// RUN: qd-translate %s --import=mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=QD < %t.mlir
// RUN: qd-run %t.mlir --kernel sumsq --arg 'arg0=linspace(0,1):5' --arg 'arg1=fill(0):1' --grad arg1=1 --print arg1 --print arg0.grad | FileCheck %s
// RUN: qd-run %t.mlir --kernel sumsq --arg 'arg0=linspace(0,1):5' --arg 'arg1=fill(0):1' --grad arg1=1 --print arg1 --print arg0.grad --device interp | FileCheck %s
// A serial reduction over a memref, as an MLIR front end writes it: an scf.for with an
// iter_arg. Imported, it is a qd kernel whose body runs in one thread (qd runs top-level loops
// in parallel), the carried value in private memory; qd differentiates it: d/dx_i of
// sum_i sin(x_i) x_i is cos(x_i) x_i + sin(x_i) (0, 0.4896321, 0.9182168, 1.2304054, 1.3817733
// in f64 at x = 0, .25, .5, .75, 1).

// QD: qd.kernel @sumsq(%arg0: !qd.ndarray<?xf32>, %arg1: !qd.ndarray<?xf32>) {
// QD: qd.range_for %{{.*}} = %{{.*}} to %{{.*}} : i32 {
// QD: %[[P:[0-9]+]] = qd.alloca : !qd.ptr<f32>
// QD: qd.range_for
// QD: qd.local_load %[[P]] : !qd.ptr<f32>
// QD: qd.ndarray_load %arg0[%{{.*}}] : !qd.ndarray<?xf32>
// QD: math.sin
// QD: qd.local_store %{{.*}}, %[[P]] : !qd.ptr<f32>
// QD: qd.ndarray_store %{{.*}}, %arg1[%{{.*}}] : !qd.ndarray<?xf32>

// CHECK: arg1 = [1.6542639]
// CHECK: arg0.grad = [0.0, 0.48963207, 0.9182168, 1.2304053, 1.3817732]

func.func @sumsq(%x: memref<?xf32>, %y: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %xi = memref.load %x[%i] : memref<?xf32>
    %si = math.sin %xi : f32
    %p = arith.mulf %si, %xi : f32
    %a = arith.addf %acc, %p : f32
    scf.yield %a : f32
  }
  memref.store %s, %y[%c0] : memref<1xf32>
  return
}
