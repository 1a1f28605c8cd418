// RUN: qd-run %s --device interp --kernel k --arg a=1,5,2,0 --report-adstack --print r | FileCheck %s --strict-whitespace
// RUN: qd-run %s --device interp --kernel k --arg a=1,5,2,0 --report-adstack --json | FileCheck %s --check-prefix=JSON
// RUN: not qd-run %s --device interp --kernel short --arg a=1,5,2,0 --print r 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not qd-run %s --device interp --kernel past --arg a=1,5,2,0 --print r 2>&1 | FileCheck %s --check-prefix=EVAL
// RUN: qd-run %s --device cpu --kernel k --arg a=1,5,2,0 --print r | FileCheck %s --check-prefix=CPU
// RUN: not qd-run %s --device cpu --kernel short --arg a=1,5,2,0 --print r 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not qd-run %s --device cpu --kernel past --arg a=1,5,2,0 --print r 2>&1 | FileCheck %s --check-prefix=EVAL
// Hand-written SizeExprs, evaluated before every launch from the launch's ndarray argument: thread
// i pushes a[i] values on an i32 stack (4 bytes per entry, no adjoint) sized by the largest a[i],
// and an i1 stack (1 byte per entry on the interpreter) keeps a's length. A SizeExpr that is too
// small overflows at exactly its depth; one that cannot be evaluated stops the launch at the
// stack, before anything runs. The report is the interpreter's: a lowering device widens the i1
// entries to 4 bytes (cpu reports 24 bytes for stack #1); the values and the errors are the same
// on cpu. The interpreter also measures each stack's peak: 5 on the i32 stack (exact, 1.000),
// nothing on the i1 stack, which is never pushed (no ratio).

// CPU: r = [0, 4, 1, 0]

// CHECK: r = [0, 4, 1, 0]
// CHECK-NEXT: adstack report (per thread, as sized for this launch):
// CHECK-NEXT: kernel  stack  location {{ +}}type  primal  size_expr {{ +}}depth  peak  depth/peak  bytes/thread
// CHECK-NEXT: k       #0     {{.*}}adstack_sizing.mlir:[[#@LINE+15]]:12  i32   kept    max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0])) {{ +}}5 {{ +}}5 {{ +}}1.000 {{ +}}28{{$}}
// CHECK-NEXT: k       #1     {{.*}}adstack_sizing.mlir:[[#@LINE+15]]:12  i1    kept    arg0.shape[0] {{ +}}4 {{ +}}0 {{ +}}- {{ +}}12{{$}}
// CHECK-NEXT: k       total {{ +}}40{{$}}

// JSON: "adstack": [{"kernel": "k", "stack": 0, {{.*}} "type": "i32", "primal_kept": true, "size_expr": "max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))", "depth": 5, "measured_peak": 5, "ratio": 1.0, "bytes_per_thread": 28}, {"kernel": "k", "stack": 1, {{.*}} "type": "i1", "primal_kept": true, "size_expr": "arg0.shape[0]", "depth": 4, "measured_peak": 0, "ratio": null, "bytes_per_thread": 12}]

// OVERFLOW: error: adstack overflow in kernel 'short': stack at {{.*}}adstack_sizing.mlir:[[#@LINE+22]]:12 exceeded its capacity of 4{{$}}
// OVERFLOW-NOT: {{^}}r =

// EVAL: adstack_sizing.mlir:[[#@LINE+29]]:12: error: cannot size adstack #0 of kernel @past for this launch: cannot read arg0[4]: index [4] is out of bounds for shape [4] (size_expr: arg0[4]:i32)
// EVAL-NOT: {{^}}r =
module {
  qd.field @r : !qd.field<4xi32>
  qd.kernel @k(%a: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @r {
      %s = adstack.alloca : i32 {size_expr = #adstack.size<max(arg0[v0]:i32 for v0 in range(0, arg0.shape[0]))>}
      %b = adstack.alloca : i1 {size_expr = #adstack.size<arg0.shape[0]>}
      %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        adstack.push %s, %j : i32
      }
      %t = adstack.load_top %s : i32
      qd.store %t, @r[%i] : i32
    }
  }
  qd.kernel @short(%a: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @r {
      %s = adstack.alloca : i32 {size_expr = #adstack.size<arg0.shape[0]>}
      %n = qd.ndarray_load %a[%i] : !qd.ndarray<?xi32>
      %c0 = arith.constant 0 : i32
      qd.range_for %j = %c0 to %n : i32 {
        adstack.push %s, %j : i32
      }
    }
  }
  qd.kernel @past(%a: !qd.ndarray<?xi32>) {
    qd.struct_for (%i) in @r {
      %s = adstack.alloca : i32 {size_expr = #adstack.size<arg0[4]:i32>}
      adstack.push %s, %i : i32
    }
  }
}
