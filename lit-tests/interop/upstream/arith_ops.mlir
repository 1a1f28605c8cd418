// Our own check (issue #17): scalar arith round trip (stands in for upstream Arith/ops.mlir; CHECKs = mlir-opt 22 print)
// RUN: qd-opt %s | qd-opt | FileCheck %s --strict-whitespace --match-full-lines
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  func.func @arith_scalar(%arg0: i64, %arg1: i64, %arg2: f64, %arg3: f64, %arg4: i32, %arg5: i16, %arg6: f32, %arg7: bf16, %arg8: index, %arg9: i1) {
// CHECK-NEXT:{{^}}    %0 = arith.addi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %1 = arith.subi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %2 = arith.muli %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %3 = arith.divui %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %4 = arith.divsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %5 = arith.remui %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %6 = arith.remsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %7 = arith.andi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %8 = arith.ori %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %9 = arith.xori %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %10 = arith.ceildivsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %11 = arith.ceildivui %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %12 = arith.floordivsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %13 = arith.shli %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %14 = arith.shrui %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %15 = arith.shrsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %16 = arith.maxsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %17 = arith.maxui %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %18 = arith.minsi %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %19 = arith.minui %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %20 = arith.addf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %21 = arith.subf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %22 = arith.mulf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %23 = arith.divf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %24 = arith.remf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %25 = arith.maximumf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %26 = arith.minimumf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %27 = arith.maxnumf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %28 = arith.minnumf %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %29 = arith.negf %arg2 : f64
// CHECK-NEXT:{{^}}    %30 = arith.extui %arg4 : i32 to i64
// CHECK-NEXT:{{^}}    %31 = arith.extsi %arg4 : i32 to i64
// CHECK-NEXT:{{^}}    %32 = arith.extf %arg6 : f32 to f64
// CHECK-NEXT:{{^}}    %33 = arith.trunci %arg4 : i32 to i16
// CHECK-NEXT:{{^}}    %34 = arith.truncf %arg6 : f32 to bf16
// CHECK-NEXT:{{^}}    %35 = arith.uitofp %arg4 : i32 to f32
// CHECK-NEXT:{{^}}    %36 = arith.sitofp %arg5 : i16 to f64
// CHECK-NEXT:{{^}}    %37 = arith.fptoui %arg7 : bf16 to i8
// CHECK-NEXT:{{^}}    %38 = arith.fptosi %arg2 : f64 to i64
// CHECK-NEXT:{{^}}    %39 = arith.index_cast %arg4 : i32 to index
// CHECK-NEXT:{{^}}    %40 = arith.index_cast %arg8 : index to i64
// CHECK-NEXT:{{^}}    %41 = arith.index_castui %arg4 : i32 to index
// CHECK-NEXT:{{^}}    %42 = arith.index_castui %arg8 : index to i64
// CHECK-NEXT:{{^}}    %43 = arith.bitcast %arg0 : i64 to f64
// CHECK-NEXT:{{^}}    %44 = arith.bitcast %arg6 : f32 to i32
// CHECK-NEXT:{{^}}    %45 = arith.cmpi ne, %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %46 = arith.cmpf oeq, %arg2, %arg3 : f64
// CHECK-NEXT:{{^}}    %47 = arith.select %arg9, %arg0, %arg1 : i64
// CHECK-NEXT:{{^}}    %48 = arith.addi %arg0, %arg1 overflow<nsw, nuw> : i64
// CHECK-NEXT:{{^}}    %49 = arith.addf %arg6, %arg6 fastmath<fast> : f32
// CHECK-NEXT:{{^}}    %50 = arith.addf %arg6, %arg6 : f32
// CHECK-NEXT:{{^}}    %51 = arith.addf %arg6, %arg6 fastmath<nnan,ninf> : f32
// CHECK-NEXT:{{^}}    %52 = arith.mulf %arg6, %arg6 fastmath<fast> : f32
// CHECK-NEXT:{{^}}    %53 = arith.truncf %arg2 to_nearest_even : f64 to f32
// CHECK-NEXT:{{^}}    %c42_i32 = arith.constant 42 : i32
// CHECK-NEXT:{{^}}    %c43 = arith.constant {t.a = "x"} 43 : index
// CHECK-NEXT:{{^}}    %cst = arith.constant 4.300000e+01 : bf16
// CHECK-NEXT:{{^}}    return
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}

func.func @arith_scalar(%a: i64, %b: i64, %f: f64, %g: f64, %i32: i32, %i16: i16, %f32: f32, %bf: bf16, %x: index, %c: i1) {
  %addi = arith.addi %a, %b : i64
  %subi = arith.subi %a, %b : i64
  %muli = arith.muli %a, %b : i64
  %divui = arith.divui %a, %b : i64
  %divsi = arith.divsi %a, %b : i64
  %remui = arith.remui %a, %b : i64
  %remsi = arith.remsi %a, %b : i64
  %andi = arith.andi %a, %b : i64
  %ori = arith.ori %a, %b : i64
  %xori = arith.xori %a, %b : i64
  %ceildivsi = arith.ceildivsi %a, %b : i64
  %ceildivui = arith.ceildivui %a, %b : i64
  %floordivsi = arith.floordivsi %a, %b : i64
  %shli = arith.shli %a, %b : i64
  %shrui = arith.shrui %a, %b : i64
  %shrsi = arith.shrsi %a, %b : i64
  %maxsi = arith.maxsi %a, %b : i64
  %maxui = arith.maxui %a, %b : i64
  %minsi = arith.minsi %a, %b : i64
  %minui = arith.minui %a, %b : i64
  %addf = arith.addf %f, %g : f64
  %subf = arith.subf %f, %g : f64
  %mulf = arith.mulf %f, %g : f64
  %divf = arith.divf %f, %g : f64
  %remf = arith.remf %f, %g : f64
  %maximumf = arith.maximumf %f, %g : f64
  %minimumf = arith.minimumf %f, %g : f64
  %maxnumf = arith.maxnumf %f, %g : f64
  %minnumf = arith.minnumf %f, %g : f64
  %negf = arith.negf %f : f64
  %extui_0 = arith.extui %i32 : i32 to i64
  %extsi_1 = arith.extsi %i32 : i32 to i64
  %extf_2 = arith.extf %f32 : f32 to f64
  %trunci_3 = arith.trunci %i32 : i32 to i16
  %truncf_4 = arith.truncf %f32 : f32 to bf16
  %uitofp_5 = arith.uitofp %i32 : i32 to f32
  %sitofp_6 = arith.sitofp %i16 : i16 to f64
  %fptoui_7 = arith.fptoui %bf : bf16 to i8
  %fptosi_8 = arith.fptosi %f : f64 to i64
  %index_cast_9 = arith.index_cast %i32 : i32 to index
  %index_cast_10 = arith.index_cast %x : index to i64
  %index_castui_11 = arith.index_castui %i32 : i32 to index
  %index_castui_12 = arith.index_castui %x : index to i64
  %bitcast_13 = arith.bitcast %a : i64 to f64
  %bitcast_14 = arith.bitcast %f32 : f32 to i32
  %cmpi = arith.cmpi ne, %a, %b : i64
  %cmpf = arith.cmpf oeq, %f, %g : f64
  %sel = arith.select %c, %a, %b : i64
  %ovf = arith.addi %a, %b overflow<nsw, nuw> : i64
  %fm0 = arith.addf %f32, %f32 fastmath<fast> : f32
  %fm1 = arith.addf %f32, %f32 fastmath<none> : f32
  %fm2 = arith.addf %f32, %f32 fastmath<nnan,ninf> : f32
  %fm3 = arith.mulf %f32, %f32 fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f32
  %tr = arith.truncf %f to_nearest_even : f64 to f32
  %k0 = "arith.constant"() {value = 42 : i32} : () -> i32
  %k1 = arith.constant {t.a = "x"} 43 : index
  %k2 = arith.constant 43.0 : bf16
  return
}
