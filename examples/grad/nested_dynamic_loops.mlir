// Nested dynamic loops: n outer steps (a field), each running a[j] inner steps (an i32 ndarray
// read at the outer *serial* index j) of v <- 0.85 v + 0.3 sin(v + 0.5); y[i] := v. The stack of
// v is sized by n * max(a) at launch.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: nested-loops, field-trip, ndarray-read-trip
// GRAD-SET: n=4
// GRAD-SET: x=linspace(-2.0,2.0)
// GRAD-ARG: a=3,0,5,2,7
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<6xf32> {needs_grad}

  qd.kernel @compute(%a: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @x {
      %x_i = qd.load @x[%i] : f32
      %v = qd.alloca : !qd.ptr<f32>
      qd.local_store %x_i, %v : !qd.ptr<f32>
      %n = qd.load @n[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        %k = qd.ndarray_load %a[%j] : !qd.ndarray<?xi32>
        qd.range_for %t = %c0 to %k : i32 {
          %o = qd.local_load %v : !qd.ptr<f32>
          %h = arith.constant 0.5 : f32
          %b = arith.addf %o, %h : f32
          %sn = math.sin %b : f32
          %k1 = arith.constant 0.85 : f32
          %k2 = arith.constant 0.3 : f32
          %p = arith.mulf %o, %k1 : f32
          %q = arith.mulf %sn, %k2 : f32
          %r = arith.addf %p, %q : f32
          qd.local_store %r, %v : !qd.ptr<f32>
        }
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.store %f, @y[%i] : f32
    }
  }
}
