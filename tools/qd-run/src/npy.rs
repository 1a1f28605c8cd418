//! A reader of NumPy's `.npy` files (format versions 1.0, 2.0 and 3.0): little-endian (or
//! single-byte) bool, integer and f32/f64 data in C order. The shape comes from the header.

use qd_runtime::{DType, Ndarray, Storage};

/// Reads the `.npy` file at `path`.
pub fn read(path: &str) -> Result<Ndarray, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
    parse(&bytes).map_err(|e| format!("'{path}' is not a valid .npy file: {e}"))
}

/// Parses the bytes of a `.npy` file.
pub fn parse(bytes: &[u8]) -> Result<Ndarray, String> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("missing the \\x93NUMPY magic".into());
    }
    let (major, minor) = (bytes[6], bytes[7]);
    let (header_len, start): (usize, usize) = match major {
        1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
        2 | 3 => {
            if bytes.len() < 12 {
                return Err("truncated header length".into());
            }
            (
                u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
                12,
            )
        }
        _ => return Err(format!("unsupported format version {major}.{minor}")),
    };
    let end = start
        .checked_add(header_len)
        .filter(|&e| e <= bytes.len())
        .ok_or("truncated header")?;
    let header = std::str::from_utf8(&bytes[start..end]).map_err(|_| "the header is not text")?;
    let h = Header::parse(header)?;
    let dtype = dtype_of(&h.descr)?;
    if h.fortran_order {
        return Err("Fortran-order arrays are not supported (save a C-order array)".into());
    }
    let n = qd_runtime::ndarray::checked_num_elements(&h.shape)?;
    let data = &bytes[end..];
    let want = n
        .checked_mul(dtype.size_bytes())
        .ok_or("the array is too large")?;
    if data.len() != want {
        return Err(format!(
            "expected {want} bytes of data for shape {:?} of '{}', found {}",
            h.shape,
            h.descr,
            data.len()
        ));
    }
    Ndarray::new(&h.shape, decode(dtype, data)?)
}

/// The dtype of a NumPy type descriptor such as `<f4` or `|b1`.
fn dtype_of(descr: &str) -> Result<DType, String> {
    let (order, code) = descr.split_at(descr.len().min(1));
    if order == ">" {
        return Err(format!("big-endian data ('{descr}') is not supported"));
    }
    if !matches!(order, "<" | "|" | "=") {
        return Err(format!("unsupported type descriptor '{descr}'"));
    }
    Ok(match code {
        "b1" => DType::I1,
        "i1" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "u1" => DType::U8,
        "u2" => DType::U16,
        "u4" => DType::U32,
        "u8" => DType::U64,
        "f4" => DType::F32,
        "f8" => DType::F64,
        _ => {
            return Err(format!(
                "unsupported element type '{descr}' (supported: b1, i1, i2, i4, i8, u1, u2, u4, \
                 u8, f4, f8)"
            ))
        }
    })
}

fn decode(dtype: DType, data: &[u8]) -> Result<Storage, String> {
    macro_rules! le {
        ($t:ty, $n:expr) => {
            data.chunks_exact($n)
                .map(|c| <$t>::from_le_bytes(c.try_into().expect("chunk size")))
                .collect()
        };
    }
    Ok(match dtype {
        DType::I1 => Storage::I1(
            data.iter()
                .map(|&b| match b {
                    0 => Ok(false),
                    1 => Ok(true),
                    _ => Err(format!("invalid bool byte {b}")),
                })
                .collect::<Result<_, _>>()?,
        ),
        DType::I8 => Storage::I8(data.iter().map(|&b| b as i8).collect()),
        DType::U8 => Storage::U8(data.to_vec()),
        DType::I16 => Storage::I16(le!(i16, 2)),
        DType::U16 => Storage::U16(le!(u16, 2)),
        DType::I32 => Storage::I32(le!(i32, 4)),
        DType::U32 => Storage::U32(le!(u32, 4)),
        DType::I64 => Storage::I64(le!(i64, 8)),
        DType::U64 => Storage::U64(le!(u64, 8)),
        DType::F32 => Storage::F32(le!(f32, 4)),
        DType::F64 => Storage::F64(le!(f64, 8)),
    })
}

/// The header: a Python dict literal `{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }`.
#[derive(Debug, PartialEq)]
struct Header {
    descr: String,
    fortran_order: bool,
    shape: Vec<usize>,
}

#[derive(Debug)]
enum PyValue {
    Str(String),
    Bool(bool),
    Tuple(Vec<usize>),
}

struct Cursor<'a> {
    s: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    fn skip_ws(&mut self) {
        while self.s[self.pos..].starts_with([' ', '\t', '\n', '\r']) {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: char) -> bool {
        self.skip_ws();
        if self.s[self.pos..].starts_with(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!(
                "expected '{c}' in the header at offset {}",
                self.pos
            ))
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.skip_ws();
        let rest = &self.s[self.pos..];
        let q = rest.chars().next().filter(|c| *c == '\'' || *c == '"');
        let Some(q) = q else {
            return Err(format!(
                "expected a string in the header at offset {}",
                self.pos
            ));
        };
        let Some(len) = rest[1..].find(q) else {
            return Err("unterminated string in the header".into());
        };
        self.pos += len + 2;
        Ok(rest[1..1 + len].to_string())
    }
    fn value(&mut self) -> Result<PyValue, String> {
        self.skip_ws();
        let rest = &self.s[self.pos..];
        if rest.starts_with('\'') || rest.starts_with('"') {
            return self.string().map(PyValue::Str);
        }
        for (word, b) in [("True", true), ("False", false)] {
            if rest.starts_with(word) {
                self.pos += word.len();
                return Ok(PyValue::Bool(b));
            }
        }
        self.expect('(')?;
        let mut dims = Vec::new();
        loop {
            if self.eat(')') {
                return Ok(PyValue::Tuple(dims));
            }
            self.skip_ws();
            let digits: String = self.s[self.pos..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            if digits.is_empty() {
                return Err(format!(
                    "expected a dimension in the header at offset {}",
                    self.pos
                ));
            }
            self.pos += digits.len();
            dims.push(
                digits
                    .parse()
                    .map_err(|_| format!("dimension {digits} is too large"))?,
            );
            if !self.eat(',') {
                self.expect(')')?;
                return Ok(PyValue::Tuple(dims));
            }
        }
    }
}

impl Header {
    fn parse(text: &str) -> Result<Header, String> {
        let mut c = Cursor { s: text, pos: 0 };
        c.expect('{')?;
        let (mut descr, mut fortran, mut shape) = (None, None, None);
        while !c.eat('}') {
            let key = c.string()?;
            c.expect(':')?;
            match (key.as_str(), c.value()?) {
                ("descr", PyValue::Str(s)) => descr = Some(s),
                ("fortran_order", PyValue::Bool(b)) => fortran = Some(b),
                ("shape", PyValue::Tuple(t)) => shape = Some(t),
                (k, v) => return Err(format!("unexpected header entry '{k}': {v:?}")),
            }
            if !c.eat(',') {
                c.expect('}')?;
                break;
            }
        }
        Ok(Header {
            descr: descr.ok_or("the header has no 'descr'")?,
            fortran_order: fortran.ok_or("the header has no 'fortran_order'")?,
            shape: shape.ok_or("the header has no 'shape'")?,
        })
    }
}

/// The bytes of a version 1.0 `.npy` file (for tests: this is what `numpy.save` writes).
#[cfg(test)]
pub fn encode(descr: &str, shape: &[usize], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32_bytes(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn reads_numpy_files() {
        let a = parse(&encode("<f4", &[2, 2], &f32_bytes(&[1.0, 2.0, 3.0, 4.5]))).unwrap();
        assert_eq!(a.shape(), &[2, 2]);
        assert_eq!(a.data(), &Storage::F32(vec![1.0, 2.0, 3.0, 4.5]));
        let b = parse(&encode("|b1", &[3], &[1, 0, 1])).unwrap();
        assert_eq!(b.data(), &Storage::I1(vec![true, false, true]));
        let i: Vec<u8> = [-1i64, 7].iter().flat_map(|x| x.to_le_bytes()).collect();
        let c = parse(&encode("<i8", &[2], &i)).unwrap();
        assert_eq!(c.data(), &Storage::I64(vec![-1, 7]));
        let s = parse(&encode("<f8", &[], &2.5f64.to_le_bytes())).unwrap();
        assert_eq!((s.shape(), s.len()), (&[][..], 1));
    }

    #[test]
    fn reads_version_2_headers() {
        let v1 = encode("<u2", &[2], &[1, 0, 2, 0]);
        let header_len = u16::from_le_bytes([v1[8], v1[9]]) as u32;
        let mut v2 = b"\x93NUMPY\x02\x00".to_vec();
        v2.extend(header_len.to_le_bytes());
        v2.extend(&v1[10..]);
        assert_eq!(parse(&v2).unwrap().data(), &Storage::U16(vec![1, 2]));
    }

    #[test]
    fn header_variants() {
        let h = Header::parse("{\"shape\": (4, 10), \"descr\": \"<f4\", \"fortran_order\": False}")
            .unwrap();
        assert_eq!(h.shape, vec![4, 10]);
        assert_eq!(
            Header::parse("{'descr':'|u1','fortran_order':True,'shape':()}")
                .unwrap()
                .shape,
            Vec::<usize>::new()
        );
    }

    #[test]
    fn bad_files_are_errors() {
        let good = encode("<f4", &[2], &f32_bytes(&[1.0, 2.0]));
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"hello".to_vec(), "magic"),
            (good[..20].to_vec(), "truncated header"),
            (good[..good.len() - 1].to_vec(), "expected 8 bytes of data"),
            (encode(">f4", &[1], &[0; 4]), "big-endian"),
            (encode("<c8", &[1], &[0; 8]), "unsupported element type"),
            (encode("<f2", &[1], &[0; 2]), "unsupported element type"),
            (encode("|b1", &[1], &[7]), "invalid bool byte"),
            (
                {
                    let mut v = good.clone();
                    v[6] = 9;
                    v
                },
                "version 9",
            ),
            (
                {
                    let mut v = good.clone();
                    let pos = v.windows(5).position(|w| w == b"False").unwrap();
                    v[pos..pos + 5].copy_from_slice(b"Truee");
                    v
                },
                "expected",
            ),
        ];
        for (bytes, want) in cases {
            let e = parse(&bytes).unwrap_err();
            assert!(e.contains(want), "{e} does not mention {want}");
        }
        let mut fortran = encode("<f4", &[2], &f32_bytes(&[1.0, 2.0]));
        let pos = fortran.windows(5).position(|w| w == b"False").unwrap();
        fortran.splice(pos..pos + 5, b"True ".iter().copied());
        assert!(parse(&fortran).unwrap_err().contains("Fortran"));
    }

    #[test]
    fn truncated_and_mutated_files_never_panic() {
        let good = encode("<i4", &[2, 3], &[7u8; 24]);
        for len in 0..good.len() {
            let _ = parse(&good[..len]);
        }
        // Every byte of the header replaced by a few troublesome values.
        for i in 0..good.len() - 24 {
            for b in [0u8, b'(', b')', b',', b'\'', b'9', 0xff] {
                let mut v = good.clone();
                v[i] = b;
                let _ = parse(&v);
            }
        }
    }
}
