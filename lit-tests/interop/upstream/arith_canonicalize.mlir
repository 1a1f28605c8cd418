// Our own checks for the chunks of upstream MLIR's mlir/test/Dialect/Arith/canonicalize.mlir that
// qd passes today (issue #17): inputs are mlir-opt 22's re-print of upstream's inputs (functions
// renamed), CHECK lines are derived from mlir-opt 22's -canonicalize output (constants CHECK-DAG).
// The chunks qd does not pass yet are listed in the closing note of #17, with their causes.
// RUN: qd-opt %s --split-input-file -canonicalize="test-convergence" | FileCheck %s

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

// CHECK-LABEL: func.func @bitcast_back_and_forth(%arg0: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @bitcast_back_and_forth(%arg0: i32) -> i32 {
  %0 = arith.bitcast %arg0 : i32 to f32
  %1 = arith.bitcast %0 : f32 to i32
  return %1 : i32
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

// Arith/canonicalize.mlir (functions that sit in chunks qd cannot take whole);
// inputs re-printed by mlir-opt 22, CHECKs derived from mlir-opt 22 -canonicalize.

// CHECK-LABEL: func.func @select_same_val(%arg0: i1, %arg1: i64) -> i64
// CHECK:      return %arg1 : i64
func.func @select_same_val(%arg0: i1, %arg1: i64) -> i64 {
  %0 = arith.select %arg0, %arg1, %arg1 : i64
  return %0 : i64
}

// -----

// CHECK-LABEL: func.func @select_extui_i1(%arg0: i1) -> i1
// CHECK:      return %arg0 : i1
func.func @select_extui_i1(%arg0: i1) -> i1 {
  %false = arith.constant false
  %true = arith.constant true
  %0 = arith.select %arg0, %true, %false : i1
  return %0 : i1
}

// -----

// CHECK-LABEL: func.func @select_cst_false_scalar(%arg0: i32, %arg1: i32) -> i32
// CHECK:      return %arg1 : i32
func.func @select_cst_false_scalar(%arg0: i32, %arg1: i32) -> i32 {
  %false = arith.constant false
  %0 = arith.select %false, %arg0, %arg1 : i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @select_cst_true_scalar(%arg0: i32, %arg1: i32) -> i32
// CHECK:      return %arg0 : i32
func.func @select_cst_true_scalar(%arg0: i32, %arg1: i32) -> i32 {
  %true = arith.constant true
  %0 = arith.select %true, %arg0, %arg1 : i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @cmpi_equal_operands(%arg0: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1)
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[FALSE:.*]] = arith.constant false
// CHECK:      return %[[TRUE]], %[[TRUE]], %[[TRUE]], %[[TRUE]], %[[TRUE]], %[[FALSE]], %[[FALSE]], %[[FALSE]], %[[FALSE]], %[[FALSE]] : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
func.func @cmpi_equal_operands(%arg0: i64) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %0 = arith.cmpi eq, %arg0, %arg0 : i64
  %1 = arith.cmpi sle, %arg0, %arg0 : i64
  %2 = arith.cmpi sge, %arg0, %arg0 : i64
  %3 = arith.cmpi ule, %arg0, %arg0 : i64
  %4 = arith.cmpi uge, %arg0, %arg0 : i64
  %5 = arith.cmpi ne, %arg0, %arg0 : i64
  %6 = arith.cmpi slt, %arg0, %arg0 : i64
  %7 = arith.cmpi sgt, %arg0, %arg0 : i64
  %8 = arith.cmpi ult, %arg0, %arg0 : i64
  %9 = arith.cmpi ugt, %arg0, %arg0 : i64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @index_cast_fold() -> index
// CHECK-DAG:     %[[C_2:.*]] = arith.constant -2 : index
// CHECK:      return %[[C_2]] : index
func.func @index_cast_fold() -> index {
  %c-2_i8 = arith.constant -2 : i8
  %0 = arith.index_cast %c-2_i8 : i8 to index
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @index_cast_fold_index_to_int() -> i32
// CHECK-DAG:     %[[C1_I32:.*]] = arith.constant 1 : i32
// CHECK:      return %[[C1_I32]] : i32
func.func @index_cast_fold_index_to_int() -> i32 {
  %c1 = arith.constant 1 : index
  %0 = arith.index_cast %c1 : index to i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @index_cast_ui_fold() -> index
// CHECK-DAG:     %[[C254:.*]] = arith.constant 254 : index
// CHECK:      return %[[C254]] : index
func.func @index_cast_ui_fold() -> index {
  %c-2_i8 = arith.constant -2 : i8
  %0 = arith.index_castui %c-2_i8 : i8 to index
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @index_cast_ui_fold_index_to_int() -> i32
// CHECK-DAG:     %[[C1_I32:.*]] = arith.constant 1 : i32
// CHECK:      return %[[C1_I32]] : i32
func.func @index_cast_ui_fold_index_to_int() -> i32 {
  %c1 = arith.constant 1 : index
  %0 = arith.index_castui %c1 : index to i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @sign_extend_constant() -> i16
// CHECK-DAG:     %[[C_2_I16:.*]] = arith.constant -2 : i16
// CHECK:      return %[[C_2_I16]] : i16
func.func @sign_extend_constant() -> i16 {
  %c-2_i8 = arith.constant -2 : i8
  %0 = arith.extsi %c-2_i8 : i8 to i16
  return %0 : i16
}

// -----

// CHECK-LABEL: func.func @unsigned_extend_constant() -> i16
// CHECK-DAG:     %[[C2_I16:.*]] = arith.constant 2 : i16
// CHECK:      return %[[C2_I16]] : i16
func.func @unsigned_extend_constant() -> i16 {
  %c2_i8 = arith.constant 2 : i8
  %0 = arith.extui %c2_i8 : i8 to i16
  return %0 : i16
}

// -----

// CHECK-LABEL: func.func @trunc_extf(%arg0: f32) -> f32
// CHECK:      return %arg0 : f32
func.func @trunc_extf(%arg0: f32) -> f32 {
  %0 = arith.extf %arg0 : f32 to f64
  %1 = arith.truncf %0 : f64 to f32
  return %1 : f32
}

// -----

// CHECK-LABEL: func.func @trunc_extf1(%arg0: bf16) -> bf16
// CHECK:      return %arg0 : bf16
func.func @trunc_extf1(%arg0: bf16) -> bf16 {
  %0 = arith.extf %arg0 : bf16 to f32
  %1 = arith.truncf %0 : f32 to bf16
  return %1 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_extf2(%arg0: bf16) -> f16
// CHECK:      %[[V0:.*]] = arith.extf %arg0 : bf16 to f32
// CHECK-NEXT: %[[V1:.*]] = arith.truncf %[[V0]] : f32 to f16
// CHECK-NEXT: return %[[V1]] : f16
func.func @trunc_extf2(%arg0: bf16) -> f16 {
  %0 = arith.extf %arg0 : bf16 to f32
  %1 = arith.truncf %0 : f32 to f16
  return %1 : f16
}

// -----

// CHECK-LABEL: func.func @trunc_sitofp_constrained(%arg0: i32) -> f32
// CHECK:      %[[V0:.*]] = arith.sitofp %arg0 : i32 to f64
// CHECK-NEXT: %[[V1:.*]] = arith.truncf %[[V0]] to_nearest_even : f64 to f32
// CHECK-NEXT: return %[[V1]] : f32
func.func @trunc_sitofp_constrained(%arg0: i32) -> f32 {
  %0 = arith.sitofp %arg0 : i32 to f64
  %1 = arith.truncf %0 to_nearest_even : f64 to f32
  return %1 : f32
}

// -----

// CHECK-LABEL: func.func @trunc_constant(%arg0: i8) -> i16
// CHECK-DAG:     %[[C_2_I16:.*]] = arith.constant -2 : i16
// CHECK:      return %[[C_2_I16]] : i16
func.func @trunc_constant(%arg0: i8) -> i16 {
  %c-2_i32 = arith.constant -2 : i32
  %0 = arith.trunci %c-2_i32 : i32 to i16
  return %0 : i16
}

// -----

// CHECK-LABEL: func.func @triple_add_add(%arg0: index) -> index
// CHECK-DAG:     %[[C59:.*]] = arith.constant 59 : index
// CHECK:      %[[V0:.*]] = arith.addi %arg0, %[[C59]] : index
// CHECK-NEXT: return %[[V0]] : index
func.func @triple_add_add(%arg0: index) -> index {
  %c17 = arith.constant 17 : index
  %c42 = arith.constant 42 : index
  %0 = arith.addi %c17, %arg0 : index
  %1 = arith.addi %c42, %0 : index
  return %1 : index
}

// -----

// CHECK-LABEL: func.func @triple_add_add_ovf2(%arg0: index) -> index
// CHECK-DAG:     %[[C59:.*]] = arith.constant 59 : index
// CHECK:      %[[V0:.*]] = arith.addi %arg0, %[[C59]] : index
// CHECK-NEXT: return %[[V0]] : index
func.func @triple_add_add_ovf2(%arg0: index) -> index {
  %c17 = arith.constant 17 : index
  %c42 = arith.constant 42 : index
  %0 = arith.addi %c17, %arg0 overflow<nsw> : index
  %1 = arith.addi %c42, %0 overflow<nuw> : index
  return %1 : index
}

// -----

// CHECK-LABEL: func.func @constant_f_pto_ui() -> i32
// CHECK-DAG:     %[[C2_I32:.*]] = arith.constant 2 : i32
// CHECK:      return %[[C2_I32]] : i32
func.func @constant_f_pto_ui() -> i32 {
  %cst = arith.constant 2.000000e+00 : f32
  %0 = arith.fptoui %cst : f32 to i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @constant_f_pto_si() -> i32
// CHECK-DAG:     %[[C_2_I32:.*]] = arith.constant -2 : i32
// CHECK:      return %[[C_2_I32]] : i32
func.func @constant_f_pto_si() -> i32 {
  %cst = arith.constant -2.000000e+00 : f32
  %0 = arith.fptosi %cst : f32 to i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @trunc_i_shr_si_to_trunci_shr_ui_bad_shift_amt1(%arg0: i64) -> i32
// CHECK-DAG:     %[[C33_I64:.*]] = arith.constant 33 : i64
// CHECK:      %[[V0:.*]] = arith.shrsi %arg0, %[[C33_I64]] : i64
// CHECK-NEXT: %[[V1:.*]] = arith.trunci %[[V0]] : i64 to i32
// CHECK-NEXT: return %[[V1]] : i32
func.func @trunc_i_shr_si_to_trunci_shr_ui_bad_shift_amt1(%arg0: i64) -> i32 {
  %c33_i64 = arith.constant 33 : i64
  %0 = arith.shrsi %arg0, %c33_i64 : i64
  %1 = arith.trunci %0 : i64 to i32
  return %1 : i32
}

// -----

// CHECK-LABEL: func.func @trunc_i_shr_si_to_trunci_shr_ui_bad_shift_amt2(%arg0: i64) -> i32
// CHECK-DAG:     %[[C31_I64:.*]] = arith.constant 31 : i64
// CHECK:      %[[V0:.*]] = arith.shrsi %arg0, %[[C31_I64]] : i64
// CHECK-NEXT: %[[V1:.*]] = arith.trunci %[[V0]] : i64 to i32
// CHECK-NEXT: return %[[V1]] : i32
func.func @trunc_i_shr_si_to_trunci_shr_ui_bad_shift_amt2(%arg0: i64) -> i32 {
  %c31_i64 = arith.constant 31 : i64
  %0 = arith.shrsi %arg0, %c31_i64 : i64
  %1 = arith.trunci %0 : i64 to i32
  return %1 : i32
}

// -----

// CHECK-LABEL: func.func @fold_shli0(%arg0: i64) -> i64
// CHECK:      return %arg0 : i64
func.func @fold_shli0(%arg0: i64) -> i64 {
  %c0_i64 = arith.constant 0 : i64
  %0 = arith.shli %arg0, %c0_i64 : i64
  return %0 : i64
}

// -----

// CHECK-LABEL: func.func @fold_shrui0(%arg0: i64) -> i64
// CHECK:      return %arg0 : i64
func.func @fold_shrui0(%arg0: i64) -> i64 {
  %c0_i64 = arith.constant 0 : i64
  %0 = arith.shrui %arg0, %c0_i64 : i64
  return %0 : i64
}

// -----

// CHECK-LABEL: func.func @fold_shrsi0(%arg0: i64) -> i64
// CHECK:      return %arg0 : i64
func.func @fold_shrsi0(%arg0: i64) -> i64 {
  %c0_i64 = arith.constant 0 : i64
  %0 = arith.shrsi %arg0, %c0_i64 : i64
  return %0 : i64
}

// -----

// CHECK-LABEL: func.func @maxsi_i0() -> i0
// CHECK-DAG:     %[[C0_I0:.*]] = arith.constant 0 : i0
// CHECK:      return %[[C0_I0]] : i0
func.func @maxsi_i0() -> i0 {
  %c0_i0 = arith.constant 0 : i0
  %0 = arith.maxsi %c0_i0, %c0_i0 : i0
  return %0 : i0
}

// -----

// CHECK-LABEL: func.func @minsi_i0() -> i0
// CHECK-DAG:     %[[C0_I0:.*]] = arith.constant 0 : i0
// CHECK:      return %[[C0_I0]] : i0
func.func @minsi_i0() -> i0 {
  %c0_i0 = arith.constant 0 : i0
  %0 = arith.minsi %c0_i0, %c0_i0 : i0
  return %0 : i0
}

// -----

// CHECK-LABEL: func.func @sequences_no_fastmath(%arg0: bf16) -> bf16
// CHECK:      %[[V0:.*]] = arith.extf %arg0 : bf16 to f32
// CHECK-NEXT: %[[V1:.*]] = math.absf %[[V0]] : f32
// CHECK-NEXT: %[[V2:.*]] = arith.truncf %[[V1]] : f32 to bf16
// CHECK-NEXT: %[[V3:.*]] = arith.extf %[[V2]] : bf16 to f32
// CHECK-NEXT: %[[V4:.*]] = math.sin %[[V3]] : f32
// CHECK-NEXT: %[[V5:.*]] = arith.truncf %[[V4]] : f32 to bf16
// CHECK-NEXT: return %[[V5]] : bf16
func.func @sequences_no_fastmath(%arg0: bf16) -> bf16 {
  %0 = arith.extf %arg0 : bf16 to f32
  %1 = math.absf %0 : f32
  %2 = arith.truncf %1 : f32 to bf16
  %3 = arith.extf %2 : bf16 to f32
  %4 = math.sin %3 : f32
  %5 = arith.truncf %4 : f32 to bf16
  return %5 : bf16
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

// CHECK-LABEL: func.func @ext_fp_constant() -> f64
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : f64
// CHECK:      return %[[CST]] : f64
func.func @ext_fp_constant() -> f64 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.extf %cst : f32 to f64
  return %0 : f64
}

// -----

// CHECK-LABEL: func.func @trunc_fp_constant() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK:      return %[[CST]] : bf16
func.func @trunc_fp_constant() -> bf16 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.truncf %cst : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_fp_to_nearest_even_constant() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK:      return %[[CST]] : bf16
func.func @trunc_fp_to_nearest_even_constant() -> bf16 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.truncf %cst to_nearest_even : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_fp_downward_constant() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK:      return %[[CST]] : bf16
func.func @trunc_fp_downward_constant() -> bf16 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.truncf %cst downward : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_fp_upward_constant() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK:      return %[[CST]] : bf16
func.func @trunc_fp_upward_constant() -> bf16 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.truncf %cst upward : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_fp_toward_zero_constant() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK:      return %[[CST]] : bf16
func.func @trunc_fp_toward_zero_constant() -> bf16 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.truncf %cst toward_zero : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_fp_to_nearest_away_constant() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : bf16
// CHECK:      return %[[CST]] : bf16
func.func @trunc_fp_to_nearest_away_constant() -> bf16 {
  %cst = arith.constant 1.000000e+00 : f32
  %0 = arith.truncf %cst to_nearest_away : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @trunc_fp_constant_rounding() -> bf16
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.444000e+25 : f32
// CHECK:      %[[V0:.*]] = arith.truncf %[[CST]] : f32 to bf16
// CHECK-NEXT: return %[[V0]] : bf16
func.func @trunc_fp_constant_rounding() -> bf16 {
  %cst = arith.constant 1.444000e+25 : f32
  %0 = arith.truncf %cst : f32 to bf16
  return %0 : bf16
}

// -----

// CHECK-LABEL: func.func @invalid_constant_f_pto_si() -> i8
// CHECK-DAG:     %[[CST:.*]] = arith.constant 2.000000e+10 : f32
// CHECK:      %[[V0:.*]] = arith.fptosi %[[CST]] : f32 to i8
// CHECK-NEXT: return %[[V0]] : i8
func.func @invalid_constant_f_pto_si() -> i8 {
  %cst = arith.constant 2.000000e+10 : f32
  %0 = arith.fptosi %cst : f32 to i8
  return %0 : i8
}

// -----

// CHECK-LABEL: func.func @constant_s_ito_fp() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant -2.000000e+00 : f32
// CHECK:      return %[[CST]] : f32
func.func @constant_s_ito_fp() -> f32 {
  %c-2_i32 = arith.constant -2 : i32
  %0 = arith.sitofp %c-2_i32 : i32 to f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @constant_u_ito_fp() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:      return %[[CST]] : f32
func.func @constant_u_ito_fp() -> f32 {
  %c2_i32 = arith.constant 2 : i32
  %0 = arith.uitofp %c2_i32 : i32 to f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @test_remf() -> f32
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:      return %[[CST]] : f32
func.func @test_remf() -> f32 {
  %cst = arith.constant 3.000000e+00 : f32
  %cst_0 = arith.constant 2.000000e+00 : f32
  %0 = arith.remf %cst, %cst_0 : f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @test_remf2() -> (f32, f32)
// CHECK-DAG:     %[[CST:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-DAG:     %[[CST_0:.*]] = arith.constant -1.000000e+00 : f32
// CHECK:      return %[[CST]], %[[CST_0]] : f32, f32
func.func @test_remf2() -> (f32, f32) {
  %cst = arith.constant 3.000000e+00 : f32
  %cst_0 = arith.constant -2.000000e+00 : f32
  %cst_1 = arith.constant -3.000000e+00 : f32
  %0 = arith.remf %cst, %cst_0 : f32
  %1 = arith.remf %cst_1, %cst_0 : f32
  return %0, %1 : f32, f32
}
