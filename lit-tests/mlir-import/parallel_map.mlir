// RUN: qd-translate %s --import=mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=QD < %t.mlir
// RUN: qd-run %t.mlir --kernel scale_exp --arg 'arg0=linspace(-1,1):5' --arg 'arg1=fill(0):5' --arg arg2=1.5 --grad arg1=1 --print arg1 --print arg0.grad | FileCheck %s
// RUN: qd-run %t.mlir --kernel scale_exp --arg 'arg0=linspace(-1,1):5' --arg 'arg1=fill(0):5' --arg arg2=1.5 --grad arg1=1 --print arg1 --print arg0.grad --device interp | FileCheck %s
// An elementwise map written with scf.parallel: the function's top level holds only the parallel
// loop, which stays a parallel (top-level) qd.range_for. y_i = w exp(x_i), through an scf.if that
// yields exp(x) or exp2(x / ln 2), so dy_i/dx_i = w exp(x_i) (f64: 0.5518192, 0.9097960, 1.5,
// 2.4730819, 4.0774227).

// QD: qd.kernel @scale_exp(%arg0: !qd.ndarray<?xf32>, %arg1: !qd.ndarray<?xf32>, %arg2: f32) {
// QD-NEXT: arith.constant 0 : i32
// QD-NEXT: arith.constant 1 : i32
// QD-NEXT: qd.ndarray_shape %arg0, 0
// QD-NEXT: qd.range_for
// QD: qd.if
// QD: } else {

// CHECK: arg1 = [0.5518192, 0.909796, 1.5, 2.4730818, 4.0774226]
// CHECK: arg0.grad = [0.5518192, 0.909796, 1.5, 2.4730816, 4.0774226]

func.func @scale_exp(%x: memref<?xf32>, %y: memref<?xf32>, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %xi = memref.load %x[%i] : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    %neg = arith.cmpf olt, %xi, %zero : f32
    %e = scf.if %neg -> (f32) {
      %a = math.exp %xi : f32
      scf.yield %a : f32
    } else {
      %two = arith.constant 2.0 : f32
      %l2 = math.log %two : f32
      %b = arith.divf %xi, %l2 : f32
      %c = math.exp2 %b : f32
      scf.yield %c : f32
    }
    %r = arith.mulf %e, %w : f32
    memref.store %r, %y[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
