// RUN: qd-opt %s --allow-unregistered-dialect --pass=canonicalize | FileCheck %s
// arith's folders and canonicalization patterns: exact semantics (wrapping integers, floats in
// their type's precision), and no fold where the result is undefined or not exact.

// CHECK-LABEL: "test.int_constants"
// CHECK-DAG: %[[C7:.*]] = arith.constant 7 : i32
// CHECK-DAG: %[[WRAP:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[M3:.*]] = arith.constant -3 : i32
// CHECK-DAG: %[[U:.*]] = arith.constant 127 : i8
// CHECK-DAG: %[[M1:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[R5:.*]] = arith.constant 5 : i8
// CHECK-DAG: %[[AND:.*]] = arith.constant 8 : i32
// CHECK-DAG: %[[OR:.*]] = arith.constant 14 : i32
// CHECK-DAG: %[[XOR:.*]] = arith.constant 6 : i32
// CHECK-DAG: %[[SHRU:.*]] = arith.constant 1 : i8
// CHECK-DAG: %[[IDX:.*]] = arith.constant -15 : index
// CHECK-NOT: arith.addi
// CHECK-NOT: arith.divsi
// CHECK: "test.use"(%[[C7]], %[[WRAP]], %[[M3]], %[[U]], %[[M1]], %[[R5]], %[[AND]], %[[OR]], %[[XOR]], %[[WRAP]], %[[SHRU]], %[[M1]], %[[M3]], %[[IDX]])
"test.int_constants"() ({
  %c3 = arith.constant 3 : i32
  %c4 = arith.constant 4 : i32
  %c12 = arith.constant 12 : i32
  %c10 = arith.constant 10 : i32
  %c2 = arith.constant 2 : i32
  %cm7 = arith.constant -7 : i32
  %b127 = arith.constant 127 : i8
  %b1 = arith.constant 1 : i8
  %bm2 = arith.constant -2 : i8
  %b2 = arith.constant 2 : i8
  %bm1 = arith.constant -1 : i8
  %b10 = arith.constant 10 : i8
  %b7 = arith.constant 7 : i8
  %bm128 = arith.constant -128 : i8
  %i3 = arith.constant -3 : index
  %i5 = arith.constant 5 : index
  %M3 = arith.constant -3 : i32
  %0 = arith.addi %c3, %c4 : i32
  %1 = arith.addi %b127, %b1 : i8
  %2 = arith.divsi %cm7, %c2 : i32
  %3 = arith.divui %bm2, %b2 : i8
  %4 = arith.remsi %cm7, %c2 : i32
  %5 = arith.remui %bm1, %b10 : i8
  %6 = arith.andi %c12, %c10 : i32
  %7 = arith.ori %c12, %c10 : i32
  %8 = arith.xori %c12, %c10 : i32
  %9 = arith.shli %b1, %b7 : i8
  %10 = arith.shrui %bm128, %b7 : i8
  %11 = arith.subi %c3, %c4 : i32
  %12 = arith.maxsi %cm7, %M3 : i32
  %13 = arith.muli %i3, %i5 : index
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13) : (i32, i8, i32, i8, i32, i8, i32, i32, i32, i8, i8, i32, i32, index) -> ()
}) : () -> ()

// Undefined results are left alone: division by zero, INT_MIN / -1, shifts by the width or more.
// CHECK-LABEL: "test.int_no_fold"
// CHECK: arith.divsi
// CHECK: arith.divsi
// CHECK: arith.divui
// CHECK: arith.remsi
// CHECK: arith.remui
// CHECK: arith.shli
// CHECK: arith.shrsi
// CHECK: arith.shrui
// CHECK: "test.use"
"test.int_no_fold"() ({
  %c0 = arith.constant 0 : i32
  %c5 = arith.constant 5 : i32
  %min = arith.constant -128 : i8
  %m1 = arith.constant -1 : i8
  %b8 = arith.constant 8 : i8
  %b1 = arith.constant 1 : i8
  %c32 = arith.constant 32 : i32
  %0 = arith.divsi %c5, %c0 : i32
  %1 = arith.divsi %min, %m1 : i8
  %2 = arith.divui %c5, %c0 : i32
  %3 = arith.remsi %c5, %c0 : i32
  %4 = arith.remui %c5, %c0 : i32
  %5 = arith.shli %b1, %b8 : i8
  %6 = arith.shrsi %c5, %c32 : i32
  %7 = arith.shrui %b1, %m1 : i8
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (i32, i8, i32, i32, i32, i8, i32, i8) -> ()
}) : () -> ()

// Identities on one unknown operand.
// CHECK-LABEL: "test.int_identities"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32):
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: "test.use"(%[[X]], %[[X]], %[[X]], %[[Z]], %[[Z]], %[[X]], %[[X]], %[[Z]], %[[X]], %[[X]], %[[X]])
"test.int_identities"() ({
^bb0(%x: i32):
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %0 = arith.addi %x, %c0 : i32
  %1 = arith.addi %c0, %x : i32
  %2 = arith.muli %x, %c1 : i32
  %3 = arith.muli %x, %c0 : i32
  %4 = arith.subi %x, %x : i32
  %5 = arith.andi %x, %x : i32
  %6 = arith.ori %x, %c0 : i32
  %7 = arith.xori %x, %x : i32
  %8 = arith.divsi %x, %c1 : i32
  %9 = arith.shli %x, %c0 : i32
  %10 = arith.maxsi %x, %x : i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10) : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32) -> ()
}) : () -> ()

// Canonical forms: a lone constant operand of a commutative op moves right, and constant
// additions chain into one.
// CHECK-LABEL: "test.int_patterns"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32):
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[C5:.*]] = arith.constant 5 : i32
// CHECK-DAG: %[[M:.*]] = arith.muli %[[X]], %[[C3]] : i32
// CHECK-DAG: %[[S:.*]] = arith.addi %[[X]], %[[C5]] : i32
// CHECK: "test.use"(%[[M]], %[[S]])
"test.int_patterns"() ({
^bb0(%x: i32):
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %c3, %x : i32
  %1 = arith.addi %x, %c2 : i32
  %2 = arith.addi %1, %c3 : i32
  "test.use"(%0, %2) : (i32, i32) -> ()
}) : () -> ()

// Floats fold in their type's precision: 1/3 in f32 is not 1/3 in f64.
// CHECK-LABEL: "test.float_constants"
// CHECK-DAG: %[[T32:.*]] = arith.constant 0.333333343 : f32
// CHECK-DAG: %[[T64:.*]] = arith.constant 0.33333333333333331 : f64
// CHECK-DAG: %[[HALF:.*]] = arith.constant 7.500000e-01 : f16
// CHECK-DAG: %[[REM:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-DAG: %[[NEG:.*]] = arith.constant -2.000000e+00 : f32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK: "test.use"(%[[T32]], %[[T64]], %[[HALF]], %[[REM]], %[[NEG]], %[[MIN]], %[[NAN]])
"test.float_constants"() ({
  %one = arith.constant 1.0 : f32
  %three = arith.constant 3.0 : f32
  %one64 = arith.constant 1.0 : f64
  %three64 = arith.constant 3.0 : f64
  %h1 = arith.constant 1.0 : f16
  %hq = arith.constant 0.25 : f16
  %a = arith.constant 7.5 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %nzero = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.divf %one, %three : f32
  %1 = arith.divf %one64, %three64 : f64
  %2 = arith.subf %h1, %hq : f16
  %3 = arith.remf %a, %two : f32
  %4 = arith.negf %two : f32
  %5 = arith.minimumf %zero, %nzero : f32
  %6 = arith.maximumf %nan, %one : f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6) : (f32, f64, f16, f32, f32, f32, f32) -> ()
}) : () -> ()

// Only identities exact for NaN, infinities and signed zeros fold.
// CHECK-LABEL: "test.float_identities"
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-DAG: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[SUB:.*]] = arith.subf %[[X]], %[[X]] : f32
// CHECK-DAG: %[[MUL:.*]] = arith.mulf %[[X]], %[[Z]] : f32
// CHECK-DAG: %[[ADD:.*]] = arith.addf %[[X]], %[[Z]] : f32
// CHECK: "test.use"(%[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[SUB]], %[[MUL]], %[[ADD]])
"test.float_identities"() ({
^bb0(%x: f32):
  %nzero = arith.constant -0.0 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %0 = arith.addf %x, %nzero : f32
  %1 = arith.mulf %one, %x : f32
  %2 = arith.divf %x, %one : f32
  %n = arith.negf %x : f32
  %3 = arith.negf %n : f32
  %4 = arith.subf %x, %zero : f32
  %5 = arith.subf %x, %x : f32
  %6 = arith.mulf %x, %zero : f32
  %7 = arith.addf %x, %zero : f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (f32, f32, f32, f32, f32, f32, f32, f32) -> ()
}) : () -> ()

// Comparisons and selects.
// CHECK-LABEL: "test.compare_select"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[F:.*]]: f32, %[[C:.*]]: i1, %[[Y:.*]]: f32):
// CHECK-DAG: %[[T:.*]] = arith.constant true
// CHECK-DAG: %[[FA:.*]] = arith.constant false
// CHECK-DAG: %[[OEQ:.*]] = arith.cmpf oeq, %[[F]], %[[F]] : f32
// CHECK: "test.use"(%[[T]], %[[FA]], %[[FA]], %[[T]], %[[T]], %[[OEQ]], %[[F]], %[[Y]], %[[F]], %[[C]])
"test.compare_select"() ({
^bb0(%x: i32, %f: f32, %c: i1, %y: f32):
  %m1 = arith.constant -1 : i32
  %p1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %t = arith.constant true
  %fa = arith.constant false
  %0 = arith.cmpi slt, %m1, %p1 : i32
  %1 = arith.cmpi ult, %m1, %p1 : i32
  %2 = arith.cmpf olt, %one, %nan : f32
  %3 = arith.cmpf ult, %one, %nan : f32
  %4 = arith.cmpi sge, %x, %x : i32
  %5 = arith.cmpf oeq, %f, %f : f32
  %6 = arith.select %t, %f, %y : f32
  %7 = arith.select %fa, %f, %y : f32
  %8 = arith.select %c, %f, %f : f32
  %9 = arith.select %c, %t, %fa : i1
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9) : (i1, i1, i1, i1, i1, i1, f32, f32, f32, i1) -> ()
}) : () -> ()

// Casts fold exactly; fptosi of an out-of-range value or NaN stays, and so does a truncf that
// is not exact (as in MLIR, whatever the rounding mode).
// CHECK-LABEL: "test.casts"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32, %[[F:.*]]: f32):
// CHECK-DAG: %[[SI:.*]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[UI:.*]] = arith.constant 2.550000e+02 : f32
// CHECK-DAG: %[[FS:.*]] = arith.constant -2 : i32
// CHECK-DAG: %[[BIG:.*]] = arith.constant 1.000000e+10 : f32
// CHECK-DAG: %[[OOR:.*]] = arith.fptosi %[[BIG]] : f32 to i32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[NANI:.*]] = arith.fptoui %[[NAN]] : f32 to i32
// CHECK-DAG: %[[TENTH:.*]] = arith.constant 1.000000e-01 : f64
// CHECK-DAG: %[[TR:.*]] = arith.truncf %[[TENTH]] : f64 to f32
// CHECK-DAG: %[[EXS:.*]] = arith.constant -1 : i32
// CHECK-DAG: %[[EXU:.*]] = arith.constant 255 : i32
// CHECK-DAG: %[[TI:.*]] = arith.constant -1 : i8
// CHECK-DAG: %[[IC:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[BC:.*]] = arith.constant 1065353216 : i32
// CHECK: "test.use"(%[[SI]], %[[UI]], %[[FS]], %[[OOR]], %[[NANI]], %[[TR]], %[[EXS]], %[[EXU]], %[[TI]], %[[IC]], %[[BC]], %[[X]], %[[F]])
"test.casts"() ({
^bb0(%x: i32, %f: f32):
  %m1 = arith.constant -1 : i8
  %m27 = arith.constant -2.7 : f32
  %big = arith.constant 1.0e10 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %tenth = arith.constant 0.1 : f64
  %k = arith.constant 511 : i32
  %one = arith.constant 1.0 : f32
  %0 = arith.sitofp %m1 : i8 to f32
  %1 = arith.uitofp %m1 : i8 to f32
  %2 = arith.fptosi %m27 : f32 to i32
  %3 = arith.fptosi %big : f32 to i32
  %4 = arith.fptoui %nan : f32 to i32
  %5 = arith.truncf %tenth : f64 to f32
  %6 = arith.extsi %m1 : i8 to i32
  %7 = arith.extui %m1 : i8 to i32
  %8 = arith.trunci %k : i32 to i8
  %9 = arith.index_cast %m1 : i8 to index
  %10 = arith.bitcast %one : f32 to i32
  %up = arith.index_cast %x : i32 to index
  %11 = arith.index_cast %up : index to i32
  %ext = arith.extf %f : f32 to f64
  %12 = arith.truncf %ext : f64 to f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12) : (f32, f32, i32, i32, i32, f32, i32, i32, i8, index, i32, i32, f32) -> ()
}) : () -> ()
