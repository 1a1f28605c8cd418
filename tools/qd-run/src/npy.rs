//! NumPy `.npy` files through the npyz crate: [`read`] for `--set`/`--arg` VALUES, [`write`] for
//! `--save`. Read: bool, i8..i64, u8..u64, f32 and f64 data of either byte order in C order; the
//! shape comes from the header. Written: the buffer's own element type (native byte order) and
//! shape, in C order, as `numpy.save` writes it.

use npyz::{NpyFile, NpyHeader, Order, TypeChar, WriteOptions, WriterBuilder};
use qd_runtime::{DType, Ndarray, Storage};
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest .npy file [`read`] reads (`--max-input-bytes`): set once per run.
static MAX_BYTES: AtomicU64 = AtomicU64::new(qd_ir::text::DEFAULT_MAX_INPUT_BYTES);

/// Sets the largest .npy file [`read`] reads.
pub fn set_max_bytes(cap: u64) {
    MAX_BYTES.store(cap, Ordering::Relaxed);
}

/// Reads the `.npy` file at `path`; one larger than the cap ([`set_max_bytes`]) is an error.
pub fn read(path: &str) -> Result<Ndarray, String> {
    let bytes = qd_ir::text::read_path_capped(path, MAX_BYTES.load(Ordering::Relaxed))
        .map_err(|e| format!("cannot read '{path}': {e}"))?;
    parse(&bytes).map_err(|e| format!("'{path}' {e}"))
}

/// Parses the bytes of a `.npy` file. Errors complete a sentence that starts with the file name.
pub fn parse(bytes: &[u8]) -> Result<Ndarray, String> {
    let mut data: &[u8] = bytes;
    let header = NpyHeader::from_reader(&mut data).map_err(invalid)?;
    let dtype = dtype_of(&header)?;
    if header.order() == Order::Fortran {
        return Err(
            "is in Fortran order, which qd-run does not read (save a C-order array: \
             numpy.ascontiguousarray)"
                .into(),
        );
    }
    let shape = header
        .shape()
        .iter()
        .map(|&d| usize::try_from(d).map_err(|_| format!("has extent {d}, which is too large")))
        .collect::<Result<Vec<usize>, String>>()?;
    let n = qd_runtime::ndarray::checked_num_elements(&shape)
        .map_err(|e| format!("has an unsupported shape: {e}"))?;
    // Checked before reading: npyz would reserve room for every element the header claims.
    let want = n
        .checked_mul(dtype.size_bytes())
        .ok_or("is too large: its byte count overflows")?;
    if data.len() != want {
        return Err(format!(
            "is not a valid .npy file: expected {want} bytes of data for shape {shape:?} of \
             {dtype}, found {}",
            data.len()
        ));
    }
    let file = NpyFile::with_header(header, data);
    let storage = match dtype {
        DType::I1 => file.into_vec().map(|v| Storage::I1(v.into())),
        DType::I8 => file.into_vec().map(|v| Storage::I8(v.into())),
        DType::I16 => file.into_vec().map(|v| Storage::I16(v.into())),
        DType::I32 => file.into_vec().map(|v| Storage::I32(v.into())),
        DType::I64 => file.into_vec().map(|v| Storage::I64(v.into())),
        DType::U8 => file.into_vec().map(|v| Storage::U8(v.into())),
        DType::U16 => file.into_vec().map(|v| Storage::U16(v.into())),
        DType::U32 => file.into_vec().map(|v| Storage::U32(v.into())),
        DType::U64 => file.into_vec().map(|v| Storage::U64(v.into())),
        DType::F32 => file.into_vec().map(|v| Storage::F32(v.into())),
        DType::F64 => file.into_vec().map(|v| Storage::F64(v.into())),
    }
    .map_err(invalid)?;
    Ndarray::new(&shape, storage)
}

/// npyz's error, on one line and short: a parse error quotes the whole header.
fn invalid(e: io::Error) -> String {
    let text = e.to_string();
    let line = text.lines().next().unwrap_or_default();
    let short: String = line.chars().take(120).collect();
    let more = if short.len() < text.len() { " ..." } else { "" };
    format!("is not a valid .npy file: {short}{more}")
}

/// The element type of a header's descriptor (`<f4`, `|b1`, `>i8`, ...).
fn dtype_of(header: &NpyHeader) -> Result<DType, String> {
    let descr = header.dtype().descr();
    let unsupported = || {
        format!(
            "has element type {descr}, which qd-run does not read (supported: b1, i1, i2, i4, \
             i8, u1, u2, u4, u8, f4, f8)"
        )
    };
    let npyz::DType::Plain(ty) = header.dtype() else {
        return Err(unsupported());
    };
    Ok(match (ty.type_char(), ty.size_field()) {
        (TypeChar::Bool, 1) => DType::I1,
        (TypeChar::Int, 1) => DType::I8,
        (TypeChar::Int, 2) => DType::I16,
        (TypeChar::Int, 4) => DType::I32,
        (TypeChar::Int, 8) => DType::I64,
        (TypeChar::Uint, 1) => DType::U8,
        (TypeChar::Uint, 2) => DType::U16,
        (TypeChar::Uint, 4) => DType::U32,
        (TypeChar::Uint, 8) => DType::U64,
        (TypeChar::Float, 4) => DType::F32,
        (TypeChar::Float, 8) => DType::F64,
        _ => return Err(unsupported()),
    })
}

/// Writes `data` (row-major, of `shape`) to `out` as a `.npy` file of its own element type.
pub fn encode(out: impl Write, shape: &[usize], data: &Storage) -> io::Result<()> {
    let shape: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
    macro_rules! put {
        ($v:expr) => {{
            let mut w = WriteOptions::new()
                .default_dtype()
                .shape(&shape)
                .writer(out)
                .begin_nd()?;
            w.extend($v.iter().copied())?;
            w.finish()
        }};
    }
    match data {
        Storage::I1(v) => put!(v),
        Storage::I8(v) => put!(v),
        Storage::I16(v) => put!(v),
        Storage::I32(v) => put!(v),
        Storage::I64(v) => put!(v),
        Storage::U8(v) => put!(v),
        Storage::U16(v) => put!(v),
        Storage::U32(v) => put!(v),
        Storage::U64(v) => put!(v),
        Storage::F32(v) => put!(v),
        Storage::F64(v) => put!(v),
    }
}

/// Writes `data` of `shape` to the file `path` (replacing it).
pub fn write(path: &str, shape: &[usize], data: &Storage) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("cannot write '{path}': {e}"))?;
    let mut out = io::BufWriter::new(file);
    encode(&mut out, shape, data)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write '{path}': {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(shape: &[usize], data: &Storage) -> Vec<u8> {
        let mut out = Vec::new();
        encode(&mut out, shape, data).unwrap();
        out
    }

    /// A `.npy` file with a hand-made header, for what [`encode`] never writes.
    fn raw(header: &str, data: &[u8]) -> Vec<u8> {
        // numpy pads the header (after the 10-byte preamble, with a newline) to 64 bytes.
        let pad = (64 - (10 + header.len() + 1) % 64) % 64;
        let h = format!("{header}{}\n", " ".repeat(pad));
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend((h.len() as u16).to_le_bytes());
        out.extend(h.as_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn every_element_type_round_trips() {
        let cases = [
            (
                vec![2, 2],
                Storage::F32(vec![1.0, -2.5, f32::NAN, 1e-45].into()),
            ),
            (vec![3], Storage::F64(vec![0.1, f64::INFINITY, -0.0].into())),
            (vec![2], Storage::I1(vec![true, false].into())),
            (vec![2], Storage::I8(vec![-128, 127].into())),
            (vec![1, 2], Storage::I16(vec![-300, 300].into())),
            (vec![2, 1], Storage::I32(vec![i32::MIN, 7].into())),
            (vec![1], Storage::I64(vec![i64::MAX].into())),
            (vec![2], Storage::U8(vec![0, 255].into())),
            (vec![2], Storage::U16(vec![1, 65535].into())),
            (vec![2], Storage::U32(vec![u32::MAX, 0].into())),
            (vec![2], Storage::U64(vec![u64::MAX, 1].into())),
            (vec![], Storage::F32(vec![2.5].into())),
            (vec![0, 3], Storage::I32(vec![].into())),
        ];
        for (shape, data) in cases {
            let nd = parse(&bytes(&shape, &data)).unwrap();
            assert_eq!(nd.shape(), &shape[..]);
            // Bitwise: NaN compares by its bits.
            let bits = |s: &Storage| {
                (0..s.len())
                    .map(|i| s.get(i).unwrap().to_bits())
                    .collect::<Vec<_>>()
            };
            assert_eq!(nd.data().dtype(), data.dtype());
            assert_eq!(bits(nd.data()), bits(&data), "{shape:?} {data:?}");
        }
    }

    #[test]
    fn numpy_headers_read() {
        // What numpy.save writes: single quotes, a trailing comma, a 1-tuple shape.
        let a = parse(&raw(
            "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }",
            &[1, 0, 2, 0],
        ))
        .unwrap();
        assert_eq!(a.data(), &Storage::U16(vec![1, 2].into()));
        // Big-endian data is byte-swapped.
        let b = parse(&raw(
            "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
            &[0, 0, 0, 1, 255, 255, 255, 254],
        ))
        .unwrap();
        assert_eq!(b.data(), &Storage::I32(vec![1, -2].into()));
        let c = parse(&raw(
            "{\"shape\": (), \"descr\": \"|b1\", \"fortran_order\": False}",
            &[1],
        ))
        .unwrap();
        assert_eq!(
            (c.shape(), c.data()),
            (&[][..], &Storage::I1(vec![true].into()))
        );
    }

    #[test]
    fn bad_files_are_errors() {
        let good = bytes(&[2], &Storage::F32(vec![1.0, 2.0].into()));
        let header = |h: &str, data: &[u8]| raw(h, data);
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (
                b"hello".to_vec(),
                "is not a valid .npy file: magic not found",
            ),
            (good[..20].to_vec(), "is not a valid .npy file"),
            (
                good[..good.len() - 1].to_vec(),
                "expected 8 bytes of data for shape [2] of f32, found 7",
            ),
            ([good.clone(), vec![0]].concat(), "found 9"),
            (
                header(
                    "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }",
                    &[0; 8],
                ),
                "has element type '<c8', which qd-run does not read",
            ),
            (
                header(
                    "{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }",
                    &[0; 2],
                ),
                "element type '<f2'",
            ),
            (
                header(
                    "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                    &[0; 4],
                ),
                "which qd-run does not read",
            ),
            (
                header(
                    "{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }",
                    &[7],
                ),
                "is not a valid .npy file: invalid value for bool: 7",
            ),
            (
                header(
                    "{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }",
                    &[0; 8],
                ),
                "is in Fortran order",
            ),
            (
                header(
                    "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
                    &[0; 4],
                ),
                "has an unsupported shape: extent 4294967296",
            ),
            (
                header(
                    "{'descr': '<f4', 'fortran_order': Nope, 'shape': (1,), }",
                    &[0; 4],
                ),
                "is not a valid .npy file",
            ),
        ];
        for (bytes, want) in cases {
            let e = parse(&bytes).unwrap_err();
            assert!(e.contains(want), "{e} does not mention {want}");
        }
        // Deep nesting is a parse error, reported on one short line.
        let deep = format!(
            "{{'descr': '<f4', 'fortran_order': False, 'shape': {}{}, }}",
            "(".repeat(20000),
            ")".repeat(20000)
        );
        let e = parse(&header(&deep, &[])).unwrap_err();
        assert!(
            e.starts_with("is not a valid .npy file: ") && e.ends_with(" ...") && e.len() < 200,
            "{e}"
        );
    }

    #[test]
    fn truncated_and_mutated_files_never_panic() {
        let good = bytes(&[2, 3], &Storage::I32(vec![7; 6].into()));
        for len in 0..good.len() {
            assert!(parse(&good[..len]).is_err());
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

    #[test]
    fn write_reports_the_path() {
        let e = write(
            "/nonexistent-dir/x.npy",
            &[1],
            &Storage::F32(vec![1.0].into()),
        )
        .unwrap_err();
        assert!(
            e.starts_with("cannot write '/nonexistent-dir/x.npy': "),
            "{e}"
        );
    }
}
