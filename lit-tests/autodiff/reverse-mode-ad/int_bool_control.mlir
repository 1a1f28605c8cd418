// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Integer and bool values that steer control flow inside a loop come back from stacks without
// adjoints: the index %k (an integer recurrence, pushed after its load, read with load_top
// where the reverse indexes the ndarray's adjoint), and the bool %fl deciding the if.

qd.field @x : !qd.field<2xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.alloca : !qd.ptr<f32>
    %idx = qd.alloca : !qd.ptr<i32>
    %flag = qd.alloca : !qd.ptr<i1>
    %x0 = qd.load @x[%i] : f32
    qd.local_store %x0, %v : !qd.ptr<f32>
    %c0 = arith.constant 0 : i32
    %c6 = arith.constant 6 : i32
    qd.range_for %j = %c0 to %c6 : i32 {
      %k = qd.local_load %idx : !qd.ptr<i32>
      %c3 = arith.constant 3 : i32
      %k3 = arith.addi %k, %c3 : i32
      %c5 = arith.constant 5 : i32
      %kn = arith.remsi %k3, %c5 : i32
      qd.local_store %kn, %idx : !qd.ptr<i32>
      %ak = qd.ndarray_load %a[%k] : !qd.ndarray<?xf32>
      %o = qd.local_load %v : !qd.ptr<f32>
      %fl = qd.local_load %flag : !qd.ptr<i1>
      qd.if %fl {
        %m = arith.mulf %o, %ak : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %o2 = qd.local_load %v : !qd.ptr<f32>
      %half = arith.constant 0.5 : f32
      %nf = arith.cmpf ogt, %o2, %half : f32
      qd.local_store %nf, %flag : !qd.ptr<i1>
    }
    %f = qd.local_load %v : !qd.ptr<f32>
    qd.atomic_add %f, @y[] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad(
// CHECK: %[[V:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[O:.*]] = adstack.alloca : f32
// CHECK-NEXT: %[[KS:.*]] = adstack.alloca : i32
// CHECK-NEXT: %[[FS:.*]] = adstack.alloca : i1
// CHECK: qd.range_for
// CHECK-NEXT: %[[K:.*]] = qd.local_load %{{.*}} : !qd.ptr<i32>
// CHECK-NEXT: adstack.push %[[KS]], %[[K]] : i32
// CHECK: %[[FL:.*]] = qd.local_load %{{.*}} : !qd.ptr<i1>
// CHECK-NEXT: adstack.push %[[FS]], %[[FL]] : i1
// CHECK-NEXT: qd.if %[[FL]] {
// CHECK: qd.range_for
// CHECK: %[[RF:.*]] = adstack.load_top %[[FS]] : i1
// CHECK-NEXT: qd.if %[[RF]] {
// CHECK: %[[RK:.*]] = adstack.load_top %[[KS]] : i32
// CHECK-NEXT: qd.ndarray_load %{{.*}}[%[[RK]]]
// CHECK: }
// CHECK-NEXT: adstack.pop %[[FS]] : i1
// CHECK: %[[RK2:.*]] = adstack.load_top %[[KS]] : i32
// CHECK-NEXT: ad.acc_ndarray_adjoint %{{.*}}, %{{.*}}[%[[RK2]]]
// CHECK-NEXT: adstack.pop %[[KS]] : i32
// CHECK-NOT: adstack.acc_adjoint %[[KS]]
// CHECK-NOT: adstack.acc_adjoint %[[FS]]
