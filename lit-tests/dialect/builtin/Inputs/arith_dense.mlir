// arith.constant with dense elements and integers wider than 64 bits, for text_fidelity.mlir.
func.func @c() -> (tensor<4xi32>, vector<2xf32>, i128, i128, tensor<2xi1>, tensor<101xi8>, i256, i128) {
  %0 = arith.constant dense<1> : tensor<4xi32>
  %1 = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %2 = arith.constant 85070591730234615865843651857942052864 : i128
  %3 = arith.constant -1 : i128
  %4 = arith.constant dense<[true, false]> : tensor<2xi1>
  %5 = arith.constant dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>
  %6 = arith.constant -57896044618658097711785492504343953926634992332820282019728792003956564819968 : i256
  %7 = arith.constant 340282366920938463463374607431768211455 : i128
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<4xi32>, vector<2xf32>, i128, i128, tensor<2xi1>, tensor<101xi8>, i256, i128
}
