//! What qd-run prints: fields as text or as one JSON object.
//!
//! Text: `y = 3.2` for a scalar field, `x = [0.0, 0.1, ...]` for a 1-D one, and for more
//! dimensions a `x: shape [4, 10]` line, then nested rows, one innermost row per line. Floats are
//! in their shortest round-trip form (`0.1`, `1e-7`, `NaN`, `inf`), i1 as `true`/`false`.
//!
//! JSON: `{"fields": {"NAME": {"shape": [...], "data": [...]}}, "timings_ms": {...}}` on one line,
//! keys in a fixed order (fields in `--print` order), data flat in row-major order. NaN and
//! infinities are not JSON numbers: they are the strings "NaN", "Infinity" and "-Infinity".

use qd_runtime::Scalar;
use std::fmt::Write;

/// One printed field.
pub struct FieldOut {
    pub name: String,
    pub shape: Vec<usize>,
    pub data: Vec<Scalar>,
}

/// The text form of every field, each ending with a newline.
pub fn text(fields: &[FieldOut]) -> String {
    let mut out = String::new();
    for f in fields {
        if f.shape.len() > 1 {
            let _ = writeln!(out, "{}: shape {:?}", f.name, f.shape);
        }
        let prefix = format!("{} = ", f.name);
        let body = nested(&f.data, &f.shape, prefix.len());
        let _ = writeln!(out, "{prefix}{body}");
    }
    out
}

/// `data` (row-major, of `shape`) as nested brackets; rows of rank >= 2 break lines, aligned
/// under the opening bracket at column `indent`.
fn nested(data: &[Scalar], shape: &[usize], indent: usize) -> String {
    match shape {
        [] => data.first().map(|v| v.to_string()).unwrap_or_default(),
        [_] => {
            let items: Vec<String> = data.iter().map(|v| v.to_string()).collect();
            format!("[{}]", items.join(", "))
        }
        [n, rest @ ..] => {
            let row: usize = rest.iter().product();
            let rows: Vec<String> = (0..*n)
                .map(|i| nested(&data[i * row..(i + 1) * row], rest, indent + 1))
                .collect();
            let sep = format!(",\n{}", " ".repeat(indent + 1));
            format!("[{}]", rows.join(&sep))
        }
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A scalar as a JSON value.
fn json_value(v: Scalar) -> String {
    let f = match v {
        Scalar::F32(x) => x as f64,
        Scalar::F64(x) => x,
        other => return other.to_string(),
    };
    if f.is_nan() {
        "\"NaN\"".into()
    } else if f.is_infinite() {
        if f > 0.0 {
            "\"Infinity\""
        } else {
            "\"-Infinity\""
        }
        .into()
    } else {
        // Rust's shortest round-trip forms (`3.2`, `1.0`, `1e-7`) are valid JSON numbers.
        v.to_string()
    }
}

/// The JSON object of `fields` and `timings` (milliseconds), on one line.
pub fn json(fields: &[FieldOut], timings: &[(&str, f64)]) -> String {
    let fields: Vec<String> = fields
        .iter()
        .map(|f| {
            let shape: Vec<String> = f.shape.iter().map(|d| d.to_string()).collect();
            let data: Vec<String> = f.data.iter().map(|&v| json_value(v)).collect();
            format!(
                "{}: {{\"shape\": [{}], \"data\": [{}]}}",
                json_string(&f.name),
                shape.join(", "),
                data.join(", ")
            )
        })
        .collect();
    let timings: Vec<String> = timings
        .iter()
        .map(|(k, ms)| format!("{}: {ms:.3}", json_string(k)))
        .collect();
    format!(
        "{{\"fields\": {{{}}}, \"timings_ms\": {{{}}}}}\n",
        fields.join(", "),
        timings.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, shape: &[usize], data: Vec<Scalar>) -> FieldOut {
        FieldOut {
            name: name.into(),
            shape: shape.to_vec(),
            data,
        }
    }

    fn f32s(v: &[f32]) -> Vec<Scalar> {
        v.iter().map(|&x| Scalar::F32(x)).collect()
    }

    #[test]
    fn text_forms() {
        let fields = [
            field("y", &[], f32s(&[3.2])),
            field("x", &[3], f32s(&[0.0, 0.1, 1e-7])),
            field(
                "g",
                &[2, 2],
                vec![
                    Scalar::I32(1),
                    Scalar::I32(-2),
                    Scalar::I32(3),
                    Scalar::I32(4),
                ],
            ),
            field("b", &[2], vec![Scalar::I1(true), Scalar::I1(false)]),
            field("e", &[0], vec![]),
        ];
        assert_eq!(
            text(&fields),
            "y = 3.2\nx = [0.0, 0.1, 1e-7]\ng: shape [2, 2]\ng = [[1, -2],\n     [3, 4]]\nb = [true, false]\ne = []\n"
        );
        let cube = field("c", &[2, 1, 2], f32s(&[1.0, 2.0, 3.0, 4.0]));
        assert_eq!(
            text(&[cube]),
            "c: shape [2, 1, 2]\nc = [[[1.0, 2.0]],\n     [[3.0, 4.0]]]\n"
        );
    }

    #[test]
    fn json_form() {
        let fields = [
            field("y", &[], f32s(&[3.2])),
            field(
                "w\"q",
                &[4],
                f32s(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.0]),
            ),
            field("n", &[1], vec![Scalar::U64(u64::MAX)]),
        ];
        assert_eq!(
            json(&fields, &[("parse", 1.23456), ("launch", 0.5)]),
            "{\"fields\": {\"y\": {\"shape\": [], \"data\": [3.2]}, \"w\\\"q\": {\"shape\": [4], \
             \"data\": [\"NaN\", \"Infinity\", \"-Infinity\", -0.0]}, \"n\": {\"shape\": [1], \
             \"data\": [18446744073709551615]}}, \"timings_ms\": {\"parse\": 1.235, \"launch\": 0.500}}\n"
        );
        assert_eq!(json(&[], &[]), "{\"fields\": {}, \"timings_ms\": {}}\n");
        assert_eq!(json_string("a\nb"), "\"a\\u000ab\"");
    }
}
