//! The gradient corpus: every kernel of `examples/grad/` (`.mlir` files with `// GRAD-...`
//! directives, and `.grad` sidecars giving the inputs of the shared `examples/*.mlir`), each
//! differentiated by reverse-mode-ad, its stacks minimized by minimize-tape and sized by
//! determine-ad-stack-size (as qd-run --grad does), and checked by
//! [`try_check`] against central finite differences in f64. Prints a table: file, constructs, the
//! number of adstacks in the gradient kernel, and the worst error over its tolerance.
//!
//! The directive syntax is documented in `examples/grad/README.md` and parsed in `corpus_spec`.

use super::common::context;
use super::corpus_spec::{self, values, Spec};
use super::gradcheck::{try_check, ArgSpec, GradCase, Wrt};
use qd_frontend::{FieldOp, KernelOp, NdarrayType};
use qd_ir::text::parse_source;
use qd_ir::Context;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// The constructs of the [reverse-ad] issue's corpus: each must be covered by some file.
const REQUIRED: &[&str] = &[
    "while-exit",
    "break",
    "if-else",
    "shape-trip",
    "local-struct",
    "field-trip",
    "ndarray-read-trip",
    "triangular",
    "reversed-triangular",
    "sibling-loops",
    "nested-loops",
    "mixed-f32-i32",
    "branch-in-loop",
    "local-array",
    "atomic-scalar",
    "several-outputs",
];

/// The environment variable naming another directory to check instead of `examples/grad/` (to
/// try out new kernels: the count and coverage requirements then do not apply).
const DIR_VAR: &str = "QD_GRAD_CORPUS";

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/grad")
}

/// Every corpus file (`.mlir` and `.grad`) of `dir`, sorted by name, then those of its `peer/`
/// folder when it has one (`examples/grad/peer/`: ports of the peer's autodiff tests).
fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = kernel_files(dir);
    let peer = dir.join("peer");
    if peer.is_dir() {
        files.extend(kernel_files(&peer));
    }
    files
}

/// The `.mlir` and `.grad` files of `dir`, sorted by name.
fn kernel_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("mlir" | "grad")
            )
        })
        .collect();
    files.sort();
    files
}

/// `s` as a `&'static str`: the harness names fields and kernels by static strings, and the
/// corpus lives as long as the test binary.
fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// What the module declares: field element counts, and each kernel's parameters (name,
/// ndarray?), for the spec's kernels (each once, in order of first launch).
struct Signature {
    fields: Vec<(String, usize)>,
    kernels: Vec<(String, Vec<(String, bool)>)>,
}

fn signature(spec: &Spec) -> Result<Signature, String> {
    let mut ctx = context();
    let file = spec.name.as_str();
    let Some(m) = parse_source(&mut ctx, &spec.src, file) else {
        return Err(format!("{file}: the kernel file does not parse"));
    };
    let ops = ctx.region_ops(ctx.region(m, 0));
    let fields = ops
        .iter()
        .filter_map(|&o| FieldOp::from_op(&ctx, o))
        .map(|f| {
            (
                f.name(&ctx).to_string(),
                f.shape(&ctx).iter().product::<i64>() as usize,
            )
        })
        .collect();
    let mut kernels: Vec<(String, Vec<(String, bool)>)> = Vec::new();
    for name in &spec.kernels {
        if kernels.iter().any(|(k, _)| k == name) {
            continue;
        }
        let kernel = ops
            .iter()
            .filter_map(|&o| KernelOp::from_op(&ctx, o))
            .find(|k| k.name(&ctx) == name)
            .ok_or_else(|| format!("{file}: no kernel @{name}"))?;
        let params = kernel
            .args(&ctx)
            .iter()
            .map(|&a| {
                let ty = ctx.value_type(a);
                (
                    param_name(&ctx, a, &spec.src),
                    NdarrayType::from_type(&ctx, ty).is_some(),
                )
            })
            .collect();
        kernels.push((name.clone(), params));
    }
    Ok(Signature { fields, kernels })
}

/// A kernel parameter's name: the `%name` its location points at (as qd-run reads it).
fn param_name(ctx: &Context, a: qd_ir::Value, src: &str) -> String {
    let (_, line, col) = ctx
        .file_line_col(ctx.value_loc(a))
        .expect("a located parameter");
    let text = src.lines().nth(line as usize - 1).unwrap_or("");
    text[col as usize - 1..]
        .trim_start_matches('%')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "_$.-".contains(*c))
        .collect()
}

/// The arguments of a spec, as qd-run builds them (tools/qd-run/src/launches.rs): `NAME` gives
/// every kernel with that parameter one shared value, `KERNEL.NAME` one kernel its own.
struct Pool {
    /// The GRAD-ARG name of each argument, and whether it is an ndarray.
    args: Vec<(String, bool)>,
    /// Per kernel of the signature: the argument of each parameter.
    of: Vec<Vec<usize>>,
}

impl Pool {
    fn build(spec: &Spec, sig: &Signature) -> Result<Pool, String> {
        let file = &spec.name;
        let kernel_names: Vec<&str> = sig.kernels.iter().map(|(k, _)| k.as_str()).collect();
        for (a, _) in &spec.args {
            let known = match a.split_once('.') {
                Some((k, p)) if kernel_names.contains(&k) => sig
                    .kernels
                    .iter()
                    .any(|(n, ps)| n == k && ps.iter().any(|x| x.0 == p)),
                _ => sig
                    .kernels
                    .iter()
                    .any(|(_, ps)| ps.iter().any(|x| &x.0 == a)),
            };
            if !known {
                let k = spec.kernels.join(", @");
                return Err(format!("{file}: @{k} has no parameter %{a}"));
            }
        }
        let mut pool = Pool {
            args: Vec::new(),
            of: Vec::new(),
        };
        for (k, params) in &sig.kernels {
            let mut mine = Vec::new();
            for (p, nd) in params {
                let q = format!("{k}.{p}");
                let key = if spec.args.iter().any(|(n, _)| *n == q) {
                    q
                } else if spec.args.iter().any(|(n, _)| n == p) {
                    p.clone()
                } else {
                    return Err(format!("{file}: no GRAD-ARG for parameter %{p}"));
                };
                let i = match pool.args.iter().position(|(n, _)| *n == key) {
                    Some(i) => i,
                    None => {
                        pool.args.push((key, *nd));
                        pool.args.len() - 1
                    }
                };
                mine.push(i);
            }
            pool.of.push(mine);
        }
        Ok(pool)
    }

    /// The ndarray argument `name` names (plain or qualified), when exactly one does.
    fn ndarray(&self, name: &str, sig: &Signature) -> Option<usize> {
        let mut found: Vec<usize> = Vec::new();
        for ((k, params), args) in sig.kernels.iter().zip(&self.of) {
            for ((p, nd), &a) in params.iter().zip(args) {
                let named = p == name || format!("{k}.{p}") == name;
                if *nd && named && !found.contains(&a) {
                    found.push(a);
                }
            }
        }
        match found[..] {
            [a] => Some(a),
            _ => None,
        }
    }
}

/// The gradient case a spec describes.
pub fn case(spec: &Spec) -> Result<GradCase, String> {
    let file = &spec.name;
    let sig = signature(spec)?;
    let count = |f: &str| {
        sig.fields
            .iter()
            .find(|(n, _)| n == f)
            .map(|(_, c)| *c)
            .ok_or_else(|| format!("{file}: no field @{f}"))
    };
    let mut c = GradCase::new(spec.src.clone(), leak(&spec.kernels[0])).sized();
    for (f, v) in &spec.sets {
        let (_, data) = values(v, Some(count(f)?)).map_err(|e| format!("{file}: {f}: {e}"))?;
        c = c.field(leak(f), data);
    }
    let pool = Pool::build(spec, &sig)?;
    let mut sizes = Vec::new();
    for (name, nd) in &pool.args {
        let v = &spec.args.iter().rev().find(|(n, _)| n == name).unwrap().1;
        let (shape, data) = values(v, None).map_err(|e| format!("{file}: {name}: {e}"))?;
        sizes.push(data.len());
        c = c.arg(match (nd, data.as_slice()) {
            (true, _) => ArgSpec::Ndarray { shape, data },
            (false, [x]) => ArgSpec::Scalar(*x),
            (false, _) => return Err(format!("{file}: %{name} is a scalar: give one value")),
        });
    }
    if spec.kernels.len() > 1 {
        for k in &spec.kernels {
            let i = sig.kernels.iter().position(|(n, _)| n == k).unwrap();
            c = c.launch(leak(k), pool.of[i].clone());
        }
    }
    for (name, v) in &spec.seeds {
        // One number seeds every element; otherwise one value per element.
        let broadcast = |n: usize| match v.trim().parse::<f64>() {
            Ok(x) => Ok(vec![x; n]),
            Err(_) => values(v, Some(n)).map(|(_, d)| d),
        };
        let at = |e: String| format!("{file}: GRAD-SEED {name}: {e}");
        if let Ok(n) = count(name) {
            c = c.seed(leak(name), broadcast(n).map_err(at)?);
        } else if let Some(a) = pool.ndarray(name, &sig) {
            c = c.seed_arg(a, broadcast(sizes[a]).map_err(at)?);
        } else {
            return Err(at("not a field nor an ndarray parameter".into()));
        }
    }
    for w in &spec.wrt {
        if let Some(a) = pool.ndarray(w, &sig) {
            c = c.wrt(Wrt::Arg(a));
        } else if spec.sets.iter().any(|(f, _)| f == w) {
            c = c.wrt(Wrt::Field(leak(w)));
        } else {
            return Err(format!(
                "{file}: GRAD-WRT {w}: not an ndarray parameter nor a field given by GRAD-SET"
            ));
        }
    }
    for (k, v) in &spec.tol {
        match k.as_str() {
            "h" => c.h = *v,
            "fd_rtol" => c.fd_rtol = *v,
            "fd_atol" => c.fd_atol = *v,
            "f32_rtol" => c.f32_rtol = *v,
            _ => c.f32_atol = *v,
        }
    }
    c.ad_stack_size = spec.ad_stack_size;
    Ok(c)
}

/// One row of the table.
struct Row {
    file: String,
    covers: String,
    stacks: String,
    fd_ratio: String,
    f32_ratio: String,
    failure: Option<String>,
}

fn run(path: &Path) -> Row {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut row = Row {
        file: name.clone(),
        covers: String::new(),
        stacks: "-".into(),
        fd_ratio: "-".into(),
        f32_ratio: "-".into(),
        failure: None,
    };
    let spec = match corpus_spec::read(path) {
        Ok(s) => s,
        Err(e) => {
            row.failure = Some(e);
            return row;
        }
    };
    row.covers = spec.covers.join(", ");
    let c = match case(&spec) {
        Ok(c) => c,
        Err(e) => {
            row.failure = Some(e);
            return row;
        }
    };
    // A mismatch is an Err; a failure before the comparison (the pass, the sizing, a launch)
    // panics, and is caught so that the table still shows every file.
    let r = match catch_unwind(AssertUnwindSafe(|| try_check(&c))) {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            row.failure = Some(format!("{name}: {e}"));
            return row;
        }
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panicked".into());
            row.failure = Some(format!("{name}: {msg}"));
            return row;
        }
    };
    row.stacks = r.stacks.to_string();
    row.fd_ratio = format!("{:.3}", r.fd_error_ratio(&c));
    row.f32_ratio = format!("{:.3}", r.f32_error_ratio(&c));
    let mut problems = Vec::new();
    if let Some(want) = spec.stacks {
        if want != r.stacks {
            problems.push(format!(
                "GRAD-STACKS says {want}, the gradient kernel has {}",
                r.stacks
            ));
        }
    }
    // A gradient that is zero everywhere checks nothing.
    for (w, fd) in spec.wrt.iter().zip(&r.fd) {
        if fd.is_empty() || fd.iter().all(|&g| g == 0.0) {
            problems.push(format!(
                "the gradient with respect to {w} is zero: pick other inputs"
            ));
        }
    }
    if !problems.is_empty() {
        row.failure = Some(format!("{name}: {}", problems.join("; ")));
    }
    row
}

fn table(rows: &[Row]) -> String {
    let head = [
        "file",
        "constructs",
        "stacks",
        "max|ad64-fd|/tol",
        "max|ad32-ad64|/tol",
    ];
    let mut cells: Vec<Vec<String>> = vec![head.iter().map(|s| s.to_string()).collect()];
    for r in rows {
        cells.push(vec![
            r.file.clone(),
            r.covers.clone(),
            r.stacks.clone(),
            r.fd_ratio.clone(),
            r.f32_ratio.clone(),
        ]);
    }
    let widths: Vec<usize> = (0..head.len())
        .map(|i| cells.iter().map(|c| c[i].len()).max().unwrap_or(0))
        .collect();
    cells.insert(1, widths.iter().map(|w| "-".repeat(*w)).collect());
    cells
        .iter()
        .map(|c| {
            let cols: Vec<String> = c
                .iter()
                .zip(&widths)
                .map(|(s, w)| format!("{s:w$}"))
                .collect();
            format!("| {} |\n", cols.join(" | "))
        })
        .collect()
}

#[test]
fn every_corpus_kernel_matches_finite_differences() {
    let other = std::env::var_os(DIR_VAR).map(PathBuf::from);
    let files = corpus_files(other.as_deref().unwrap_or(&corpus_dir()));
    let rows: Vec<Row> = files.iter().map(|p| run(p)).collect();
    println!("{}", table(&rows));
    let failures: Vec<&str> = rows.iter().filter_map(|r| r.failure.as_deref()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    if other.is_some() {
        return;
    }
    assert!(
        rows.len() >= 25,
        "the corpus has {} kernels, wants 25",
        rows.len()
    );
    let covered: Vec<&str> = rows.iter().flat_map(|r| r.covers.split(", ")).collect();
    let missing: Vec<&&str> = REQUIRED.iter().filter(|t| !covered.contains(t)).collect();
    assert!(missing.is_empty(), "no corpus file covers {missing:?}");
}

#[test]
fn the_shared_examples_are_in_the_corpus() {
    // Each example of examples/ is referenced by a sidecar, not copied.
    for ex in [
        "control_flow",
        "dynamic_loop",
        "local_array",
        "ndarray_bound",
        "triangular",
    ] {
        let side = corpus_dir().join(format!("{ex}.grad"));
        let spec = corpus_spec::read(&side).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            spec.src,
            super::common::example(&format!("{ex}.mlir")),
            "{ex}"
        );
    }
}

#[test]
fn a_spec_naming_a_missing_parameter_or_field_is_an_error() {
    let src = "module {\n  qd.field @x : !qd.field<2xf32> {needs_grad}\n  qd.field @y : !qd.field<f32> {needs_grad}\n  qd.kernel @k(%w: !qd.ndarray<?xf32>, %s: f32) {\n  }\n}\n";
    let spec = |extra: &str| Spec {
        name: "t.mlir".into(),
        src: src.into(),
        kernels: vec!["k".into()],
        covers: vec!["t".into()],
        sets: vec![("x".into(), "1,2".into())],
        args: vec![("w".into(), "fill(1):3".into()), ("s".into(), "2".into())],
        seeds: vec![("y".into(), "1".into())],
        wrt: vec![extra.into()],
        ..Spec::default()
    };
    let c = case(&spec("w")).unwrap();
    assert!(matches!(c.wrt[..], [Wrt::Arg(0)]));
    assert!(matches!(c.args[1], ArgSpec::Scalar(s) if s == 2.0));
    assert!(matches!(
        case(&spec("x")).unwrap().wrt[..],
        [Wrt::Field("x")]
    ));
    assert!(case(&spec("z")).unwrap_err().contains("GRAD-WRT z"));
    let mut s = spec("x");
    s.args.pop();
    assert!(case(&s)
        .unwrap_err()
        .contains("no GRAD-ARG for parameter %s"));
    s.args.push(("t".into(), "1".into()));
    s.args.push(("s".into(), "1".into()));
    assert!(case(&s).unwrap_err().contains("no parameter %t"));
    let mut s = spec("x");
    s.sets[0].1 = "1,2,3".into();
    assert!(case(&s).unwrap_err().contains("expected 2"));
    let mut s = spec("x");
    s.args[1].1 = "1,2".into();
    assert!(case(&s).unwrap_err().contains("is a scalar"));
}

#[test]
fn a_sequence_spec_shares_plain_arguments_and_seeds_ndarrays() {
    let src = "module {\n  qd.field @y : !qd.field<2xf32> {needs_grad}\n  qd.kernel @a(%w: !qd.ndarray<?xf32>, %s: f32) {\n  }\n  qd.kernel @b(%w: !qd.ndarray<?xf32>, %s: i32) {\n  }\n}\n";
    let spec = Spec {
        name: "t.mlir".into(),
        src: src.into(),
        kernels: vec!["a".into(), "b".into(), "a".into()],
        covers: vec!["t".into()],
        args: vec![
            ("w".into(), "1,2,3".into()),
            ("a.s".into(), "0.5".into()),
            ("b.s".into(), "2".into()),
        ],
        seeds: vec![("y".into(), "0,1".into()), ("w".into(), "2".into())],
        wrt: vec!["w".into()],
        ..Spec::default()
    };
    let c = case(&spec).unwrap();
    // w is one ndarray shared by both kernels; s is each kernel's own.
    let launches: Vec<(&str, Vec<usize>)> = c.launches.clone();
    assert_eq!(
        launches,
        [("a", vec![0, 1]), ("b", vec![0, 2]), ("a", vec![0, 1])]
    );
    assert_eq!(c.seeds, [("y", vec![0.0, 1.0])]);
    assert_eq!(c.arg_seeds, [(0, vec![2.0; 3])]);
    assert!(matches!(c.wrt[..], [Wrt::Arg(0)]));
    let mut bad = spec.clone();
    bad.seeds[0].1 = "1,2,3".into();
    assert!(case(&bad).unwrap_err().contains("GRAD-SEED y:"));
    let mut bad = spec.clone();
    bad.args.push(("b.q".into(), "1".into()));
    assert!(case(&bad).unwrap_err().contains("has no parameter %b.q"));
    let mut bad = spec;
    bad.args.remove(2);
    assert!(case(&bad)
        .unwrap_err()
        .contains("no GRAD-ARG for parameter %s"));
}
