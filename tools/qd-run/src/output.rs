//! What qd-run prints: fields (and with `--report-adstack`, the adstacks of each launch) as text
//! or as one JSON object.
//!
//! Text: `y = 3.2` for a scalar field, `x = [0.0, 0.1, ...]` for a 1-D one, and for more
//! dimensions a `x: shape [4, 10]` line, then nested rows, one innermost row per line. Floats are
//! in their shortest round-trip form (`0.1`, `1e-7`, `NaN`, `inf`), i1 as `true`/`false`.
//!
//! Both are written straight to the output as they are made (no string or JSON value of a whole
//! field is built), so printing a field costs little memory beyond the field itself.
//!
//! JSON (serde_json; the schema is docs/json.md): `{"fields": {"NAME": {"shape": [...], "data":
//! [...]}}, "adstack": [...], "timings_ms": {...}}` on one line, keys in a fixed order (fields in
//! `--print` order, `"adstack"` only with `--report-adstack`), data flat in row-major order.
//!
//! Adstack report, text: a title, then an aligned table with one row per stack (kernel, stack
//! number, location, element type, whether its primal is kept, size expression or `-`, depth,
//! measured peak and depth/peak ratio, bytes per thread) and a `total` row per kernel; the peak
//! and ratio are `-` on a device that does not measure peaks (only `interp` does),
//! the ratio also for a stack that held nothing; `(forced)` marks a depth forced by
//! `--ad-stack-size`, `(inferred)` a size expression the runtime inferred for a stack the IR left
//! unbounded. The primal column says `kept`, or for a stack `minimize-tape` replaced by locals
//! (depth 0, no memory) `elided, adjoint in a register` (`elided, value in a register` for an
//! integer stack, which has no adjoint).

use qd_runtime::{Scalar, Storage};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;
use std::borrow::Cow;
use std::io::{self, Write};

/// One printed field: its data borrowed from the program where it can be (a copy only when the
/// program's memory changes before printing, as with `--repeat`).
pub struct FieldOut<'a> {
    pub name: String,
    pub shape: Vec<usize>,
    pub data: Cow<'a, Storage>,
}

/// Writes the text form of every field, each ending with a newline.
pub fn text(out: &mut dyn Write, fields: &[FieldOut]) -> io::Result<()> {
    for f in fields {
        if f.shape.len() > 1 {
            writeln!(out, "{}: shape {:?}", f.name, f.shape)?;
        }
        let prefix = format!("{} = ", f.name);
        out.write_all(prefix.as_bytes())?;
        nested(out, &f.data, 0, &f.shape, prefix.len())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes the elements of `data` from `start` (row-major, of `shape`) as nested brackets; rows
/// of rank >= 2 break lines, aligned under the opening bracket at column `indent`.
fn nested(
    out: &mut dyn Write,
    data: &Storage,
    start: usize,
    shape: &[usize],
    indent: usize,
) -> io::Result<()> {
    match shape {
        [] => match data.get(start) {
            Some(v) => write!(out, "{v}"),
            None => Ok(()),
        },
        [n] => {
            out.write_all(b"[")?;
            for i in 0..*n {
                if i > 0 {
                    out.write_all(b", ")?;
                }
                if let Some(v) = data.get(start + i) {
                    write!(out, "{v}")?;
                }
            }
            out.write_all(b"]")
        }
        [n, rest @ ..] => {
            let row: usize = rest.iter().product();
            out.write_all(b"[")?;
            for i in 0..*n {
                if i > 0 {
                    write!(out, ",\n{:w$}", "", w = indent + 1)?;
                }
                nested(out, data, start + i * row, rest, indent + 1)?;
            }
            out.write_all(b"]")
        }
    }
}

/// One adstack of a launch, as sized for it. Serialized as one item of the JSON `"adstack"`
/// list (the markers `inferred` and `forced` are text-only).
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct StackOut {
    pub kernel: String,
    pub stack: usize,
    /// `file:line:col` of the alloca.
    pub loc: String,
    /// The element type.
    #[serde(rename = "type")]
    pub ty: String,
    /// False for a stack `minimize-tape` elided (its primal is never read in reverse).
    pub primal_kept: bool,
    pub size_expr: Option<String>,
    #[serde(skip)]
    pub inferred: bool,
    /// The bound: the stack's capacity for this launch, in entries.
    pub depth: u64,
    #[serde(skip)]
    pub forced: bool,
    /// The most entries the stack needed at once in this launch (pushes that overflowed
    /// included), on a device that measures it (the interpreter); None elsewhere.
    pub measured_peak: Option<u64>,
    /// `depth / measured_peak` ([`ratio`]): 1 for an exact bound, above 1 for a loose one (below
    /// 1 only for a launch that overflowed, which qd-run reports as an error instead); None
    /// without a measured peak or when it is 0.
    pub ratio: Option<f64>,
    pub bytes_per_thread: u64,
    /// In a run of several kernels, the launch (1-based: the forward launches in order, then the
    /// gradient launches, last forward launch's first); None in a run of one kernel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch: Option<usize>,
}

/// How many times a stack's bound `depth` is its measured `peak`; None when the device does not
/// measure or the stack held nothing (no finite ratio).
pub fn ratio(depth: u64, peak: Option<u64>) -> Option<f64> {
    peak.filter(|&p| p > 0).map(|p| depth as f64 / p as f64)
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

/// The text report of the adstacks of the launches of `kernels` (in launch order): a group of
/// rows per kernel, or in a sequence per launch (`k_grad (launch 4)`).
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
        "primal",
        "size_expr",
        "depth",
        "peak",
        "depth/peak",
        "bytes/thread",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    // One group per launch (a kernel's stacks, or a launch's in a sequence), in report order.
    let mut groups: Vec<(&str, Option<usize>)> = Vec::new();
    for s in stacks {
        if !groups.contains(&(s.kernel.as_str(), s.launch)) {
            groups.push((s.kernel.as_str(), s.launch));
        }
    }
    for (name, launch) in groups {
        let mine: Vec<&StackOut> = stacks
            .iter()
            .filter(|s| s.kernel == name && s.launch == launch)
            .collect();
        let k = &match launch {
            Some(l) => format!("{name} (launch {l})"),
            None => name.to_string(),
        };
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
                primal_text(s).to_string(),
                expr,
                depth,
                s.measured_peak.map_or("-".to_string(), |p| p.to_string()),
                s.ratio.map_or("-".to_string(), |r| format!("{r:.3}")),
                s.bytes_per_thread.to_string(),
            ]);
        }
        let total = mine
            .iter()
            .fold(0u64, |a, s| a.saturating_add(s.bytes_per_thread));
        let mut row = vec![k.clone(), "total".to_string()];
        row.extend(std::iter::repeat_n(String::new(), 7));
        row.push(total.to_string());
        rows.push(row);
    }
    format!(
        "adstack report (per thread, as sized for this launch):\n{}",
        table(&rows, &[6, 7, 8, 9])
    )
}

/// How the device compiled one task of a launched kernel (`--report-tasks`). Serialized as one
/// item of the JSON `"tasks"` list.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct TaskOut {
    pub kernel: String,
    /// The task's index in its kernel.
    pub task: usize,
    /// `file:line:col` of the task's parallel loop.
    pub loc: String,
    /// Parallel iterations one instance of the task's code runs at once (1: scalar code).
    pub lanes: u32,
    /// Why the task runs scalar code although the device vectorises (null otherwise).
    pub scalar_reason: Option<String>,
}

/// The text report of the tasks of the launched kernels (`--report-tasks`).
pub fn tasks_text(tasks: &[TaskOut], kernels: &[String]) -> String {
    if tasks.is_empty() {
        let names: Vec<String> = kernels.iter().map(|k| format!("@{k}")).collect();
        return format!(
            "task report: the device reports nothing on how it compiled {}\n",
            names.join(", ")
        );
    }
    let mut rows = vec![["kernel", "task", "location", "code"]
        .iter()
        .map(|h| h.to_string())
        .collect::<Vec<_>>()];
    for t in tasks {
        let code = match (&t.scalar_reason, t.lanes) {
            (Some(r), _) => format!("scalar: {r}"),
            (None, 1) => "scalar".to_string(),
            (None, n) => format!("{n} SIMD lanes"),
        };
        rows.push(vec![
            t.kernel.clone(),
            format!("#{}", t.task),
            t.loc.clone(),
            code,
        ]);
    }
    format!("task report:\n{}", table(&rows, &[]))
}

/// The primal column of a stack's row.
fn primal_text(s: &StackOut) -> &'static str {
    // Float element types are the ones spelled f16, bf16, f32, f64.
    let float = s.ty.starts_with('f') || s.ty.starts_with("bf");
    match (s.primal_kept, float) {
        (true, _) => "kept",
        (false, true) => "elided, adjoint in a register",
        (false, false) => "elided, value in a register",
    }
}

/// The milliseconds each step took; `compile_grad`, `autodiff` and `grad` only with `--grad`,
/// the medians only with `--repeat N` (N > 0). `compile` is `compile_kernel` + `compile_grad`:
/// the first calls, which compile; `launch` and `grad` are the first run's, the medians those
/// of the repetitions, which compile nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Timings {
    #[serde(serialize_with = "micros")]
    pub parse: f64,
    #[serde(serialize_with = "micros")]
    pub verify: f64,
    #[serde(serialize_with = "micros")]
    pub compile: f64,
    #[serde(serialize_with = "micros")]
    pub compile_kernel: f64,
    #[serde(serialize_with = "micros_opt", skip_serializing_if = "Option::is_none")]
    pub compile_grad: Option<f64>,
    #[serde(serialize_with = "micros")]
    pub launch: f64,
    #[serde(serialize_with = "micros_opt", skip_serializing_if = "Option::is_none")]
    pub autodiff: Option<f64>,
    #[serde(serialize_with = "micros_opt", skip_serializing_if = "Option::is_none")]
    pub grad: Option<f64>,
    #[serde(serialize_with = "micros_opt", skip_serializing_if = "Option::is_none")]
    pub launch_median: Option<f64>,
    #[serde(serialize_with = "micros_opt", skip_serializing_if = "Option::is_none")]
    pub grad_median: Option<f64>,
    #[serde(serialize_with = "micros")]
    pub total: f64,
}

/// Milliseconds rounded to the microsecond: finer digits are noise.
fn micros<S: Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((ms * 1e3).round() / 1e3)
}

fn micros_opt<S: Serializer>(ms: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match ms {
        Some(ms) => micros(ms, s),
        None => s.serialize_none(),
    }
}

/// The `--json` object (docs/json.md).
#[derive(Serialize)]
struct Report<'a> {
    fields: Fields<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    adstack: Option<&'a [StackOut]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tasks: Option<&'a [TaskOut]>,
    timings_ms: &'a Timings,
}

/// The printed fields as one object, keyed by name in `--print` order.
struct Fields<'a>(&'a [FieldOut<'a>]);

/// One field: `{"shape": [...], "data": [...]}`, data flat in row-major order.
#[derive(Serialize)]
struct FieldJson<'a> {
    shape: &'a [usize],
    data: Data<'a>,
}

/// A field's elements, serialized one by one as the output is written.
struct Data<'a>(&'a Storage);

impl Serialize for Data<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for i in 0..self.0.len() {
            if let Some(v) = self.0.get(i) {
                seq.serialize_element(&JsonScalar(v))?;
            }
        }
        seq.end()
    }
}

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for f in self.0 {
            map.serialize_entry(
                &f.name,
                &FieldJson {
                    shape: &f.shape,
                    data: Data(&f.data),
                },
            )?;
        }
        map.end()
    }
}

/// An element as a JSON value: i1 a bool, integers numbers, floats numbers in their shortest
/// round-trip form for their own width (an f32 reads back as the same f32), and NaN and the
/// infinities, which JSON numbers cannot be, the strings "NaN", "Infinity" and "-Infinity".
struct JsonScalar(Scalar);

impl Serialize for JsonScalar {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let non_finite = |f: f64| {
            if f.is_nan() {
                "NaN"
            } else if f > 0.0 {
                "Infinity"
            } else {
                "-Infinity"
            }
        };
        match self.0 {
            Scalar::I1(v) => s.serialize_bool(v),
            Scalar::I8(v) => s.serialize_i8(v),
            Scalar::I16(v) => s.serialize_i16(v),
            Scalar::I32(v) => s.serialize_i32(v),
            Scalar::I64(v) => s.serialize_i64(v),
            Scalar::U8(v) => s.serialize_u8(v),
            Scalar::U16(v) => s.serialize_u16(v),
            Scalar::U32(v) => s.serialize_u32(v),
            Scalar::U64(v) => s.serialize_u64(v),
            Scalar::F32(v) if v.is_finite() => s.serialize_f32(v),
            Scalar::F64(v) if v.is_finite() => s.serialize_f64(v),
            Scalar::F32(v) => s.serialize_str(non_finite(v as f64)),
            Scalar::F64(v) => s.serialize_str(non_finite(v)),
        }
    }
}

/// serde_json's compact form with a space after each ',' and ':', all on one line: the form
/// qd-run has always printed (and its lit tests match).
struct OneLine;

impl serde_json::ser::Formatter for OneLine {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            w.write_all(b", ")
        }
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.begin_array_value(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// Writes the JSON object of `fields`, the adstacks and tasks when reported, and `timings`, on
/// one line.
pub fn json(
    out: &mut dyn Write,
    fields: &[FieldOut],
    adstack: Option<&[StackOut]>,
    tasks: Option<&[TaskOut]>,
    timings: &Timings,
) -> io::Result<()> {
    let report = Report {
        fields: Fields(fields),
        adstack,
        tasks,
        timings_ms: timings,
    };
    report.serialize(&mut serde_json::Serializer::with_formatter(
        &mut *out, OneLine,
    ))?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, shape: &[usize], data: Vec<Scalar>) -> FieldOut<'static> {
        let dtype = data.first().map_or(qd_runtime::DType::F32, |v| v.dtype());
        FieldOut {
            name: name.into(),
            shape: shape.to_vec(),
            data: Cow::Owned(Storage::from_scalars(dtype, &data).unwrap()),
        }
    }

    fn text(fields: &[FieldOut]) -> String {
        let mut out = Vec::new();
        super::text(&mut out, fields).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn json(
        fields: &[FieldOut],
        adstack: Option<&[StackOut]>,
        tasks: Option<&[TaskOut]>,
        timings: &Timings,
    ) -> Result<String, io::Error> {
        let mut out = Vec::new();
        super::json(&mut out, fields, adstack, tasks, timings)?;
        Ok(String::from_utf8(out).unwrap())
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

    fn timings(parse: f64, launch: f64) -> Timings {
        Timings {
            parse,
            launch,
            ..Timings::default()
        }
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
            field("b", &[1], vec![Scalar::I1(true)]),
            field("i", &[2], vec![Scalar::I8(-3), Scalar::I8(4)]),
            field("m", &[1], vec![Scalar::F64(-f64::INFINITY)]),
        ];
        assert_eq!(
            json(&fields, None, None, &timings(1.23456, 0.5)).unwrap(),
            "{\"fields\": {\"y\": {\"shape\": [], \"data\": [3.2]}, \"w\\\"q\": {\"shape\": [4], \
             \"data\": [\"NaN\", \"Infinity\", \"-Infinity\", -0.0]}, \"n\": {\"shape\": [1], \
             \"data\": [18446744073709551615]}, \"b\": {\"shape\": [1], \"data\": [true]}, \
             \"i\": {\"shape\": [2], \"data\": [-3, 4]}, \"m\": {\"shape\": [1], \"data\": \
             [\"-Infinity\"]}}, \"timings_ms\": {\"parse\": 1.235, \"verify\": 0.0, \"compile\": 0.0, \
             \"compile_kernel\": 0.0, \"launch\": 0.5, \"total\": 0.0}}\n"
        );
        let grad = Timings {
            compile: 3.5,
            compile_kernel: 1.25,
            compile_grad: Some(2.25),
            autodiff: Some(2.0),
            grad: Some(0.0004),
            ..Timings::default()
        };
        assert_eq!(
            json(&[], None, None, &grad).unwrap(),
            "{\"fields\": {}, \"timings_ms\": {\"parse\": 0.0, \"verify\": 0.0, \"compile\": 3.5, \
             \"compile_kernel\": 1.25, \"compile_grad\": 2.25, \"launch\": 0.0, \"autodiff\": 2.0, \
             \"grad\": 0.0, \"total\": 0.0}}\n"
        );
        // --repeat: the medians after the first run's times.
        let repeated = Timings {
            launch: 9.0,
            launch_median: Some(0.5),
            grad: Some(8.0),
            grad_median: Some(0.25),
            ..Timings::default()
        };
        assert_eq!(
            json(&[], None, None, &repeated).unwrap(),
            "{\"fields\": {}, \"timings_ms\": {\"parse\": 0.0, \"verify\": 0.0, \"compile\": 0.0, \
             \"compile_kernel\": 0.0, \"launch\": 9.0, \"grad\": 8.0, \"launch_median\": 0.5, \
             \"grad_median\": 0.25, \"total\": 0.0}}\n"
        );
        let control = json(&[field("a\nb", &[], f32s(&[1.0]))], None, None, &grad).unwrap();
        assert!(
            control.starts_with("{\"fields\": {\"a\\nb\": "),
            "{control}"
        );
    }

    #[test]
    fn json_floats_round_trip_at_their_width() {
        let f32s_in = [
            0.1f32,
            3.200003,
            1e-7,
            3.4028235e38,
            f32::MIN_POSITIVE,
            1.0e-45,
            -2.5,
        ];
        let f64s_in = [0.1f64, 1e-300, f64::MAX, 5e-324, 1.0 / 3.0];
        let fields = [
            field("a", &[f32s_in.len()], f32s(&f32s_in)),
            field(
                "b",
                &[f64s_in.len()],
                f64s_in.iter().map(|&x| Scalar::F64(x)).collect(),
            ),
        ];
        let text = json(&fields, None, None, &Timings::default()).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let back = |name: &str| -> Vec<f64> {
            v["fields"][name]["data"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect()
        };
        let a: Vec<f32> = back("a").iter().map(|&x| x as f32).collect();
        assert_eq!(a, f32s_in);
        assert_eq!(back("b"), f64s_in);
        // Written at f32 width: 0.1f32 is "0.1", not 0.10000000149011612.
        assert!(text.contains("\"data\": [0.1, 3.200003, "), "{text}");
    }

    fn stack(kernel: &str, n: usize, expr: Option<&str>, depth: u64, bytes: u64) -> StackOut {
        StackOut {
            kernel: kernel.into(),
            stack: n,
            loc: format!("f.mlir:{}:7", 10 + n),
            ty: "f32".into(),
            primal_kept: true,
            size_expr: expr.map(str::to_string),
            inferred: false,
            depth,
            forced: false,
            measured_peak: None,
            ratio: None,
            bytes_per_thread: bytes,
            launch: None,
        }
    }

    /// `s` with the peak a measuring device saw, and its ratio.
    fn measured(mut s: StackOut, peak: u64) -> StackOut {
        s.measured_peak = Some(peak);
        s.ratio = ratio(s.depth, Some(peak));
        s
    }

    #[test]
    fn the_ratio_is_the_depth_over_a_nonzero_peak() {
        assert_eq!(ratio(514, Some(514)), Some(1.0));
        assert_eq!(ratio(145, Some(79)), Some(145.0 / 79.0));
        // Forced too small: the launch overflowed.
        assert_eq!(ratio(1, Some(4)), Some(0.25));
        assert_eq!(ratio(0, Some(0)), None);
        assert_eq!(ratio(3, Some(0)), None);
        assert_eq!(ratio(3, None), None);
    }

    #[test]
    fn a_sequence_reports_each_launch() {
        let mut first = stack("p_grad", 0, Some("2 + (@n[]:i32 - 0)"), 6, 56);
        first.launch = Some(4);
        let mut second = stack("p_grad", 0, Some("2 + (@n[]:i32 - 0)"), 4, 40);
        second.launch = Some(6);
        let text = adstack_text(&[first.clone(), second], &["p_grad".to_string()]);
        assert!(text.contains("\np_grad (launch 4)  #0 "), "{text}");
        assert!(text.contains("\np_grad (launch 6)  total"), "{text}");
        let json = json(&[], Some(&[first]), None, &Timings::default()).unwrap();
        assert!(
            json.contains("\"bytes_per_thread\": 56, \"launch\": 4}"),
            "{json}"
        );
    }

    #[test]
    fn adstack_text_is_an_aligned_table_with_totals() {
        let mut i32_stack = measured(stack("k_grad", 1, None, 6, 32), 4);
        i32_stack.ty = "i32".into();
        let mut forced = measured(stack("h", 0, Some("@n[]:i32"), 32, 264), 40);
        forced.forced = true;
        let mut inferred = stack("h", 1, Some("7"), 7, 64);
        inferred.inferred = true;
        let mut elided = measured(stack("h", 2, Some("0"), 0, 0), 0);
        elided.primal_kept = false;
        let mut elided_int = stack("h", 3, Some("0"), 0, 0);
        elided_int.primal_kept = false;
        elided_int.ty = "i1".into();
        let stacks = [
            measured(
                stack("k_grad", 0, Some("2 + (@n[]:i32 - 0)"), 514, 4120),
                514,
            ),
            i32_stack,
            forced,
            inferred,
            elided,
            elided_int,
        ];
        let kernels = ["k".to_string(), "k_grad".to_string(), "h".to_string()];
        let want = [
            "adstack report (per thread, as sized for this launch):",
            "kernel  stack  location     type  primal                         size_expr                 depth  peak  depth/peak  bytes/thread",
            "k_grad  #0     f.mlir:10:7  f32   kept                           2 + (@n[]:i32 - 0)          514   514       1.000          4120",
            "k_grad  #1     f.mlir:11:7  i32   kept                           -                             6     4       1.500            32",
            "k_grad  total                                                                                                               4152",
            "h       #0     f.mlir:10:7  f32   kept                           @n[]:i32            32 (forced)    40       0.800           264",
            "h       #1     f.mlir:11:7  f32   kept                           7 (inferred)                  7     -           -            64",
            "h       #2     f.mlir:12:7  f32   elided, adjoint in a register  0                             0     0           -             0",
            "h       #3     f.mlir:13:7  i1    elided, value in a register    0                             0     -           -             0",
            "h       total                                                                                                                328",
        ];
        // Kernel k launched no stack: it has no rows. Peaks: exact (1.000), loose (1.500), an
        // overflow of a forced size (0.800), unmeasured (-), and 0 (no ratio).
        assert_eq!(adstack_text(&stacks, &kernels), want.join("\n") + "\n");
        assert_eq!(
            adstack_text(&[], &kernels[..1]),
            "adstack report: no adstacks in @k\n"
        );
    }

    #[test]
    fn adstack_json_has_the_fixed_keys() {
        // A measured stack (9 / 3), and one from a device that does not measure.
        let stacks = [
            measured(stack("k_grad", 0, Some("arg0.shape[0]"), 9, 80), 3),
            stack("k_grad", 1, None, 2, 24),
        ];
        let mut stacks = stacks;
        stacks[1].primal_kept = false;
        assert_eq!(
            json(&[], Some(&stacks), None, &Timings::default()).unwrap(),
            "{\"fields\": {}, \"adstack\": [{\"kernel\": \"k_grad\", \"stack\": 0, \"loc\": \
             \"f.mlir:10:7\", \"type\": \"f32\", \"primal_kept\": true, \"size_expr\": \"arg0.shape[0]\", \"depth\": 9, \
             \"measured_peak\": 3, \"ratio\": 3.0, \"bytes_per_thread\": 80}, {\"kernel\": \"k_grad\", \"stack\": 1, \"loc\": \
             \"f.mlir:11:7\", \"type\": \"f32\", \"primal_kept\": false, \"size_expr\": null, \"depth\": 2, \
             \"measured_peak\": null, \"ratio\": null, \"bytes_per_thread\": 24}], \"timings_ms\": {\"parse\": 0.0, \"verify\": 0.0, \
             \"compile\": 0.0, \"compile_kernel\": 0.0, \"launch\": 0.0, \"total\": 0.0}}\n"
        );
        assert!(json(&[], Some(&[]), None, &Timings::default())
            .unwrap()
            .starts_with("{\"fields\": {}, \"adstack\": [], \"timings_ms\": {\"parse\": 0.0, "));
    }

    #[test]
    fn task_report_says_lanes_or_why_scalar() {
        let t = |task, lanes, why: Option<&str>| TaskOut {
            kernel: "k".into(),
            task,
            loc: format!("f.mlir:{}:5", task + 3),
            lanes,
            scalar_reason: why.map(str::to_string),
        };
        let tasks = [
            t(0, 16, None),
            t(1, 1, Some("a serial task runs one thread")),
            t(2, 1, None),
        ];
        let want = "task report:\n\
                    kernel  task  location    code\n\
                    k       #0    f.mlir:3:5  16 SIMD lanes\n\
                    k       #1    f.mlir:4:5  scalar: a serial task runs one thread\n\
                    k       #2    f.mlir:5:5  scalar\n";
        assert_eq!(tasks_text(&tasks, &["k".into()]), want);
        assert_eq!(
            tasks_text(&[], &["k".into()]),
            "task report: the device reports nothing on how it compiled @k\n"
        );
        let j = json(&[], None, Some(&tasks[1..2]), &Timings::default()).unwrap();
        assert!(
            j.contains(r#""tasks": [{"kernel": "k", "task": 1, "loc": "f.mlir:4:5", "lanes": 1, "scalar_reason": "a serial task runs one thread"}]"#),
            "{j}"
        );
    }
}
