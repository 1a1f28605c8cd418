//! Property: shaped types, dense elements, layouts and wide integers print -> parse -> print to
//! the same text (random element types, shapes, scalable dims, values and bit patterns).

use super::*;
use proptest::prelude::*;

/// An element type and a generator of element literals for it.
fn elem_type() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "i1",
        "i3",
        "i8",
        "i32",
        "i64",
        "i65",
        "i128",
        "ui8",
        "si16",
        "ui128",
        "index",
        "f16",
        "bf16",
        "f32",
        "f64",
        "complex<f32>",
        "complex<i16>",
    ])
}

/// A literal of `ty` from random bits: integers as decimal of their width (signed or not),
/// floats as hex bit patterns or decimals.
fn literal(ty: &str, bits: u128, decimal: bool) -> String {
    if let Some(inner) = ty
        .strip_prefix("complex<")
        .and_then(|t| t.strip_suffix('>'))
    {
        let im = bits.rotate_left(37) ^ 0x5555;
        return format!(
            "({}, {})",
            literal(inner, bits, decimal),
            literal(inner, im, decimal)
        );
    }
    let width: u32 = match ty {
        "i1" => 1,
        "f16" | "bf16" | "si16" => 16,
        "index" => 64,
        t => t
            .trim_start_matches(['i', 'u', 's', 'f'])
            .parse()
            .unwrap_or(64),
    };
    let mask = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let v = bits & mask;
    if ty.starts_with('f') || ty == "bf16" {
        if decimal {
            return format!("{}.{}", (bits % 1000) as i64 - 500, bits % 7);
        }
        return format!("0x{v:X}");
    }
    if ty == "i1" {
        return if v == 1 { "true" } else { "false" }.to_string();
    }
    if ty.starts_with("ui") {
        return v.to_string();
    }
    // Signed view of the width (index: i64).
    let shift = 128 - width;
    (((v << shift) as i128) >> shift).to_string()
}

fn shaped(kind: u8, dims: &[i64], elem: &str, scalable: &[bool]) -> String {
    let mut s = String::new();
    for (i, d) in dims.iter().enumerate() {
        if kind == 0 && scalable.get(i) == Some(&true) {
            s.push_str(&format!("[{d}]x"));
        } else {
            s.push_str(&format!("{d}x"));
        }
    }
    let name = ["vector", "tensor", "memref"][kind as usize];
    format!("{name}<{s}{elem}>")
}

/// Nested list text of `values` shaped `dims`.
fn nested(dims: &[i64], values: &mut impl Iterator<Item = String>) -> String {
    match dims.split_first() {
        None => values.next().unwrap_or_default(),
        Some((&n, rest)) => {
            let items: Vec<String> = (0..n).map(|_| nested(rest, values)).collect();
            format!("[{}]", items.join(", "))
        }
    }
}

fn stable(src: &str) -> Result<(), TestCaseError> {
    let mut c = ctx();
    let Some(op) = parse_source(&mut c, src, FILE) else {
        return Err(TestCaseError::fail(format!("did not parse: {src}")));
    };
    let first = print_op(&c, op, &custom());
    let mut c2 = ctx();
    let Some(op2) = parse_source(&mut c2, &first, FILE) else {
        return Err(TestCaseError::fail(format!("print did not parse: {first}")));
    };
    prop_assert_eq!(&first, &print_op(&c2, op2, &custom()));
    let generic_first = print_op(&c, op, &generic());
    let mut c3 = ctx();
    let op3 = parse_source(&mut c3, &generic_first, FILE).expect("generic print parses");
    prop_assert_eq!(&generic_first, &print_op(&c3, op3, &generic()));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dense_and_shaped_round_trip(
        kind in 0u8..3,
        elem in elem_type(),
        dims in prop::collection::vec(1i64..4, 0..4),
        scalable in prop::collection::vec(any::<bool>(), 0..4),
        bits in prop::collection::vec(any::<u128>(), 64),
        decimal in any::<bool>(),
        splat in any::<bool>(),
    ) {
        // Vector elements must be ints, index or floats: complex ones go in a tensor.
        let kind = if elem.starts_with("complex") && kind == 0 { 1 } else { kind };
        let ty = shaped(kind, &dims, elem, &scalable);
        let count: i64 = dims.iter().product();
        let mut values = bits.iter().map(|&b| literal(elem, b, decimal));
        let body = if splat {
            values.next().unwrap_or_default()
        } else {
            nested(&dims, &mut values)
        };
        let _ = count;
        let src = format!("\"t.a\"() {{a = dense<{body}> : {ty}, t = {ty}}} : () -> ()");
        stable(&src)?;
    }

    #[test]
    fn layouts_and_wide_integers_round_trip(
        strides in prop::collection::vec(prop::option::of(-5i64..100), 1..4),
        offset in prop::option::of(-5i64..100),
        space in 0i64..4,
        width in 65u32..300,
        bits in any::<u128>(),
        neg in any::<bool>(),
    ) {
        let show = |s: &Option<i64>| s.map_or("?".to_string(), |v| v.to_string());
        let st: Vec<String> = strides.iter().map(show).collect();
        let dims = vec!["4"; strides.len()].join("x");
        let layout = format!("strided<[{}], offset: {}>", st.join(", "), show(&offset));
        let map = format!("affine_map<({}) -> ({})>",
            (0..strides.len()).map(|i| format!("d{i}")).collect::<Vec<_>>().join(", "),
            (0..strides.len()).map(|i| format!("d{i} * {} - {}", i + 2, i)).collect::<Vec<_>>().join(", "));
        // Magnitudes below 2^(width-1) fit either sign.
        let mag = bits >> (129 - width.min(128));
        let int = format!("{}{mag} : i{width}", if neg { "-" } else { "" });
        let src = format!(
            "\"t.a\"() {{a = memref<{dims}xf32, {layout}, {space}>, b = memref<{dims}xi8, {map}>, c = {int}, d = [{int}]}} : () -> ()"
        );
        stable(&src)?;
    }
}
