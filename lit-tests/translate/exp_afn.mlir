// REQUIRES: qd-translate
// RUN: qd-translate %s --kernel plain --emit=llvm | FileCheck %s --check-prefix=PLAIN
// RUN: qd-translate %s --kernel approx --emit=llvm | FileCheck %s --check-prefix=AFN
// RUN: qd-translate %s --kernel fast --emit=llvm | FileCheck %s --check-prefix=AFN
// RUN: qd-translate %s --kernel approx --emit=llvm --vectorize=off | FileCheck %s --check-prefix=AFN-SCALAR
// f32 math.exp is computed in f64 (0.5 ulp: the f32 lanes widened to double) unless its fastmath
// flags allow approximate functions (afn, or fast which sets it): then in f32 arithmetic (1 ulp;
// vmath/approx.rs), vectorised or scalar (no call to libm's expf either way).

// PLAIN-LABEL: define {{.*}}@plain_task0(
// PLAIN: fpext <{{[0-9]+}} x float> {{.*}} to <{{[0-9]+}} x double>
// PLAIN: fptrunc <{{[0-9]+}} x double>

// AFN: define {{.*}}_task0(
// AFN-NOT: double
// AFN-NOT: @expf
// AFN: call {{.*}}<{{[0-9]+}} x float> @llvm.fma.v{{[0-9]+}}f32(
// AFN-NOT: double
// AFN: store <{{[0-9]+}} x float>
// AFN-NOT: double
// AFN: ret

// AFN-SCALAR: define {{.*}}@approx_task0(
// AFN-SCALAR-NOT: @expf
// AFN-SCALAR: call float @llvm.fma.f32(
// AFN-SCALAR-NOT: @expf
// AFN-SCALAR: ret

module {
  qd.field @x : !qd.field<4096xf32>
  qd.field @y : !qd.field<4096xf32>
  qd.kernel @plain() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %t = math.exp %v : f32
      qd.store %t, @y[%i] : f32
    }
  }
  qd.kernel @approx() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %t = math.exp %v fastmath<afn> : f32
      qd.store %t, @y[%i] : f32
    }
  }
  qd.kernel @fast() {
    qd.struct_for (%i) in @x {
      %v = qd.load @x[%i] : f32
      %t = math.exp %v fastmath<fast> : f32
      qd.store %t, @y[%i] : f32
    }
  }
}
