//! The VALUES of `--set FIELD=VALUES` and `--arg NAME=VALUES`:
//!
//! ```text
//! VALUES := SOURCE [':' SHAPE]          SHAPE := N ('x' N)*            (e.g. :8, :4x3)
//! SOURCE := v1,v2,...                   a comma list
//!         | fill(v)                     every element v
//!         | linspace(a,b)               numpy.linspace(a, b, count): b included (float types)
//!         | arange()                    0, 1, ..., count - 1
//!         | PATH.npy                    a NumPy file (its shape is the file's)
//! ```
//!
//! For a field, the count is the field's element count (a SHAPE, if given, must be the field's;
//! a .npy must have the field's shape or be 1-D with as many elements). For an ndarray argument
//! the shape is SHAPE, or the list's length for a list, or the file's; fill/linspace/arange need
//! a SHAPE. A scalar argument takes one value. Values convert exactly to the element type:
//! integers must be integral and in range; floats round to the type.

use crate::npy;
use qd_runtime::{DType, Ndarray, Scalar, Storage};

#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    List(Vec<String>),
    Fill(String),
    Linspace(f64, f64),
    Arange,
    Npy(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ValueSpec {
    pub source: Source,
    pub shape: Option<Vec<usize>>,
}

fn is_npy(s: &str) -> bool {
    s.to_ascii_lowercase().ends_with(".npy")
}

fn parse_shape(s: &str) -> Result<Vec<usize>, String> {
    s.split('x')
        .map(|d| {
            if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!(
                    "bad shape '{s}' (expected extents separated by 'x', like 8 or 4x3)"
                ));
            }
            d.parse::<usize>()
                .map_err(|_| format!("extent {d} of shape '{s}' is too large"))
        })
        .collect()
}

/// The argument of `name(...)` when `s` is such a call.
fn call<'a>(s: &'a str, name: &str) -> Option<&'a str> {
    s.strip_prefix(name)?
        .trim_start()
        .strip_prefix('(')?
        .strip_suffix(')')
        .map(str::trim)
}

fn number(s: &str, what: &str) -> Result<f64, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("bad {what} '{}' in linspace(a,b): not a number", s.trim()))
}

impl ValueSpec {
    pub fn parse(text: &str) -> Result<ValueSpec, String> {
        let text = text.trim();
        let (head, shape) = match text.rsplit_once(':') {
            Some((head, tail)) if !is_npy(text) => (head.trim(), Some(parse_shape(tail.trim())?)),
            _ => (text, None),
        };
        if head.is_empty() {
            return Err("no values given".into());
        }
        let source = if let Some(v) = call(head, "fill") {
            if v.is_empty() || v.contains(',') {
                return Err(format!(
                    "bad '{head}': fill takes one value, as in fill(0.5)"
                ));
            }
            Source::Fill(v.to_string())
        } else if let Some(args) = call(head, "linspace") {
            match args.split(',').collect::<Vec<_>>()[..] {
                [a, b] => Source::Linspace(number(a, "start")?, number(b, "end")?),
                _ => {
                    return Err(format!(
                        "bad '{head}': linspace takes two numbers, as in linspace(0,1.5)"
                    ))
                }
            }
        } else if let Some(args) = call(head, "arange") {
            if !args.is_empty() {
                return Err(format!(
                    "bad '{head}': arange takes no arguments (it counts 0, 1, ...)"
                ));
            }
            Source::Arange
        } else if is_npy(head) {
            Source::Npy(head.to_string())
        } else if head.contains('(') || head.contains(')') {
            return Err(format!(
                "bad values '{head}': expected a comma list, fill(v), linspace(a,b), arange() or a .npy file"
            ));
        } else {
            let items: Vec<String> = head.split(',').map(|s| s.trim().to_string()).collect();
            if items.iter().any(String::is_empty) {
                return Err(format!("bad list '{head}': empty value"));
            }
            Source::List(items)
        };
        Ok(ValueSpec { source, shape })
    }

    /// A name for messages: `fill(...)`, `a list of 3 values`.
    fn describe(&self) -> String {
        match &self.source {
            Source::List(v) => format!("a list of {} value{}", v.len(), plural(v.len())),
            Source::Fill(_) => "fill(...)".into(),
            Source::Linspace(..) => "linspace(...)".into(),
            Source::Arange => "arange()".into(),
            Source::Npy(p) => format!("'{p}'"),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// `count` values of `dtype` from a non-file source.
fn generate(source: &Source, dtype: DType, count: usize) -> Result<Storage, String> {
    let mut out = Storage::zeros(dtype, count)?;
    let values: Box<dyn Fn(usize) -> Result<Scalar, String>> = match source {
        Source::List(items) => {
            if items.len() != count {
                return Err(format!(
                    "expected {count} value{}, got {}",
                    plural(count),
                    items.len()
                ));
            }
            Box::new(move |i| Scalar::parse(dtype, &items[i]))
        }
        Source::Fill(v) => {
            let s = Scalar::parse(dtype, v)?;
            Box::new(move |_| Ok(s))
        }
        Source::Linspace(a, b) => {
            if !dtype.is_float() {
                return Err(format!(
                    "linspace(a,b) needs a float element type, not {dtype}"
                ));
            }
            let (a, b) = (*a, *b);
            let step = if count > 1 {
                (b - a) / (count - 1) as f64
            } else {
                0.0
            };
            // numpy.linspace: a + i * step, with the end point exactly b.
            Box::new(move |i| {
                let v = if count > 1 && i == count - 1 {
                    b
                } else {
                    a + i as f64 * step
                };
                Scalar::from_f64(dtype, v)
            })
        }
        Source::Arange => Box::new(move |i| Scalar::from_i128(dtype, i as i128)),
        Source::Npy(_) => return Err("internal: .npy files are read elsewhere".into()),
    };
    for i in 0..count {
        out.set(i, values(i)?)?;
    }
    Ok(out)
}

/// Converts a file's data to `dtype` (exactly; see `Scalar::convert`).
fn convert(nd: &Ndarray, dtype: DType) -> Result<Storage, String> {
    if nd.dtype() == dtype {
        return Ok(nd.data().clone());
    }
    Storage::from_scalars(dtype, &nd.data().to_scalars())
}

/// The contents of a field of `dtype` and `shape`.
pub fn for_field(spec: &ValueSpec, dtype: DType, shape: &[usize]) -> Result<Storage, String> {
    if let Some(s) = &spec.shape {
        if s != shape {
            return Err(format!("the field has shape {shape:?}, not {s:?}"));
        }
    }
    let count: usize = shape.iter().product();
    match &spec.source {
        Source::Npy(path) => {
            let nd = npy::read(path)?;
            if nd.len() != count || (nd.shape() != shape && nd.rank() > 1) {
                return Err(format!(
                    "'{path}' has shape {:?}, the field {shape:?}",
                    nd.shape()
                ));
            }
            convert(&nd, dtype)
        }
        source => generate(source, dtype, count),
    }
}

/// The seed of an adjoint of `dtype` and `shape` (a field's, or an ndarray argument's): one
/// number sets every element (`--grad y=1`); any other VALUES gives every element, as for a
/// field (`--grad y=0,0,1,0`, `fill(v)`, `linspace(a,b)`, `arange()`, a .npy file, a shape).
pub fn for_seed(spec: &ValueSpec, dtype: DType, shape: &[usize]) -> Result<Storage, String> {
    let count: usize = shape.iter().product();
    match (&spec.source, &spec.shape) {
        (Source::List(items), None) if items.len() == 1 && count != 1 => {
            generate(&Source::Fill(items[0].clone()), dtype, count)
        }
        _ => for_field(spec, dtype, shape).map_err(|e| e.replace("the field", "the adjoint")),
    }
}

/// An ndarray argument of `dtype` and `rank`.
pub fn for_ndarray(spec: &ValueSpec, dtype: DType, rank: usize) -> Result<Ndarray, String> {
    let nd = match (&spec.source, &spec.shape) {
        (Source::Npy(path), shape) => {
            let nd = npy::read(path)?;
            if let Some(s) = shape {
                if s.as_slice() != nd.shape() {
                    return Err(format!("'{path}' has shape {:?}, not {s:?}", nd.shape()));
                }
            }
            Ndarray::new(nd.shape(), convert(&nd, dtype)?)?
        }
        (Source::List(items), None) => {
            Ndarray::new(&[items.len()], generate(&spec.source, dtype, items.len())?)?
        }
        (source, Some(shape)) => {
            let count = qd_runtime::ndarray::checked_num_elements(shape)?;
            Ndarray::new(shape, generate(source, dtype, count)?)?
        }
        (_, None) => {
            return Err(format!(
                "{} needs an explicit shape for an ndarray, as in {}:8 or :4x3",
                spec.describe(),
                spec.describe()
            ))
        }
    };
    if nd.rank() != rank {
        return Err(format!(
            "the parameter is an ndarray of rank {rank}, got shape {:?}",
            nd.shape()
        ));
    }
    Ok(nd)
}

/// A scalar argument of `dtype`.
pub fn for_scalar(spec: &ValueSpec, dtype: DType) -> Result<Scalar, String> {
    if spec.shape.is_some() {
        return Err(format!(
            "the parameter is a scalar {dtype}: it takes no shape"
        ));
    }
    let storage = match &spec.source {
        Source::List(items) if items.len() != 1 => {
            return Err(format!(
                "the parameter is a scalar {dtype}: expected one value, got {}",
                items.len()
            ))
        }
        Source::List(_) | Source::Fill(_) => generate(&spec.source, dtype, 1)?,
        Source::Npy(path) => {
            let nd = npy::read(path)?;
            if nd.len() != 1 {
                return Err(format!(
                    "'{path}' has {} elements; a scalar needs one",
                    nd.len()
                ));
            }
            convert(&nd, dtype)?
        }
        _ => {
            return Err(format!(
                "the parameter is a scalar {dtype}: give one value, not {}",
                spec.describe()
            ))
        }
    };
    storage.get(0).ok_or_else(|| "no value".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(s: &str) -> ValueSpec {
        ValueSpec::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn grammar() {
        assert_eq!(
            spec("1, 2,3").source,
            Source::List(vec!["1".into(), "2".into(), "3".into()])
        );
        assert_eq!(spec("fill( 0.5 )").source, Source::Fill("0.5".into()));
        assert_eq!(spec("linspace(0, 1.5)").source, Source::Linspace(0.0, 1.5));
        assert_eq!(spec("arange()").source, Source::Arange);
        assert_eq!(spec("data/x.npy").source, Source::Npy("data/x.npy".into()));
        assert_eq!(spec("fill(0):4x3").shape, Some(vec![4, 3]));
        assert_eq!(spec("1,2:2").shape, Some(vec![2]));
        assert_eq!(spec("a:b.npy").source, Source::Npy("a:b.npy".into()));
        assert_eq!(spec("x.npy:2x2").shape, Some(vec![2, 2]));
        assert_eq!(spec("-1e-3").source, Source::List(vec!["-1e-3".into()]));
    }

    #[test]
    fn grammar_errors() {
        for (s, want) in [
            ("", "no values"),
            (":4", "no values"),
            ("1,,2", "empty value"),
            ("1,2,", "empty value"),
            ("fill()", "fill takes one value"),
            ("fill(1,2)", "fill takes one value"),
            ("linspace(0)", "two numbers"),
            ("linspace(a,1)", "bad start 'a'"),
            ("arange(3)", "no arguments"),
            ("ones(3)", "expected a comma list"),
            ("1,2:4y3", "bad shape"),
            ("1,2:", "bad shape"),
            ("1,2:x4", "bad shape"),
            ("1:99999999999999999999999", "too large"),
        ] {
            let e = ValueSpec::parse(s).unwrap_err();
            assert!(e.contains(want), "{s}: {e}");
        }
    }

    #[test]
    fn fields() {
        let f = |s: &str, dt, shape: &[usize]| for_field(&spec(s), dt, shape);
        assert_eq!(
            f("1,2,3", DType::I32, &[3]).unwrap(),
            Storage::I32(vec![1, 2, 3].into())
        );
        assert_eq!(
            f("fill(7)", DType::I64, &[2]).unwrap(),
            Storage::I64(vec![7, 7].into())
        );
        assert_eq!(
            f("arange()", DType::F32, &[2, 2]).unwrap(),
            Storage::F32(vec![0.0, 1.0, 2.0, 3.0].into())
        );
        assert_eq!(
            f("512", DType::I32, &[]).unwrap(),
            Storage::I32(vec![512].into())
        );
        let l = f("linspace(0,1.5)", DType::F32, &[16]).unwrap();
        let l = l.as_f32().unwrap();
        assert_eq!((l[0], l[1], l[15]), (0.0, 0.1, 1.5));
        assert_eq!(
            f("linspace(2,3)", DType::F64, &[1]).unwrap(),
            Storage::F64(vec![2.0].into())
        );
        assert_eq!(
            f("1,2:2", DType::F32, &[2]).unwrap(),
            Storage::F32(vec![1.0, 2.0].into())
        );
        for (s, dt, shape, want) in [
            ("1,2", DType::I32, &[3][..], "expected 3 values, got 2"),
            ("1.5", DType::I32, &[1][..], "'1.5' is not an integer"),
            ("300", DType::I8, &[1][..], "does not fit in i8"),
            ("abc", DType::F32, &[1][..], "'abc' is not a number"),
            (
                "linspace(0,1)",
                DType::I32,
                &[4][..],
                "needs a float element type",
            ),
            ("arange()", DType::I1, &[3][..], "does not fit in i1"),
            (
                "1,2:2",
                DType::F32,
                &[1, 2][..],
                "has shape [1, 2], not [2]",
            ),
            (
                "missing.npy",
                DType::F32,
                &[2][..],
                "cannot read 'missing.npy'",
            ),
        ] {
            let e = f(s, dt, shape).unwrap_err();
            assert!(e.contains(want), "{s}: {e}");
        }
    }

    #[test]
    fn ndarrays_and_scalars() {
        let nd = for_ndarray(&spec("0,3,7"), DType::I32, 1).unwrap();
        assert_eq!(
            (nd.shape(), nd.data()),
            (&[3][..], &Storage::I32(vec![0, 3, 7].into()))
        );
        let nd = for_ndarray(&spec("fill(0):4x3"), DType::F32, 2).unwrap();
        assert_eq!(nd.shape(), &[4, 3]);
        let nd = for_ndarray(&spec("arange():5"), DType::I64, 1).unwrap();
        assert_eq!(nd.data(), &Storage::I64(vec![0, 1, 2, 3, 4].into()));
        assert!(for_ndarray(&spec("fill(0)"), DType::F32, 1)
            .unwrap_err()
            .contains("explicit shape"));
        assert!(for_ndarray(&spec("1,2,3"), DType::F32, 2)
            .unwrap_err()
            .contains("rank 2"));
        assert!(for_ndarray(&spec("1,2:3"), DType::F32, 1)
            .unwrap_err()
            .contains("expected 3 values"));
        assert_eq!(for_scalar(&spec("2.0"), DType::F32), Ok(Scalar::F32(2.0)));
        assert_eq!(for_scalar(&spec("fill(3)"), DType::I32), Ok(Scalar::I32(3)));
        assert!(for_scalar(&spec("1,2"), DType::F32)
            .unwrap_err()
            .contains("expected one value, got 2"));
        assert!(for_scalar(&spec("1:1"), DType::F32)
            .unwrap_err()
            .contains("no shape"));
        assert!(for_scalar(&spec("arange()"), DType::F32)
            .unwrap_err()
            .contains("give one value"));
    }

    #[test]
    fn npy_files() {
        let dir = std::env::temp_dir().join(format!("qd-run-values-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let data = Storage::F64(vec![1.0, 2.0, 3.0, 4.0].into());
        let mut bytes = Vec::new();
        npy::encode(&mut bytes, &[2, 2], &data).unwrap();
        std::fs::write(&path, bytes).unwrap();
        let p = path.to_str().unwrap();
        // f8 data converts to an f32 field of the same shape (a 1-D file may fill any shape).
        assert_eq!(
            for_field(&spec(p), DType::F32, &[2, 2]).unwrap(),
            Storage::F32(vec![1.0, 2.0, 3.0, 4.0].into())
        );
        assert!(for_field(&spec(p), DType::F32, &[4])
            .unwrap_err()
            .contains("has shape [2, 2]"));
        assert!(for_field(&spec(p), DType::F32, &[1, 4]).is_err());
        assert_eq!(
            for_field(&spec(p), DType::I32, &[2, 2]).unwrap(),
            Storage::I32(vec![1, 2, 3, 4].into())
        );
        let nd = for_ndarray(&spec(p), DType::F32, 2).unwrap();
        assert_eq!(nd.shape(), &[2, 2]);
        assert!(for_ndarray(&spec(&format!("{p}:4")), DType::F32, 1)
            .unwrap_err()
            .contains("not [4]"));
        assert!(for_ndarray(&spec(p), DType::F32, 1)
            .unwrap_err()
            .contains("rank 1"));
        assert!(for_scalar(&spec(p), DType::F32)
            .unwrap_err()
            .contains("4 elements"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn arbitrary_text_never_panics() {
        // Every string of up to three tokens of the grammar's alphabet parses or fails cleanly,
        // and so does materializing it for a field, an ndarray and a scalar.
        let tokens = [
            "",
            "1",
            "-2.5",
            ",",
            ":",
            "x",
            "3",
            "fill(",
            "linspace(",
            "arange(",
            ")",
            "(",
            "nan",
            "inf",
            "1e999",
            ".npy",
            "a:b",
            "0",
            " ",
        ];
        for a in tokens {
            for b in tokens {
                for c in tokens {
                    let text = format!("{a}{b}{c}");
                    if let Ok(spec) = ValueSpec::parse(&text) {
                        if matches!(spec.source, Source::Npy(_)) {
                            continue;
                        }
                        for dt in [DType::I8, DType::F32, DType::I1] {
                            let _ = for_field(&spec, dt, &[3]);
                            let _ = for_ndarray(&spec, dt, 1);
                            let _ = for_scalar(&spec, dt);
                        }
                    }
                }
            }
        }
    }
}
