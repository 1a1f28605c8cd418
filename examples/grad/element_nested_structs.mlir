// [element-ad] A local array of structs holding an array and a counter,
// !qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>, addressed through elem_ptr, member_ptr,
// elem_ptr chains. For n steps, with s = t mod 3 and m = t mod 2:
// v <- sin(p[s].f) p[s].v[m] + 0.1; p[s].v[m] <- v; p[s].f <- 0.9 p[s].f + 0.2 v;
// p[s].count += 1. Then y += p[s].f p[s].v[0] + p[s].v[1], and cnt[i] = sum of the counts.
// Stores save only their scalar: the f32 members on one stack, the counter nothing.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: local-array, local-struct, nested-aggregates, mixed-f32-i32, field-trip
// GRAD-SET: n=11
// GRAD-SET: x=linspace(-1.1,1.3)
// GRAD-SEED: y=1
// GRAD-WRT: x
// GRAD-TOL: default ; smooth (sin) O(1) values: truncation ~1e-11, rounding 1e-16 |y| (~10) / h ~ 1e-10
// GRAD-STACKS: 1
module {
  qd.field @n : !qd.field<i32>
  qd.field @x : !qd.field<4x9xf32> {needs_grad}
  qd.field @y : !qd.field<f32> {needs_grad}
  qd.field @cnt : !qd.field<4xi32>

  qd.kernel @compute() {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    qd.range_for %i = %c0 to %c4 : i32 {
      %p = qd.alloca : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
      qd.range_for %s = %c0 to %c3 : i32 {
        %e = qd.elem_ptr %p[%s] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
        %pf = qd.member_ptr %e[0] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %xf = qd.load @x[%i, %s] : f32
        qd.local_store %xf, %pf : !qd.ptr<f32>
        %pv = qd.member_ptr %e[1] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        qd.range_for %m = %c0 to %c2 : i32 {
          %s2 = arith.muli %s, %c2 : i32
          %o = arith.addi %s2, %m : i32
          %o3 = arith.addi %o, %c3 : i32
          %xv = qd.load @x[%i, %o3] : f32
          %q = qd.elem_ptr %pv[%m] : !qd.ptr<!qd.array<2xf32>>
          qd.local_store %xv, %q : !qd.ptr<f32>
        }
      }
      %n = qd.load @n[] : i32
      qd.range_for %t = %c0 to %n : i32 {
        %s = arith.remsi %t, %c3 : i32
        %m = arith.remsi %t, %c2 : i32
        %e = qd.elem_ptr %p[%s] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
        %pf = qd.member_ptr %e[0] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %pv = qd.member_ptr %e[1] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %pc = qd.member_ptr %e[2] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %q = qd.elem_ptr %pv[%m] : !qd.ptr<!qd.array<2xf32>>
        %f = qd.local_load %pf : !qd.ptr<f32>
        %v = qd.local_load %q : !qd.ptr<f32>
        %sf = math.sin %f : f32
        %sv = arith.mulf %sf, %v : f32
        %k1 = arith.constant 0.1 : f32
        %nv = arith.addf %sv, %k1 : f32
        qd.local_store %nv, %q : !qd.ptr<f32>
        %k9 = arith.constant 0.9 : f32
        %k2 = arith.constant 0.2 : f32
        %f9 = arith.mulf %f, %k9 : f32
        %v2 = arith.mulf %nv, %k2 : f32
        %nf = arith.addf %f9, %v2 : f32
        qd.local_store %nf, %pf : !qd.ptr<f32>
        %c = qd.local_load %pc : !qd.ptr<i32>
        %c1b = arith.addi %c, %c1 : i32
        qd.local_store %c1b, %pc : !qd.ptr<i32>
      }
      qd.range_for %s = %c0 to %c3 : i32 {
        %e = qd.elem_ptr %p[%s] : !qd.ptr<!qd.array<3x!qd.struct<f32, !qd.array<2xf32>, i32>>>
        %pf = qd.member_ptr %e[0] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %pv = qd.member_ptr %e[1] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %pc = qd.member_ptr %e[2] : !qd.ptr<!qd.struct<f32, !qd.array<2xf32>, i32>>
        %q0 = qd.elem_ptr %pv[%c0] : !qd.ptr<!qd.array<2xf32>>
        %q1 = qd.elem_ptr %pv[%c1] : !qd.ptr<!qd.array<2xf32>>
        %f = qd.local_load %pf : !qd.ptr<f32>
        %v0 = qd.local_load %q0 : !qd.ptr<f32>
        %v1 = qd.local_load %q1 : !qd.ptr<f32>
        %fv = arith.mulf %f, %v0 : f32
        %o = arith.addf %fv, %v1 : f32
        qd.atomic_add %o, @y[] : f32
        %c = qd.local_load %pc : !qd.ptr<i32>
        qd.atomic_add %c, @cnt[%i] : i32
      }
    }
  }
}
