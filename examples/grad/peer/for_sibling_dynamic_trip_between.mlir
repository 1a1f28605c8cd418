// Port of test_ad_for.py::test_ad_sibling_for_loops_with_dynamic_trip_count_between_them:
// for i in y: for _ in range(2): loss += y[i]; t = trip[i]; for _ in range(t): loss += 0.1 y[i].
// y.grad = 2 + 0.1 trip.
// No branch: every input is away from a threshold.
// GRAD-KERNEL: compute
// GRAD-COVERS: sibling-loops, field-trip, atomic-scalar
// GRAD-SET: y=fill(1)
// GRAD-SET: trip=3,0,5
// GRAD-SEED: loss=1
// GRAD-WRT: y
// GRAD-TOL: default ; linear: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @y : !qd.field<3xf32> {needs_grad}
  qd.field @trip : !qd.field<3xi32>
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @compute() {
    qd.struct_for (%i) in @y {
      %c0 = arith.constant 0 : i32
      %c2 = arith.constant 2 : i32
      qd.range_for %j = %c0 to %c2 : i32 {
        %v = qd.load @y[%i] : f32
        qd.atomic_add %v, @loss[] : f32
      }
      %t = qd.load @trip[%i] : i32
      qd.range_for %j = %c0 to %t : i32 {
        %v = qd.load @y[%i] : f32
        %k = arith.constant 0.1 : f32
        %w = arith.mulf %v, %k : f32
        qd.atomic_add %w, @loss[] : f32
      }
    }
  }
}
