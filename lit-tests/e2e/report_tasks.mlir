// RUN: qd-run %s --kernel k --report-tasks | FileCheck %s
// RUN: qd-run %s --kernel k --report-tasks --vectorize off | FileCheck %s --check-prefix=OFF
// RUN: qd-run %s --kernel k --report-tasks --device interp | FileCheck %s --check-prefix=INTERP
// RUN: qd-run %s --kernel k --report-tasks --json | FileCheck %s --check-prefix=JSON
// RUN: not qd-run %s --kernel k --vectorize maybe 2>&1 | FileCheck %s --check-prefix=BAD
// --report-tasks: how the device compiled each task. On cpu the parallel loop runs one iteration
// per SIMD lane (the width is the host's), the loose statements after it are a serial task of
// one thread, which runs scalar code and says why; with --vectorize off every task is scalar and
// no reason is given; the interpreter has no such choice and says so.
module {
  qd.field @x : !qd.field<100xf32>
  qd.field @y : !qd.field<f32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %c = arith.constant 2.0 : f32
      qd.store %c, @x[%i] : f32
    }
    %one = arith.constant 1.0 : f32
    qd.store %one, @y[] : f32
  }
}
// CHECK:      task report:
// CHECK-NEXT: kernel task location code
// CHECK-NEXT: k       #0    {{.*}}report_tasks.mlir:14:5  {{[0-9]+}} SIMD lanes
// CHECK-NEXT: k       #1    {{.*}}report_tasks.mlir:19:5  scalar: a serial task runs one thread
// OFF:      k       #0    {{.*}}report_tasks.mlir:14:5  scalar{{$}}
// OFF-NEXT: k       #1    {{.*}}report_tasks.mlir:19:5  scalar{{$}}
// INTERP: task report: the device reports nothing on how it compiled @k
// JSON: "tasks": [{"kernel": "k", "task": 0, "loc": "{{.*}}report_tasks.mlir:14:5", "lanes": {{[0-9]+}}, "scalar_reason": null}, {"kernel": "k", "task": 1, "loc": "{{.*}}report_tasks.mlir:19:5", "lanes": 1, "scalar_reason": "a serial task runs one thread"}]
// BAD: invalid value 'maybe' for '--vectorize <on|off>'
