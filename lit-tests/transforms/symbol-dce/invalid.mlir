// symbol-dce needs a symbol table: scheduled on a kernel it fails.
// RUN: not qd-opt %s --pass-pipeline='builtin.module(qd.kernel(symbol-dce))' 2>&1 | FileCheck %s

// CHECK: error: 'qd.kernel' op was scheduled to run under symbol-dce, but does not define a symbol table
qd.kernel @k() {
}
