// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Locals carried across the iterations of a counted loop by `m = m + c` (or `m - c`, or capped
// by min/max): at iteration j of range(begin, end) the update has run j - begin times, so
// range(m) under it is summed as an affine trip count (exact where the update always runs).

// m = 1, 2, 3, 4: 10 pushes (the bound folds to the literal).
// CHECK-LABEL: qd.kernel @increment
// CHECK: adstack.alloca : f32 {id = 0, max_size = 10, size_expr = #adstack.size<10>}
qd.kernel @increment(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %m = qd.alloca : !qd.ptr<i32>
    qd.local_store %c1, %m : !qd.ptr<i32>
    qd.range_for %j = %c0 to %c4 : i32 {
      %mv = qd.local_load %m : !qd.ptr<i32>
      qd.range_for %k = %c0 to %mv : i32 {
        adstack.push %s, %v : f32
      }
      %m2 = arith.addi %mv, %c1 : i32
      qd.local_store %m2, %m : !qd.ptr<i32>
    }
  }
}

// -----

// m = n, n - 1, ... over range(n): a sum of n - j, from a field.
qd.field @n : !qd.field<i32>
// CHECK-LABEL: qd.kernel @decrement
// CHECK: adstack.alloca : f32 {id = 0, size_expr = #adstack.size<sum(@n[]:i32 - v1 for v1 in range(0, @n[]:i32))>}
qd.kernel @decrement(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %m = qd.alloca : !qd.ptr<i32>
    %n = qd.load @n[] : i32
    qd.local_store %n, %m : !qd.ptr<i32>
    qd.range_for %j = %c0 to %n : i32 {
      %mv = qd.local_load %m : !qd.ptr<i32>
      qd.range_for %k = %c0 to %mv : i32 {
        adstack.push %s, %v : f32
      }
      %m2 = arith.subi %mv, %c1 : i32
      qd.local_store %m2, %m : !qd.ptr<i32>
    }
  }
}

// -----

// m = min(m + 3, 5) from 1: 1, 4, 5, 5.
// CHECK-LABEL: qd.kernel @capped
// CHECK: adstack.alloca : f32 {id = 0, max_size = 15, size_expr = #adstack.size<15>}
qd.kernel @capped(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %m = qd.alloca : !qd.ptr<i32>
    qd.local_store %c1, %m : !qd.ptr<i32>
    qd.range_for %j = %c0 to %c4 : i32 {
      %mv = qd.local_load %m : !qd.ptr<i32>
      qd.range_for %k = %c0 to %mv : i32 {
        adstack.push %s, %v : f32
      }
      %m1 = arith.addi %mv, %c3 : i32
      %m2 = arith.minsi %m1, %c5 : i32
      qd.local_store %m2, %m : !qd.ptr<i32>
    }
  }
}

// -----

// The update under a branch: counted as if it ran every iteration (1 + 2j).
qd.field @flag : !qd.field<i32>
// CHECK-LABEL: qd.kernel @branch
// CHECK: adstack.alloca : f32 {id = 0, max_size = 16, size_expr = #adstack.size<16>}
qd.kernel @branch(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %m = qd.alloca : !qd.ptr<i32>
    qd.local_store %c1, %m : !qd.ptr<i32>
    qd.range_for %j = %c0 to %c4 : i32 {
      %mv = qd.local_load %m : !qd.ptr<i32>
      qd.range_for %k = %c0 to %mv : i32 {
        adstack.push %s, %v : f32
      }
      %f = qd.load @flag[] : i32
      %on = arith.cmpi ne, %f, %c0 : i32
      qd.if %on {
        %m2 = arith.addi %mv, %c2 : i32
        qd.local_store %m2, %m : !qd.ptr<i32>
      }
    }
  }
}
