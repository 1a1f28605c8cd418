//! Float attributes against mlir-opt 22: `data/float_print_<type>.txt` holds, per line, a bit
//! pattern (hex) and the text mlir-opt 22.1.8 printed for `arith.constant 0x<bits> : <type>`
//! (generated once with mlir-opt from the #17 survey's bit-pattern vectors: random values and
//! edge cases). Printing must match byte for byte, and the text must parse back to the bits.

use super::super::float_fmt::{format_bits, from_bits, parse_decimal};
use super::*;
use crate::attributes::AttrData;
use crate::types::FloatKind;

fn vectors(kind: FloatKind) -> &'static str {
    match kind {
        FloatKind::F16 => include_str!("data/float_print_f16.txt"),
        FloatKind::BF16 => include_str!("data/float_print_bf16.txt"),
        FloatKind::F32 => include_str!("data/float_print_f32.txt"),
        FloatKind::F64 => include_str!("data/float_print_f64.txt"),
    }
}

/// Parses printed text the way the attribute parser does (hex bits, or a signed decimal).
fn reparse(kind: FloatKind, text: &str) -> f64 {
    if let Some(hex) = text.strip_prefix("0x") {
        return from_bits(kind, u128::from_str_radix(hex, 16).unwrap()).unwrap();
    }
    match text.strip_prefix('-') {
        Some(body) => -parse_decimal(kind, body).unwrap(),
        None => parse_decimal(kind, text).unwrap(),
    }
}

#[test]
fn every_vector_prints_as_mlir_opt_and_parses_back() {
    for kind in [
        FloatKind::F16,
        FloatKind::BF16,
        FloatKind::F32,
        FloatKind::F64,
    ] {
        let mut count = 0;
        for line in vectors(kind).lines() {
            let (bits, want) = line.split_once(' ').unwrap();
            let bits = u64::from_str_radix(bits, 16).unwrap();
            assert_eq!(format_bits(kind, bits), want, "{kind:?} {bits:#x}");
            let back = crate::float::f64_to_native(kind, reparse(kind, want));
            assert_eq!(back, bits, "{kind:?} {want} parses to {back:#x}");
            count += 1;
        }
        assert!(count > 2900, "{kind:?}: {count} vectors");
    }
}

#[test]
fn signaling_nans_keep_their_bits_through_text() {
    let mut c = ctx();
    let src = r#""t.op"() {a = 0x7F800001 : f32, b = 0x7F81 : bf16, c = 0x7C01 : f16, d = 0x7FF0000000000001 : f64, e = 0xFFC00001 : f32} : () -> ()"#;
    let m = parse(&mut c, src);
    let op = c.first_op(crate::builtin::module_body(&c, m)).unwrap();
    for (name, kind, bits) in [
        ("a", FloatKind::F32, 0x7F80_0001u64),
        ("b", FloatKind::BF16, 0x7F81),
        ("c", FloatKind::F16, 0x7C01),
        ("d", FloatKind::F64, 0x7FF0_0000_0000_0001),
        ("e", FloatKind::F32, 0xFFC0_0001),
    ] {
        match c.attr_data(c.attr(op, name).unwrap()) {
            AttrData::Float { bits: b, .. } => {
                assert_eq!(
                    crate::float::f64_to_native(kind, f64::from_bits(*b)),
                    bits,
                    "{name}"
                )
            }
            other => panic!("{other:?}"),
        }
    }
    let out = print_op(&c, m, &custom());
    assert!(
        out.contains("{a = 0x7F800001 : f32, b = 0x7F81 : bf16, c = 0x7C01 : f16, d = 0x7FF0000000000001 : f64, e = 0xFFC00001 : f32}"),
        "{out}"
    );
}
