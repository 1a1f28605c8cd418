// RUN: qd-opt %S/../../../examples/grad/break_loop.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered | FileCheck %s --check-prefix=BRK
// RUN: qd-opt %S/../../../examples/grad/continue_loop.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered | FileCheck %s --check-prefix=CONT
// RUN: qd-opt %S/../../../examples/grad/nested_whiles.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered | FileCheck %s --check-prefix=WHILE
// RUN: qd-opt %S/../../../examples/grad/mixed_f32_i32_carried.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered | FileCheck %s --check-prefix=MIXED
// RUN: qd-opt %S/../../../examples/dynamic_loop.mlir -p reverse-mode-ad,determine-ad-stack-size,convert-qd-to-lowered | FileCheck %s --check-prefix=DYN
// Gradient kernels of the corpus, through reverse-mode-ad and determine-ad-stack-size: both the
// kernel and its gradient become lowered kernels; the gradient's stacks are heap slices of its
// range task (listed in `adstacks` by their ids), its ad ops adjoint-buffer accesses, and the
// ad.reverse declaration stays.

// BRK: lowered.kernel @compute(%{{.*}}: f32) attributes {temps = 0} {
// BRK: lowered.task @compute_0 range(0, 8) {
// The forward loop's break: a while over a counter, the rest guarded.
// BRK: lowered.while {
// BRK: lowered.kernel @compute_grad(%{{.*}}: f32) attributes {temps = 0} {
// BRK: lowered.task @compute_grad_0 range(0, 8) adstacks [0] {
// BRK-DAG: lowered.adstack_offset 0 : i64
// BRK-DAG: lowered.adstack_max_size 0 : i64
// BRK-DAG: lowered.field_ptr @y grad : !lowered.ptr<f32>
// BRK-DAG: lowered.field_ptr @x grad : !lowered.ptr<f32>
// BRK: lowered.adstack_overflow 0
// BRK: lowered.while {
// BRK: lowered.atomic_add
// BRK: ad.reverse @compute -> @compute_grad

// CONT: lowered.task @compute_0 range(0, 7) {
// CONT: lowered.for
// CONT-NOT: lowered.while
// CONT: lowered.task @compute_grad_0 range(0, 7) adstacks [0, 1] {
// CONT-DAG: lowered.ndarray_ptr 1 : !lowered.ptr<f32>
// CONT-DAG: lowered.adstack_stride float : i64
// CONT-DAG: lowered.adstack_stride int : i64
// CONT: lowered.adstack_overflow 1
// CONT: ad.reverse @compute -> @compute_grad {active = [true]}

// WHILE: lowered.task @compute_grad_0 range(0, 7) adstacks [0, 1] {
// WHILE: lowered.while {
// WHILE: lowered.while {

// MIXED: lowered.task @compute_grad_0 range(0, {{[0-9]+}}) adstacks [{{.*}}] {
// MIXED: lowered.heap_ptr int, %{{.*}} : !lowered.ptr<i32>
// MIXED: lowered.heap_ptr float, %{{.*}} : !lowered.ptr<f32>

// DYN: lowered.task @compute_grad_0 range(0, 16) adstacks [0] {
// DYN: lowered.field_ptr @n : !lowered.ptr<i32>
// DYN: lowered.for
// DYN: lowered.for
