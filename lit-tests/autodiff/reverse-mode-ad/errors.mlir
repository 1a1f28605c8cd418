// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file --verify-diagnostics
// What the gradient kernel could not replay (the access rule has its own tests,
// access_rule_errors.mlir): each violation is an error at the offending op.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @c : !qd.field<i32>
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @atomic_result_used() {
  qd.struct_for (%i) in @x {
    %one = arith.constant 1 : i32
    // expected-error@+1 {{the value 'qd.atomic_add' returns is used}}
    %slot = qd.atomic_add %one, @c[] : i32
    %a = qd.load @x[%slot] : f32
    qd.store %a, @y[%i] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @atomic_max() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    // expected-error@+1 {{'qd.atomic_max' on needs_grad field @y is not differentiable}}
    qd.atomic_max %a, @y[] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @write_in_while_condition() {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %p : !qd.ptr<f32>
    qd.while {
      %v = qd.local_load %p : !qd.ptr<f32>
      %h = arith.constant 0.5 : f32
      %w = arith.mulf %v, %h : f32
      // expected-error@+1 {{reverse-mode-ad does not support memory writes in a qd.while condition}}
      qd.local_store %w, %p : !qd.ptr<f32>
      %one = arith.constant 1.0 : f32
      %c = arith.cmpf ogt, %w, %one : f32
      qd.condition %c
    } do {
    }
    %r = qd.local_load %p : !qd.ptr<f32>
    qd.atomic_add %r, @y[] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @kernel_level_local() {
  // expected-error@+1 {{a local defined at the kernel's top level is used inside a parallel loop}}
  %p = qd.alloca : !qd.ptr<f32>
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    qd.local_store %a, %p : !qd.ptr<f32>
    %r = qd.local_load %p : !qd.ptr<f32>
    qd.atomic_add %r, @y[] : f32
  }
}

// -----

qd.field @s : !qd.field<f32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @active_value_crosses_into_a_loop() {
  // expected-error@+1 {{this differentiable value is computed at the kernel's top level and used inside a parallel loop}}
  %s = qd.load @s[] : f32
  qd.struct_for (%i) in @y {
    %t = arith.mulf %s, %s : f32
    qd.store %t, @y[%i] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
// expected-error@+1 {{cannot name the gradient kernel of @k: the symbol @k_grad already exists}}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    qd.store %a, @y[%i] : f32
  }
}
qd.kernel @k_grad() {
}

// -----

qd.kernel @ndarray_atomic_in_while_condition(%a: !qd.ndarray<?xf32>, %n: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  qd.range_for %i = %c0 to %c4 : i32 {
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    qd.while {
      %one = arith.constant 1.0 : f32
      // expected-error@+1 {{reverse-mode-ad does not support memory writes in a qd.while condition}}
      qd.ndarray_atomic_add %one, %n[%i] : !qd.ndarray<?xf32>
      %c = arith.cmpf olt, %one, %v : f32
      qd.condition %c
    } do {
    }
  }
}
