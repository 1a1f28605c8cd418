// Our own check (issue #17): scalar math round trip (stands in for upstream Math/ops.mlir; CHECKs = mlir-opt 22 print)
// RUN: qd-opt %s | qd-opt | FileCheck %s --strict-whitespace --match-full-lines
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  func.func @math_scalar(%arg0: f32, %arg1: f64, %arg2: i32) {
// CHECK-NEXT:{{^}}    %0 = math.atan %arg0 : f32
// CHECK-NEXT:{{^}}    %1 = math.cbrt %arg0 : f32
// CHECK-NEXT:{{^}}    %2 = math.cos %arg0 : f32
// CHECK-NEXT:{{^}}    %3 = math.sin %arg0 : f32
// CHECK-NEXT:{{^}}    %4 = math.erf %arg0 : f32
// CHECK-NEXT:{{^}}    %5 = math.erfc %arg0 : f32
// CHECK-NEXT:{{^}}    %6 = math.exp %arg0 : f32
// CHECK-NEXT:{{^}}    %7 = math.exp2 %arg0 : f32
// CHECK-NEXT:{{^}}    %8 = math.expm1 %arg0 : f32
// CHECK-NEXT:{{^}}    %9 = math.log %arg0 : f32
// CHECK-NEXT:{{^}}    %10 = math.log10 %arg0 : f32
// CHECK-NEXT:{{^}}    %11 = math.log1p %arg0 : f32
// CHECK-NEXT:{{^}}    %12 = math.log2 %arg0 : f32
// CHECK-NEXT:{{^}}    %13 = math.rsqrt %arg0 : f32
// CHECK-NEXT:{{^}}    %14 = math.sqrt %arg0 : f32
// CHECK-NEXT:{{^}}    %15 = math.tan %arg0 : f32
// CHECK-NEXT:{{^}}    %16 = math.tanh %arg0 : f32
// CHECK-NEXT:{{^}}    %17 = math.round %arg0 : f32
// CHECK-NEXT:{{^}}    %18 = math.roundeven %arg0 : f32
// CHECK-NEXT:{{^}}    %19 = math.trunc %arg0 : f32
// CHECK-NEXT:{{^}}    %20 = math.absf %arg0 : f32
// CHECK-NEXT:{{^}}    %21 = math.ceil %arg0 : f32
// CHECK-NEXT:{{^}}    %22 = math.floor %arg0 : f32
// CHECK-NEXT:{{^}}    %23 = math.acos %arg0 : f32
// CHECK-NEXT:{{^}}    %24 = math.asin %arg0 : f32
// CHECK-NEXT:{{^}}    %25 = math.acosh %arg0 : f32
// CHECK-NEXT:{{^}}    %26 = math.asinh %arg0 : f32
// CHECK-NEXT:{{^}}    %27 = math.atanh %arg0 : f32
// CHECK-NEXT:{{^}}    %28 = math.cosh %arg0 : f32
// CHECK-NEXT:{{^}}    %29 = math.sinh %arg0 : f32
// CHECK-NEXT:{{^}}    %30 = math.atan2 %arg0, %arg0 : f32
// CHECK-NEXT:{{^}}    %31 = math.powf %arg1, %arg1 : f64
// CHECK-NEXT:{{^}}    %32 = math.copysign %arg0, %arg0 : f32
// CHECK-NEXT:{{^}}    %33 = math.fpowi %arg0, %arg2 : f32, i32
// CHECK-NEXT:{{^}}    %34 = math.absi %arg2 : i32
// CHECK-NEXT:{{^}}    %35 = math.fma %arg0, %arg0, %arg0 : f32
// CHECK-NEXT:{{^}}    %36 = math.isfinite %arg0 : f32
// CHECK-NEXT:{{^}}    %37 = math.isinf %arg1 : f64
// CHECK-NEXT:{{^}}    %38 = math.isnan %arg0 : f32
// CHECK-NEXT:{{^}}    %39 = math.trunc %arg0 fastmath<fast> : f32
// CHECK-NEXT:{{^}}    %40 = math.powf %arg0, %arg0 fastmath<fast> : f32
// CHECK-NEXT:{{^}}    %41 = math.absf %arg0 fastmath<ninf> : f32
// CHECK-NEXT:{{^}}    %42 = math.fpowi %arg0, %arg2 fastmath<fast> : f32, i32
// CHECK-NEXT:{{^}}    return
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}

func.func @math_scalar(%f: f32, %d: f64, %i: i32) {
  %atan = math.atan %f : f32
  %cbrt = math.cbrt %f : f32
  %cos = math.cos %f : f32
  %sin = math.sin %f : f32
  %erf = math.erf %f : f32
  %erfc = math.erfc %f : f32
  %exp = math.exp %f : f32
  %exp2 = math.exp2 %f : f32
  %expm1 = math.expm1 %f : f32
  %log = math.log %f : f32
  %log10 = math.log10 %f : f32
  %log1p = math.log1p %f : f32
  %log2 = math.log2 %f : f32
  %rsqrt = math.rsqrt %f : f32
  %sqrt = math.sqrt %f : f32
  %tan = math.tan %f : f32
  %tanh = math.tanh %f : f32
  %round = math.round %f : f32
  %roundeven = math.roundeven %f : f32
  %trunc = math.trunc %f : f32
  %absf = math.absf %f : f32
  %ceil = math.ceil %f : f32
  %floor = math.floor %f : f32
  %acos = math.acos %f : f32
  %asin = math.asin %f : f32
  %acosh = math.acosh %f : f32
  %asinh = math.asinh %f : f32
  %atanh = math.atanh %f : f32
  %cosh = math.cosh %f : f32
  %sinh = math.sinh %f : f32
  %atan2 = math.atan2 %f, %f : f32
  %powf = math.powf %d, %d : f64
  %copysign = math.copysign %f, %f : f32
  %fpowi = math.fpowi %f, %i : f32, i32
  %absi = math.absi %i : i32
  %fma = math.fma %f, %f, %f : f32
  %fin = math.isfinite %f : f32
  %inf = math.isinf %d : f64
  %nan = math.isnan %f : f32
  %fm0 = math.trunc %f fastmath<fast> : f32
  %fm1 = math.powf %f, %f fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  %fm2 = math.absf %f fastmath<ninf> : f32
  %fm3 = math.fpowi %f, %i fastmath<fast> : f32, i32
  return
}
