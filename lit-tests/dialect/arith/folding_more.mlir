// RUN: qd-opt %s --allow-unregistered-dialect --pass=canonicalize | FileCheck %s
// The folders of the rounding divisions, unsigned min/max, minnumf/maxnumf and index_castui.
// interop/arith.mlir checks that mlir-opt's canonicalizer gives the same on this file.

// The rounding divisions fold constants (every sign combination); by zero, INT_MIN / -1, and
// (as upstream) a ceildivsi whose steps would negate INT_MIN stay. x / 1 is x.
// CHECK-LABEL: "test.rounding_divisions"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32):
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : i32
// CHECK-DAG: %[[CM3:.*]] = arith.constant -3 : i32
// CHECK-DAG: %[[CM4:.*]] = arith.constant -4 : i32
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[F:.*]] = arith.constant -43 : i8
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -128 : i8
// CHECK-DAG: %[[BM1:.*]] = arith.constant -1 : i8
// CHECK-DAG: %[[B3:.*]] = arith.constant 3 : i8
// CHECK-DAG: %[[D0:.*]] = arith.ceildivsi %[[C7:.*]], %[[Z]] : i32
// CHECK-DAG: %[[D1:.*]] = arith.floordivsi %[[C7]], %[[Z]] : i32
// CHECK-DAG: %[[D2:.*]] = arith.ceildivui %[[C7]], %[[Z]] : i32
// CHECK-DAG: %[[O1:.*]] = arith.floordivsi %[[MIN]], %[[BM1]] : i8
// CHECK-DAG: %[[O2:.*]] = arith.ceildivsi %[[MIN]], %[[BM1]] : i8
// CHECK-DAG: %[[O3:.*]] = arith.ceildivsi %[[MIN]], %[[B3]] : i8
// CHECK: "test.use"(%[[C4]], %[[CM3]], %[[CM3]], %[[C4]], %[[C3]], %[[CM4]], %[[CM4]], %[[C3]], %[[C4]], %[[MIN]], %[[F]], %[[D0]], %[[D1]], %[[D2]], %[[O1]], %[[O2]], %[[O3]], %[[X]], %[[X]], %[[X]])
"test.rounding_divisions"() ({
^bb0(%x: i32):
  %c7 = arith.constant 7 : i32
  %cm7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %cm2 = arith.constant -2 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bm1 = arith.constant -1 : i8
  %b2 = arith.constant 2 : i8
  %b3 = arith.constant 3 : i8
  %bmin = arith.constant -128 : i8
  %0 = arith.ceildivsi %c7, %c2 : i32
  %1 = arith.ceildivsi %cm7, %c2 : i32
  %2 = arith.ceildivsi %c7, %cm2 : i32
  %3 = arith.ceildivsi %cm7, %cm2 : i32
  %4 = arith.floordivsi %c7, %c2 : i32
  %5 = arith.floordivsi %cm7, %c2 : i32
  %6 = arith.floordivsi %c7, %cm2 : i32
  %7 = arith.floordivsi %cm7, %cm2 : i32
  %8 = arith.ceildivui %c7, %c2 : i32
  // 255 / 2 rounded up is 128, -128 as i8.
  %9 = arith.ceildivui %bm1, %b2 : i8
  %10 = arith.floordivsi %bmin, %b3 : i8
  %11 = arith.ceildivsi %c7, %c0 : i32
  %12 = arith.floordivsi %c7, %c0 : i32
  %13 = arith.ceildivui %c7, %c0 : i32
  %14 = arith.floordivsi %bmin, %bm1 : i8
  %15 = arith.ceildivsi %bmin, %bm1 : i8
  %16 = arith.ceildivsi %bmin, %b3 : i8
  %17 = arith.ceildivsi %x, %c1 : i32
  %18 = arith.floordivsi %x, %c1 : i32
  %19 = arith.ceildivui %x, %c1 : i32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19) : (i32, i32, i32, i32, i32, i32, i32, i32, i32, i8, i8, i32, i32, i32, i8, i8, i8, i32, i32, i32) -> ()
}) : () -> ()

// Unsigned min/max fold constants and their identities; a constant moves to the right.
// CHECK-LABEL: "test.unsigned_min_max"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i8):
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-DAG: %[[ALL:.*]] = arith.constant -1 : i8
// CHECK-DAG: %[[Z:.*]] = arith.constant 0 : i8
// CHECK-DAG: %[[K:.*]] = arith.constant 5 : i8
// CHECK-DAG: %[[M:.*]] = arith.maxui %[[X]], %[[K]] : i8
// CHECK: "test.use"(%[[ONE]], %[[ALL]], %[[Z]], %[[X]], %[[ALL]], %[[X]], %[[X]], %[[M]])
"test.unsigned_min_max"() ({
^bb0(%x: i8):
  %one = arith.constant 1 : i8
  %all = arith.constant -1 : i8
  %z = arith.constant 0 : i8
  %k = arith.constant 5 : i8
  %0 = arith.minui %all, %one : i8
  %1 = arith.maxui %one, %all : i8
  %2 = arith.minui %x, %z : i8
  %3 = arith.minui %x, %all : i8
  %4 = arith.maxui %all, %x : i8
  %5 = arith.maxui %x, %z : i8
  %6 = arith.maxui %x, %x : i8
  %7 = arith.maxui %k, %x : i8
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7) : (i8, i8, i8, i8, i8, i8, i8, i8) -> ()
}) : () -> ()

// minnumf/maxnumf: a NaN operand gives the other one, -0 is below +0, x op x is x.
// CHECK-LABEL: "test.num_min_max"
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32):
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[NEG:.*]] = arith.constant -1.500000e+00 : f32
// CHECK-DAG: %[[NZ:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-DAG: %[[PZ:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FC00000 : f32
// CHECK-DAG: %[[M:.*]] = arith.minnumf %[[X]], %[[TWO]] : f32
// CHECK: "test.use"(%[[TWO]], %[[NEG]], %[[TWO]], %[[NEG]], %[[NZ]], %[[PZ]], %[[NAN]], %[[X]], %[[X]], %[[X]], %[[M]])
"test.num_min_max"() ({
^bb0(%x: f32):
  %two = arith.constant 2.0 : f32
  %neg = arith.constant -1.5 : f32
  %nz = arith.constant -0.0 : f32
  %pz = arith.constant 0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %0 = arith.maxnumf %two, %neg : f32
  %1 = arith.minnumf %two, %neg : f32
  %2 = arith.maxnumf %nan, %two : f32
  %3 = arith.minnumf %neg, %nan : f32
  %4 = arith.minnumf %pz, %nz : f32
  %5 = arith.maxnumf %nz, %pz : f32
  %6 = arith.maxnumf %nan, %nan : f32
  %7 = arith.maxnumf %x, %nan : f32
  %8 = arith.minnumf %nan, %x : f32
  %9 = arith.minnumf %x, %x fastmath<fast> : f32
  %10 = arith.minnumf %two, %x : f32
  "test.use"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) -> ()
}) : () -> ()

// index_castui zero-extends constants (index_cast sign-extends) and truncates; a round trip
// through a wider type is the identity.
// CHECK-LABEL: "test.index_castui"
// CHECK-NEXT: ^bb0(%[[X:.*]]: i32):
// CHECK-DAG: %[[U:.*]] = arith.constant 255 : index
// CHECK-DAG: %[[S:.*]] = arith.constant -1 : index
// CHECK-DAG: %[[T:.*]] = arith.constant -1 : i8
// CHECK: "test.use"(%[[U]], %[[S]], %[[T]], %[[X]])
"test.index_castui"() ({
^bb0(%x: i32):
  %m1 = arith.constant -1 : i8
  %big = arith.constant 511 : index
  %0 = arith.index_castui %m1 : i8 to index
  %1 = arith.index_cast %m1 : i8 to index
  %2 = arith.index_castui %big : index to i8
  %up = arith.index_castui %x : i32 to index
  %3 = arith.index_castui %up : index to i32
  "test.use"(%0, %1, %2, %3) : (index, index, i8, i32) -> ()
}) : () -> ()
