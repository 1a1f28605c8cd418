// Our own checks (issue #17) for upstream MLIR's mlir/test/Dialect/Arith/canonicalize.mlir: its in-subset chunks (those using only
// ops qd implements). Inputs are mlir-opt 22's re-print of
// upstream's inputs (functions renamed), CHECK lines derived from mlir-opt 22's output.
// 36 of 36 such chunks; the others are listed, with why, in #17's closing note.
// RUN: qd-opt %s -canonicalize="test-convergence" --split-input-file | FileCheck %s

// CHECK-LABEL: func.func @cmpi_const_right(%arg0: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
// CHECK-DAG:     %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK:      %[[V0:.*]] = arith.cmpi eq, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V1:.*]] = arith.cmpi sge, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V2:.*]] = arith.cmpi sle, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V3:.*]] = arith.cmpi uge, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V4:.*]] = arith.cmpi ule, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V5:.*]] = arith.cmpi ne, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V6:.*]] = arith.cmpi sgt, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V7:.*]] = arith.cmpi slt, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V8:.*]] = arith.cmpi ugt, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: %[[V9:.*]] = arith.cmpi ult, %arg0, %[[C1_I64]] : i64
// CHECK-NEXT: return %[[V0]], %[[V1]], %[[V2]], %[[V3]], %[[V4]], %[[V5]], %[[V6]], %[[V7]], %[[V8]], %[[V9]] : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
func.func @cmpi_const_right(%arg0: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %c1_i64 = arith.constant 1 : i64
  %0 = arith.cmpi eq, %c1_i64, %arg0 : i64
  %1 = arith.cmpi sle, %c1_i64, %arg0 : i64
  %2 = arith.cmpi sge, %c1_i64, %arg0 : i64
  %3 = arith.cmpi ule, %c1_i64, %arg0 : i64
  %4 = arith.cmpi uge, %c1_i64, %arg0 : i64
  %5 = arith.cmpi ne, %c1_i64, %arg0 : i64
  %6 = arith.cmpi slt, %c1_i64, %arg0 : i64
  %7 = arith.cmpi sgt, %c1_i64, %arg0 : i64
  %8 = arith.cmpi ult, %c1_i64, %arg0 : i64
  %9 = arith.cmpi ugt, %c1_i64, %arg0 : i64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// -----
// CHECK-LABEL: func.func @cmp_of_ext_si(%arg0: i1) -> i1
// CHECK:      return %arg0 : i1
// CHECK-LABEL: func.func @cmp_of_ext_ui(%arg0: i1) -> i1
// CHECK:      return %arg0 : i1
func.func @cmp_of_ext_si(%arg0: i1) -> i1 {
  %0 = arith.extsi %arg0 : i1 to i64
  %c0_i64 = arith.constant 0 : i64
  %1 = arith.cmpi ne, %0, %c0_i64 : i64
  return %1 : i1
}
func.func @cmp_of_ext_ui(%arg0: i1) -> i1 {
  %0 = arith.extui %arg0 : i1 to i64
  %c0_i64 = arith.constant 0 : i64
  %1 = arith.cmpi ne, %0, %c0_i64 : i64
  return %1 : i1
}

// -----
// CHECK-LABEL: func.func @ext_si_of_ext_ui(%arg0: i1) -> i64
// CHECK:      %[[V0:.*]] = arith.extui %arg0 : i1 to i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @ext_ui_of_ext_ui(%arg0: i1) -> i64
// CHECK:      %[[V0:.*]] = arith.extui %arg0 : i1 to i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @ext_si_of_ext_si(%arg0: i1) -> i64
// CHECK:      %[[V0:.*]] = arith.extsi %arg0 : i1 to i64
// CHECK-NEXT: return %[[V0]] : i64
func.func @ext_si_of_ext_ui(%arg0: i1) -> i64 {
  %0 = arith.extui %arg0 : i1 to i8
  %1 = arith.extsi %0 : i8 to i64
  return %1 : i64
}
func.func @ext_ui_of_ext_ui(%arg0: i1) -> i64 {
  %0 = arith.extui %arg0 : i1 to i8
  %1 = arith.extui %0 : i8 to i64
  return %1 : i64
}
func.func @ext_si_of_ext_si(%arg0: i1) -> i64 {
  %0 = arith.extsi %arg0 : i1 to i8
  %1 = arith.extsi %0 : i8 to i64
  return %1 : i64
}

// -----
// CHECK-LABEL: func.func @and_of_ext_si(%arg0: i8, %arg1: i8) -> i64
// CHECK:      %[[V0:.*]] = arith.andi %arg0, %arg1 : i8
// CHECK-NEXT: %[[V1:.*]] = arith.extsi %[[V0]] : i8 to i64
// CHECK-NEXT: return %[[V1]] : i64
// CHECK-LABEL: func.func @and_of_ext_ui(%arg0: i8, %arg1: i8) -> i64
// CHECK:      %[[V0:.*]] = arith.andi %arg0, %arg1 : i8
// CHECK-NEXT: %[[V1:.*]] = arith.extui %[[V0]] : i8 to i64
// CHECK-NEXT: return %[[V1]] : i64
// CHECK-LABEL: func.func @or_of_ext_si(%arg0: i8, %arg1: i8) -> i64
// CHECK:      %[[V0:.*]] = arith.ori %arg0, %arg1 : i8
// CHECK-NEXT: %[[V1:.*]] = arith.extsi %[[V0]] : i8 to i64
// CHECK-NEXT: return %[[V1]] : i64
// CHECK-LABEL: func.func @or_of_ext_ui(%arg0: i8, %arg1: i8) -> i64
// CHECK:      %[[V0:.*]] = arith.ori %arg0, %arg1 : i8
// CHECK-NEXT: %[[V1:.*]] = arith.extui %[[V0]] : i8 to i64
// CHECK-NEXT: return %[[V1]] : i64
func.func @and_of_ext_si(%arg0: i8, %arg1: i8) -> i64 {
  %0 = arith.extsi %arg0 : i8 to i64
  %1 = arith.extsi %arg1 : i8 to i64
  %2 = arith.andi %0, %1 : i64
  return %2 : i64
}
func.func @and_of_ext_ui(%arg0: i8, %arg1: i8) -> i64 {
  %0 = arith.extui %arg0 : i8 to i64
  %1 = arith.extui %arg1 : i8 to i64
  %2 = arith.andi %0, %1 : i64
  return %2 : i64
}
func.func @or_of_ext_si(%arg0: i8, %arg1: i8) -> i64 {
  %0 = arith.extsi %arg0 : i8 to i64
  %1 = arith.extsi %arg1 : i8 to i64
  %2 = arith.ori %0, %1 : i64
  return %2 : i64
}
func.func @or_of_ext_ui(%arg0: i8, %arg1: i8) -> i64 {
  %0 = arith.extui %arg0 : i8 to i64
  %1 = arith.extui %arg1 : i8 to i64
  %2 = arith.ori %0, %1 : i64
  return %2 : i64
}

// -----
// CHECK-LABEL: func.func @xorxor(%arg0: i1) -> i1
// CHECK:      return %arg0 : i1
// CHECK-LABEL: func.func @xor_of_ext_si(%arg0: i8, %arg1: i8) -> i64
// CHECK:      %[[V0:.*]] = arith.xori %arg0, %arg1 : i8
// CHECK-NEXT: %[[V1:.*]] = arith.extsi %[[V0]] : i8 to i64
// CHECK-NEXT: return %[[V1]] : i64
// CHECK-LABEL: func.func @xor_of_ext_ui(%arg0: i8, %arg1: i8) -> i64
// CHECK:      %[[V0:.*]] = arith.xori %arg0, %arg1 : i8
// CHECK-NEXT: %[[V1:.*]] = arith.extui %[[V0]] : i8 to i64
// CHECK-NEXT: return %[[V1]] : i64
func.func @xorxor(%arg0: i1) -> i1 {
  %true = arith.constant true
  %0 = arith.xori %arg0, %true : i1
  %1 = arith.xori %0, %true : i1
  return %1 : i1
}
func.func @xor_of_ext_si(%arg0: i8, %arg1: i8) -> i64 {
  %0 = arith.extsi %arg0 : i8 to i64
  %1 = arith.extsi %arg1 : i8 to i64
  %2 = arith.xori %0, %1 : i64
  return %2 : i64
}
func.func @xor_of_ext_ui(%arg0: i8, %arg1: i8) -> i64 {
  %0 = arith.extui %arg0 : i8 to i64
  %1 = arith.extui %arg1 : i8 to i64
  %2 = arith.xori %0, %1 : i64
  return %2 : i64
}

// -----
// CHECK-LABEL: func.func @bitcast_same_type(%arg0: f32) -> f32
// CHECK:      return %arg0 : f32
func.func @bitcast_same_type(%arg0: f32) -> f32 {
  %0 = arith.bitcast %arg0 : f32 to f32
  return %0 : f32
}

// -----
// CHECK-LABEL: func.func @bitcast_constant_f_pto_i() -> i32
// CHECK-DAG:     %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK:      return %[[C0_I32]] : i32
func.func @bitcast_constant_f_pto_i() -> i32 {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = arith.bitcast %cst : f32 to i32
  return %0 : i32
}

// -----
// CHECK-LABEL: func.func @bitcast_constant_ito_fp() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      return %[[CST]] : f32
func.func @bitcast_constant_ito_fp() -> f32 {
  %c0_i32 = arith.constant 0 : i32
  %0 = arith.bitcast %c0_i32 : i32 to f32
  return %0 : f32
}

// -----
// CHECK-LABEL: func.func @bitcast_constant_f_pto_fp() -> f16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0.000000e+00 : f16
// CHECK:      return %[[CST]] : f16
func.func @bitcast_constant_f_pto_fp() -> f16 {
  %cst = arith.constant 0.000000e+00 : bf16
  %0 = arith.bitcast %cst : bf16 to f16
  return %0 : f16
}

// -----
// CHECK-LABEL: func.func @bitcast_back_and_forth(%arg0: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @bitcast_back_and_forth(%arg0: i32) -> i32 {
  %0 = arith.bitcast %arg0 : i32 to f32
  %1 = arith.bitcast %0 : f32 to i32
  return %1 : i32
}

// -----
// CHECK-LABEL: func.func @bitcast_of_bitcast(%arg0: i16) -> i16
// CHECK:      return %arg0 : i16
func.func @bitcast_of_bitcast(%arg0: i16) -> i16 {
  %0 = arith.bitcast %arg0 : i16 to f16
  %1 = arith.bitcast %0 : f16 to bf16
  %2 = arith.bitcast %1 : bf16 to i16
  return %2 : i16
}

// -----
// CHECK-LABEL: func.func @bitcast_chain(%arg0: i16) -> f16
// CHECK:      %[[V0:.*]] = arith.bitcast %arg0 : i16 to f16
// CHECK-NEXT: return %[[V0]] : f16
func.func @bitcast_chain(%arg0: i16) -> f16 {
  %0 = arith.bitcast %arg0 : i16 to bf16
  %1 = arith.bitcast %0 : bf16 to f16
  return %1 : f16
}

// -----
// CHECK-LABEL: func.func @test_maxsi(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C127_I8:.*]] = arith.constant 127 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.maxsi %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %[[C127_I8]], %arg0, %[[V0]] : i8, i8, i8, i8
// CHECK-LABEL: func.func @test_maxsi2(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C127_I8:.*]] = arith.constant 127 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.maxsi %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %[[C127_I8]], %arg0, %[[V0]] : i8, i8, i8, i8
func.func @test_maxsi(%arg0: i8) -> (i8, i8, i8, i8) {
  %c127_i8 = arith.constant 127 : i8
  %c-128_i8 = arith.constant -128 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.maxsi %arg0, %arg0 : i8
  %1 = arith.maxsi %arg0, %c127_i8 : i8
  %2 = arith.maxsi %arg0, %c-128_i8 : i8
  %3 = arith.maxsi %arg0, %c42_i8 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}
func.func @test_maxsi2(%arg0: i8) -> (i8, i8, i8, i8) {
  %c127_i8 = arith.constant 127 : i8
  %c-128_i8 = arith.constant -128 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.maxsi %arg0, %arg0 : i8
  %1 = arith.maxsi %c127_i8, %arg0 : i8
  %2 = arith.maxsi %c-128_i8, %arg0 : i8
  %3 = arith.maxsi %c42_i8, %arg0 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----
// CHECK-LABEL: func.func @test_maxui(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C_1_I8:.*]] = arith.constant -1 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.maxui %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %[[C_1_I8]], %arg0, %[[V0]] : i8, i8, i8, i8
// CHECK-LABEL: func.func @test_maxui2(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C_1_I8:.*]] = arith.constant -1 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.maxui %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %[[C_1_I8]], %arg0, %[[V0]] : i8, i8, i8, i8
func.func @test_maxui(%arg0: i8) -> (i8, i8, i8, i8) {
  %c-1_i8 = arith.constant -1 : i8
  %c0_i8 = arith.constant 0 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.maxui %arg0, %arg0 : i8
  %1 = arith.maxui %arg0, %c-1_i8 : i8
  %2 = arith.maxui %arg0, %c0_i8 : i8
  %3 = arith.maxui %arg0, %c42_i8 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}
func.func @test_maxui2(%arg0: i8) -> (i8, i8, i8, i8) {
  %c-1_i8 = arith.constant -1 : i8
  %c0_i8 = arith.constant 0 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.maxui %arg0, %arg0 : i8
  %1 = arith.maxui %c-1_i8, %arg0 : i8
  %2 = arith.maxui %c0_i8, %arg0 : i8
  %3 = arith.maxui %c42_i8, %arg0 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----
// CHECK-LABEL: func.func @test_minsi(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C_128_I8:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.minsi %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %arg0, %[[C_128_I8]], %[[V0]] : i8, i8, i8, i8
// CHECK-LABEL: func.func @test_minsi2(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C_128_I8:.*]] = arith.constant -128 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.minsi %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %arg0, %[[C_128_I8]], %[[V0]] : i8, i8, i8, i8
func.func @test_minsi(%arg0: i8) -> (i8, i8, i8, i8) {
  %c127_i8 = arith.constant 127 : i8
  %c-128_i8 = arith.constant -128 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.minsi %arg0, %arg0 : i8
  %1 = arith.minsi %arg0, %c127_i8 : i8
  %2 = arith.minsi %arg0, %c-128_i8 : i8
  %3 = arith.minsi %arg0, %c42_i8 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}
func.func @test_minsi2(%arg0: i8) -> (i8, i8, i8, i8) {
  %c127_i8 = arith.constant 127 : i8
  %c-128_i8 = arith.constant -128 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.minsi %arg0, %arg0 : i8
  %1 = arith.minsi %c127_i8, %arg0 : i8
  %2 = arith.minsi %c-128_i8, %arg0 : i8
  %3 = arith.minsi %c42_i8, %arg0 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----
// CHECK-LABEL: func.func @test_minui(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C0_I8:.*]] = arith.constant 0 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.minui %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %arg0, %[[C0_I8]], %[[V0]] : i8, i8, i8, i8
// CHECK-LABEL: func.func @test_minui2(%arg0: i8) -> (i8, i8, i8, i8)
// CHECK-DAG:     %[[C0_I8:.*]] = arith.constant 0 : i8
// CHECK-DAG:     %[[C42_I8:.*]] = arith.constant 42 : i8
// CHECK:      %[[V0:.*]] = arith.minui %arg0, %[[C42_I8]] : i8
// CHECK-NEXT: return %arg0, %arg0, %[[C0_I8]], %[[V0]] : i8, i8, i8, i8
func.func @test_minui(%arg0: i8) -> (i8, i8, i8, i8) {
  %c-1_i8 = arith.constant -1 : i8
  %c0_i8 = arith.constant 0 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.minui %arg0, %arg0 : i8
  %1 = arith.minui %arg0, %c-1_i8 : i8
  %2 = arith.minui %arg0, %c0_i8 : i8
  %3 = arith.minui %arg0, %c42_i8 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}
func.func @test_minui2(%arg0: i8) -> (i8, i8, i8, i8) {
  %c-1_i8 = arith.constant -1 : i8
  %c0_i8 = arith.constant 0 : i8
  %c42_i8 = arith.constant 42 : i8
  %0 = arith.minui %arg0, %arg0 : i8
  %1 = arith.minui %c-1_i8, %arg0 : i8
  %2 = arith.minui %c0_i8, %arg0 : i8
  %3 = arith.minui %c42_i8, %arg0 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// -----
// CHECK-LABEL: func.func @test_minimumf(%arg0: f32) -> (f32, f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[V0:.*]] = arith.minimumf %arg0, %[[CST]] : f32
// CHECK-NEXT: return %[[V0]], %arg0, %arg0 : f32, f32, f32
func.func @test_minimumf(%arg0: f32) -> (f32, f32, f32) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0x7F800000 : f32
  %0 = arith.minimumf %cst, %arg0 : f32
  %1 = arith.minimumf %arg0, %arg0 : f32
  %2 = arith.minimumf %cst_0, %arg0 : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----
// CHECK-LABEL: func.func @test_maximumf(%arg0: f32) -> (f32, f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[V0:.*]] = arith.maximumf %arg0, %[[CST]] : f32
// CHECK-NEXT: return %[[V0]], %arg0, %arg0 : f32, f32, f32
func.func @test_maximumf(%arg0: f32) -> (f32, f32, f32) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = arith.maximumf %cst, %arg0 : f32
  %1 = arith.maximumf %arg0, %arg0 : f32
  %2 = arith.maximumf %cst_0, %arg0 : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----
// CHECK-LABEL: func.func @test_minnumf(%arg0: f32) -> (f32, f32, f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[CST_0:.*]] = arith.constant 0x7F800000 : f32
// CHECK:      %[[V0:.*]] = arith.minnumf %arg0, %[[CST]] : f32
// CHECK-NEXT: %[[V1:.*]] = arith.minnumf %arg0, %[[CST_0]] : f32
// CHECK-NEXT: return %[[V0]], %arg0, %[[V1]], %arg0 : f32, f32, f32, f32
func.func @test_minnumf(%arg0: f32) -> (f32, f32, f32, f32) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0x7F800000 : f32
  %cst_1 = arith.constant 0x7FC00000 : f32
  %0 = arith.minnumf %cst, %arg0 : f32
  %1 = arith.minnumf %arg0, %arg0 : f32
  %2 = arith.minnumf %cst_0, %arg0 : f32
  %3 = arith.minnumf %cst_1, %arg0 : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// -----
// CHECK-LABEL: func.func @test_maxnumf(%arg0: f32) -> (f32, f32, f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[CST_0:.*]] = arith.constant 0xFF800000 : f32
// CHECK:      %[[V0:.*]] = arith.maxnumf %arg0, %[[CST]] : f32
// CHECK-NEXT: %[[V1:.*]] = arith.maxnumf %arg0, %[[CST_0]] : f32
// CHECK-NEXT: return %[[V0]], %arg0, %[[V1]], %arg0 : f32, f32, f32, f32
func.func @test_maxnumf(%arg0: f32) -> (f32, f32, f32, f32) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %cst_1 = arith.constant 0x7FC00000 : f32
  %0 = arith.maxnumf %cst, %arg0 : f32
  %1 = arith.maxnumf %arg0, %arg0 : f32
  %2 = arith.maxnumf %cst_0, %arg0 : f32
  %3 = arith.maxnumf %cst_1, %arg0 : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// -----
// CHECK-LABEL: func.func @test_addf(%arg0: f32) -> (f32, f32, f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG:     %[[CST_0:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:      %[[V0:.*]] = arith.addf %arg0, %[[CST_0]] : f32
// CHECK-NEXT: return %[[V0]], %arg0, %arg0, %[[CST]] : f32, f32, f32, f32
func.func @test_addf(%arg0: f32) -> (f32, f32, f32, f32) {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant -0.000000e+00 : f32
  %cst_1 = arith.constant 1.000000e+00 : f32
  %0 = arith.addf %cst, %arg0 : f32
  %1 = arith.addf %arg0, %cst_0 : f32
  %2 = arith.addf %cst_0, %arg0 : f32
  %3 = arith.addf %cst_1, %cst_1 : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// -----
// CHECK-LABEL: func.func @test_subf(%arg0: f16) -> (f16, f16, f16)
// CHECK-DAG:     %[[CST:.*]] = arith.constant -1.000000e+00 : f16
// CHECK-DAG:     %[[CST_0:.*]] = arith.constant -0.000000e+00 : f16
// CHECK:      %[[V0:.*]] = arith.subf %arg0, %[[CST_0]] : f16
// CHECK-NEXT: return %arg0, %[[V0]], %[[CST]] : f16, f16, f16
func.func @test_subf(%arg0: f16) -> (f16, f16, f16) {
  %cst = arith.constant 0.000000e+00 : f16
  %cst_0 = arith.constant -0.000000e+00 : f16
  %cst_1 = arith.constant 1.000000e+00 : f16
  %0 = arith.subf %arg0, %cst : f16
  %1 = arith.subf %arg0, %cst_0 : f16
  %2 = arith.subf %cst, %cst_1 : f16
  return %0, %1, %2 : f16, f16, f16
}

// -----
// CHECK-LABEL: func.func @test_mulf(%arg0: f32) -> (f32, f32, f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG:     %[[CST_0:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:      %[[V0:.*]] = arith.mulf %arg0, %[[CST_0]] : f32
// CHECK-NEXT: return %[[V0]], %arg0, %arg0, %[[CST]] : f32, f32, f32, f32
// CHECK-LABEL: func.func @test_mulf1(%arg0: f32, %arg1: f32) -> f32
// CHECK:      %[[V0:.*]] = arith.mulf %arg0, %arg1 : f32
// CHECK-NEXT: return %[[V0]] : f32
func.func @test_mulf(%arg0: f32) -> (f32, f32, f32, f32) {
  %cst = arith.constant 1.000000e+00 : f32
  %cst_0 = arith.constant 2.000000e+00 : f32
  %0 = arith.mulf %cst_0, %arg0 : f32
  %1 = arith.mulf %arg0, %cst : f32
  %2 = arith.mulf %cst, %arg0 : f32
  %3 = arith.mulf %cst_0, %cst_0 : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}
func.func @test_mulf1(%arg0: f32, %arg1: f32) -> f32 {
  %0 = arith.negf %arg0 : f32
  %1 = arith.negf %arg1 : f32
  %2 = arith.mulf %0, %1 : f32
  return %2 : f32
}

// -----
// CHECK-LABEL: func.func @test_divf(%arg0: f64) -> (f64, f64)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 5.000000e-01 : f64
// CHECK:      return %arg0, %[[CST]] : f64, f64
// CHECK-LABEL: func.func @test_divf1(%arg0: f32, %arg1: f32) -> f32
// CHECK:      %[[V0:.*]] = arith.divf %arg0, %arg1 : f32
// CHECK-NEXT: return %[[V0]] : f32
func.func @test_divf(%arg0: f64) -> (f64, f64) {
  %cst = arith.constant 1.000000e+00 : f64
  %cst_0 = arith.constant 2.000000e+00 : f64
  %0 = arith.divf %arg0, %cst : f64
  %1 = arith.divf %cst, %cst_0 : f64
  return %0, %1 : f64, f64
}
func.func @test_divf1(%arg0: f32, %arg1: f32) -> f32 {
  %0 = arith.negf %arg0 : f32
  %1 = arith.negf %arg1 : f32
  %2 = arith.divf %0, %1 : f32
  return %2 : f32
}

// -----
// CHECK-LABEL: func.func @fold_divui_of_muli_0(%arg0: index, %arg1: index) -> index
// CHECK:      return %arg1 : index
// CHECK-LABEL: func.func @fold_divui_of_muli_1(%arg0: index, %arg1: index) -> index
// CHECK:      return %arg0 : index
// CHECK-LABEL: func.func @fold_divsi_of_muli_0(%arg0: index, %arg1: index) -> index
// CHECK:      return %arg1 : index
// CHECK-LABEL: func.func @fold_divsi_of_muli_1(%arg0: index, %arg1: index) -> index
// CHECK:      return %arg0 : index
// CHECK-LABEL: func.func @no_fold_divui_of_muli(%arg0: index, %arg1: index) -> index
// CHECK:      %[[V0:.*]] = arith.muli %arg0, %arg1 : index
// CHECK-NEXT: %[[V1:.*]] = arith.divui %[[V0]], %arg0 : index
// CHECK-NEXT: return %[[V1]] : index
// CHECK-LABEL: func.func @no_fold_divsi_of_muli(%arg0: index, %arg1: index) -> index
// CHECK:      %[[V0:.*]] = arith.muli %arg0, %arg1 : index
// CHECK-NEXT: %[[V1:.*]] = arith.divsi %[[V0]], %arg0 : index
// CHECK-NEXT: return %[[V1]] : index
func.func @fold_divui_of_muli_0(%arg0: index, %arg1: index) -> index {
  %0 = arith.muli %arg0, %arg1 overflow<nuw> : index
  %1 = arith.divui %0, %arg0 : index
  return %1 : index
}
func.func @fold_divui_of_muli_1(%arg0: index, %arg1: index) -> index {
  %0 = arith.muli %arg0, %arg1 overflow<nuw> : index
  %1 = arith.divui %0, %arg1 : index
  return %1 : index
}
func.func @fold_divsi_of_muli_0(%arg0: index, %arg1: index) -> index {
  %0 = arith.muli %arg0, %arg1 overflow<nsw> : index
  %1 = arith.divsi %0, %arg0 : index
  return %1 : index
}
func.func @fold_divsi_of_muli_1(%arg0: index, %arg1: index) -> index {
  %0 = arith.muli %arg0, %arg1 overflow<nsw> : index
  %1 = arith.divsi %0, %arg1 : index
  return %1 : index
}
func.func @no_fold_divui_of_muli(%arg0: index, %arg1: index) -> index {
  %0 = arith.muli %arg0, %arg1 : index
  %1 = arith.divui %0, %arg0 : index
  return %1 : index
}
func.func @no_fold_divsi_of_muli(%arg0: index, %arg1: index) -> index {
  %0 = arith.muli %arg0, %arg1 : index
  %1 = arith.divsi %0, %arg0 : index
  return %1 : index
}

// -----
// CHECK-LABEL: func.func @test_cmpf(%arg0: f32) -> (i1, i1, i1, i1)
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK:      return %[[FALSE]], %[[FALSE]], %[[TRUE]], %[[TRUE]] : i1, i1, i1, i1
func.func @test_cmpf(%arg0: f32) -> (i1, i1, i1, i1) {
  %cst = arith.constant 0x7FFFFFFF : f32
  %0 = arith.cmpf olt, %cst, %arg0 : f32
  %1 = arith.cmpf olt, %arg0, %cst : f32
  %2 = arith.cmpf ugt, %cst, %arg0 : f32
  %3 = arith.cmpf ugt, %arg0, %cst : f32
  return %0, %1, %2, %3 : i1, i1, i1, i1
}

// -----
// CHECK-LABEL: func.func @invalid_constant_f_pto_ui() -> i32
// CHECK-DAG:     %[[CST:.*]] = arith.constant -2.000000e+00 : f32
// CHECK:      %[[V0:.*]] = arith.fptoui %[[CST]] : f32 to i32
// CHECK-NEXT: return %[[V0]] : i32
func.func @invalid_constant_f_pto_ui() -> i32 {
  %cst = arith.constant -2.000000e+00 : f32
  %0 = arith.fptoui %cst : f32 to i32
  return %0 : i32
}

// -----
// CHECK-LABEL: func.func @test1(%arg0: i32) -> i1
// CHECK-DAG:     %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK:      %[[V0:.*]] = arith.cmpi ule, %arg0, %[[C0_I32]] : i32
// CHECK-NEXT: return %[[V0]] : i1
// CHECK-LABEL: func.func @test2(%arg0: i32) -> i1
// CHECK-DAG:     %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK:      %[[V0:.*]] = arith.cmpi ult, %arg0, %[[C0_I32]] : i32
// CHECK-NEXT: return %[[V0]] : i1
// CHECK-LABEL: func.func @test3(%arg0: i32) -> i1
// CHECK-DAG:     %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK:      %[[V0:.*]] = arith.cmpi uge, %arg0, %[[C0_I32]] : i32
// CHECK-NEXT: return %[[V0]] : i1
// CHECK-LABEL: func.func @test4(%arg0: i32) -> i1
// CHECK-DAG:     %[[C0_I32:.*]] = arith.constant 0 : i32
// CHECK:      %[[V0:.*]] = arith.cmpi ugt, %arg0, %[[C0_I32]] : i32
// CHECK-NEXT: return %[[V0]] : i1
// CHECK-LABEL: func.func @test5(%arg0: i32) -> i1
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK:      return %[[TRUE]] : i1
// CHECK-LABEL: func.func @test6(%arg0: i32) -> i1
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK:      return %[[FALSE]] : i1
// CHECK-LABEL: func.func @test7(%arg0: i32) -> i1
// CHECK-DAG:     %[[C3_I32:.*]] = arith.constant 3 : i32
// CHECK:      %[[V0:.*]] = arith.cmpi ugt, %arg0, %[[C3_I32]] : i32
// CHECK-NEXT: return %[[V0]] : i1
func.func @test1(%arg0: i32) -> i1 {
  %cst = arith.constant 0.000000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf ole, %0, %cst : f64
  return %1 : i1
}
func.func @test2(%arg0: i32) -> i1 {
  %cst = arith.constant 0.000000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf olt, %0, %cst : f64
  return %1 : i1
}
func.func @test3(%arg0: i32) -> i1 {
  %cst = arith.constant 0.000000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf oge, %0, %cst : f64
  return %1 : i1
}
func.func @test4(%arg0: i32) -> i1 {
  %cst = arith.constant 0.000000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf ogt, %0, %cst : f64
  return %1 : i1
}
func.func @test5(%arg0: i32) -> i1 {
  %cst = arith.constant -4.400000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf ogt, %0, %cst : f64
  return %1 : i1
}
func.func @test6(%arg0: i32) -> i1 {
  %cst = arith.constant -4.400000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf olt, %0, %cst : f64
  return %1 : i1
}
func.func @test7(%arg0: i32) -> i1 {
  %cst = arith.constant 3.200000e+00 : f64
  %0 = arith.uitofp %arg0 : i32 to f64
  %1 = arith.cmpf oge, %0, %cst : f64
  return %1 : i1
}

// -----
// CHECK-LABEL: func.func @fold_shl() -> i64
// CHECK-DAG:     %[[C4294967296_I64:.*]] = arith.constant 4294967296 : i64
// CHECK:      return %[[C4294967296_I64]] : i64
// CHECK-LABEL: func.func @nofold_shl() -> i64
// CHECK-DAG:     %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C132_I64:.*]] = arith.constant 132 : i64
// CHECK:      %[[V0:.*]] = arith.shli %[[C1_I64]], %[[C132_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @nofold_shl2() -> i64
// CHECK-DAG:     %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C_32_I64:.*]] = arith.constant -32 : i64
// CHECK:      %[[V0:.*]] = arith.shli %[[C1_I64]], %[[C_32_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @nofold_shl3() -> i64
// CHECK-DAG:     %[[C1_I64:.*]] = arith.constant 1 : i64
// CHECK-DAG:     %[[C64_I64:.*]] = arith.constant 64 : i64
// CHECK:      %[[V0:.*]] = arith.shli %[[C1_I64]], %[[C64_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @fold_shru() -> i64
// CHECK-DAG:     %[[C2_I64:.*]] = arith.constant 2 : i64
// CHECK:      return %[[C2_I64]] : i64
// CHECK-LABEL: func.func @fold_shru2() -> i64
// CHECK-DAG:     %[[C9223372036854775807_I64:.*]] = arith.constant 9223372036854775807 : i64
// CHECK:      return %[[C9223372036854775807_I64]] : i64
// CHECK-LABEL: func.func @nofold_shru() -> i64
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C132_I64:.*]] = arith.constant 132 : i64
// CHECK:      %[[V0:.*]] = arith.shrui %[[C8_I64]], %[[C132_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @nofold_shru2() -> i64
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C_32_I64:.*]] = arith.constant -32 : i64
// CHECK:      %[[V0:.*]] = arith.shrui %[[C8_I64]], %[[C_32_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @nofold_shru3() -> i64
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C64_I64:.*]] = arith.constant 64 : i64
// CHECK:      %[[V0:.*]] = arith.shrui %[[C8_I64]], %[[C64_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @fold_shrs() -> i64
// CHECK-DAG:     %[[C2_I64:.*]] = arith.constant 2 : i64
// CHECK:      return %[[C2_I64]] : i64
// CHECK-LABEL: func.func @fold_shrs2() -> i64
// CHECK-DAG:     %[[C_1_I64:.*]] = arith.constant -1 : i64
// CHECK:      return %[[C_1_I64]] : i64
// CHECK-LABEL: func.func @nofold_shrs() -> i64
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C132_I64:.*]] = arith.constant 132 : i64
// CHECK:      %[[V0:.*]] = arith.shrsi %[[C8_I64]], %[[C132_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @nofold_shrs2() -> i64
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C_32_I64:.*]] = arith.constant -32 : i64
// CHECK:      %[[V0:.*]] = arith.shrsi %[[C8_I64]], %[[C_32_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
// CHECK-LABEL: func.func @nofold_shrs3() -> i64
// CHECK-DAG:     %[[C8_I64:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[C64_I64:.*]] = arith.constant 64 : i64
// CHECK:      %[[V0:.*]] = arith.shrsi %[[C8_I64]], %[[C64_I64]] : i64
// CHECK-NEXT: return %[[V0]] : i64
func.func @fold_shl() -> i64 {
  %c1_i64 = arith.constant 1 : i64
  %c32_i64 = arith.constant 32 : i64
  %0 = arith.shli %c1_i64, %c32_i64 : i64
  return %0 : i64
}
func.func @nofold_shl() -> i64 {
  %c1_i64 = arith.constant 1 : i64
  %c132_i64 = arith.constant 132 : i64
  %0 = arith.shli %c1_i64, %c132_i64 : i64
  return %0 : i64
}
func.func @nofold_shl2() -> i64 {
  %c1_i64 = arith.constant 1 : i64
  %c-32_i64 = arith.constant -32 : i64
  %0 = arith.shli %c1_i64, %c-32_i64 : i64
  return %0 : i64
}
func.func @nofold_shl3() -> i64 {
  %c1_i64 = arith.constant 1 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = arith.shli %c1_i64, %c64_i64 : i64
  return %0 : i64
}
func.func @fold_shru() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c2_i64 = arith.constant 2 : i64
  %0 = arith.shrui %c8_i64, %c2_i64 : i64
  return %0 : i64
}
func.func @fold_shru2() -> i64 {
  %c-2_i64 = arith.constant -2 : i64
  %c1_i64 = arith.constant 1 : i64
  %0 = arith.shrui %c-2_i64, %c1_i64 : i64
  return %0 : i64
}
func.func @nofold_shru() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c132_i64 = arith.constant 132 : i64
  %0 = arith.shrui %c8_i64, %c132_i64 : i64
  return %0 : i64
}
func.func @nofold_shru2() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c-32_i64 = arith.constant -32 : i64
  %0 = arith.shrui %c8_i64, %c-32_i64 : i64
  return %0 : i64
}
func.func @nofold_shru3() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = arith.shrui %c8_i64, %c64_i64 : i64
  return %0 : i64
}
func.func @fold_shrs() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c2_i64 = arith.constant 2 : i64
  %0 = arith.shrsi %c8_i64, %c2_i64 : i64
  return %0 : i64
}
func.func @fold_shrs2() -> i64 {
  %c-2_i64 = arith.constant -2 : i64
  %c1_i64 = arith.constant 1 : i64
  %0 = arith.shrsi %c-2_i64, %c1_i64 : i64
  return %0 : i64
}
func.func @nofold_shrs() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c132_i64 = arith.constant 132 : i64
  %0 = arith.shrsi %c8_i64, %c132_i64 : i64
  return %0 : i64
}
func.func @nofold_shrs2() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c-32_i64 = arith.constant -32 : i64
  %0 = arith.shrsi %c8_i64, %c-32_i64 : i64
  return %0 : i64
}
func.func @nofold_shrs3() -> i64 {
  %c8_i64 = arith.constant 8 : i64
  %c64_i64 = arith.constant 64 : i64
  %0 = arith.shrsi %c8_i64, %c64_i64 : i64
  return %0 : i64
}

// -----
// CHECK-LABEL: func.func @test_negf() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant -2.000000e+00 : f32
// CHECK:      return %[[CST]] : f32
// CHECK-LABEL: func.func @test_negf1(%arg0: f32) -> f32
// CHECK:      return %arg0 : f32
func.func @test_negf() -> f32 {
  %cst = arith.constant 2.000000e+00 : f32
  %0 = arith.negf %cst : f32
  return %0 : f32
}
func.func @test_negf1(%arg0: f32) -> f32 {
  %0 = arith.negf %arg0 : f32
  %1 = arith.negf %0 : f32
  return %1 : f32
}

// -----
// CHECK-LABEL: func.func @test_andi_not_fold_rhs(%arg0: index) -> index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:      return %[[C0]] : index
// CHECK-LABEL: func.func @test_andi_not_fold_lhs(%arg0: index) -> index
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:      return %[[C0]] : index
func.func @test_andi_not_fold_rhs(%arg0: index) -> index {
  %c-1 = arith.constant -1 : index
  %0 = arith.xori %arg0, %c-1 : index
  %1 = arith.andi %arg0, %0 : index
  return %1 : index
}
func.func @test_andi_not_fold_lhs(%arg0: index) -> index {
  %c-1 = arith.constant -1 : index
  %0 = arith.xori %arg0, %c-1 : index
  %1 = arith.andi %0, %arg0 : index
  return %1 : index
}

// -----
// CHECK-LABEL: func.func @xorxor0(%arg0: i32, %arg1: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @xorxor0(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.xori %arg0, %arg1 : i32
  %1 = arith.xori %0, %arg1 : i32
  return %1 : i32
}

// -----
// CHECK-LABEL: func.func @xorxor1(%arg0: i32, %arg1: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @xorxor1(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.xori %arg1, %arg0 : i32
  %1 = arith.xori %0, %arg1 : i32
  return %1 : i32
}

// -----
// CHECK-LABEL: func.func @xorxor2(%arg0: i32, %arg1: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @xorxor2(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.xori %arg0, %arg1 : i32
  %1 = arith.xori %arg1, %0 : i32
  return %1 : i32
}

// -----
// CHECK-LABEL: func.func @xorxor3(%arg0: i32, %arg1: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @xorxor3(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.xori %arg1, %arg0 : i32
  %1 = arith.xori %arg1, %0 : i32
  return %1 : i32
}

// -----
// CHECK-LABEL: func.func @andand0(%arg0: i32, %arg1: i32) -> i32
// CHECK:      %[[V0:.*]] = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT: return %[[V0]] : i32
// CHECK-LABEL: func.func @andand1(%arg0: i32, %arg1: i32) -> i32
// CHECK:      %[[V0:.*]] = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT: return %[[V0]] : i32
// CHECK-LABEL: func.func @andand2(%arg0: i32, %arg1: i32) -> i32
// CHECK:      %[[V0:.*]] = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT: return %[[V0]] : i32
// CHECK-LABEL: func.func @andand3(%arg0: i32, %arg1: i32) -> i32
// CHECK:      %[[V0:.*]] = arith.andi %arg0, %arg1 : i32
// CHECK-NEXT: return %[[V0]] : i32
func.func @andand0(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.andi %arg0, %arg1 : i32
  %1 = arith.andi %arg0, %0 : i32
  return %1 : i32
}
func.func @andand1(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.andi %arg0, %arg1 : i32
  %1 = arith.andi %0, %arg0 : i32
  return %1 : i32
}
func.func @andand2(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.andi %arg0, %arg1 : i32
  %1 = arith.andi %arg1, %0 : i32
  return %1 : i32
}
func.func @andand3(%arg0: i32, %arg1: i32) -> i32 {
  %0 = arith.andi %arg0, %arg1 : i32
  %1 = arith.andi %0, %arg1 : i32
  return %1 : i32
}
