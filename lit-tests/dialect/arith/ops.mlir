// RUN: qd-opt %s --allow-unregistered-dialect | qd-opt --allow-unregistered-dialect | FileCheck %s
// The custom syntax of every arith op survives printing and parsing again. Values come from the
// entry block of an unregistered "test.func" op.

// CHECK-LABEL: "test.func"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[I:.*]]: index, %[[L:.*]]: i64, %[[C:.*]]: i1):
"test.func"() ({
^bb0(%a: i32, %b: i32, %i: index, %l: i64, %c: i1):
  // CHECK-NEXT: arith.addi %[[A]], %[[B]] : i32
  %0 = arith.addi %a, %b : i32
  // CHECK-NEXT: arith.addi %[[A]], %[[B]] overflow<nsw> : i32
  %1 = arith.addi %a, %b overflow<nsw> : i32
  // CHECK-NEXT: arith.subi %[[A]], %[[B]] overflow<nsw, nuw> : i32
  %2 = arith.subi %a, %b overflow<nuw, nsw> : i32
  // CHECK-NEXT: arith.muli %[[I]], %[[I]] overflow<nuw> : index
  %3 = arith.muli %i, %i overflow<nuw> : index
  // CHECK-NEXT: arith.divsi %[[A]], %[[B]] : i32
  %4 = arith.divsi %a, %b : i32
  // CHECK-NEXT: arith.divui %[[A]], %[[B]] : i32
  %5 = arith.divui %a, %b : i32
  // CHECK-NEXT: arith.remsi %[[A]], %[[B]] : i32
  %6 = arith.remsi %a, %b : i32
  // CHECK-NEXT: arith.remui %[[A]], %[[B]] : i32
  %7 = arith.remui %a, %b : i32
  // CHECK-NEXT: arith.minsi %[[A]], %[[B]] : i32
  %8 = arith.minsi %a, %b : i32
  // CHECK-NEXT: arith.maxsi %[[L]], %[[L]] : i64
  %9 = arith.maxsi %l, %l : i64
  // CHECK-NEXT: arith.andi %[[C]], %[[C]] : i1
  %10 = arith.andi %c, %c : i1
  // CHECK-NEXT: arith.ori %[[A]], %[[B]] : i32
  %11 = arith.ori %a, %b : i32
  // CHECK-NEXT: arith.xori %[[A]], %[[B]] : i32
  %12 = arith.xori %a, %b : i32
  // CHECK-NEXT: arith.shli %[[A]], %[[B]] overflow<nsw> : i32
  %13 = arith.shli %a, %b overflow<nsw> : i32
  // CHECK-NEXT: arith.shrsi %[[A]], %[[B]] : i32
  %14 = arith.shrsi %a, %b : i32
  // CHECK-NEXT: arith.shrui %[[A]], %[[B]] : i32
  %15 = arith.shrui %a, %b : i32
  // Discardable attributes come after the flags; `overflow<none>` is the default and elided.
  // CHECK-NEXT: arith.addi %[[A]], %[[B]] {note = "kept"} : i32
  %16 = arith.addi %a, %b overflow<none> {note = "kept"} : i32
  // An inherent attribute written in the dictionary is the property.
  // CHECK-NEXT: arith.addi %[[A]], %[[B]] overflow<nsw> : i32
  %17 = arith.addi %a, %b {overflowFlags = #arith.overflow<nsw>} : i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17) : (i32, i32, i32, index, i32, i32, i32, i32, i32, i64, i1, i32, i32, i32, i32, i32, i32, i32) -> ()
}) : () -> ()

// CHECK-LABEL: "test.func"() ({
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %[[D:.*]]: f64):
"test.func"() ({
^bb0(%x: f32, %y: f32, %d: f64):
  // CHECK-NEXT: arith.addf %[[X]], %[[Y]] : f32
  %0 = arith.addf %x, %y : f32
  // CHECK-NEXT: arith.addf %[[X]], %[[Y]] fastmath<fast> : f32
  %1 = arith.addf %x, %y fastmath<fast> : f32
  // CHECK-NEXT: arith.subf %[[X]], %[[Y]] fastmath<nnan,ninf> : f32
  %2 = arith.subf %x, %y fastmath<ninf,nnan> : f32
  // CHECK-NEXT: arith.mulf %[[D]], %[[D]] fastmath<fast> : f64
  %3 = arith.mulf %d, %d fastmath<reassoc,nnan,ninf,nsz,arcp,contract,afn> : f64
  // CHECK-NEXT: arith.divf %[[X]], %[[Y]] : f32
  %4 = arith.divf %x, %y fastmath<none> : f32
  // CHECK-NEXT: arith.remf %[[X]], %[[Y]] : f32
  %5 = arith.remf %x, %y : f32
  // CHECK-NEXT: arith.negf %[[X]] fastmath<nsz> : f32
  %6 = arith.negf %x fastmath<nsz> : f32
  // CHECK-NEXT: arith.minimumf %[[X]], %[[Y]] : f32
  %7 = arith.minimumf %x, %y : f32
  // CHECK-NEXT: arith.maximumf %[[X]], %[[Y]] fastmath<contract> {note} : f32
  %8 = arith.maximumf %x, %y fastmath<contract> {note} : f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8) : (f32, f32, f32, f64, f32, f32, f32, f32, f32) -> ()
}) : () -> ()

// CHECK-LABEL: "test.func"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[I:.*]]: index, %[[X:.*]]: f32, %[[C:.*]]: i1):
"test.func"() ({
^bb0(%a: i32, %i: index, %x: f32, %c: i1):
  // CHECK-NEXT: arith.cmpi slt, %[[A]], %[[A]] : i32
  %0 = arith.cmpi slt, %a, %a : i32
  // CHECK-NEXT: arith.cmpi uge, %[[I]], %[[I]] : index
  %1 = arith.cmpi "uge", %i, %i : index
  // CHECK-NEXT: arith.cmpf olt, %[[X]], %[[X]] : f32
  %2 = arith.cmpf olt, %x, %x : f32
  // CHECK-NEXT: arith.cmpf uno, %[[X]], %[[X]] fastmath<nnan> {note} : f32
  %3 = arith.cmpf uno, %x, %x fastmath<nnan> {note} : f32
  // CHECK-NEXT: arith.cmpf false, %[[X]], %[[X]] : f32
  %4 = arith.cmpf false, %x, %x : f32
  // CHECK-NEXT: arith.cmpf true, %[[X]], %[[X]] : f32
  %5 = arith.cmpf true, %x, %x : f32
  // CHECK-NEXT: arith.select %[[C]], %[[X]], %[[X]] : f32
  %6 = arith.select %c, %x, %x : f32
  // CHECK-NEXT: arith.select %[[C]], %[[A]], %[[A]] : i32
  %7 = arith.select %c, %a, %a : i1, i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (i1, i1, i1, i1, i1, i1, f32, i32) -> ()
}) : () -> ()

// CHECK-LABEL: "test.func"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[L:.*]]: i64, %[[I:.*]]: index, %[[X:.*]]: f32, %[[D:.*]]: f64, %[[H:.*]]: f16, %[[C:.*]]: i1):
"test.func"() ({
^bb0(%a: i32, %l: i64, %i: index, %x: f32, %d: f64, %h: f16, %c: i1):
  // CHECK-NEXT: arith.sitofp %[[A]] : i32 to f32
  %0 = arith.sitofp %a : i32 to f32
  // CHECK-NEXT: arith.uitofp %[[C]] : i1 to f64
  %1 = arith.uitofp %c : i1 to f64
  // CHECK-NEXT: arith.fptosi %[[X]] : f32 to i32
  %2 = arith.fptosi %x : f32 to i32
  // CHECK-NEXT: arith.fptoui %[[D]] : f64 to i64
  %3 = arith.fptoui %d : f64 to i64
  // CHECK-NEXT: arith.extf %[[H]] : f16 to f32
  %4 = arith.extf %h : f16 to f32
  // extf's fastmath is optional: written, it is printed even when it is none.
  // CHECK-NEXT: arith.extf %[[X]] fastmath<none> : f32 to f64
  %5 = arith.extf %x fastmath<none> : f32 to f64
  // CHECK-NEXT: arith.truncf %[[D]] : f64 to f32
  %6 = arith.truncf %d : f64 to f32
  // CHECK-NEXT: arith.truncf %[[D]] toward_zero fastmath<fast> : f64 to f16
  %7 = arith.truncf %d toward_zero fastmath<fast> : f64 to f16
  // CHECK-NEXT: arith.extsi %[[A]] : i32 to i64
  %8 = arith.extsi %a : i32 to i64
  // CHECK-NEXT: arith.extui %[[C]] : i1 to i32
  %9 = arith.extui %c : i1 to i32
  // CHECK-NEXT: arith.trunci %[[L]] : i64 to i32
  %10 = arith.trunci %l : i64 to i32
  // CHECK-NEXT: arith.trunci %[[L]] overflow<nuw> : i64 to i32
  %11 = arith.trunci %l overflow<nuw> : i64 to i32
  // CHECK-NEXT: arith.index_cast %[[A]] : i32 to index
  %12 = arith.index_cast %a : i32 to index
  // CHECK-NEXT: arith.index_cast %[[I]] : index to i64
  %13 = arith.index_cast %i : index to i64
  // CHECK-NEXT: arith.bitcast %[[A]] : i32 to f32
  %14 = arith.bitcast %a : i32 to f32
  // CHECK-NEXT: arith.bitcast %[[H]] {note} : f16 to bf16
  %15 = arith.bitcast %h {note} : f16 to bf16
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15) : (f32, f64, i32, i64, f32, f64, f32, f16, i64, i32, i32, i32, index, i64, f32, bf16) -> ()
}) : () -> ()

// CHECK-LABEL: "test.constants"() ({
"test.constants"() ({
  // CHECK-NEXT: arith.constant 0 : i32
  %0 = arith.constant 0 : i32
  // CHECK-NEXT: arith.constant -5 : i8
  %1 = arith.constant -5 : i8
  // An i8 literal wraps to the type's width.
  // CHECK-NEXT: arith.constant -1 : i8
  %2 = arith.constant 255 : i8
  // i64 and f64 constants keep their type.
  // CHECK-NEXT: arith.constant 7 : i64
  %3 = arith.constant 7 : i64
  // CHECK-NEXT: arith.constant 0 : index
  %4 = arith.constant 0 : index
  // CHECK-NEXT: arith.constant true
  %5 = arith.constant true
  // CHECK-NEXT: arith.constant false
  %6 = arith.constant 0 : i1
  // CHECK-NEXT: arith.constant 1.500000e+00 : f32
  %7 = arith.constant 1.5 : f32
  // CHECK-NEXT: arith.constant 1.000000e-01 : f64
  %8 = arith.constant 0.1 : f64
  // CHECK-NEXT: arith.constant 0x7FC00000 : f32
  %9 = arith.constant 0x7FC00000 : f32
  // CHECK-NEXT: arith.constant 0x7F800000 : f32
  %10 = arith.constant 0x7F800000 : f32
  // CHECK-NEXT: arith.constant -0.000000e+00 : f16
  %11 = arith.constant -0.0 : f16
  // CHECK-NEXT: arith.constant {note = 1 : i32} 5 : i32
  %12 = arith.constant {note = 1 : i32} 5 : i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12) : (i32, i8, i8, i64, index, i1, i1, f32, f64, f32, f32, f16, i32) -> ()
}) : () -> ()

// Unsigned min/max, the rounding divisions, minnumf/maxnumf (with fastmath) and index_castui.
// CHECK-LABEL: "test.more_ops"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[I:.*]]: index, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[D:.*]]: f64, %[[C:.*]]: i1):
"test.more_ops"() ({
^bb0(%a: i32, %b: i32, %i: index, %x: f32, %y: f32, %d: f64, %c: i1):
  // CHECK-NEXT: arith.maxui %[[A]], %[[B]] : i32
  %0 = arith.maxui %a, %b : i32
  // CHECK-NEXT: arith.minui %[[I]], %[[I]] : index
  %1 = arith.minui %i, %i : index
  // CHECK-NEXT: arith.ceildivsi %[[A]], %[[B]] : i32
  %2 = arith.ceildivsi %a, %b : i32
  // CHECK-NEXT: arith.floordivsi %[[I]], %[[I]] : index
  %3 = arith.floordivsi %i, %i : index
  // CHECK-NEXT: arith.ceildivui %[[A]], %[[B]] {note} : i32
  %4 = arith.ceildivui %a, %b {note} : i32
  // CHECK-NEXT: arith.maxnumf %[[X]], %[[Y]] : f32
  %5 = arith.maxnumf %x, %y : f32
  // CHECK-NEXT: arith.minnumf %[[D]], %[[D]] fastmath<nnan,nsz> : f64
  %6 = arith.minnumf %d, %d fastmath<nsz,nnan> : f64
  // CHECK-NEXT: arith.maxnumf %[[X]], %[[Y]] fastmath<fast> : f32
  %7 = arith.maxnumf %x, %y fastmath<fast> : f32
  // CHECK-NEXT: arith.index_castui %[[A]] : i32 to index
  %8 = arith.index_castui %a : i32 to index
  // CHECK-NEXT: arith.index_castui %[[I]] : index to i1
  %9 = arith.index_castui %i : index to i1
  // CHECK-NEXT: arith.maxui %[[C]], %[[C]] : i1
  %10 = arith.maxui %c, %c : i1
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10) : (i32, index, i32, index, i32, f32, f64, f32, index, i1, i1) -> ()
}) : () -> ()
