// Degenerate trip counts: thread i runs j in [lo[i], hi[i]) with both bounds read from i32
// fields: 4 steps, none (lo > hi), none (lo = hi), 4 steps from j = 2. Each step is
// v <- sin(j v) + v + u, u <- sin(j v) (two loop-carried floats, one read a step later). The
// threads that run no step have gradient 1; the stacks are sized by max(hi - lo).
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: empty-trip, field-trip
// GRAD-SET: lo=0,5,3,2
// GRAD-SET: hi=4,2,3,6
// GRAD-SET: x=0.2,0.5,0.9,1.1
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) values (|y| < 10): truncation h^2 |f'''| / 6 < 1e-9, rounding ~1e-10
// GRAD-STACKS: 2
module {
  qd.field @lo : !qd.field<4xi32>
  qd.field @hi : !qd.field<4xi32>
  qd.field @x : !qd.field<4xf32> {needs_grad}
  qd.field @y : !qd.field<4xf32> {needs_grad}
  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %u = qd.alloca : !qd.ptr<f32>
      %a = qd.load @x[%i] : f32
      qd.local_store %a, %v : !qd.ptr<f32>
      %l = qd.load @lo[%i] : i32
      %h = qd.load @hi[%i] : i32
      qd.range_for %j = %l to %h : i32 {
        %o = qd.local_load %v : !qd.ptr<f32>
        %uo = qd.local_load %u : !qd.ptr<f32>
        %jf = arith.sitofp %j : i32 to f32
        %m = arith.mulf %o, %jf : f32
        %s = math.sin %m : f32
        %r = arith.addf %s, %o : f32
        %r2 = arith.addf %r, %uo : f32
        qd.local_store %r2, %v : !qd.ptr<f32>
        qd.local_store %s, %u : !qd.ptr<f32>
      }
      %f = qd.local_load %v : !qd.ptr<f32>
      qd.store %f, @y[%i] : f32
    }
  }
}
