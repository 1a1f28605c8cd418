// Locations of what canonicalize makes, as mlir-opt 22 gives them (the CHECK lines are its
// output): a rewrite's new ops, and its new constants, get the root's location fused with the
// first ops upstream's matcher records, where a matched constant comes before the inner op
// (subi(c9, addi(x, c1)) fuses the root with c9's op); a constant merged into an equal one loses its
// location, and unknown locations drop out of fused ones (the addi chain through %c1).
// RUN: qd-opt %s -canonicalize --mlir-print-debuginfo | FileCheck %s

func.func @f(%x: i32, %p: i1, %a: i32, %b: i32, %s: i8, %t: i8) -> (i32, i1, i32, i32, i32) {
  %c1 = arith.constant 1 : i32
  %y = arith.addi %x, %c1 : i32
  %c9 = arith.constant 9 : i32
  %0 = arith.subi %c9, %y : i32
  %true = arith.constant true
  %cm = arith.cmpi slt, %a, %b : i32
  %1 = arith.xori %cm, %true : i1
  %ss = arith.extsi %s : i8 to i32
  %st = arith.extsi %t : i8 to i32
  %2 = arith.andi %ss, %st : i32
  %c2 = arith.constant 2 : i32
  %3 = arith.addi %y, %c2 : i32
  %one = arith.constant 1 : i32
  return %0, %1, %2, %3, %one : i32, i1, i32, i32, i32
}

// CHECK: #loc2 = loc("{{.*}}":8:14)
// CHECK-NEXT: #loc3 = loc("{{.*}}":8:23)
// CHECK-NEXT: #loc4 = loc("{{.*}}":8:31)
// CHECK-NEXT: #loc5 = loc("{{.*}}":8:40)
// CHECK-NEXT: #loc6 = loc("{{.*}}":8:49)
// CHECK-NEXT: #loc7 = loc("{{.*}}":8:57)
// CHECK-NEXT: module {
// CHECK-NEXT:   func.func @f(%arg0: i32 loc("{{.*}}":8:14), %arg1: i1 loc("{{.*}}":8:23), %arg2: i32 loc("{{.*}}":8:31), %arg3: i32 loc("{{.*}}":8:40), %arg4: i8 loc("{{.*}}":8:49), %arg5: i8 loc("{{.*}}":8:57)) -> (i32, i1, i32, i32, i32) {
// CHECK-NEXT:     %c3_i32 = arith.constant 3 : i32 loc(#loc8)
// CHECK-NEXT:     %c1_i32 = arith.constant 1 : i32 loc(#loc9)
// CHECK-NEXT:     %c8_i32 = arith.constant 8 : i32 loc(#loc18)
// CHECK-NEXT:     %0 = arith.subi %c8_i32, %arg0 : i32 loc(#loc18)
// CHECK-NEXT:     %1 = arith.cmpi sge, %arg2, %arg3 : i32 loc(#loc19)
// CHECK-NEXT:     %2 = arith.andi %arg4, %arg5 : i8 loc(#loc20)
// CHECK-NEXT:     %3 = arith.extsi %2 : i8 to i32 loc(#loc20)
// CHECK-NEXT:     %4 = arith.addi %arg0, %c3_i32 : i32 loc(#loc8)
// CHECK-NEXT:     return %0, %1, %3, %4, %c1_i32 : i32, i1, i32, i32, i32 loc(#loc17)
// CHECK-NEXT:   } loc(#loc1)
// CHECK-NEXT: } loc(#loc)
// CHECK-NEXT: #loc = loc("{{.*}}":0:0)
// CHECK-NEXT: #loc1 = loc("{{.*}}":8:1)
// CHECK-NEXT: #loc8 = loc("{{.*}}":20:8)
// CHECK-NEXT: #loc9 = loc(unknown)
// CHECK-NEXT: #loc10 = loc("{{.*}}":12:8)
// CHECK-NEXT: #loc11 = loc("{{.*}}":11:9)
// CHECK-NEXT: #loc12 = loc("{{.*}}":15:8)
// CHECK-NEXT: #loc13 = loc("{{.*}}":14:9)
// CHECK-NEXT: #loc14 = loc("{{.*}}":18:8)
// CHECK-NEXT: #loc15 = loc("{{.*}}":16:9)
// CHECK-NEXT: #loc16 = loc("{{.*}}":17:9)
// CHECK-NEXT: #loc17 = loc("{{.*}}":22:3)
// CHECK-NEXT: #loc18 = loc(fused[#loc10, #loc11])
// CHECK-NEXT: #loc19 = loc(fused[#loc12, #loc13])
// CHECK-NEXT: #loc20 = loc(fused[#loc14, #loc15, #loc16])
