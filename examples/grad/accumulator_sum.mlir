// A pure accumulator over a dynamic loop: s <- s + exp(-0.1 j x) sin(x + j) for j in range(n),
// then y[i] := s. The loaded s only feeds the add stored back into it, so s needs no stack, and
// the summand depends on x and j alone: the gradient kernel keeps no adstack at all.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: accumulator, field-trip
// GRAD-SET: n=9
// GRAD-SET: x=linspace(-0.7,1.3)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (exp, sin) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 0
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<5xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %s = qd.alloca : !qd.ptr<f32>
      %zero = arith.constant 0.0 : f32
      qd.local_store %zero, %s : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %jf = arith.sitofp %j : i32 to f32
        %k = arith.constant -0.1 : f32
        %a = arith.mulf %jf, %k : f32
        %b = arith.mulf %a, %x_i : f32
        %e = math.exp %b : f32
        %c = arith.addf %x_i, %jf : f32
        %sn = math.sin %c : f32
        %t = arith.mulf %e, %sn : f32
        %o = qd.local_load %s : !qd.ptr<f32>
        %r = arith.addf %o, %t : f32
        qd.local_store %r, %s : !qd.ptr<f32>
      }
      %f = qd.local_load %s : !qd.ptr<f32>
      qd.store %f, @y[%i] : f32
    }
  }
}
