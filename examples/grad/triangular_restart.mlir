// A triangular nest `for j in range(m): for t in range(j)` that reads the input field at the
// inner index: for each j, p restarts from x[i] and runs j steps of p <- sin(p + 0.3 x[t]); the
// final p of every j is summed into the accumulator s (no stack: s = s + p), and y[i] := s.
// x[i] gets gradient both as the start of p and through x[t] of every thread.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: triangular, nested-loops, accumulator
// GRAD-SET: m=6
// GRAD-SET: x=linspace(0.2,1.2)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |sum y| (~20) / h ~ 2e-10
// GRAD-STACKS: 1
module {
  qd.field @m : !qd.field<i32>
  qd.field @x : !qd.field<6xf32> {needs_grad}
  qd.field @y : !qd.field<6xf32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @y {
      %s = qd.alloca : !qd.ptr<f32>
      %p = qd.alloca : !qd.ptr<f32>
      %zero = arith.constant 0.0 : f32
      qd.local_store %zero, %s : !qd.ptr<f32>
      %m = qd.load @m[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %m : i32 {
        %x_i = qd.load @x[%i] : f32
        qd.local_store %x_i, %p : !qd.ptr<f32>
        qd.range_for %t = %c0 to %j : i32 {
          %o = qd.local_load %p : !qd.ptr<f32>
          %x_t = qd.load @x[%t] : f32
          %k = arith.constant 0.3 : f32
          %q = arith.mulf %x_t, %k : f32
          %a = arith.addf %o, %q : f32
          %sn = math.sin %a : f32
          qd.local_store %sn, %p : !qd.ptr<f32>
        }
        %pv = qd.local_load %p : !qd.ptr<f32>
        %so = qd.local_load %s : !qd.ptr<f32>
        %sum = arith.addf %so, %pv : f32
        qd.local_store %sum, %s : !qd.ptr<f32>
      }
      %r = qd.local_load %s : !qd.ptr<f32>
      qd.store %r, @y[%i] : f32
    }
  }
}
