// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel k --emit=llvm --vectorize=off | FileCheck %s
// RUN: qd-translate %s --kernel k --emit=llvm | FileCheck %s --check-prefix=SIMT
// RUN: qd-translate %s --kernel k --grad --emit=llvm | FileCheck %s --check-prefix=GRAD
// RUN: qd-translate %s --kernel k --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: not qd-translate %s --kernel nope --emit=llvm 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: not qd-translate %s --kernel k --emit=wasm 2>&1 | FileCheck %s --check-prefix=USAGE
// f32 sin is our own code (no libm call): f32 arithmetic, its rare large-argument path an
// out-of-line function called from a cold block. A loop of math.sin over an array runs several
// elements per vector instruction (SIMT code); scalar code calls the scalar slow path.

// CHECK: define {{.*}}i32 @k_task0(ptr noalias
// CHECK-NOT: call {{.*}}@sinf
// CHECK: call float @qd.vmath.sin.slow.f32(float
// CHECK: define private float @qd.vmath.sin.slow.f32(float
// SIMT: define {{.*}}i32 @k_task0(ptr noalias
// SIMT-NOT: call {{.*}}@sinf
// SIMT: fmul <{{[0-9]+}} x float>
// SIMT: call <[[N:[0-9]+]] x float> @qd.vmath.sin.slow.v[[N]]f32(
// GRAD: define {{.*}}i32 @k_grad_task0(ptr noalias
// ASM: k_task0:
// NOKERNEL: error: unknown kernel 'nope' (kernels: k)
// USAGE: error: invalid value 'wasm' for '--emit <KIND>'

module {
  qd.field @x : !qd.field<4096xf32> {needs_grad}
  qd.field @y : !qd.field<4096xf32> {needs_grad}
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %s = math.sin %v : f32
      qd.store %s, @y[%i] : f32
    }
  }
}
