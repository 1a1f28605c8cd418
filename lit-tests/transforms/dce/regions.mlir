// RUN: qd-opt %s --pass=dce --allow-unregistered-dialect --split-input-file | FileCheck %s

// Dead ops inside regions go; a value used only inside a region stays.
// CHECK-LABEL: qd.kernel @nested
// CHECK-SAME: (%[[A:.*]]: i32, %[[C:.*]]: i1)
// CHECK-NEXT: %[[K:.*]] = arith.constant 2 : i32
// CHECK-NEXT: qd.if %[[C]] {
// CHECK-NEXT: "test.use"(%[[K]]) : (i32) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: }
qd.kernel @nested(%a: i32, %c: i1) {
  %k = arith.constant 2 : i32
  %dead_outside = arith.muli %a, %a : i32
  qd.if %c {
    %dead_inside = arith.addi %a, %k : i32
    "test.use"(%k) : (i32) -> ()
  }
}

// -----

// A region op whose body became empty and that has no effects of its own is dead too.
// CHECK-LABEL: qd.kernel @empty_if
// CHECK-NEXT: "test.use"
// CHECK-NEXT: }
qd.kernel @empty_if(%a: i32, %c: i1) {
  qd.if %c {
    %0 = arith.addi %a, %a : i32
  }
  "test.use"(%a) : (i32) -> ()
}
