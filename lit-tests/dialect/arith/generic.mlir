// RUN: qd-opt %s --allow-unregistered-dialect --print-op-generic | qd-opt --allow-unregistered-dialect | FileCheck %s
// RUN: qd-opt %s --allow-unregistered-dialect --print-op-generic | FileCheck %s --check-prefix=GENERIC
// The generic form of every arith op (MLIR 22's properties) parses, prints back the same, and
// reads as the custom form.

// CHECK-LABEL: "test.all_ops"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[L:.*]]: i64, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[D:.*]]: f64, %[[C:.*]]: i1):
// GENERIC-LABEL: "test.all_ops"() ({
// GENERIC-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[L:.*]]: i64, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[D:.*]]: f64, %[[C:.*]]: i1):
"test.all_ops"() ({
^bb0(%a: i32, %b: i32, %l: i64, %x: f32, %y: f32, %d: f64, %c: i1):
  // CHECK-NEXT: %{{.*}} = arith.constant 42 : i32
  // GENERIC-NEXT: %{{.*}} = "arith.constant"() <{value = 42 : i32}> : () -> i32
  %0 = "arith.constant"() <{value = 42 : i32}> : () -> i32
  // CHECK-NEXT: %{{.*}} = arith.constant true
  // GENERIC-NEXT: %{{.*}} = "arith.constant"() <{value = true}> : () -> i1
  %1 = "arith.constant"() <{value = true}> : () -> i1
  // CHECK-NEXT: %{{.*}} = arith.constant 2.500000e+00 : f64
  // GENERIC-NEXT: %{{.*}} = "arith.constant"() <{value = 2.500000e+00 : f64}> : () -> f64
  %2 = "arith.constant"() <{value = 2.5 : f64}> : () -> f64
  // CHECK-NEXT: %{{.*}} = arith.constant -3 : index
  // GENERIC-NEXT: %{{.*}} = "arith.constant"() <{value = -3 : index}> : () -> index
  %3 = "arith.constant"() <{value = -3 : index}> : () -> index
  // CHECK-NEXT: %{{.*}} = arith.addi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.addi"(%[[A]], %[[B]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %4 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.addi %[[A]], %[[B]] overflow<nsw, nuw> : i32
  // GENERIC-NEXT: %{{.*}} = "arith.addi"(%[[A]], %[[B]]) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
  %5 = "arith.addi"(%a, %b) <{overflowFlags = #arith.overflow<nsw, nuw>}> : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.subi %[[A]], %[[B]] overflow<nsw> : i32
  // GENERIC-NEXT: %{{.*}} = "arith.subi"(%[[A]], %[[B]]) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  %6 = "arith.subi"(%a, %b) <{overflowFlags = #arith.overflow<nsw>}> : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.muli %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.muli"(%[[A]], %[[B]]) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  %7 = "arith.muli"(%a, %b) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.divsi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.divsi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %8 = "arith.divsi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.divui %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.divui"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %9 = "arith.divui"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.remsi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.remsi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %10 = "arith.remsi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.remui %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.remui"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %11 = "arith.remui"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.minsi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.minsi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %12 = "arith.minsi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.maxsi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.maxsi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %13 = "arith.maxsi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.andi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.andi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %14 = "arith.andi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.ori %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.ori"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %15 = "arith.ori"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.xori %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.xori"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %16 = "arith.xori"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.shli %[[A]], %[[B]] overflow<nuw> : i32
  // GENERIC-NEXT: %{{.*}} = "arith.shli"(%[[A]], %[[B]]) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
  %17 = "arith.shli"(%a, %b) <{overflowFlags = #arith.overflow<nuw>}> : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.shrsi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.shrsi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %18 = "arith.shrsi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.shrui %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.shrui"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %19 = "arith.shrui"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.addf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.addf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %20 = "arith.addf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.subf %[[X]], %[[Y]] fastmath<fast> : f32
  // GENERIC-NEXT: %{{.*}} = "arith.subf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  %21 = "arith.subf"(%x, %y) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.mulf %[[X]], %[[Y]] fastmath<nnan,ninf> : f32
  // GENERIC-NEXT: %{{.*}} = "arith.mulf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
  %22 = "arith.mulf"(%x, %y) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.divf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.divf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %23 = "arith.divf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.remf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.remf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %24 = "arith.remf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.negf %[[X]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.negf"(%[[X]]) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  %25 = "arith.negf"(%x) <{fastmath = #arith.fastmath<none>}> : (f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.minimumf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.minimumf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %26 = "arith.minimumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.maximumf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.maximumf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  %27 = "arith.maximumf"(%x, %y) <{fastmath = #arith.fastmath<none>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.cmpi slt, %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.cmpi"(%[[A]], %[[B]]) <{predicate = 2 : i64}> : (i32, i32) -> i1
  %28 = "arith.cmpi"(%a, %b) <{predicate = 2 : i64}> : (i32, i32) -> i1
  // CHECK-NEXT: %{{.*}} = arith.cmpi uge, %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.cmpi"(%[[A]], %[[B]]) <{predicate = 9 : i64}> : (i32, i32) -> i1
  %29 = "arith.cmpi"(%a, %b) <{predicate = 9 : i64}> : (i32, i32) -> i1
  // CHECK-NEXT: %{{.*}} = arith.cmpf olt, %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.cmpf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
  %30 = "arith.cmpf"(%x, %y) <{fastmath = #arith.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1
  // CHECK-NEXT: %{{.*}} = arith.cmpf uno, %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.cmpf"(%[[X]], %[[Y]]) <{fastmath = #arith.fastmath<none>, predicate = 14 : i64}> : (f32, f32) -> i1
  %31 = "arith.cmpf"(%x, %y) <{fastmath = #arith.fastmath<none>, predicate = 14 : i64}> : (f32, f32) -> i1
  // CHECK-NEXT: %{{.*}} = arith.select %[[C]], %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.select"(%[[C]], %[[X]], %[[Y]]) : (i1, f32, f32) -> f32
  %32 = "arith.select"(%c, %x, %y) : (i1, f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.sitofp %[[A]] : i32 to f32
  // GENERIC-NEXT: %{{.*}} = "arith.sitofp"(%[[A]]) : (i32) -> f32
  %33 = "arith.sitofp"(%a) : (i32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.uitofp %[[A]] : i32 to f64
  // GENERIC-NEXT: %{{.*}} = "arith.uitofp"(%[[A]]) : (i32) -> f64
  %34 = "arith.uitofp"(%a) : (i32) -> f64
  // CHECK-NEXT: %{{.*}} = arith.fptosi %[[X]] : f32 to i32
  // GENERIC-NEXT: %{{.*}} = "arith.fptosi"(%[[X]]) : (f32) -> i32
  %35 = "arith.fptosi"(%x) : (f32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.fptoui %[[X]] : f32 to i8
  // GENERIC-NEXT: %{{.*}} = "arith.fptoui"(%[[X]]) : (f32) -> i8
  %36 = "arith.fptoui"(%x) : (f32) -> i8
  // CHECK-NEXT: %{{.*}} = arith.extf %[[X]] : f32 to f64
  // GENERIC-NEXT: %{{.*}} = "arith.extf"(%[[X]]) : (f32) -> f64
  %37 = "arith.extf"(%x) : (f32) -> f64
  // CHECK-NEXT: %{{.*}} = arith.extf %[[X]] fastmath<fast> : f32 to f64
  // GENERIC-NEXT: %{{.*}} = "arith.extf"(%[[X]]) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f64
  %38 = "arith.extf"(%x) <{fastmath = #arith.fastmath<fast>}> : (f32) -> f64
  // CHECK-NEXT: %{{.*}} = arith.truncf %[[D]] : f64 to f32
  // GENERIC-NEXT: %{{.*}} = "arith.truncf"(%[[D]]) : (f64) -> f32
  %39 = "arith.truncf"(%d) : (f64) -> f32
  // CHECK-NEXT: %{{.*}} = arith.truncf %[[D]] downward fastmath<fast> : f64 to f32
  // GENERIC-NEXT: %{{.*}} = "arith.truncf"(%[[D]]) <{fastmath = #arith.fastmath<fast>, roundingmode = 1 : i32}> : (f64) -> f32
  %40 = "arith.truncf"(%d) <{fastmath = #arith.fastmath<fast>, roundingmode = 1 : i32}> : (f64) -> f32
  // CHECK-NEXT: %{{.*}} = arith.extsi %[[A]] : i32 to i64
  // GENERIC-NEXT: %{{.*}} = "arith.extsi"(%[[A]]) : (i32) -> i64
  %41 = "arith.extsi"(%a) : (i32) -> i64
  // CHECK-NEXT: %{{.*}} = arith.extui %[[A]] : i32 to i64
  // GENERIC-NEXT: %{{.*}} = "arith.extui"(%[[A]]) : (i32) -> i64
  %42 = "arith.extui"(%a) : (i32) -> i64
  // CHECK-NEXT: %{{.*}} = arith.trunci %[[L]] : i64 to i32
  // GENERIC-NEXT: %{{.*}} = "arith.trunci"(%[[L]]) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
  %43 = "arith.trunci"(%l) <{overflowFlags = #arith.overflow<none>}> : (i64) -> i32
  // CHECK-NEXT: %{{.*}} = arith.index_cast %[[A]] : i32 to index
  // GENERIC-NEXT: %{{.*}} = "arith.index_cast"(%[[A]]) : (i32) -> index
  %44 = "arith.index_cast"(%a) : (i32) -> index
  // CHECK-NEXT: %{{.*}} = arith.bitcast %[[A]] : i32 to f32
  // GENERIC-NEXT: %{{.*}} = "arith.bitcast"(%[[A]]) : (i32) -> f32
  %45 = "arith.bitcast"(%a) : (i32) -> f32
  "test.end"() : () -> ()
}) : () -> ()

// Optional properties left out, as mlir-opt accepts them, stay out.
// CHECK-LABEL: "test.absent"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[L:.*]]: i64, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[D:.*]]: f64, %[[C:.*]]: i1):
// GENERIC-LABEL: "test.absent"() ({
// GENERIC-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[L:.*]]: i64, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[D:.*]]: f64, %[[C:.*]]: i1):
"test.absent"() ({
^bb0(%a: i32, %b: i32, %l: i64, %x: f32, %y: f32, %d: f64, %c: i1):
  // CHECK-NEXT: %{{.*}} = arith.addi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.addi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %0 = "arith.addi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.addf %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.addf"(%[[X]], %[[Y]]) : (f32, f32) -> f32
  %1 = "arith.addf"(%x, %y) : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.cmpf oeq, %[[X]], %[[Y]] : f32
  // GENERIC-NEXT: %{{.*}} = "arith.cmpf"(%[[X]], %[[Y]]) <{predicate = 1 : i64}> : (f32, f32) -> i1
  %2 = "arith.cmpf"(%x, %y) <{predicate = 1 : i64}> : (f32, f32) -> i1
  // CHECK-NEXT: %{{.*}} = arith.trunci %[[L]] : i64 to i32
  // GENERIC-NEXT: %{{.*}} = "arith.trunci"(%[[L]]) : (i64) -> i32
  %3 = "arith.trunci"(%l) : (i64) -> i32
  // CHECK-NEXT: %{{.*}} = arith.addi %[[A]], %[[B]] {note = 1 : i32} : i32
  // GENERIC-NEXT: %{{.*}} = "arith.addi"(%[[A]], %[[B]]) {note = 1 : i32} : (i32, i32) -> i32
  %4 = "arith.addi"(%a, %b) {note = 1 : i32} : (i32, i32) -> i32
  "test.end"() : () -> ()
}) : () -> ()

// Unsigned min/max, the rounding divisions (no properties), minnumf/maxnumf (fastmath) and
// index_castui.
// CHECK-LABEL: "test.more_ops"() ({
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[I:.*]]: index, %[[X:.*]]: f32, %[[D:.*]]: f64):
// GENERIC-LABEL: "test.more_ops"() ({
// GENERIC-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32, %[[I:.*]]: index, %[[X:.*]]: f32, %[[D:.*]]: f64):
"test.more_ops"() ({
^bb0(%a: i32, %b: i32, %i: index, %x: f32, %d: f64):
  // CHECK-NEXT: %{{.*}} = arith.maxui %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.maxui"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %0 = "arith.maxui"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.minui %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.minui"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %1 = "arith.minui"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.ceildivsi %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.ceildivsi"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %2 = "arith.ceildivsi"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.floordivsi %[[I]], %[[I]] : index
  // GENERIC-NEXT: %{{.*}} = "arith.floordivsi"(%[[I]], %[[I]]) : (index, index) -> index
  %3 = "arith.floordivsi"(%i, %i) : (index, index) -> index
  // CHECK-NEXT: %{{.*}} = arith.ceildivui %[[A]], %[[B]] : i32
  // GENERIC-NEXT: %{{.*}} = "arith.ceildivui"(%[[A]], %[[B]]) : (i32, i32) -> i32
  %4 = "arith.ceildivui"(%a, %b) : (i32, i32) -> i32
  // CHECK-NEXT: %{{.*}} = arith.maxnumf %[[X]], %[[X]] fastmath<nnan> : f32
  // GENERIC-NEXT: %{{.*}} = "arith.maxnumf"(%[[X]], %[[X]]) <{fastmath = #arith.fastmath<nnan>}> : (f32, f32) -> f32
  %5 = "arith.maxnumf"(%x, %x) <{fastmath = #arith.fastmath<nnan>}> : (f32, f32) -> f32
  // CHECK-NEXT: %{{.*}} = arith.minnumf %[[D]], %[[D]] : f64
  // GENERIC-NEXT: %{{.*}} = "arith.minnumf"(%[[D]], %[[D]]) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
  %6 = "arith.minnumf"(%d, %d) <{fastmath = #arith.fastmath<none>}> : (f64, f64) -> f64
  // CHECK-NEXT: %{{.*}} = arith.index_castui %[[I]] : index to i32
  // GENERIC-NEXT: %{{.*}} = "arith.index_castui"(%[[I]]) : (index) -> i32
  %7 = "arith.index_castui"(%i) : (index) -> i32
  "test.end"() : () -> ()
}) : () -> ()
