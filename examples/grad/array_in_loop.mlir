// A local array allocated inside a dynamic loop (a fresh one each step): arr[k] <- sin(v + k),
// then arr[k] <- arr[k] arr[k - 1] for k = 1, 2, then v <- arr[1] + arr[2] + 0.5 v. The array
// never outlives its step, while v is carried across steps on a stack.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, nested-loops, field-trip
// GRAD-SET: n=3
// GRAD-SET: x=0.15,0.45,0.8,1.3
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin, products) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 3
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %x_i = qd.load @x[%i] : f32
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c3 = arith.constant 3 : i32
      %n = qd.load @n[] : i32
      qd.range_for %j = %c0 to %n : i32 {
        %arr = qd.alloca : !qd.ptr<!qd.array<3xf32>>
        qd.range_for %k = %c0 to %c3 : i32 {
          %o = qd.local_load %v : !qd.ptr<f32>
          %kf = arith.sitofp %k : i32 to f32
          %e = arith.addf %o, %kf : f32
          %s = math.sin %e : f32
          %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<3xf32>>
          qd.local_store %s, %p : !qd.ptr<f32>
        }
        qd.range_for %k = %c1 to %c3 : i32 {
          %km = arith.subi %k, %c1 : i32
          %p = qd.elem_ptr %arr[%k] : !qd.ptr<!qd.array<3xf32>>
          %q = qd.elem_ptr %arr[%km] : !qd.ptr<!qd.array<3xf32>>
          %a = qd.local_load %p : !qd.ptr<f32>
          %b = qd.local_load %q : !qd.ptr<f32>
          %m = arith.mulf %a, %b : f32
          qd.local_store %m, %p : !qd.ptr<f32>
        }
        %p2 = qd.elem_ptr %arr[%c1] : !qd.ptr<!qd.array<3xf32>>
        %last = arith.constant 2 : i32
        %p3 = qd.elem_ptr %arr[%last] : !qd.ptr<!qd.array<3xf32>>
        %a = qd.local_load %p2 : !qd.ptr<f32>
        %b = qd.local_load %p3 : !qd.ptr<f32>
        %o = qd.local_load %v : !qd.ptr<f32>
        %s = arith.addf %a, %b : f32
        %h = arith.constant 0.5 : f32
        %ho = arith.mulf %o, %h : f32
        %r = arith.addf %s, %ho : f32
        qd.local_store %r, %v : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
