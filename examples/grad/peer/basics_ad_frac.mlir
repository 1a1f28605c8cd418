// Port of test_ad_basics.py::test_ad_frac: a sequence of two kernels through the Tape:
// qd_frac: out[i] = frac(in[i])^2 with frac(x) = x - floor(x) if x > 0 else x - ceil(x);
// calc_loss: loss += out[i]. in.grad = 2 frac(in).
// Inputs stay at least 0.1 from every integer (floor/ceil jumps) and from 0 (the branch).
// GRAD-KERNEL: qd_frac
// GRAD-KERNEL: calc_loss
// GRAD-COVERS: kernel-sequence, if-else, math-ops
// GRAD-SET: field0=-2.3,-1.65,-0.4,0.2,0.55,1.3,1.85,2.6,-0.85,3.45
// GRAD-SEED: loss=1
// GRAD-WRT: field0
// GRAD-TOL: default ; piecewise polynomial, no jump within 0.1 of an input: truncation 0
// GRAD-STACKS: 0
module {
  qd.field @field0 : !qd.field<10xf32> {needs_grad}
  qd.field @field1 : !qd.field<10xf32> {needs_grad}
  qd.field @loss : !qd.field<f32> {needs_grad}

  qd.kernel @qd_frac() {
    qd.struct_for (%i) in @field0 {
      %x = qd.load @field0[%i] : f32
      %z = arith.constant 0.0 : f32
      %pos = arith.cmpf ogt, %x, %z : f32
      %fl = math.floor %x : f32
      %ce = math.ceil %x : f32
      %a = arith.subf %x, %fl : f32
      %b = arith.subf %x, %ce : f32
      %f = arith.select %pos, %a, %b : f32
      %sq = arith.mulf %f, %f : f32
      qd.store %sq, @field1[%i] : f32
    }
  }

  qd.kernel @calc_loss() {
    qd.struct_for (%i) in @field0 {
      %v = qd.load @field1[%i] : f32
      qd.atomic_add %v, @loss[] : f32
    }
  }
}
