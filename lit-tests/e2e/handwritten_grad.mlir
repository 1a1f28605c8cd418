// DEFINE: %{run} = qd-run %s --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print y --print x.grad
// RUN: %{run} | FileCheck %s
// RUN: %{run} --device interp | FileCheck %s
// RUN: qd-run %s --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print x.grad --json | FileCheck %s --check-prefix=JSON
// RUN: not qd-run %s --kernel compute --grad y=1 --set n=512 --set x='linspace(0,1.5)' --print x.grad --ad-stack-size 32 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OVERFLOW < %t.err
// RUN: FileCheck %s --check-prefix=NOGRAD --allow-empty < %t.out
// RUN: qd-run %s --kernel compute --grad y=1 --set n=32 --set x='linspace(0,1.5)' --print x.grad --ad-stack-size 32 | FileCheck %s --check-prefix=FITS
// The gradient of examples/dynamic_loop.mlir written by hand with the ad and adstack ops, as
// reverse-mode-ad would produce it: the forward loop pushes each v on a per-thread adstack, the
// reverse loop accumulates into and pops it. d(sum_i v_i(n)) / dx_i = 0.95^n.

// CHECK: y = 3.2000{{[0-9]*}}
// CHECK: x.grad = [{{(3\.93[0-9]*e-12, )+}}3.93{{[0-9]*}}e-12]
// JSON: {"fields": {"x.grad": {"shape": [16], "data": [3.93{{[0-9]*}}e-12,
// OVERFLOW: handwritten_grad.mlir:[[#@LINE+30]]:13: error: adstack overflow in kernel 'compute_grad': stack at {{.*}}handwritten_grad.mlir:[[#@LINE+30]]:13 exceeded its capacity of 32{{$}}
// NOGRAD-NOT: x.grad
// FITS: x.grad = [0.19{{[0-9]*}},
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<16xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        %k = arith.constant 0.95 : f32
        %b = arith.constant 0.01 : f32
        %m = arith.mulf %a, %k : f32
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[] : f32
    }
  }

  qd.kernel @compute_grad() {
    qd.struct_for (%i) in @x {
      %st = adstack.alloca : f32
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      %k = arith.constant 0.95 : f32
      %b = arith.constant 0.01 : f32
      qd.range_for %j = %c0 to %n : i32 {
        %a = qd.local_load %v : !qd.ptr<f32>
        adstack.push %st, %a : f32
        %m = arith.mulf %a, %k : f32
        %s = arith.addf %m, %b : f32
        qd.local_store %s, %v : !qd.ptr<f32>
      }
      %dy = ad.load_field_adjoint @y[] : f32
      %dv = qd.alloca : !qd.ptr<f32>
      qd.local_store %dy, %dv : !qd.ptr<f32>
      qd.range_for %j = %c0 to %n : i32 {
        %g = qd.local_load %dv : !qd.ptr<f32>
        %a = adstack.load_top %st : f32
        %ga = arith.mulf %g, %k : f32
        adstack.acc_adjoint %st, %ga : f32
        %t = adstack.load_top_adj %st : f32
        adstack.pop %st : f32
        qd.local_store %t, %dv : !qd.ptr<f32>
      }
      %gx = qd.local_load %dv : !qd.ptr<f32>
      ad.acc_field_adjoint %gx, @x[%i] : f32
    }
  }

  ad.reverse @compute -> @compute_grad
}
