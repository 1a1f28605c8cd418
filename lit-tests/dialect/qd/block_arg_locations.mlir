// RUN: qd-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: qd-opt %s --mlir-print-debuginfo | qd-opt --mlir-print-debuginfo | FileCheck %s
// Kernel arguments and induction variables keep their own locations in the custom form.

module {
  qd.field @x : !qd.field<4xf32>
  // CHECK: qd.kernel @k(%{{.*}}: f32 loc("{{.*}}block_arg_locations.mlir":[[#@LINE+1]]:16))
  qd.kernel @k(%a: f32) {
    // CHECK: qd.struct_for (%[[I:.*]] loc("{{.*}}":[[#@LINE+1]]:20)) in @x
    qd.struct_for (%i) in @x {
      %c0 = arith.constant 0 : i32
      // CHECK: qd.range_for %{{.*}} loc("{{.*}}":[[#@LINE+1]]:20) = %{{.*}} to %[[I]] : i32
      qd.range_for %j = %c0 to %i : i32 {
      }
    }
  }
}
