// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s
// Casts: extf/truncf pass the adjoint through (converted back to the operand's type); an
// integer cast stops the gradient: fptosi then sitofp is a constant, so d/dx (floor(x) x^2)
// is floor(x) 2x here, with no term from the cast.

qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<3xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %w = arith.extf %a : f32 to f64
    %p = arith.mulf %w, %w : f64
    %n = arith.truncf %p : f64 to f32
    %q = arith.fptosi %a : f32 to i32
    %f = arith.sitofp %q : i32 to f32
    %m = arith.mulf %f, %n : f32
    qd.store %m, @y[%i] : f32
  }
}

// CHECK-LABEL: qd.kernel @k_grad()
// CHECK: %[[A:.*]] = qd.load @x[%{{.*}}] : f32
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[A]] : f32 to f64
// CHECK-NEXT: %[[Q:.*]] = arith.fptosi %[[A]] : f32 to i32
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[Q]] : i32 to f32
// CHECK: %[[DY:.*]] = ad.load_field_adjoint @y
// CHECK: %[[DN:.*]] = arith.mulf %[[DY]], %[[F]] : f32
// CHECK-NEXT: %[[DP:.*]] = arith.extf %[[DN]] : f32 to f64
// CHECK-NEXT: %[[D1:.*]] = arith.mulf %[[DP]], %[[W]] : f64
// CHECK-NEXT: %[[D2:.*]] = arith.mulf %[[DP]], %[[W]] : f64
// CHECK-NEXT: %[[DW:.*]] = arith.addf %[[D1]], %[[D2]] : f64
// CHECK-NEXT: %[[DA:.*]] = arith.truncf %[[DW]] : f64 to f32
// CHECK-NEXT: ad.acc_field_adjoint %[[DA]], @x
// CHECK-NEXT: }
