// Shapes that do not broadcast, wrong result types, bad axes and unknown primitives are located
// errors.
// RUN: qd-opt %s -split-input-file -verify-diagnostics

func.func @f(%x: !ndarray.array<4x3xf32>, %y: !ndarray.array<5xf32>) {
  // expected-error@+1 {{'ndarray.add' op operand shapes do not broadcast: shapes 4x3 and 5 do not broadcast (axis 1: 3 vs 5)}}
  %a = ndarray.add %x, %y : !ndarray.array<4x3xf32>, !ndarray.array<5xf32> -> !ndarray.array<4x3xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4x1xf32>, %y: !ndarray.array<1x8xf32>) {
  // expected-error@+1 {{'ndarray.mul' op expects the result to be an array of shape 4x8 and element type f32}}
  %a = ndarray.mul %x, %y : !ndarray.array<4x1xf32>, !ndarray.array<1x8xf32> -> !ndarray.array<4x1xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4xf32>, %s: f64) {
  // expected-error@+1 {{'ndarray.sub' op expects every float operand to have the same element type}}
  %a = ndarray.sub %x, %s : !ndarray.array<4xf32>, f64 -> !ndarray.array<4xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4xf32>, %s: f32) {
  // expected-error@+1 {{'ndarray.lt' op expects the result to be an array of shape 4 and element type i1}}
  %a = ndarray.lt %x, %s : !ndarray.array<4xf32>, f32 -> !ndarray.array<4xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4xf32>) {
  // expected-error@+1 {{'ndarray.select' op expects operand 0 to be i1 or an array of i1}}
  %a = ndarray.select %x, %x, %x : !ndarray.array<4xf32>, !ndarray.array<4xf32>, !ndarray.array<4xf32> -> !ndarray.array<4xf32>
  return
}

// -----

func.func @f(%s: f32, %t: f32) {
  // expected-error@+1 {{'ndarray.add' op expects at least one array operand}}
  %a = ndarray.add %s, %t : f32, f32 -> !ndarray.array<f32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4x8xf32>) {
  // expected-error@+1 {{'ndarray.sum' op expects an axis in [0, 2) for an array of shape 4x8, got 2}}
  %a = ndarray.sum %x {axis = 2} : !ndarray.array<4x8xf32> -> !ndarray.array<4xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4x8xf32>) {
  // expected-error@+1 {{'ndarray.mean' op expects the result to be an array of shape 8 and element type f32}}
  %a = ndarray.mean %x {axis = 0} : !ndarray.array<4x8xf32> -> !ndarray.array<4xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4xf32>) {
  // expected-error@+1 {{'ndarray.primitive' op calls 'no_such_op', which is not a registered primitive}}
  %a = ndarray.primitive "no_such_op"(%x) : !ndarray.array<4xf32> -> !ndarray.array<4xf32>
  return
}

// -----

func.func @f(%x: !ndarray.array<4xf32>) {
  // expected-error@+1 {{'ndarray.primitive' op expects 2 operands for primitive 'add', got 1}}
  %a = ndarray.primitive "add"(%x) : !ndarray.array<4xf32> -> !ndarray.array<4xf32>
  return
}

// -----

// expected-error@+1 {{invalid !ndarray.array type: dimensions must be positive, got 0}}
func.func @f(%x: !ndarray.array<0xf32>) {
  return
}

// -----

// expected-error@+1 {{invalid !ndarray.array type: elements must be f32, f64 or i1}}
func.func @f(%x: !ndarray.array<4xi32>) {
  return
}
