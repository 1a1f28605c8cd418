// Builtin shaped types, layouts, dense elements, wide integers, predecessor comments and nested
// modules, for text_fidelity.mlir, which prints this file with qd-opt and mlir-opt 22 and diffs.
"t.types"() {v0 = vector<4xf32>, v1 = vector<4 x 8 x i32>, v2 = vector<[4]xf32>, v3 = vector<2x[4]xi8>, v4 = vector<f32>, v5 = vector<[4]x[2]xf32>,
  t0 = tensor<4x?xf32>, t1 = tensor<*xf32>, t2 = tensor<f32>, t3 = tensor<2x2xi32, "enc">, t4 = tensor<0xf32>, t5 = tensor<?x3xf32>, t6 = tensor<4xvector<4xf32>>, t7 = tensor<4xf32, 1 : i32>, t8 = tensor<0x4xf32>,
  m0 = memref<4x?xf32>, m1 = memref<4xf32, 1>, m2 = memref<4xf32, "foo">, m3 = memref<*xf32>, m4 = memref<*xf32, 2>, m5 = memref<f32>, m6 = memref<4x4xf32, strided<[4, 1], offset: ?>>,
  m7 = memref<?x4xf32, strided<[?, 1]>>, m8 = memref<4xf32, strided<[1], offset: 0>>, m9 = memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, m10 = memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>,
  m11 = memref<4xf32, strided<[1], offset: 4>, 3>, m12 = memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>, 1>, m13 = memref<4xi32, affine_map<(d0)[s0] -> (d0 + s0)>>, m14 = memref<i32, strided<[]>>,
  m15 = memref<4xi32, 0>, m16 = memref<4xf32, 1 : i32>, m17 = memref<4xf32, {a}>, m18 = memref<4xf32, true>, m19 = memref<4xf32, affine_map<(i) -> (i)>>, m20 = memref<4xvector<2xf32>>} : () -> ()
"t.dense"() {d0 = dense<1.0> : tensor<4xf32>, d1 = dense<[1, 1, 1]> : tensor<3xi32>, d2 = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, d3 = dense<true> : vector<3xi1>,
  d4 = dense<[true, false]> : tensor<2xi1>, d5 = dense<0x7FC00000> : tensor<2xf32>, d6 = dense<> : tensor<0xi32>, d7 = dense<5> : tensor<i32>, d8 = dense<"0x0000803F00000040"> : tensor<2xf32>,
  d9 = dense<"0x0000803F"> : tensor<2xf32>, d10 = dense<-1> : vector<[4]xi32>, d11 = dense<[1.5, 2.0]> : tensor<2xf64>, d12 = dense<[0x7F800001, 1.0]> : tensor<2xf32>, d13 = dense<255> : tensor<2xi8>,
  d14 = dense<[1, 2]> : tensor<2xindex>, d15 = dense<[1, 0]> : tensor<2xi1>, d16 = dense<1> : memref<2xi32>, d17 = dense<[[]]> : tensor<1x0xi32>, d18 = dense<"0x01"> : tensor<2xi1>,
  d19 = dense<[1, 2]> : tensor<2xi128>, d20 = dense<[340282366920938463463374607431768211455, 1]> : tensor<2xui128>, d21 = dense<[-170141183460469231731687303715884105728, 1]> : tensor<2xi128>,
  d22 = dense<[1.0, 0.1]> : tensor<2xf16>, d23 = dense<0x0001> : tensor<2xf16>, d24 = dense<0x7F81> : tensor<2xbf16>, d25 = dense<[0.0, -0.0]> : tensor<2xf32>, d26 = dense<1> : tensor<2x3x0xi32>,
  d27 = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]> : tensor<101xi8>, d28 = dense<[false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true]> : tensor<101xi1>, d29 = dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5, 49.5, 50.5, 51.5, 52.5, 53.5, 54.5, 55.5, 56.5, 57.5, 58.5, 59.5, 60.5, 61.5, 62.5, 63.5, 64.5, 65.5, 66.5, 67.5, 68.5, 69.5, 70.5, 71.5, 72.5, 73.5, 74.5, 75.5, 76.5, 77.5, 78.5, 79.5, 80.5, 81.5, 82.5, 83.5, 84.5, 85.5, 86.5, 87.5, 88.5, 89.5, 90.5, 91.5, 92.5, 93.5, 94.5, 95.5, 96.5, 97.5, 98.5, 99.5, 100.5]> : tensor<101xf16>,
  d30 = dense<"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364"> : tensor<101xi8>} : () -> ()
"t.ints"() {i0 = 340282366920938463463374607431768211455 : i128, i1 = -170141183460469231731687303715884105728 : i128, i2 = 340282366920938463463374607431768211455 : ui128,
  i3 = 18446744073709551616 : i128, i4 = -18446744073709551617 : i256, i5 = 36893488147419103231 : i65, i6 = [1 : i128, 18446744073709551616 : ui72, 2, 2.0], i7 = 1 : i1, i8 = -1 : i128} : () -> ()
"t.maps"() {a = affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0, 2 * d0, d0 * s0, s0 * d0, d0 - d1 * 3, d0 + (d1 + 2), -(d0 + d1), d0 mod s0, (d0 * 2) * 3, 3 + 4, d0 - 2 - 3, (d0 + 1) * 2, (d0 floordiv 2) * 2, d1 * -2 + d0)>,
  b = affine_map<() -> (0)>, c = affine_map<(d0) -> (7 floordiv 2, -7 floordiv 2, 7 ceildiv 2, -7 ceildiv 2, 7 mod 3, -7 mod 3, d0 floordiv 1, d0 mod 1, 7 mod -3)>, d = strided<[?, 1], offset: ?>} : () -> ()
"t.cfg"() ({
^bb0(%a: i32):
  "t.br"()[^bb1] : () -> ()
^bb1:
  "t.cond"()[^bb2, ^bb3] : () -> ()
^bb2:
  "t.br"()[^bb1] : () -> ()
^bb3:
  "t.br"()[^bb4, ^bb4, ^bb2] : () -> ()
^bb4:
  "t.ret"() : () -> ()
^bb5:
  "t.ret"() : () -> ()
^bb6(%x: i32):
  "t.br"()[^bb6] : () -> ()
}) : () -> ()
module @inner {
  module {
  }
}
"t.region"() ({
  module {
  }
  %0 = "t.x"() : () -> i32
  %1 = builtin.unrealized_conversion_cast %0 : i32 to i64
}) : () -> ()
%2 = "t.y"() : () -> i32
%3 = builtin.unrealized_conversion_cast %2 : i32 to i64
"t.complex"() {c0 = complex<f32>, c1 = complex<i32>, c2 = tuple<>, c3 = tuple<i32, f32>, c4 = tuple<tuple<i1>, tensor<4xf32>>, c5 = memref<4xcomplex<f32>>,
  c6 = dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>, c7 = dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>, c8 = dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i32>>,
  c9 = dense<[(1.0, 2.0), (1.0, 2.0)]> : tensor<2xcomplex<f16>>, c10 = dense<(1.0, 0x7F800001)> : tensor<2xcomplex<f32>>, c11 = dense<"0x0000803F00000040"> : tensor<complex<f32>>} : () -> ()
