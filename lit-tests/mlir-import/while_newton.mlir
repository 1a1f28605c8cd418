// RUN: qd-translate %s --import=mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=QD < %t.mlir
// RUN: qd-run %t.mlir --kernel grow --arg 'arg0=0.5,1,2,3' --arg 'arg1=fill(0):4' --grad arg1=1 --print arg1 --print arg0.grad | FileCheck %s
// RUN: qd-run %t.mlir --kernel grow --arg 'arg0=0.5,1,2,3' --arg 'arg1=fill(0):4' --grad arg1=1 --print arg1 --print arg0.grad --device interp | FileCheck %s
// An scf.while carrying two values (v, k) and an scf.for with step 2: v doubles, then gets
// sin(v)/10 added, while k < 3, so v = f(f(f(x))) with f(v) = 2v + sin(v)/10 and dv/dx =
// prod f'(v_j) = prod (2 + cos(v_j)/10); the for adds x (at i = 0, 2) twice: y = v + 2x. The
// carried values become private cells, which reverse mode keeps on adstacks. In f64: y = 5.4469154,
// 10.4210704, 20.2980884, 29.9497616 and dy/dx = 10.3137593, 9.8375598, 9.5126792, 10.3071708.

// QD: qd.while {
// QD-NOT: qd.local_store
// QD: qd.condition
// QD: } do {
// QD: arith.ceildivsi

// CHECK: arg1 = [5.446915, 10.42107, 20.298088, 29.949762]
// CHECK: arg0.grad = [10.313759, 9.83756, 9.512679, 10.307171]

func.func @grow(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : i32
  %n = memref.dim %x, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf32>
    %k0 = arith.constant 0 : i32
    %r:2 = scf.while (%v = %xi, %k = %k0) : (f32, i32) -> (f32, i32) {
      %go = arith.cmpi slt, %k, %c3 : i32
      scf.condition(%go) %v, %k : f32, i32
    } do {
    ^bb0(%v1: f32, %k1: i32):
      %two = arith.constant 2.0 : f32
      %d = arith.mulf %v1, %two : f32
      %s = math.sin %v1 : f32
      %t = arith.constant 0.1 : f32
      %q = arith.mulf %s, %t : f32
      %v2 = arith.addf %d, %q : f32
      %one = arith.constant 1 : i32
      %k2 = arith.addi %k1, %one : i32
      scf.yield %v2, %k2 : f32, i32
    }
    %c4 = arith.constant 4 : index
    %w = scf.for %j = %c0 to %c4 step %c2 iter_args(%acc = %r#0) -> (f32) {
      %a = arith.addf %acc, %xi : f32
      scf.yield %a : f32
    }
    memref.store %w, %y[%i] : memref<?xf32>
  }
  return
}
