// A reversed-triangular nest `for j in range(m): for t in range(m - j)`: m + (m - 1) + ... + 1
// steps of v <- 0.7 v + 0.25 cos(v + 0.1 j) per thread (the inner step also reads the outer index
// as a float). The stack of v is bounded by a SizeExpr of @m, evaluated at launch.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: reversed-triangular, nested-loops, field-trip
// GRAD-SET: m=7
// GRAD-SET: x=linspace(-1.0,2.0)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (cos) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @m : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %m = qd.load @m[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %m : i32 {
        %len = arith.subi %m, %j : i32
        %jf = arith.sitofp %j : i32 to f32
        %tenth = arith.constant 0.1 : f32
        %shift = arith.mulf %jf, %tenth : f32
        qd.range_for %t = %c0 to %len : i32 {
          %o = qd.local_load %v : !qd.ptr<f32>
          %a = arith.addf %o, %shift : f32
          %c = math.cos %a : f32
          %k1 = arith.constant 0.7 : f32
          %k2 = arith.constant 0.25 : f32
          %p = arith.mulf %o, %k1 : f32
          %q = arith.mulf %c, %k2 : f32
          %r = arith.addf %p, %q : f32
          qd.local_store %r, %v : !qd.ptr<f32>
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.atomic_add %f, @y[] : f32
    }
  }
}
