// RUN: not qd-opt %s --pass=reverse-mode-ad 2>&1 | FileCheck %s
// Recomputing a field read in reverse is sound only because a differentiable kernel never
// overwrites an element after a read whose value the gradient needs (docs/access-rule.md): such a
// kernel is refused, so the reverse pass never re-reads changed memory.

// CHECK: field_written.mlir:[[#@LINE+9]]:5: error: global data access rule violated: this qd.store may overwrite an element of @z that the qd.load at [[#@LINE+7]]:12 read earlier in the same thread, and the gradient needs the value read
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @z : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @compute() {
  qd.struct_for (%i) in @x {
    %x_i = qd.load @x[%i] : f32
    %z_i = qd.load @z[%i] : f32
    %m = arith.mulf %x_i, %z_i : f32
    qd.store %m, @z[%i] : f32
    qd.atomic_add %m, @y[] : f32
  }
}
