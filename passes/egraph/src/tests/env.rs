//! A launch environment (fields and ndarray arguments), and the proptest strategy of the random
//! environments that the generated expressions (`exprs`) read.

use proptest::prelude::*;
use qd_adstack::size_expr::{EvalEnv, IntTy};

/// An integer array: shape and row-major data.
#[derive(Clone, Debug)]
pub struct Array {
    pub shape: Vec<i64>,
    pub data: Vec<i64>,
}

impl Array {
    pub fn new(shape: &[i64], data: &[i64]) -> Array {
        Array {
            shape: shape.to_vec(),
            data: data.to_vec(),
        }
    }
    fn at(&self, idx: &[i64]) -> Result<i64, String> {
        if idx.len() != self.shape.len() {
            return Err(format!(
                "rank {} indexed with {}",
                self.shape.len(),
                idx.len()
            ));
        }
        let mut off = 0i64;
        for (&s, &i) in self.shape.iter().zip(idx) {
            if i < 0 || i >= s {
                return Err(format!("index {i} out of bounds for size {s}"));
            }
            off = off * s + i;
        }
        Ok(self.data[off as usize])
    }
}

/// Fields by name, ndarray and scalar arguments by position.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub fields: Vec<(String, Array)>,
    pub arrays: Vec<(u32, Array)>,
    pub scalars: Vec<(u32, i64)>,
}

impl Env {
    pub fn field(mut self, name: &str, a: Array) -> Env {
        self.fields.push((name.to_string(), a));
        self
    }
    pub fn array(mut self, arg: u32, a: Array) -> Env {
        self.arrays.push((arg, a));
        self
    }
}

impl EvalEnv for Env {
    fn field_element(&self, field: &str, idx: &[i64]) -> Result<i64, String> {
        let (_, a) = self
            .fields
            .iter()
            .find(|(n, _)| n == field)
            .ok_or("no such field")?;
        a.at(idx)
    }
    fn ndarray_shape(&self, arg: u32, axis: u32) -> Result<i64, String> {
        let (_, a) = self
            .arrays
            .iter()
            .find(|(n, _)| *n == arg)
            .ok_or("no such argument")?;
        a.shape
            .get(axis as usize)
            .copied()
            .ok_or_else(|| "no such axis".into())
    }
    fn ndarray_element(&self, arg: u32, idx: &[i64]) -> Result<i64, String> {
        let (_, a) = self
            .arrays
            .iter()
            .find(|(n, _)| *n == arg)
            .ok_or("no such argument")?;
        a.at(idx)
    }
    fn scalar_arg(&self, arg: u32) -> Result<i64, String> {
        self.scalars
            .iter()
            .find(|(n, _)| *n == arg)
            .map(|&(_, v)| v)
            .ok_or_else(|| "no such scalar argument".into())
    }
}

/// The random fields and arrays: name (or argument), element type, shape.
pub const FIELDS: &[(&str, IntTy, &[i64])] = &[
    ("f", IntTy::I8, &[5]),
    ("g", IntTy::U8, &[5]),
    ("n", IntTy::I32, &[]),
    ("m", IntTy::U16, &[]),
    ("w", IntTy::I64, &[]),
    ("u", IntTy::I64, &[]),
    ("t", IntTy::I32, &[3, 3]),
];
pub const ARRAYS: &[(u32, IntTy, usize)] =
    &[(0, IntTy::I8, 1), (1, IntTy::U8, 1), (2, IntTy::I32, 2)];
/// The random scalar arguments: position and type.
pub const SCALARS: &[(u32, IntTy)] = &[(3, IntTy::I32), (4, IntTy::U8)];

/// A value of type `ty`: mostly small, sometimes at the type's edges.
fn value(ty: IntTy) -> impl Strategy<Value = i64> + Clone {
    let (lo, hi) = ty.range();
    let edges = vec![lo, hi, lo.saturating_add(1), hi.saturating_sub(1)];
    prop_oneof![
        92 => (-4i64).max(lo)..=9i64.min(hi),
        8 => proptest::sample::select(edges),
    ]
}

/// `len` values of type `ty` in an array of `shape`.
fn array(ty: IntTy, shape: Vec<i64>) -> impl Strategy<Value = Array> {
    let len = shape.iter().product::<i64>() as usize;
    proptest::collection::vec(value(ty), len).prop_map(move |data| Array::new(&shape, &data))
}

/// Every field of [`FIELDS`], every argument of [`ARRAYS`] (shapes 0 to 5 per axis) and of
/// [`SCALARS`], with random contents.
pub fn env() -> BoxedStrategy<Env> {
    let fields: Vec<_> = FIELDS
        .iter()
        .map(|&(name, ty, shape)| {
            array(ty, shape.to_vec()).prop_map(move |a| (name.to_string(), a))
        })
        .collect();
    let arrays: Vec<_> = ARRAYS
        .iter()
        .map(|&(arg, ty, rank)| {
            proptest::collection::vec(0i64..=5, rank)
                .prop_flat_map(move |shape| array(ty, shape))
                .prop_map(move |a| (arg, a))
        })
        .collect();
    let scalars: Vec<_> = SCALARS
        .iter()
        .map(|&(arg, ty)| value(ty).prop_map(move |v| (arg, v)))
        .collect();
    (fields, arrays, scalars)
        .prop_map(|(fields, arrays, scalars)| Env {
            fields,
            arrays,
            scalars,
        })
        .boxed()
}
