//! What qd-run prints: fields (and with `--report-adstack`, the adstacks of each launch) as text
//! or as one JSON object.
//!
//! Text: `y = 3.2` for a scalar field, `x = [0.0, 0.1, ...]` for a 1-D one, and for more
//! dimensions a `x: shape [4, 10]` line, then nested rows, one innermost row per line. Floats are
//! in their shortest round-trip form (`0.1`, `1e-7`, `NaN`, `inf`), i1 as `true`/`false`.
//!
//! JSON: `{"fields": {"NAME": {"shape": [...], "data": [...]}}, "timings_ms": {...}}` on one line,
//! keys in a fixed order (fields in `--print` order), data flat in row-major order. NaN and
//! infinities are not JSON numbers: they are the strings "NaN", "Infinity" and "-Infinity".
//!
//! Adstack report, text: a title, then an aligned table with one row per stack (kernel, stack
//! number, location, element type, size expression or `-`, depth, bytes per thread) and a
//! `total` row per kernel; `(forced)` marks a depth forced by `--ad-stack-size`, `(inferred)` a
//! size expression the runtime inferred for a stack the IR left unbounded. JSON: the key
//! `"adstack"` (after `"fields"`): a list of `{"kernel", "stack", "loc", "type", "size_expr",
//! "depth", "bytes_per_thread"}` (`size_expr` is null for a stack without one).

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

/// One adstack of a launch, as sized for it.
#[derive(Clone, PartialEq, Debug)]
pub struct StackOut {
    pub kernel: String,
    pub stack: usize,
    /// `file:line:col` of the alloca.
    pub loc: String,
    /// The element type.
    pub ty: String,
    pub size_expr: Option<String>,
    pub inferred: bool,
    pub depth: u64,
    pub forced: bool,
    pub bytes_per_thread: u64,
}

/// Pads `cells` into aligned columns (two spaces apart; columns in `right` right-aligned), with
/// no trailing spaces.
fn table(rows: &[Vec<String>], right: &[usize]) -> String {
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..n)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = width[c] - cell.chars().count();
            if right.contains(&c) {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The text report of the adstacks of the launches of `kernels` (in launch order).
pub fn adstack_text(stacks: &[StackOut], kernels: &[String]) -> String {
    if stacks.is_empty() {
        let names: Vec<String> = kernels.iter().map(|k| format!("@{k}")).collect();
        return format!("adstack report: no adstacks in {}\n", names.join(", "));
    }
    let header = [
        "kernel",
        "stack",
        "location",
        "type",
        "size_expr",
        "depth",
        "bytes/thread",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for k in kernels {
        let mine: Vec<&StackOut> = stacks.iter().filter(|s| &s.kernel == k).collect();
        if mine.is_empty() {
            continue;
        }
        for s in &mine {
            let expr = match &s.size_expr {
                Some(e) if s.inferred => format!("{e} (inferred)"),
                Some(e) => e.clone(),
                None => "-".to_string(),
            };
            let depth = if s.forced {
                format!("{} (forced)", s.depth)
            } else {
                s.depth.to_string()
            };
            rows.push(vec![
                k.clone(),
                format!("#{}", s.stack),
                s.loc.clone(),
                s.ty.clone(),
                expr,
                depth,
                s.bytes_per_thread.to_string(),
            ]);
        }
        let total = mine
            .iter()
            .fold(0u64, |a, s| a.saturating_add(s.bytes_per_thread));
        let mut row = vec![k.clone(), "total".to_string()];
        row.extend(std::iter::repeat_n(String::new(), 4));
        row.push(total.to_string());
        rows.push(row);
    }
    format!(
        "adstack report (per thread, as sized for this launch):\n{}",
        table(&rows, &[5, 6])
    )
}

/// The JSON list of the adstacks.
fn adstack_json(stacks: &[StackOut]) -> String {
    let items: Vec<String> = stacks
        .iter()
        .map(|s| {
            format!(
                "{{\"kernel\": {}, \"stack\": {}, \"loc\": {}, \"type\": {}, \"size_expr\": {}, \
                 \"depth\": {}, \"bytes_per_thread\": {}}}",
                json_string(&s.kernel),
                s.stack,
                json_string(&s.loc),
                json_string(&s.ty),
                s.size_expr
                    .as_deref()
                    .map_or_else(|| "null".to_string(), json_string),
                s.depth,
                s.bytes_per_thread
            )
        })
        .collect();
    format!("[{}]", items.join(", "))
}

/// The JSON object of `fields`, the adstacks when reported, and `timings` (milliseconds), on
/// one line.
pub fn json(fields: &[FieldOut], adstack: Option<&[StackOut]>, timings: &[(&str, f64)]) -> String {
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
    let adstack = adstack
        .map(|a| format!("\"adstack\": {}, ", adstack_json(a)))
        .unwrap_or_default();
    format!(
        "{{\"fields\": {{{}}}, {adstack}\"timings_ms\": {{{}}}}}\n",
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
            json(&fields, None, &[("parse", 1.23456), ("launch", 0.5)]),
            "{\"fields\": {\"y\": {\"shape\": [], \"data\": [3.2]}, \"w\\\"q\": {\"shape\": [4], \
             \"data\": [\"NaN\", \"Infinity\", \"-Infinity\", -0.0]}, \"n\": {\"shape\": [1], \
             \"data\": [18446744073709551615]}}, \"timings_ms\": {\"parse\": 1.235, \"launch\": 0.500}}\n"
        );
        assert_eq!(
            json(&[], None, &[]),
            "{\"fields\": {}, \"timings_ms\": {}}\n"
        );
        assert_eq!(json_string("a\nb"), "\"a\\u000ab\"");
    }

    fn stack(kernel: &str, n: usize, expr: Option<&str>, depth: u64, bytes: u64) -> StackOut {
        StackOut {
            kernel: kernel.into(),
            stack: n,
            loc: format!("f.mlir:{}:7", 10 + n),
            ty: "f32".into(),
            size_expr: expr.map(str::to_string),
            inferred: false,
            depth,
            forced: false,
            bytes_per_thread: bytes,
        }
    }

    #[test]
    fn adstack_text_is_an_aligned_table_with_totals() {
        let mut i32_stack = stack("k_grad", 1, None, 6, 32);
        i32_stack.ty = "i32".into();
        let mut forced = stack("h", 0, Some("@n[]:i32"), 32, 264);
        forced.forced = true;
        let mut inferred = stack("h", 1, Some("7"), 7, 64);
        inferred.inferred = true;
        let stacks = [
            stack("k_grad", 0, Some("2 + (@n[]:i32 - 0)"), 514, 4120),
            i32_stack,
            forced,
            inferred,
        ];
        let kernels = ["k".to_string(), "k_grad".to_string(), "h".to_string()];
        let want = [
            "adstack report (per thread, as sized for this launch):",
            "kernel  stack  location     type  size_expr                 depth  bytes/thread",
            "k_grad  #0     f.mlir:10:7  f32   2 + (@n[]:i32 - 0)          514          4120",
            "k_grad  #1     f.mlir:11:7  i32   -                             6            32",
            "k_grad  total                                                              4152",
            "h       #0     f.mlir:10:7  f32   @n[]:i32            32 (forced)           264",
            "h       #1     f.mlir:11:7  f32   7 (inferred)                  7            64",
            "h       total                                                               328",
        ];
        // Kernel k launched no stack: it has no rows.
        assert_eq!(adstack_text(&stacks, &kernels), want.join("\n") + "\n");
        assert_eq!(
            adstack_text(&[], &kernels[..1]),
            "adstack report: no adstacks in @k\n"
        );
    }

    #[test]
    fn adstack_json_has_the_fixed_keys() {
        let stacks = [
            stack("k_grad", 0, Some("arg0.shape[0]"), 9, 80),
            stack("k_grad", 1, None, 2, 24),
        ];
        assert_eq!(
            json(&[], Some(&stacks), &[]),
            "{\"fields\": {}, \"adstack\": [{\"kernel\": \"k_grad\", \"stack\": 0, \"loc\": \
             \"f.mlir:10:7\", \"type\": \"f32\", \"size_expr\": \"arg0.shape[0]\", \"depth\": 9, \
             \"bytes_per_thread\": 80}, {\"kernel\": \"k_grad\", \"stack\": 1, \"loc\": \
             \"f.mlir:11:7\", \"type\": \"f32\", \"size_expr\": null, \"depth\": 2, \
             \"bytes_per_thread\": 24}], \"timings_ms\": {}}\n"
        );
        assert_eq!(
            json(&[], Some(&[]), &[]),
            "{\"fields\": {}, \"adstack\": [], \"timings_ms\": {}}\n"
        );
    }
}
