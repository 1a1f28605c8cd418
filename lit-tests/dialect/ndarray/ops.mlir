// Every ndarray op round-trips through its custom form and the generic form.
// RUN: qd-opt %s | FileCheck %s
// RUN: qd-opt %s | qd-opt | FileCheck %s
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s

// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%x: !ndarray.array<4x1xf32>, %y: !ndarray.array<1x8xf32>, %s: f32) -> !ndarray.array<4x8xf32> {
  // CHECK: %[[A:.*]] = ndarray.add %{{.*}}, %{{.*}} : !ndarray.array<4x1xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
  %a = ndarray.add %x, %y : !ndarray.array<4x1xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.sub %{{.*}}, %[[A]] : f32, !ndarray.array<4x8xf32> -> !ndarray.array<4x8xf32>
  %b = ndarray.sub %s, %a : f32, !ndarray.array<4x8xf32> -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.mul
  %c = ndarray.mul %b, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.div
  %d = ndarray.div %c, %a : !ndarray.array<4x8xf32>, !ndarray.array<4x8xf32> -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.maximum
  %e = ndarray.maximum %d, %x : !ndarray.array<4x8xf32>, !ndarray.array<4x1xf32> -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.minimum
  %f = ndarray.minimum %e, %y : !ndarray.array<4x8xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.pow
  %g = ndarray.pow %f, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
  // CHECK: %[[M:.*]] = ndarray.lt %{{.*}}, %{{.*}} : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  %m = ndarray.lt %g, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  // CHECK: ndarray.le
  %m1 = ndarray.le %g, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  // CHECK: ndarray.gt
  %m2 = ndarray.gt %g, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  // CHECK: ndarray.ge
  %m3 = ndarray.ge %g, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  // CHECK: ndarray.eq
  %m4 = ndarray.eq %g, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  // CHECK: ndarray.ne
  %m5 = ndarray.ne %g, %s : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xi1>
  // CHECK: ndarray.select %[[M]], %{{.*}}, %{{.*}} : !ndarray.array<4x8xi1>, !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
  %h = ndarray.select %m, %g, %s : !ndarray.array<4x8xi1>, !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
  // CHECK: ndarray.neg %{{.*}} : !ndarray.array<4x8xf32>
  %i = ndarray.neg %h : !ndarray.array<4x8xf32>
  // CHECK: ndarray.relu
  %j = ndarray.relu %i : !ndarray.array<4x8xf32>
  // CHECK: ndarray.sigmoid
  %k = ndarray.sigmoid %j : !ndarray.array<4x8xf32>
  // CHECK: ndarray.tanh
  %l = ndarray.tanh %k : !ndarray.array<4x8xf32>
  // CHECK: ndarray.exp
  %n = ndarray.exp %l : !ndarray.array<4x8xf32>
  // CHECK: ndarray.log
  %o = ndarray.log %n : !ndarray.array<4x8xf32>
  // CHECK: ndarray.sqrt
  %p = ndarray.sqrt %o : !ndarray.array<4x8xf32>
  // CHECK: ndarray.abs
  %q = ndarray.abs %p : !ndarray.array<4x8xf32>
  return %q : !ndarray.array<4x8xf32>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: !ndarray.array<4x8xf64>) -> (!ndarray.array<f64>, !ndarray.array<4xf64>, !ndarray.array<8xf64>) {
  // CHECK: ndarray.sum %{{.*}} : !ndarray.array<4x8xf64> -> !ndarray.array<f64>
  %s = ndarray.sum %x : !ndarray.array<4x8xf64> -> !ndarray.array<f64>
  // CHECK: ndarray.mean %{{.*}} {axis = 1} : !ndarray.array<4x8xf64> -> !ndarray.array<4xf64>
  %m = ndarray.mean %x {axis = 1} : !ndarray.array<4x8xf64> -> !ndarray.array<4xf64>
  // CHECK: ndarray.max %{{.*}} {axis = 0} : !ndarray.array<4x8xf64> -> !ndarray.array<8xf64>
  %x0 = ndarray.max %x {axis = 0} : !ndarray.array<4x8xf64> -> !ndarray.array<8xf64>
  return %s, %m, %x0 : !ndarray.array<f64>, !ndarray.array<4xf64>, !ndarray.array<8xf64>
}
