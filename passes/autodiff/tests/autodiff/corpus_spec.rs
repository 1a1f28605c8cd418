//! The directives of the gradient corpus (`examples/grad/`, see its README.md): parsing them
//! from a kernel file's `// GRAD-...:` comment lines, and the VALUES syntax they share with
//! qd-run (`--set`, `--arg`).

use std::path::Path;

/// The tolerances a file may override (`GRAD-TOL: fd_atol=1e-7 ; why`).
pub const TOL_KEYS: &[&str] = &["h", "fd_rtol", "fd_atol", "f32_rtol", "f32_atol"];

/// The directives a file gives at most once.
const ONCE: &[&str] = &["SOURCE", "TOL", "STACKS", "AD-STACK-SIZE"];

/// One corpus entry: a kernel file and how to check its gradient.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Spec {
    /// The file the directives came from (the kernel file, or a `.grad` sidecar).
    pub name: String,
    /// The kernel file's text.
    pub src: String,
    /// `GRAD-KERNEL`, in launch order: one kernel, or a sequence differentiated as a whole (a
    /// kernel may come back).
    pub kernels: Vec<String>,
    /// `GRAD-COVERS`: construct tags, in order.
    pub covers: Vec<String>,
    /// `GRAD-SET`: (field, VALUES).
    pub sets: Vec<(String, String)>,
    /// `GRAD-ARG`: (parameter, VALUES); `KERNEL.NAME` gives one kernel of a sequence its own.
    pub args: Vec<(String, String)>,
    /// `GRAD-SEED`: (output field or ndarray parameter, VALUES: one number for every element,
    /// or one per element).
    pub seeds: Vec<(String, String)>,
    /// `GRAD-WRT`: needs_grad fields and active ndarray parameters, by name.
    pub wrt: Vec<String>,
    /// `GRAD-TOL` overrides, (key, value); empty for `default`.
    pub tol: Vec<(String, f64)>,
    pub tol_reason: String,
    /// `GRAD-STACKS`: the expected number of adstacks in the gradient kernel.
    pub stacks: Option<usize>,
    /// `GRAD-AD-STACK-SIZE`: a forced capacity of every adstack.
    pub ad_stack_size: Option<usize>,
}

/// `value ; reason`, with a non-empty reason.
fn with_reason<'a>(what: &str, text: &'a str) -> Result<(&'a str, &'a str), String> {
    match text.split_once(';') {
        Some((v, r)) if !r.trim().is_empty() => Ok((v.trim(), r.trim())),
        _ => Err(format!("{what} needs a reason after ';'")),
    }
}

/// `NAME=REST`.
fn assignment(what: &str, text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
            Ok((n.trim().to_string(), v.trim().to_string()))
        }
        _ => Err(format!("{what} expects NAME=VALUE, got '{text}'")),
    }
}

fn number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("{what}: '{}' is not a number", text.trim()))
}

/// Reads the directives of `directives` (the text of `name`); `src` is the kernel file's text
/// (`directives` itself, or the file a sidecar's `GRAD-SOURCE` names: `source` resolves it).
pub fn parse(
    name: &str,
    directives: &str,
    source: &dyn Fn(&str) -> Result<String, String>,
) -> Result<Spec, String> {
    let mut s = Spec {
        name: name.to_string(),
        ..Spec::default()
    };
    let (mut src, mut tol) = (None, None);
    let mut once: Vec<&str> = Vec::new();
    for (i, line) in directives.lines().enumerate() {
        let Some(d) = line.trim_start().strip_prefix("// GRAD-") else {
            continue;
        };
        let at = |m: String| format!("{name}:{}: {m}", i + 1);
        let Some((key, value)) = d.split_once(':') else {
            return Err(at(format!("'GRAD-{d}' has no ':'")));
        };
        let value = value.trim();
        let r: Result<(), String> = (|| {
            if ONCE.contains(&key) {
                if once.contains(&key) {
                    return Err(format!("GRAD-{key} given twice"));
                }
                once.push(key);
            }
            match key {
                "KERNEL" => s.kernels.push(value.to_string()),
                "SOURCE" => src = Some(source(value)?),
                "COVERS" => s.covers.extend(
                    value
                        .split(',')
                        .map(|t| t.trim().to_string())
                        .filter(|t| !t.is_empty()),
                ),
                "SET" => s.sets.push(assignment("GRAD-SET", value)?),
                "ARG" => s.args.push(assignment("GRAD-ARG", value)?),
                "SEED" => {
                    let (f, v) = assignment("GRAD-SEED", value)?;
                    seed_syntax(&v)?;
                    s.seeds.push((f, v));
                }
                "WRT" => s.wrt.push(value.to_string()),
                "STACKS" => s.stacks = Some(number("GRAD-STACKS", value)?),
                "AD-STACK-SIZE" => {
                    let (n, _) = with_reason("GRAD-AD-STACK-SIZE", value)?;
                    s.ad_stack_size = Some(number("GRAD-AD-STACK-SIZE", n)?);
                }
                "TOL" => {
                    let (settings, reason) = with_reason("GRAD-TOL", value)?;
                    s.tol_reason = reason.to_string();
                    if settings != "default" {
                        for kv in settings.split_whitespace() {
                            let (k, v) = assignment("GRAD-TOL", kv)?;
                            if !TOL_KEYS.contains(&k.as_str()) {
                                return Err(format!(
                                    "unknown tolerance '{k}' (one of {})",
                                    TOL_KEYS.join(", ")
                                ));
                            }
                            s.tol.push((k, number("GRAD-TOL", &v)?));
                        }
                    }
                    tol = Some(());
                }
                _ => return Err(format!("unknown directive 'GRAD-{key}'")),
            }
            Ok(())
        })();
        r.map_err(at)?;
    }
    let missing = |what: &str| format!("{name}: no GRAD-{what} directive");
    if s.kernels.is_empty() {
        return Err(missing("KERNEL"));
    }
    tol.ok_or_else(|| missing("TOL (every file justifies its tolerances)"))?;
    if s.covers.is_empty() {
        return Err(missing("COVERS"));
    }
    if s.seeds.is_empty() {
        return Err(missing("SEED"));
    }
    if s.wrt.is_empty() {
        return Err(missing("WRT"));
    }
    s.src = match src {
        Some(t) => t,
        None if name.ends_with(".mlir") => directives.to_string(),
        None => return Err(missing("SOURCE (a sidecar names its kernel file)")),
    };
    Ok(s)
}

/// Checks a seed's VALUES where it can without the output's size: a list's items are numbers.
fn seed_syntax(v: &str) -> Result<(), String> {
    let head = v.rsplit_once(':').map_or(v, |(h, _)| h).trim();
    if ["fill(", "linspace(", "arange("]
        .iter()
        .any(|f| head.starts_with(f))
    {
        return Ok(());
    }
    for item in head.split(',') {
        number::<f64>("GRAD-SEED", item)?;
    }
    Ok(())
}

/// Reads `path` (a kernel file or a `.grad` sidecar, whose GRAD-SOURCE is relative to it).
pub fn read(path: &Path) -> Result<Spec, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let dir = path.parent().unwrap().to_path_buf();
    parse(&name, &text, &|rel| {
        let p = dir.join(rel);
        std::fs::read_to_string(&p).map_err(|e| format!("GRAD-SOURCE {}: {e}", p.display()))
    })
}

/// The numbers of a VALUES (qd-run's syntax without .npy files): `1,2,3`, `fill(v)`,
/// `linspace(a,b)` (numpy's, end point included), `arange()`, with an optional `:SHAPE`
/// (`:8`, `:4x3`). `count` is the element count when the shape comes from elsewhere (a field);
/// returns the shape (the given one, or `[len]` for a list) and the values.
pub fn values(text: &str, count: Option<usize>) -> Result<(Vec<usize>, Vec<f64>), String> {
    let (head, shape) = match text.rsplit_once(':') {
        Some((h, t)) => {
            let dims: Result<Vec<usize>, _> = t.trim().split('x').map(str::parse).collect();
            let dims = dims.map_err(|_| format!("bad shape ':{t}'"))?;
            (h.trim(), Some(dims))
        }
        None => (text.trim(), None),
    };
    let call = |f: &str| {
        head.strip_prefix(f)
            .and_then(|r| r.strip_prefix('('))
            .and_then(|r| r.strip_suffix(')'))
    };
    let n = shape.as_ref().map(|s| s.iter().product()).or(count);
    let sized = |what: &str| n.ok_or_else(|| format!("{what} needs a shape, as in {head}:8"));
    let data: Vec<f64> = if let Some(v) = call("fill") {
        vec![number("fill(v)", v)?; sized("fill(v)")?]
    } else if let Some(ab) = call("linspace") {
        let Some((a, b)) = ab.split_once(',') else {
            return Err(format!("bad '{head}': linspace takes two numbers"));
        };
        let (a, b): (f64, f64) = (number("linspace", a)?, number("linspace", b)?);
        let n = sized("linspace(a,b)")?;
        let step = if n > 1 { (b - a) / (n - 1) as f64 } else { 0.0 };
        (0..n)
            .map(|i| {
                if n > 1 && i == n - 1 {
                    b
                } else {
                    a + i as f64 * step
                }
            })
            .collect()
    } else if call("arange") == Some("") {
        (0..sized("arange()")?).map(|i| i as f64).collect()
    } else {
        head.split(',')
            .map(|v| number("a list", v))
            .collect::<Result<_, _>>()?
    };
    if let Some(n) = n {
        if data.len() != n {
            return Err(format!("'{text}' has {} values, expected {n}", data.len()));
        }
    }
    let shape = shape.unwrap_or_else(|| vec![data.len()]);
    Ok((shape, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_source(p: &str) -> Result<String, String> {
        Err(format!("no file {p}"))
    }

    const GOOD: &str = "// GRAD-KERNEL: compute
// GRAD-COVERS: while-exit, break
// GRAD-COVERS: local-array
// GRAD-SET: n=12
// GRAD-SET: x=linspace(0.1,0.9)
// GRAD-ARG: a=0,3,7,1:4
// GRAD-SEED: y=1
// GRAD-SEED: z=-0.5
// GRAD-WRT: x
// GRAD-WRT: w
// GRAD-TOL: h=1e-6 fd_atol=1e-7 ; the while moves x by at most 1.3^14
// GRAD-STACKS: 2
// GRAD-AD-STACK-SIZE: 64 ; a scalar-argument bound
module {}
";

    #[test]
    fn every_directive() {
        let s = parse("k.mlir", GOOD, &no_source).unwrap();
        assert_eq!(s.kernels, ["compute"]);
        assert_eq!(s.covers, ["while-exit", "break", "local-array"]);
        assert_eq!(s.sets[1], ("x".into(), "linspace(0.1,0.9)".into()));
        assert_eq!(s.args, [("a".into(), "0,3,7,1:4".into())]);
        assert_eq!(
            s.seeds,
            [("y".into(), "1".into()), ("z".into(), "-0.5".into())]
        );
        assert_eq!(s.wrt, ["x", "w"]);
        assert_eq!(s.tol, [("h".into(), 1e-6), ("fd_atol".into(), 1e-7)]);
        assert_eq!(s.tol_reason, "the while moves x by at most 1.3^14");
        assert_eq!((s.stacks, s.ad_stack_size), (Some(2), Some(64)));
        assert_eq!(s.src, GOOD);
    }

    #[test]
    fn a_sidecar_names_its_source() {
        let side = "// GRAD-SOURCE: ../k.mlir\n// GRAD-KERNEL: k\n// GRAD-COVERS: t\n\
                    // GRAD-SEED: y=1\n// GRAD-WRT: x\n// GRAD-TOL: default ; smooth\n";
        let s = parse("k.grad", side, &|p| Ok(format!("text of {p}"))).unwrap();
        assert_eq!(s.src, "text of ../k.mlir");
        assert!(s.tol.is_empty());
        let e = parse(
            "k.grad",
            &side.replace("// GRAD-SOURCE: ../k.mlir\n", ""),
            &no_source,
        );
        assert!(e.unwrap_err().contains("no GRAD-SOURCE"));
        let e = parse("k.grad", side, &no_source).unwrap_err();
        assert_eq!(e, "k.grad:1: no file ../k.mlir");
    }

    #[test]
    fn mistakes_are_reported_with_their_line() {
        let bad = |from: &str, to: &str| parse("k.mlir", &GOOD.replace(from, to), &no_source);
        let e = |from: &str, to: &str| bad(from, to).unwrap_err();
        assert_eq!(
            e("GRAD-WRT: w", "GRAD-WRTT: w"),
            "k.mlir:10: unknown directive 'GRAD-WRTT'"
        );
        assert_eq!(
            e(" ; the while moves x by at most 1.3^14", ""),
            "k.mlir:11: GRAD-TOL needs a reason after ';'"
        );
        assert!(e("fd_atol=1e-7", "atol=1e-7").contains("unknown tolerance 'atol'"));
        assert!(e(" ; a scalar-argument bound", " ;").contains("needs a reason"));
        assert!(e("y=1", "y=one").contains("'one' is not a number"));
        assert!(e("GRAD-KERNEL: compute", "GRAD-STACKS: 3").contains("GRAD-STACKS given twice"));
        assert!(e("y=1", "y=1,x").contains("'x' is not a number"));
        assert!(e("// GRAD-KERNEL: compute\n", "").contains("no GRAD-KERNEL"));
        assert!(e("// GRAD-TOL", "// XGRAD-TOL").contains("no GRAD-TOL"));
        assert!(e("// GRAD-SEED: y=1\n// GRAD-SEED: z=-0.5\n", "").contains("no GRAD-SEED"));
        assert!(e("// GRAD-SET: n=12", "// GRAD-SET n=12").contains("has no ':'"));
    }

    #[test]
    fn a_repeated_kernel_is_a_sequence_and_seeds_take_values() {
        let seq = GOOD
            .replace(
                "// GRAD-KERNEL: compute\n",
                "// GRAD-KERNEL: a\n// GRAD-KERNEL: b\n// GRAD-KERNEL: a\n",
            )
            .replace("y=1", "y=0,0,1:3")
            .replace("z=-0.5", "out=fill(2)");
        let s = parse("k.mlir", &seq, &no_source).unwrap();
        assert_eq!(s.kernels, ["a", "b", "a"]);
        assert_eq!(
            s.seeds,
            [
                ("y".into(), "0,0,1:3".into()),
                ("out".into(), "fill(2)".into())
            ]
        );
    }

    #[test]
    fn values_follow_qd_run() {
        assert_eq!(
            values("1,2.5,3", None).unwrap(),
            (vec![3], vec![1.0, 2.5, 3.0])
        );
        assert_eq!(values("0,3,7,1:4", None).unwrap().0, vec![4]);
        assert_eq!(
            values("fill(0.5):2x2", None).unwrap(),
            (vec![2, 2], vec![0.5; 4])
        );
        assert_eq!(values("arange()", Some(3)).unwrap().1, vec![0.0, 1.0, 2.0]);
        let (_, l) = values("linspace(0,1.5)", Some(16)).unwrap();
        assert_eq!((l[0], l[15], l.len()), (0.0, 1.5, 16));
        assert!((l[1] - 0.1).abs() < 1e-15);
        assert!(values("linspace(0,1)", None)
            .unwrap_err()
            .contains("needs a shape"));
        assert!(values("1,2", Some(3)).unwrap_err().contains("expected 3"));
        assert!(values("1,2:3", None).unwrap_err().contains("expected 3"));
        assert!(values("1,x", None).is_err());
        assert!(values("1:y", None).unwrap_err().contains("bad shape"));
    }
}
