// Not a test: an input of errors.mlir.
func.func @f(%x: f32) {
  %c = arith.constant 2.0 : f32
  %y = arith.mulf %x, %nosuch : f32
  return
}
