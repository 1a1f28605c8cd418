// Integer attributes and arith.constant name hints (#17): i1 as true/false with its type
// elided, signless values printed signed, unsigned/signed types as written. CHECK lines are
// mlir-opt 22's exact output for this input. (Integers wider than 64 bits that do not fit
// in i64 are out of qd's attribute range.)
// RUN: qd-opt %s --allow-unregistered-dialect | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:{{^}}module {
// CHECK-NEXT:{{^}}  func.func @ints() -> (i1, i1, i8, i8, i64, i64, index, i3, i16) {
// CHECK-NEXT:{{^}}    %true = arith.constant true
// CHECK-NEXT:{{^}}    %false = arith.constant false
// CHECK-NEXT:{{^}}    %c-1_i8 = arith.constant -1 : i8
// CHECK-NEXT:{{^}}    %c-128_i8 = arith.constant -128 : i8
// CHECK-NEXT:{{^}}    %c-1_i64 = arith.constant -1 : i64
// CHECK-NEXT:{{^}}    %c-9223372036854775808_i64 = arith.constant -9223372036854775808 : i64
// CHECK-NEXT:{{^}}    %c-1 = arith.constant -1 : index
// CHECK-NEXT:{{^}}    %c-1_i3 = arith.constant -1 : i3
// CHECK-NEXT:{{^}}    %c-1_i16 = arith.constant -1 : i16
// CHECK-NEXT:{{^}}    "test.attrs"() {a = 1 : i64, b = 255 : ui8, c = -1 : si8, d = true, e = 7 : i64, f = 2.000000e+00 : f64, g = 2.000000e+00 : f32, h = 65535 : ui16, i = -32768 : si16, j = 18446744073709551615 : ui64} : () -> ()
// CHECK-NEXT:{{^}}    return %true, %false, %c-1_i8, %c-128_i8, %c-1_i64, %c-9223372036854775808_i64, %c-1, %c-1_i3, %c-1_i16 : i1, i1, i8, i8, i64, i64, index, i3, i16
// CHECK-NEXT:{{^}}  }
// CHECK-NEXT:{{^}}}
func.func @ints() -> (i1, i1, i8, i8, i64, i64, index, i3, i16) {
  %0 = arith.constant 1 : i1
  %1 = arith.constant false
  %2 = arith.constant 255 : i8
  %3 = arith.constant 0x80 : i8
  %4 = arith.constant 18446744073709551615 : i64
  %5 = arith.constant -9223372036854775808 : i64
  %6 = arith.constant -1 : index
  %7 = arith.constant 7 : i3
  %8 = arith.constant 0xFFFF : i16
  "test.attrs"() {a = 1 : i64, b = 255 : ui8, c = -1 : si8, d = 1 : i1, e = 7, f = 2.0 : f64, g = 2.0 : f32, h = 65535 : ui16, i = -32768 : si16, j = 18446744073709551615 : ui64} : () -> ()
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : i1, i1, i8, i8, i64, i64, index, i3, i16
}
