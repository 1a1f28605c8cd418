// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel k --emit=llvm --vectorize=off | FileCheck %s
// f32 tanh is straight-line code (codegen/tanh.rs), not a call to libm's tanhf, so a loop of tanh
// over an array vectorizes at O3.

// CHECK: define {{.*}}i32 @k_task0(ptr noalias
// CHECK-NOT: call {{.*}}@tanhf
// CHECK: fdiv <{{[0-9]+}} x double>
// CHECK: store <{{[0-9]+}} x float>

module {
  qd.field @x : !qd.field<4096xf32>
  qd.field @y : !qd.field<4096xf32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %t = math.tanh %v : f32
      qd.store %t, @y[%i] : f32
    }
  }
}
