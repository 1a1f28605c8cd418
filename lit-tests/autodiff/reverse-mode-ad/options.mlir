// RUN: qd-opt %s --pass='reverse-mode-ad{kernels=b}' | FileCheck %s --check-prefix=ONLY-B
// RUN: qd-opt %s --pass=reverse-mode-ad | FileCheck %s --check-prefix=DEFAULT
// RUN: qd-opt %s --pass=reverse-mode-ad --pass=reverse-mode-ad | FileCheck %s --check-prefix=DEFAULT
// RUN: qd-opt %s --pass=reverse-mode-ad --print-op-generic | qd-opt | FileCheck %s --check-prefix=DEFAULT
// RUN: qd-opt %s --pass='reverse-mode-ad{aggregates=ssa}' | FileCheck %s --check-prefix=DEFAULT
// RUN: not qd-opt %s --pass='reverse-mode-ad{aggregates=whole}' 2>&1 | FileCheck %s --check-prefix=AGG
// RUN: not qd-opt %s --pass='reverse-mode-ad{kernels=nope}' 2>&1 | FileCheck %s --check-prefix=NOPE
// Which kernels are differentiated: those named by kernels=, else those with an ad.reverse
// declaration and those that read and write differentiable data. An explicit `active` list
// decides which ndarray arguments get adjoints. A second run changes nothing.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @z : !qd.field<4xf32>

// Reads and writes differentiable data: differentiated by default.
qd.kernel @a() {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    qd.store %v, @y[%i] : f32
  }
}

// Declared, with its float ndarray argument marked inactive.
qd.kernel @b(%w: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    %u = qd.ndarray_load %w[%i] : !qd.ndarray<?xf32>
    %m = arith.mulf %v, %u : f32
    qd.store %m, @y[%i] : f32
  }
}
ad.reverse @b {active = [false]}

// Writes no differentiable data: left alone by default.
qd.kernel @c() {
  qd.struct_for (%i) in @x {
    %v = qd.load @x[%i] : f32
    qd.store %v, @z[%i] : f32
  }
}

// ONLY-B-NOT: qd.kernel @a_grad
// ONLY-B: qd.kernel @b_grad(%{{[^:]*}}: !qd.ndarray<?xf32>) {
// ONLY-B: ad.reverse @b -> @b_grad {active = [false]}
// ONLY-B-NOT: qd.kernel @a_grad
// ONLY-B-NOT: qd.kernel @c_grad

// DEFAULT: qd.kernel @a_grad()
// DEFAULT: ad.reverse @a -> @a_grad {active = []}
// DEFAULT: qd.kernel @b_grad(%{{[^:]*}}: !qd.ndarray<?xf32>) {
// DEFAULT: ad.reverse @b -> @b_grad {active = [false]}
// DEFAULT-NOT: _grad
// DEFAULT-NOT: ad.reverse

// AGG: aggregates='whole' is not a mode; use 'element' (element-addressed, the default) or 'ssa' (whole-aggregate values)
// NOPE: error: reverse-mode-ad: no kernel named @nope (given in kernels=)
