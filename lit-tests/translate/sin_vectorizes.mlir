// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel k --emit=llvm --vectorize=off | FileCheck %s
// RUN: qd-translate %s --kernel k --grad --emit=llvm | FileCheck %s --check-prefix=GRAD
// RUN: qd-translate %s --kernel k --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: not qd-translate %s --kernel nope --emit=llvm 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: not qd-translate %s --kernel k --emit=wasm 2>&1 | FileCheck %s --check-prefix=USAGE
// A loop of math.sin over an array vectorizes at O3: f32 sin is straight-line code (no libm
// call), so the thread loop of the task runs several elements per vector instruction.

// CHECK: define {{.*}}i32 @k_task0(ptr noalias
// CHECK-NOT: call {{.*}}@sinf
// CHECK: fmul <{{[0-9]+}} x double>
// CHECK: store <{{[0-9]+}} x float>
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
