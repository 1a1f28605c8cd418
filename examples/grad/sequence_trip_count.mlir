// One kernel launched twice with its trip count changed in between by another kernel of the
// sequence: @pow_n adds x[i]^n to y[i] through a serial loop of n steps (v <- v x[i], one adstack
// for v, sized from @n at each launch), @bump adds 2 to @n. The sequence pow_n, bump, pow_n with
// n = 2 gives y = x^2 + x^4. The gradient runs pow_n_grad with n = 4 (its stack sized for 4
// steps), bump_grad, then, with n put back to 2 (the tape's snapshot of what bump wrote),
// pow_n_grad with its stack sized for 2 steps. With y.grad = 1: x.grad = 2 x + 4 x^3.
// No branch: the trip counts are fixed by @n; every input is away from a threshold.
// GRAD-KERNEL: pow_n
// GRAD-KERNEL: bump
// GRAD-KERNEL: pow_n
// GRAD-COVERS: kernel-sequence, field-trip, trip-count-between-launches
// GRAD-SET: n=2
// GRAD-SET: x=linspace(0.5,1.5)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; polynomials of degree 4 in O(1) inputs: the central difference's truncation error h^2 |f'''| / 6 is below 1e-9
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<5xf32> {needs_grad}

  qd.kernel @pow_n() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      qd.local_store %one, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %t = qd.local_load %v : !qd.ptr<f32>
        %m = arith.mulf %t, %x_i : f32
        qd.local_store %m, %v : !qd.ptr<f32>
      }
      %r = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %r, @y[%i] : f32
    }
  }

  qd.kernel @bump() {
    %c2 = arith.constant 2 : i32
    qd.atomic_add %c2, @n[] : i32
  }
}
