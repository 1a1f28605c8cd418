// Upstream MLIR verifies qd's ops against their IRDL: every example (examples/*.mlir) and every
// gradient kernel (examples/grad, examples/grad/peer) as written, after reverse mode (ad and
// adstack ops) and after convert-qd-to-lowered (lowered ops), in qd-opt's IRDL form, through
// `mlir-opt --irdl-file` without --allow-unregistered-dialect. Inputs/verify-corpus.sh names any
// file that fails; the counts are of ops that mlir-opt printed back, so each dialect is checked.
// REQUIRES: mlir-opt
// RUN: qd-opt --print-irdl -o %t.irdl.mlir
// RUN: bash %S/Inputs/verify-corpus.sh %t.irdl.mlir %t.dir %S/../.. | FileCheck %s

// CHECK-NOT: FAIL
// CHECK: qd: {{[1-9][0-9]+}} files verified, qd={{[1-9][0-9]*}} ad=0 adstack=0 lowered=0 ops
// CHECK-NOT: FAIL
// CHECK: ad: {{[1-9][0-9]+}} files verified, qd={{[1-9][0-9]*}} ad={{[1-9][0-9]*}} adstack={{[1-9][0-9]*}} lowered=0 ops
// CHECK-NOT: FAIL
// CHECK: lowered: {{[1-9][0-9]+}} files verified, qd={{[0-9]+}} ad={{[0-9]+}} adstack=0 lowered={{[1-9][0-9]*}} ops
// CHECK-NOT: FAIL
