// RUN: qd-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: qd-opt %s --print-op-generic | qd-opt | FileCheck %s

// GENERIC: "qd.break"() : () -> ()
// GENERIC: "qd.continue"() : () -> ()
// CHECK: qd.break
// CHECK: qd.continue
qd.field @x : !qd.field<8xf32>
qd.kernel @k(%n: i32, %c: i1) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    qd.range_for %t = %c0 to %n : i32 {
      qd.if %c {
        qd.break
      } else {
        qd.continue
      }
    }
  }
}
