// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// A rank-3 ndarray read as a trip count under three loops over its shape: nested sums of the
// element read at the loop indices (the total of the elements), not shape0 * shape1 * shape2
// times the largest element.

// CHECK-LABEL: qd.kernel @rank3
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(sum(sum(arg0[v1, v2, v3]:i32 - 0 for v3 in range(0, arg0.shape[2])) for v2 in range(0, arg0.shape[1])) for v1 in range(0, arg0.shape[0]))>}
// CHECK-NOT: max(
qd.kernel @rank3(%a: !qd.ndarray<?x?x?xi32>, %v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %d0 = qd.ndarray_shape %a, 0 : !qd.ndarray<?x?x?xi32>
    %d1 = qd.ndarray_shape %a, 1 : !qd.ndarray<?x?x?xi32>
    %d2 = qd.ndarray_shape %a, 2 : !qd.ndarray<?x?x?xi32>
    qd.range_for %i = %c0 to %d0 : i32 {
      qd.range_for %j = %c0 to %d1 : i32 {
        qd.range_for %k = %c0 to %d2 : i32 {
          %n = qd.ndarray_load %a[%i, %j, %k] : !qd.ndarray<?x?x?xi32>
          qd.range_for %l = %c0 to %n : i32 {
            adstack.push %s, %v : f32
          }
        }
      }
    }
  }
}
