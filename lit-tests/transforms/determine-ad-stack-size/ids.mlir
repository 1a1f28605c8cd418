// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// RUN: qd-opt %s --pass-pipeline='builtin.module(qd.kernel(determine-ad-stack-size))' --split-input-file | FileCheck %s
// RUN: qd-opt %s --pass=determine-ad-stack-size --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Stable stack ids: 0, 1, 2... in pre-order within each kernel (nested allocas included),
// restarting in every kernel; ids that are all there and unique are kept; otherwise (some
// missing, or a duplicate) the kernel's stacks are renumbered. Running the pass again changes
// nothing.

// CHECK-LABEL: qd.kernel @first
// CHECK: adstack.alloca : f32 {id = 0, max_size = 1
// CHECK: qd.range_for
// CHECK: adstack.alloca : i32 {id = 1, max_size = 1
// CHECK: adstack.alloca : f64 {id = 2, max_size = 0
// CHECK-LABEL: qd.kernel @second
// CHECK: adstack.alloca : f32 {id = 0, max_size = 0
qd.kernel @first(%v: f32, %w: i32) {
  %s = adstack.alloca : f32
  adstack.push %s, %v : f32
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %t = adstack.alloca : i32
    adstack.push %t, %w : i32
  }
  %u = adstack.alloca : f64
}
qd.kernel @second() {
  %s = adstack.alloca : f32
}

// -----

// All present and unique: kept, whatever their order.
// CHECK-LABEL: qd.kernel @kept
// CHECK: adstack.alloca : f32 {id = 5, max_size = 0
// CHECK: adstack.alloca : i32 {id = 2, max_size = 0
qd.kernel @kept() {
  %s = adstack.alloca : f32 {id = 5}
  %t = adstack.alloca : i32 {id = 2}
}

// -----

// One missing: renumbered.
// CHECK-LABEL: qd.kernel @partial
// CHECK: adstack.alloca : f32 {id = 0, max_size = 0
// CHECK: adstack.alloca : i32 {id = 1, max_size = 0
qd.kernel @partial() {
  %s = adstack.alloca : f32
  %t = adstack.alloca : i32 {id = 0}
}

// -----

// A duplicate: renumbered.
// CHECK-LABEL: qd.kernel @duplicate
// CHECK: adstack.alloca : f32 {id = 0, max_size = 0
// CHECK: adstack.alloca : i32 {id = 1, max_size = 0
// CHECK: adstack.alloca : i1 {id = 2, max_size = 0
qd.kernel @duplicate() {
  %s = adstack.alloca : f32 {id = 3}
  %t = adstack.alloca : i32 {id = 3}
  %u = adstack.alloca : i1 {id = 0}
}
