// RUN: qd-opt %s --pass=determine-ad-stack-size --split-input-file | FileCheck %s
// Bounds through the scalars of local aggregates addressed by ad.load_element /
// ad.store_element (what element-access-ad makes): the places are told apart as the
// elem_ptr/member_ptr chains' are.

// Member 1 holds 7, member 0 holds 30 (another place): the loop runs at most 7 times.
// CHECK-LABEL: qd.kernel @members
// CHECK: adstack.alloca : f32 {id = 0, max_size = 7, size_expr = #adstack.size<7>}
qd.kernel @members(%v: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %st = qd.alloca : !qd.ptr<!qd.array<2x!qd.struct<i32, i32>>>
    %c7 = arith.constant 7 : i32
    %c30 = arith.constant 30 : i32
    ad.store_element %c7, %st[%t, 1] : !qd.ptr<!qd.array<2x!qd.struct<i32, i32>>>
    ad.store_element %c30, %st[%t, 0] : !qd.ptr<!qd.array<2x!qd.struct<i32, i32>>>
    %n = ad.load_element %st[%t, 1] : !qd.ptr<!qd.array<2x!qd.struct<i32, i32>>>
    qd.range_for %i = %c0 to %n : i32 {
      adstack.push %s, %v : f32
    }
  }
}

// -----

// A while loop counted by a struct member: k < 12, k += 1 per iteration, from 0: at most 12.
// CHECK-LABEL: qd.kernel @while_counter
// CHECK: adstack.alloca : f32 {id = 0, max_size = 12, size_expr = #adstack.size<12>}
qd.kernel @while_counter(%v: f32, %lim: f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  qd.range_for %t = %c0 to %c1 : i32 {
    %s = adstack.alloca : f32
    %st = qd.alloca : !qd.ptr<!qd.struct<f32, i32>>
    ad.store_element %v, %st[0] : !qd.ptr<!qd.struct<f32, i32>>
    ad.store_element %c0, %st[1] : !qd.ptr<!qd.struct<f32, i32>>
    qd.while {
      %x = ad.load_element %st[0] : !qd.ptr<!qd.struct<f32, i32>>
      %k = ad.load_element %st[1] : !qd.ptr<!qd.struct<f32, i32>>
      %small = arith.cmpf olt, %x, %lim : f32
      %c12 = arith.constant 12 : i32
      %few = arith.cmpi slt, %k, %c12 : i32
      %go = arith.andi %small, %few : i1
      qd.condition %go
    } do {
      %x = ad.load_element %st[0] : !qd.ptr<!qd.struct<f32, i32>>
      adstack.push %s, %x : f32
      %x2 = arith.addf %x, %x : f32
      ad.store_element %x2, %st[0] : !qd.ptr<!qd.struct<f32, i32>>
      %k = ad.load_element %st[1] : !qd.ptr<!qd.struct<f32, i32>>
      %k1 = arith.addi %k, %c1 : i32
      ad.store_element %k1, %st[1] : !qd.ptr<!qd.struct<f32, i32>>
    }
  }
}
