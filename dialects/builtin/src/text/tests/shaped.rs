//! Builtin vector/tensor/memref types, layouts, dense elements and wide integers (#17): printed as
//! mlir-opt 22 prints them (expected strings are mlir-opt 22.1.8's output for the same input),
//! stable under print -> parse -> print, and bad input is a located error.

use super::*;

/// Parses `src` (an op list), prints it custom, checks stability and returns the print.
fn print(src: &str) -> String {
    round_trip_with(src, custom())
}

#[test]
fn shaped_types_print_as_mlir_opt() {
    let src = r#""t.a"() {v0 = vector<4xf32>, v1 = vector<4 x 8 x i32>, v2 = vector<[4]xf32>, v3 = vector<2x[4]xi8>, v4 = vector<f32>, v5 = vector<[4]x[2]xf32>,
 t0 = tensor<4x?xf32>, t1 = tensor<*xf32>, t2 = tensor<f32>, t3 = tensor<2x2xi32, "enc">, t4 = tensor<0xf32>, t5 = tensor<?x3xf32>, t6 = tensor<4xvector<4xf32>>,
 m0 = memref<4x?xf32>, m1 = memref<4xf32, 1>, m2 = memref<4xf32, "foo">, m3 = memref<*xf32>, m4 = memref<*xf32, 2>, m5 = memref<f32>,
 m6 = memref<4x4xf32, strided<[4, 1], offset: ?>>, m7 = memref<?x4xf32, strided<[?, 1]>>, m8 = memref<4xf32, strided<[1], offset: 0>>,
 m9 = memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>, m10 = memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>, m11 = memref<4xf32, strided<[1], offset: 4>, 3>,
 m12 = memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>, 1>, m14 = memref<4xi32, affine_map<(d0)[s0] -> (d0 + s0)>>, m16=memref<i32, strided<[]>>, m17 = memref<4xi32, 0>} : () -> ()
"#;
    let expected = r#"#map = affine_map<(d0, d1) -> (d1, d0)>
#map1 = affine_map<(d0)[s0] -> (d0 + s0)>
module {
  "t.a"() {m0 = memref<4x?xf32>, m1 = memref<4xf32, 1>, m10 = memref<4x4xf32>, m11 = memref<4xf32, strided<[1], offset: 4>, 3>, m12 = memref<4x4xf32, #map, 1>, m14 = memref<4xi32, #map1>, m16 = memref<i32, strided<[]>>, m17 = memref<4xi32>, m2 = memref<4xf32, "foo">, m3 = memref<*xf32>, m4 = memref<*xf32, 2>, m5 = memref<f32>, m6 = memref<4x4xf32, strided<[4, 1], offset: ?>>, m7 = memref<?x4xf32, strided<[?, 1]>>, m8 = memref<4xf32, strided<[1]>>, m9 = memref<4x4xf32, #map>, t0 = tensor<4x?xf32>, t1 = tensor<*xf32>, t2 = tensor<f32>, t3 = tensor<2x2xi32, "enc">, t4 = tensor<0xf32>, t5 = tensor<?x3xf32>, t6 = tensor<4xvector<4xf32>>, v0 = vector<4xf32>, v1 = vector<4x8xi32>, v2 = vector<[4]xf32>, v3 = vector<2x[4]xi8>, v4 = vector<f32>, v5 = vector<[4]x[2]xf32>} : () -> ()
}
"#;
    assert_eq!(print(src), expected);
}
/// (attribute, mlir-opt 22's print of `"t.a"() {a = <attribute>}` (alias definitions first)).
const PRINTS: &[(&str, &str)] = &[
    ("dense<1.0> : tensor<4xf32>", "\"t.a\"() {a = dense<1.000000e+00> : tensor<4xf32>} : () -> ()"),
    ("dense<[1, 1, 1]> : tensor<3xi32>", "\"t.a\"() {a = dense<1> : tensor<3xi32>} : () -> ()"),
    ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>", "\"t.a\"() {a = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> ()"),
    ("dense<true> : vector<3xi1>", "\"t.a\"() {a = dense<true> : vector<3xi1>} : () -> ()"),
    ("dense<[true, false]> : tensor<2xi1>", "\"t.a\"() {a = dense<[true, false]> : tensor<2xi1>} : () -> ()"),
    ("dense<0x7FC00000> : tensor<2xf32>", "\"t.a\"() {a = dense<0x7FC00000> : tensor<2xf32>} : () -> ()"),
    ("dense<> : tensor<0xi32>", "\"t.a\"() {a = dense<> : tensor<0xi32>} : () -> ()"),
    ("dense<5> : tensor<i32>", "\"t.a\"() {a = dense<5> : tensor<i32>} : () -> ()"),
    ("dense<\"0x0000803F00000040\"> : tensor<2xf32>", "\"t.a\"() {a = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> ()"),
    ("dense<\"0x0000803F\"> : tensor<2xf32>", "\"t.a\"() {a = dense<1.000000e+00> : tensor<2xf32>} : () -> ()"),
    ("dense<-1> : vector<[4]xi32>", "\"t.a\"() {a = dense<-1> : vector<[4]xi32>} : () -> ()"),
    ("dense<[1.5, 2.0]> : tensor<2xf64>", "\"t.a\"() {a = dense<[1.500000e+00, 2.000000e+00]> : tensor<2xf64>} : () -> ()"),
    ("dense<[0x7F800001, 1.0]> : tensor<2xf32>", "\"t.a\"() {a = dense<[0x7F800001, 1.000000e+00]> : tensor<2xf32>} : () -> ()"),
    ("dense<255> : tensor<2xi8>", "\"t.a\"() {a = dense<-1> : tensor<2xi8>} : () -> ()"),
    ("dense<[1, 2]> : tensor<2xindex>", "\"t.a\"() {a = dense<[1, 2]> : tensor<2xindex>} : () -> ()"),
    ("dense<[1, 0]> : tensor<2xi1>", "\"t.a\"() {a = dense<[true, false]> : tensor<2xi1>} : () -> ()"),
    ("dense<1> : memref<2xi32>", "\"t.a\"() {a = dense<1> : memref<2xi32>} : () -> ()"),
    ("dense<[[]]> : tensor<1x0xi32>", "\"t.a\"() {a = dense<> : tensor<1x0xi32>} : () -> ()"),
    ("dense<\"0x01\"> : tensor<2xi1>", "\"t.a\"() {a = dense<[true, false]> : tensor<2xi1>} : () -> ()"),
    ("dense<\"0x0F\"> : tensor<4xi1>", "\"t.a\"() {a = dense<true> : tensor<4xi1>} : () -> ()"),
    ("dense<[1, 2]> : tensor<2xi128>", "\"t.a\"() {a = dense<[1, 2]> : tensor<2xi128>} : () -> ()"),
    ("dense<[340282366920938463463374607431768211455, 1]> : tensor<2xui128>", "\"t.a\"() {a = dense<[340282366920938463463374607431768211455, 1]> : tensor<2xui128>} : () -> ()"),
    ("dense<[-170141183460469231731687303715884105728, 1]> : tensor<2xi128>", "\"t.a\"() {a = dense<[-170141183460469231731687303715884105728, 1]> : tensor<2xi128>} : () -> ()"),
    ("dense<[1.0, 0.1]> : tensor<2xf16>", "\"t.a\"() {a = dense<[1.000000e+00, 9.997550e-02]> : tensor<2xf16>} : () -> ()"),
    ("dense<0x0001> : tensor<2xf16>", "\"t.a\"() {a = dense<5.960460e-08> : tensor<2xf16>} : () -> ()"),
    ("dense<0x7F81> : tensor<2xbf16>", "\"t.a\"() {a = dense<0x7F81> : tensor<2xbf16>} : () -> ()"),
    ("dense<[0.0, -0.0]> : tensor<2xf32>", "\"t.a\"() {a = dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>} : () -> ()"),
    ("dense<1> : tensor<2x3x0xi32>", "\"t.a\"() {a = dense<1> : tensor<2x3x0xi32>} : () -> ()"),
    ("dense<[0, 0]> : tensor<2xi0>", "\"t.a\"() {a = dense<[0, 0]> : tensor<2xi0>} : () -> ()"),
    ("dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99]> : tensor<100xi8>", "\"t.a\"() {a = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99]> : tensor<100xi8>} : () -> ()"),
    ("dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100]> : tensor<101xi8>", "\"t.a\"() {a = dense<\"0x000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F6061626364\"> : tensor<101xi8>} : () -> ()"),
    ("dense<[false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true, true, false, true]> : tensor<101xi1>", "\"t.a\"() {a = dense<\"0xB66DDBB66DDBB66DDBB66DDB16\"> : tensor<101xi1>} : () -> ()"),
    ("dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5, 20.5, 21.5, 22.5, 23.5, 24.5, 25.5, 26.5, 27.5, 28.5, 29.5, 30.5, 31.5, 32.5, 33.5, 34.5, 35.5, 36.5, 37.5, 38.5, 39.5, 40.5, 41.5, 42.5, 43.5, 44.5, 45.5, 46.5, 47.5, 48.5, 49.5, 50.5, 51.5, 52.5, 53.5, 54.5, 55.5, 56.5, 57.5, 58.5, 59.5, 60.5, 61.5, 62.5, 63.5, 64.5, 65.5, 66.5, 67.5, 68.5, 69.5, 70.5, 71.5, 72.5, 73.5, 74.5, 75.5, 76.5, 77.5, 78.5, 79.5, 80.5, 81.5, 82.5, 83.5, 84.5, 85.5, 86.5, 87.5, 88.5, 89.5, 90.5, 91.5, 92.5, 93.5, 94.5, 95.5, 96.5, 97.5, 98.5, 99.5, 100.5]> : tensor<101xf16>", "\"t.a\"() {a = dense<\"0x0038003E0041004380448045804680474048C0484049C049404AC04A404BC04B204C604CA04CE04C204D604DA04DE04D204E604EA04EE04E204F604FA04FE04F10503050505070509050B050D050F05010513051505170519051B051D051F05110523052505270529052B052D052F05210533053505370539053B053D053F0530854185428543854485458546854785488549854A854B854C854D854E854F8540855185528553855485558556855785588559855A855B855C855D855E855F85508561856285638564856\"> : tensor<101xf16>} : () -> ()"),
    ("340282366920938463463374607431768211455 : i128", "\"t.a\"() {a = -1 : i128} : () -> ()"),
    ("-170141183460469231731687303715884105728 : i128", "\"t.a\"() {a = -170141183460469231731687303715884105728 : i128} : () -> ()"),
    ("340282366920938463463374607431768211455 : ui128", "\"t.a\"() {a = 340282366920938463463374607431768211455 : ui128} : () -> ()"),
    ("18446744073709551616 : i128", "\"t.a\"() {a = 18446744073709551616 : i128} : () -> ()"),
    ("-18446744073709551617 : i256", "\"t.a\"() {a = -18446744073709551617 : i256} : () -> ()"),
    ("36893488147419103231 : i65", "\"t.a\"() {a = -1 : i65} : () -> ()"),
    ("[1 : i128, 18446744073709551616 : ui72]", "\"t.a\"() {a = [1 : i128, 18446744073709551616 : ui72]} : () -> ()"),
    ("99999999999999999999999999999999999999999999999999999999999999999999999999999 : i256", "\"t.a\"() {a = -15792089237316195423570985008687907853269984665640564039457584007913129639937 : i256} : () -> ()"),
    ("affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0, 2 * d0, d0 * s0, s0 * d0, d0 - d1 * 3, d0 + (d1 + 2), -(d0 + d1), d0 mod s0, (d0 * 2) * 3, 3 + 4, d0 - 2 - 3, (d0 + 1) * 2, (d0 floordiv 2) * 2, d1 * -2 + d0)>", "#map = affine_map<(d0, d1)[s0] -> (d0 * 2 + d1 - s0, d0 * 2, d0 * s0, d0 * s0, d0 - d1 * 3, d0 + d1 + 2, -(d0 + d1), d0 mod s0, d0 * 6, 7, d0 - 5, (d0 + 1) * 2, (d0 floordiv 2) * 2, d1 * -2 + d0)>\n\"t.a\"() {a = #map} : () -> ()"),
    ("affine_map<() -> (0)>", "#map = affine_map<() -> (0)>\n\"t.a\"() {a = #map} : () -> ()"),
    ("affine_map<(d0) -> (7 floordiv 2, -7 floordiv 2, 7 ceildiv 2, -7 ceildiv 2, 7 mod 3, -7 mod 3, d0 floordiv 1, d0 mod 1)>", "#map = affine_map<(d0) -> (3, -4, 4, -3, 1, 2, d0, 0)>\n\"t.a\"() {a = #map} : () -> ()"),
    ("affine_map<(d0, d1) -> (d0 - d1 * 2, d0 - (d1 + 1), d0 + d1 * 2 - 1)>", "#map = affine_map<(d0, d1) -> (d0 - d1 * 2, d0 - (d1 + 1), d0 + d1 * 2 - 1)>\n\"t.a\"() {a = #map} : () -> ()"),
    ("memref<4xf32, affine_map<(i) -> (i)>>", "\"t.a\"() {a = memref<4xf32>} : () -> ()"),
    ("memref<?x?xf32, affine_map<(d0,d1)->(d0 floordiv 2, d1 mod 4, -d0, d0 - 1, (d0 + d1) * 3, d0 ceildiv 2)>>", "#map = affine_map<(d0, d1) -> (d0 floordiv 2, d1 mod 4, -d0, d0 - 1, (d0 + d1) * 3, d0 ceildiv 2)>\n\"t.a\"() {a = memref<?x?xf32, #map>} : () -> ()"),
    ("[1, 2, 1.0, 1 : i32, 1.0 : f32, [3]]", "\"t.a\"() {a = [1, 2, 1.000000e+00, 1 : i32, 1.000000e+00 : f32, [3]]} : () -> ()"),
    ("memref<4xf32, true>", "\"t.a\"() {a = memref<4xf32, true>} : () -> ()"),
    ("memref<4xf32, {a}>", "\"t.a\"() {a = memref<4xf32, {a}>} : () -> ()"),
    ("memref<4xf32, 1 : i32>", "\"t.a\"() {a = memref<4xf32, 1 : i32>} : () -> ()"),
    ("memref<4xf32, 0 : i32>", "\"t.a\"() {a = memref<4xf32>} : () -> ()"),
    ("strided<[?, 1], offset: ?>", "\"t.a\"() {a = strided<[?, 1], offset: ?>} : () -> ()"),
    ("tensor<4xf32, [1, 2]>", "\"t.a\"() {a = tensor<4xf32, [1, 2]>} : () -> ()"),
    ("tensor<0x4xf32>", "\"t.a\"() {a = tensor<0x4xf32>} : () -> ()"),
];

/// (attribute, line, column, mlir-opt 22's error for `"t.a"() {a = <attribute>}`).
const ERRORS: &[(&str, u32, u32, &str)] = &[
    ("dense<[1, 2]> : tensor<2xf32>", 1, 21, "unexpected decimal integer literal for a floating point value"),
    ("dense<[255, -1]> : tensor<2xui8>", 1, 27, "expected unsigned integer elements, but parsed negative value"),
    ("dense<[[1, 2]]> : tensor<2x1xi32>", 1, 14, "inferred shape of elements literal ([1, 2]) does not match type ([2, 1])"),
    ("dense<1> : tensor<?xi32>", 1, 14, "elements literal type must have static shape"),
    ("dense<1> : tensor<*xi32>", 1, 14, "elements literal type must have static shape"),
    ("dense<1.5> : tensor<2xi32>", 1, 20, "expected integer elements, but parsed floating-point"),
    ("dense<300> : tensor<2xi8>", 1, 20, "integer constant out of range for type"),
    ("dense<[1,2]>", 1, 26, "expected ':'"),
    ("dense<[[1], [2, 3]]> : tensor<2x2xi32>", 1, 32, "tensor literal is invalid; ranks are not consistent between elements"),
    ("dense<> : tensor<2xi32>", 1, 14, "parsed zero elements, but type ('tensor<2xi32>') expected at least 1"),
    ("dense<\"0x0102\"> : tensor<3xi8>", 1, 14, "elements hex data size is invalid for provided type: 'tensor<3xi8>'"),
    ("dense<\"0x01020\"> : tensor<3xi8>", 1, 20, "expected string containing hex digits starting with `0x`"),
    ("dense<true> : tensor<2xi32>", 1, 20, "expected i1 type for 'true' or 'false' values"),
    ("dense<-0x1> : tensor<2xf32>", 1, 21, "hexadecimal float literal should not have a leading minus"),
    ("dense<1> : i32", 1, 14, "elements literal must be a shaped type"),
    ("vector<4x?xf32>", 1, 23, "expected non-function type"),
    ("tensor<-1xf32>", 1, 21, "expected non-function type"),
    ("tensor<99999999999999999999xf32>", 1, 21, "invalid dimension"),
    ("memref<4x!t.x>", 1, 23, "invalid memref element type"),
    ("memref<4xtensor<4xf32>>", 1, 23, "invalid memref element type"),
    ("tensor<4xnone>", 1, 23, "invalid tensor element type"),
    ("tensor<4x(i32)->i32>", 1, 23, "invalid tensor element type"),
    ("vector<[4]>", 1, 24, "expected 'x' in dimension list"),
    ("tensor<*xf32, \"e\">", 1, 32, "cannot apply encoding to unranked tensor"),
    ("memref<4xf32, [1]>", 1, 14, "unsupported memory space Attribute"),
    ("vector<0xf32>", 1, 14, "vector types must have positive constant sizes but got 0"),
    ("vector<4xtensor<4xf32>>", 1, 14, "failed to verify 'elementType': VectorElementTypeInterface instance"),
    ("memref<4xf32, strided<[1, 2]>>", 1, 14, "expected the number of strides to match the rank"),
    ("memref<4x4xf32, affine_map<(d0) -> (d0)>>", 1, 14, "memref layout mismatch between rank and affine map: 2 != 1"),
    ("vector<4x0xf32>", 1, 14, "vector types must have positive constant sizes but got 4, 0"),
    ("memref<4xf32, unit>", 1, 14, "unsupported memory space Attribute"),
    ("memref<4xf32, 1, 2>", 1, 32, "multiple memory spaces specified in memref type"),
    ("memref<4xf32, 1, strided<[1]>>", 1, 43, "expected memory space to be last in memref type"),
    ("memref<4xf32, #t.x>", 1, 14, "unsupported memory space Attribute"),
    ("tensor<4xi16777216>", 1, 23, "integer bitwidth is limited to 16777215 bits"),
    ("affine_map<(d0) -> (d0 * d0)>", 1, 37, "non-affine expression: at least one of the multiply operands has to be either a constant or symbolic"),
    ("affine_map<(d0) -> (d0 floordiv d0)>", 1, 37, "non-affine expression: right operand of floordiv has to be either a constant or symbolic"),
    ("affine_map<(d0) -> (d1)>", 1, 34, "use of undeclared identifier"),
    ("340282366920938463463374607431768211456 : i128", 1, 14, "integer constant out of range for attribute"),
    ("170141183460469231731687303715884105728 : si128", 1, 14, "integer constant out of range for attribute"),
];

/// `"t.a"() {a = <attr>}` printed as mlir-opt prints it (module and indentation stripped).
fn print_attr_op(attr: &str) -> String {
    let src = format!("\"t.a\"() {{a = {attr}}} : () -> ()");
    let out = print(&src);
    let mut lines = out.lines();
    let mut got = String::new();
    for l in lines.by_ref() {
        if l == "module {" {
            break;
        }
        got.push_str(l);
        got.push('\n');
    }
    got.push_str(lines.next().unwrap_or("").trim());
    got
}

#[test]
fn attributes_print_as_mlir_opt() {
    for (attr, expected) in PRINTS {
        assert_eq!(print_attr_op(attr), *expected, "for {attr}");
    }
}

#[test]
fn bad_shaped_input_gets_mlir_opt_error() {
    for (attr, line, col, msg) in ERRORS {
        let src = format!("\"t.a\"() {{a = {attr}}} : () -> ()");
        assert_eq!(
            parse_error(&src),
            (*line, *col, msg.to_string()),
            "for {attr}"
        );
    }
}

#[test]
fn hostile_sizes_are_located_errors_not_allocations() {
    let err = |attr: &str| parse_error(&format!("\"t.a\"() {{a = {attr}}} : () -> ()")).2;
    assert_eq!(
        err("-1 : ui16777215"),
        "integer values wider than 65536 bits are not supported (type 'ui16777215')"
    );
    assert_eq!(
        err("dense<1> : tensor<2xi70000>"),
        "integer values wider than 65536 bits are not supported (type 'i70000')"
    );
    assert_eq!(
        err("dense<\"0x00\"> : tensor<99999999999x999999999xi8>"),
        "elements literal type has more than 268435456 elements"
    );
    let many = vec!["1"; 40000].join(", ");
    assert_eq!(
        err(&format!("dense<[{many}]> : tensor<40000xi65536>")),
        "elements literal holds more than 268435456 bytes"
    );
    assert_eq!(err("tensor<99999999999999999999xf32>"), "invalid dimension");
    let deep = format!(
        "dense<{}1{}> : tensor<1xi8>",
        "[".repeat(300),
        "]".repeat(300)
    );
    assert!(err(&deep).starts_with("nesting too deep"));
    // A splat fills any shape without storing it; the widest values print.
    assert_eq!(
        print_attr_op("dense<1> : tensor<9223372036854775807x9223372036854775807xi8>"),
        "\"t.a\"() {a = dense<1> : tensor<9223372036854775807x9223372036854775807xi8>} : () -> ()"
    );
    let ones = format!("0x{} : ui65536", "F".repeat(16384));
    let max = print_attr_op(&ones);
    // 2^65536 - 1 = 2003529930...
    assert!(
        max.starts_with("\"t.a\"() {a = 2003529930") && max.ends_with("5 : ui65536} : () -> ()"),
        "{}",
        &max[..40]
    );
}

/// (affine map, mlir-opt 22's print): maps of upstream mlir/test/IR/affine-map.mlir.
const AFFINE_MAPS: &[(&str, &str)] = &[
    ("affine_map<(i, j) -> (1*i+3*2-2*2-1, 4*j + 2)>", "affine_map<(d0, d1) -> (d0 + 1, d1 * 4 + 2)>"),
    ("affine_map<(i, j) -> ((j - i) + 2*(i - j + 1) + j - 1 + 0, j + j + 1 + j + j + 1)>", "affine_map<(d0, d1) -> (d1 - d0 + (d0 - d1 + 1) * 2 + d1 - 1, d1 * 4 + 2)>"),
    ("affine_map<(i, j)[s0] -> (i + 2*6 + 5*(j+s0*3), j)>", "affine_map<(d0, d1)[s0] -> (d0 + (d1 + s0 * 3) * 5 + 12, d1)>"),
    ("affine_map<(i, j)[N] -> (i, 2 + N*N*9*i + 1)>", "affine_map<(d0, d1)[s0] -> (d0, d0 * ((s0 * s0) * 9) + 3)>"),
    ("affine_map<(i, j)[s0, s1] -> (-5*i, -3*j, -2, -1*(i+j), -1*s0)>", "affine_map<(d0, d1)[s0, s1] -> (d0 * -5, d1 * -3, -2, -(d0 + d1), -s0)>"),
    ("affine_map<(i, j) -> (-2+-5-(-3), -1*i)>", "affine_map<(d0, d1) -> (-4, -d0)>"),
    ("affine_map<(i, j, k)[s0, s1, s2] -> (i*s1*s2 + j*s1 + k)>", "affine_map<(d0, d1, d2)[s0, s1, s2] -> ((d0 * s1) * s2 + d1 * s1 + d2)>"),
    ("affine_map<(i, j) -> (5 mod 3 + 2, 5*3 - 4, 128 * (500 ceildiv 128), 40 floordiv 7 * 3)>", "affine_map<(d0, d1) -> (4, 11, 512, 15)>"),
    ("affine_map<(i, j, k) [N] -> (1 + i + 3 + j - 3 + k, k + 5 + j - 5, 2*i*4*N)>", "affine_map<(d0, d1, d2)[s0] -> (d0 + d1 + d2 + 1, d1 + d2, (d0 * s0) * 8)>"),
    ("affine_map<(i, j, k) -> (i * 64 ceildiv 64, i * 512 ceildiv 128, 4 * j mod 4, 4*j*4 mod 8, k mod 1)>", "affine_map<(d0, d1, d2) -> (d0, d0 * 4, 0, 0, 0)>"),
    ("affine_map<(i, j)[s0] -> ( (i * 4 + 8) mod 4, 32 * j * s0 * 8 mod 256, (4*i + (j * (s0 * 2))) mod 2, (4*i + 3) mod 2)>", "affine_map<(d0, d1)[s0] -> (0, 0, 0, 1)>"),
    ("affine_map<(d0) -> (16*d0 + ((d0 + 1) * -1) + 15)>", "affine_map<(d0) -> (d0 * 16 - (d0 + 1) + 15)>"),
    ("affine_map<(d0)[s0] -> (-s0 floordiv 4, d0 floordiv -1)>", "affine_map<(d0)[s0] -> ((-s0) floordiv 4, d0 floordiv -1)>"),
    ("affine_map<(d0, d1) -> ((4*d0 + 2) floordiv 4, (4*d0 + 8*d1 + 5) floordiv 2, (2*d0 + 4*d1 + 3) mod 2, (3*d0 - 4) mod 3, (4*d0 + 8*d1) mod 8)>", "affine_map<(d0, d1) -> (d0, d0 * 2 + d1 * 4 + 2, 1, 2, (d0 * 4) mod 8)>"),
    ("affine_map<(d0, d1) -> (d0 - d0 + d1, -d0 + d0 + d0, (1 + d0 + d1 floordiv 4) - (d0 + d1 floordiv 4 + 1))>", "affine_map<(d0, d1) -> (d1, d0, 0)>"),
    ("affine_map<(d0, d1) -> (4*d0 - 2*d0 + d0, (d0 + d1) + (d0 + d1), 2 * (d0 mod 2) - d0 mod 2)>", "affine_map<(d0, d1) -> (d0 * 3, (d0 + d1) * 2, d0 mod 2)>"),
    ("affine_map<(d0, d1) -> ((d0 mod 35) mod 5, (d1 mod 35) mod 4)>", "affine_map<(d0, d1) -> (d0 mod 5, (d1 mod 35) mod 4)>"),
    ("affine_map<(d0, d1)[step, loc] -> (step - d0, loc - d1)>", "affine_map<(d0, d1)[s0, s1] -> (-d0 + s0, -d1 + s1)>"),
    ("affine_map<(d0) -> (d0 - d0 floordiv 4 * 4)>", "affine_map<(d0) -> (d0 mod 4)>"),
    ("affine_map<(d0) -> (d0 + ((d0 floordiv 4) - 4))>", "affine_map<(d0) -> (d0 + d0 floordiv 4 - 4)>"),
];

#[test]
fn affine_maps_simplify_as_mlir_opt() {
    for (map, expected) in AFFINE_MAPS {
        let mut c = ctx();
        let op = parse(&mut c, &format!("\"t.a\"() {{m = {map}}} : () -> ()"));
        let out = print_op(&c, op, &custom());
        let got = out.lines().next().unwrap_or("");
        assert_eq!(got, format!("#map = {expected}"), "for {map}");
    }
}

/// complex and tuple types, complex dense elements: (attribute, mlir-opt 22's print).
const COMPLEX_PRINTS: &[(&str, &str)] = &[
    ("complex<f32>", "\"t.a\"() {a = complex<f32>} : () -> ()"),
    ("complex<i32>", "\"t.a\"() {a = complex<i32>} : () -> ()"),
    ("tuple<>", "\"t.a\"() {a = tuple<>} : () -> ()"),
    (
        "tuple<i32, f32>",
        "\"t.a\"() {a = tuple<i32, f32>} : () -> ()",
    ),
    (
        "tuple<tuple<i1>, tensor<4xf32>>",
        "\"t.a\"() {a = tuple<tuple<i1>, tensor<4xf32>>} : () -> ()",
    ),
    (
        "memref<4xcomplex<f32>>",
        "\"t.a\"() {a = memref<4xcomplex<f32>>} : () -> ()",
    ),
    (
        "dense<(1.0, 2.0)> : tensor<2xcomplex<f32>>",
        "\"t.a\"() {a = dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f32>>} : () -> ()",
    ),
    (
        "dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i32>>",
        "\"t.a\"() {a = dense<[(1,2), (3,4)]> : tensor<2xcomplex<i32>>} : () -> ()",
    ),
    (
        "dense<[(1.0, 2.0), (1.0, 2.0)]> : tensor<2xcomplex<f16>>",
        "\"t.a\"() {a = dense<(1.000000e+00,2.000000e+00)> : tensor<2xcomplex<f16>>} : () -> ()",
    ),
    (
        "dense<(1.0, 0x7F800001)> : tensor<2xcomplex<f32>>",
        "\"t.a\"() {a = dense<(1.000000e+00,0x7F800001)> : tensor<2xcomplex<f32>>} : () -> ()",
    ),
    (
        "dense<\"0x0000803F00000040\"> : tensor<complex<f32>>",
        "\"t.a\"() {a = dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>} : () -> ()",
    ),
];

/// (attribute, line, column, mlir-opt 22's error).
const COMPLEX_ERRORS: &[(&str, u32, u32, &str)] = &[
    ("complex<index>", 1, 22, "invalid element type for complex"),
    (
        "complex<tensor<f32>>",
        1,
        22,
        "invalid element type for complex",
    ),
    (
        "vector<4xcomplex<f32>>",
        1,
        14,
        "failed to verify 'elementType': VectorElementTypeInterface instance",
    ),
    (
        "dense<1.0> : tensor<2xcomplex<f32>>",
        1,
        14,
        "parsed 1 elements, but type ('complex<f32>') expected 2 elements",
    ),
    ("tuple<i32", 1, 23, "expected '>' in tuple type"),
    ("complex<>", 1, 22, "expected non-function type"),
    (
        "dense<[(1.0, 2.0), 3.0]> : tensor<2xcomplex<f32>>",
        1,
        14,
        "parsed 3 elements, but type ('tensor<2xcomplex<f32>>') expected 4 elements",
    ),
    ("tensor<2xtuple<i32>>", 1, 23, "invalid tensor element type"),
];

#[test]
fn complex_and_tuple_as_mlir_opt() {
    for (attr, expected) in COMPLEX_PRINTS {
        assert_eq!(print_attr_op(attr), *expected, "for {attr}");
    }
    for (attr, line, col, msg) in COMPLEX_ERRORS {
        let src = format!("\"t.a\"() {{a = {attr}}} : () -> ()");
        assert_eq!(
            parse_error(&src),
            (*line, *col, msg.to_string()),
            "for {attr}"
        );
    }
}
