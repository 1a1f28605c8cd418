// Every registered pass is a flag, as in mlir-opt (upstream RUN lines use
// `-canonicalize="test-convergence"`, `-cse`): the value is the pass's options, the passes run
// in command-line order, mixed with --pass and -p.
// RUN: qd-opt %s -cse -canonicalize="max-iterations=3 test-convergence" --pass=dce --symbol-dce --print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=ORDER
// RUN: qd-opt %s -canonicalize="test-convergence" | FileCheck %s
// RUN: qd-opt %s --canonicalize=test-convergence=true -cse | FileCheck %s
// RUN: not qd-opt %s -canonicalize="bogus=1" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not qd-opt %s -no-such-pass 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// ORDER: IR Dump After CSE (cse)
// ORDER-NEXT: module {
// ORDER: IR Dump After Canonicalizer (canonicalize)
// ORDER: IR Dump After DCE (dce)
// ORDER: IR Dump After SymbolDCE (symbol-dce)

// CHECK-LABEL: func.func @f(%arg0: i32) -> i32 {
// CHECK-NEXT:    return %arg0 : i32

// BAD: error: unknown option 'bogus' for pass 'canonicalize'
// UNKNOWN: error: unexpected argument

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %a, %c0 : i32
  return %0 : i32
}
