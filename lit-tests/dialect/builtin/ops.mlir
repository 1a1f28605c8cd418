// RUN: qd-opt %s --allow-unregistered-dialect | qd-opt --allow-unregistered-dialect | FileCheck %s
// RUN: qd-opt %s --allow-unregistered-dialect --print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %s
// RUN: qd-opt %s --allow-unregistered-dialect --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: module attributes {test.flag} {
// GENERIC: "builtin.module"() ({
module attributes {test.flag} {
  // CHECK: module @inner {
  // GENERIC: "builtin.module"() <{sym_name = "inner"}> ({
  // GENERIC: }) : () -> ()
  module @inner {
  }
  // CHECK: %[[A:.*]] = "test.source"() : () -> i32
  %a = "test.source"() : () -> i32
  // CHECK: %[[C:.*]] = unrealized_conversion_cast %[[A]] : i32 to f32
  // GENERIC: "builtin.unrealized_conversion_cast"(%{{.*}}) : (i32) -> f32
  %c = builtin.unrealized_conversion_cast %a : i32 to f32
  // CHECK: %{{.*}}:2 = unrealized_conversion_cast %[[A]], %[[C]] : i32, f32 to i64, f64
  %d:2 = builtin.unrealized_conversion_cast %a, %c : i32, f32 to i64, f64
  // CHECK: = unrealized_conversion_cast to index
  %e = builtin.unrealized_conversion_cast to index
  "test.sink"(%d#0, %d#1, %e) : (i64, f64, index) -> ()
}
// GENERIC: }) {test.flag} : () -> ()
