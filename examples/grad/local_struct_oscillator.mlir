// A local struct carried through a loop: {pos: f32, vel: f32, steps: i32} integrates a damped
// pendulum for n steps (vel <- vel - dt (sin(pos) + 0.1 vel); pos <- pos + dt vel; steps += 1),
// then y += pos + 0.5 vel^2 and steps[i] := steps. The members are element-addressed (the
// struct is never one loop-carried value); the f32 members and the i32 counter evolve together.
// Inputs: pos from x, vel from v (both differentiated). No branch: every input is away from a
// threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-struct, mixed-f32-i32, field-trip
// GRAD-SET: n=20
// GRAD-SET: x=linspace(-1.0,1.5)
// GRAD-SET: v=0.3,-0.2,0.0,0.5,-0.4
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-WRT: v
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding ~1e-11
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<5xf32> {needs_grad}
  qd.field @v : !qd.field<5xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.field @steps : !qd.field<5xi32>

  qd.kernel @compute() {
    qd.struct_for (%i) in @x {
      %st = qd.alloca : !qd.ptr<!qd.struct<f32, f32, i32>>
      %pp = qd.member_ptr %st[0] : !qd.ptr<!qd.struct<f32, f32, i32>>
      %pv = qd.member_ptr %st[1] : !qd.ptr<!qd.struct<f32, f32, i32>>
      %pc = qd.member_ptr %st[2] : !qd.ptr<!qd.struct<f32, f32, i32>>
      %x_i = qd.load @x[%i] : f32
      %v_i = qd.load @v[%i] : f32
      qd.local_store %x_i, %pp : !qd.ptr<f32>
      qd.local_store %v_i, %pv : !qd.ptr<f32>
      %c0 = arith.constant 0 : i32
      qd.local_store %c0, %pc : !qd.ptr<i32>
      %n = qd.load @n[] : i32
      %dt = arith.constant 0.1 : f32
      qd.range_for %t = %c0 to %n : i32 {
        %pos = qd.local_load %pp : !qd.ptr<f32>
        %vel = qd.local_load %pv : !qd.ptr<f32>
        %sn = math.sin %pos : f32
        %damp = arith.constant 0.1 : f32
        %dv = arith.mulf %vel, %damp : f32
        %f = arith.addf %sn, %dv : f32
        %fdt = arith.mulf %f, %dt : f32
        %vel2 = arith.subf %vel, %fdt : f32
        qd.local_store %vel2, %pv : !qd.ptr<f32>
        %step = arith.mulf %vel2, %dt : f32
        %pos2 = arith.addf %pos, %step : f32
        qd.local_store %pos2, %pp : !qd.ptr<f32>
        %k = qd.local_load %pc : !qd.ptr<i32>
        %c1 = arith.constant 1 : i32
        %k1 = arith.addi %k, %c1 : i32
        qd.local_store %k1, %pc : !qd.ptr<i32>
      }
      %pos = qd.local_load %pp : !qd.ptr<f32>
      %vel = qd.local_load %pv : !qd.ptr<f32>
      %v2 = arith.mulf %vel, %vel : f32
      %h = arith.constant 0.5 : f32
      %ke = arith.mulf %v2, %h : f32
      %e = arith.addf %pos, %ke : f32
      qd.atomic_add %e, @y[] : f32
      %k = qd.local_load %pc : !qd.ptr<i32>
      qd.store %k, @steps[%i] : i32
    }
  }
}
