// (c) the triangular nest of examples/triangular.mlir scaled up: N = 16384 threads, m (= 32) from
// the field @m; for j in [0, m): v = x[i]; for t in [0, j): v = tanh(v)*0.5; y += v.
module {
  qd.field @m : !qd.field<i32>
  qd.field @x : !qd.field<16384xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %v = qd.alloca : !qd.ptr<f32>
      %m = qd.load @m[] : i32
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %m : i32 {
        %x_i = qd.load @x[%i] : f32
        qd.local_store %x_i, %v : !qd.ptr<f32>
        qd.range_for %t = %c0 to %j : i32 {
          %a = qd.local_load %v : !qd.ptr<f32>
          %th = math.tanh %a : f32
          %h = arith.constant 0.5 : f32
          %s = arith.mulf %th, %h : f32
          qd.local_store %s, %v : !qd.ptr<f32>
        }
        %r = qd.local_load %v : !qd.ptr<f32>
        qd.atomic_add %r, @y[] : f32
      }
    }
  }
}
