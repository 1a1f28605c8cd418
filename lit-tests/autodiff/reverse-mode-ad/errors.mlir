// RUN: qd-opt %s --pass=reverse-mode-ad --split-input-file --verify-diagnostics
// The global data access rules of differentiable kernels, and what the gradient kernel could not
// replay: each violation is an error at the offending op, naming the field.

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.field @z : !qd.field<4xf32> {needs_grad}
qd.kernel @read_after_write() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    // expected-note@+1 {{field @y is written here}}
    qd.store %a, @y[%i] : f32
    // expected-error@+1 {{global data access rule violated: field @y is read after this kernel writes it}}
    %b = qd.load @y[%i] : f32
    %c = arith.mulf %b, %b : f32
    qd.atomic_add %c, @z[%i] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.kernel @read_then_overwrite() {
  qd.struct_for (%i) in @x {
    // expected-error@+1 {{field @x is read and also written by this kernel; the gradient kernel would replay this read with the values the forward pass wrote}}
    %a = qd.load @x[%i] : f32
    %b = arith.mulf %a, %a : f32
    // expected-note@+1 {{field @x is written here}}
    qd.store %b, @x[%i] : f32
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @store_in_a_loop(%n: i32) {
  qd.struct_for (%i) in @x {
    %c0 = arith.constant 0 : i32
    // expected-note@+1 {{the loop at}}
    qd.range_for %j = %c0 to %n : i32 {
      %a = qd.load @x[%i] : f32
      // expected-error@+1 {{this qd.store writes the same element of @y on every iteration of a serial loop; accumulate into a needs_grad field with qd.atomic_add}}
      qd.store %a, @y[] : f32
    }
  }
}

// -----

qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @second_store() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    // expected-note@+1 {{first written here}}
    qd.atomic_add %a, @y[%i] : f32
    %b = arith.mulf %a, %a : f32
    // expected-error@+1 {{this qd.store writes an element of @y that this kernel already wrote}}
    qd.store %b, @y[%i] : f32
  }
}

// -----

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

qd.kernel @k(%a: !qd.ndarray<?xf32>) {
  %c0 = arith.constant 0 : i32
  %n = qd.ndarray_shape %a, 0 : !qd.ndarray<?xf32>
  qd.range_for %i = %c0 to %n : i32 {
    // expected-error@+1 {{global data access rule violated: ndarray argument #0 is read and also written by this kernel}}
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    %w = arith.mulf %v, %v : f32
    // expected-note@+1 {{ndarray argument #0 is written here}}
    qd.ndarray_store %w, %a[%i] : !qd.ndarray<?xf32>
  }
}
