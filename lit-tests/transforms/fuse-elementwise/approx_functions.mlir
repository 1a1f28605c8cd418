// approx-functions: the math ops of the kernels fuse-elementwise makes carry fastmath<afn>
// (approximate functions allowed: on the cpu device f32 exp within 1 ulp instead of 0.5); other
// kernels of the module are left as they are. Off by default.
// RUN: qd-opt %s --pass='fuse-elementwise{approx-functions=true}' | FileCheck %s
// RUN: qd-opt %s --pass=fuse-elementwise | FileCheck %s --check-prefix=DEFAULT
// The gradient kernel replays the forward exp, flag and all (exp's derivative is its result).
// RUN: qd-opt %s --pass='fuse-elementwise{approx-functions=true}' --pass=reverse-mode-ad | FileCheck %s --check-prefix=GRAD

// CHECK-LABEL: qd.kernel @own(
// CHECK: math.exp %{{[a-z0-9]+}} : f32
// CHECK-LABEL: qd.kernel @chain_k0(
// CHECK-DAG: math.exp %{{[a-z0-9]+}} fastmath<afn> : f32
// CHECK-DAG: math.tanh %{{[a-z0-9]+}} fastmath<afn> : f32
// CHECK-LABEL: func.func @chain(

// GRAD-LABEL: qd.kernel @chain_k0_grad(
// GRAD: math.exp %{{[a-z0-9]+}} fastmath<afn> : f32

// DEFAULT-NOT: afn
// DEFAULT: qd.kernel @chain_k0(
// DEFAULT: math.exp %{{[a-z0-9]+}} : f32
// DEFAULT-NOT: afn
module {
  qd.field @x : !qd.field<8xf32>
  qd.kernel @own() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %t = math.exp %v : f32
      qd.store %t, @x[%i] : f32
    }
  }
  func.func @chain(%x: !ndarray.array<4x8xf32>, %w: !ndarray.array<4x8xf32>) -> !ndarray.array<4x8xf32> {
    %c = arith.constant 0.5 : f32
    %0 = ndarray.mul %x, %w : !ndarray.array<4x8xf32>, !ndarray.array<4x8xf32> -> !ndarray.array<4x8xf32>
    %1 = ndarray.add %0, %c : !ndarray.array<4x8xf32>, f32 -> !ndarray.array<4x8xf32>
    %2 = ndarray.sigmoid %1 : !ndarray.array<4x8xf32>
    %3 = ndarray.tanh %2 : !ndarray.array<4x8xf32>
    return %3 : !ndarray.array<4x8xf32>
  }
}
