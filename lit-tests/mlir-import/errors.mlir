// RUN: not qd-translate %s --import=mlir 2>&1 | FileCheck %s
// RUN: not qd-translate %S/Inputs/returns_value.mlir --import=mlir 2>&1 | FileCheck %s --check-prefix=RET
// RUN: not qd-translate %S/Inputs/bad_syntax.mlir --import=mlir 2>&1 | FileCheck %s --check-prefix=SYNTAX
// Input outside the imported subset is a located error (exit 1), never a crash: an op the import
// does not take (here memref.alloc), a function returning a value, and text MLIR cannot parse.

// CHECK: errors.mlir:[[@LINE+4]]:8: error: the MLIR import does not support 'memref.alloc'
// RET: returns_value.mlir:5:3: error: a kernel returns nothing: write results to a memref argument
// SYNTAX: bad_syntax.mlir:4:23: error: use of undeclared SSA value name
func.func @alloc(%x: memref<?xf32>) {
  %a = memref.alloc() : memref<4xf32>
  return
}
