//! [`Ndarray`]: a user-owned, dense, row-major array passed to kernels as an argument. Its shape is
//! fixed when it is created; kernels read and write its elements.

use crate::memory::Storage;
use crate::value::{DType, Scalar};

/// A handle to an ndarray registered in a [`crate::Program`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct NdarrayId(pub u32);

/// A dense row-major array: dtype, shape and data, kept consistent (the data has exactly
/// `product(shape)` elements of `dtype`; each extent fits an `i32` index, as kernels index with
/// i32).
#[derive(Clone, PartialEq, Debug)]
pub struct Ndarray {
    shape: Vec<usize>,
    data: Storage,
}

/// The element count of a shape, or an error when an extent does not fit i32 or the product
/// overflows.
pub fn checked_num_elements(shape: &[usize]) -> Result<usize, String> {
    let mut n: usize = 1;
    for &d in shape {
        if d > i32::MAX as usize {
            return Err(format!(
                "extent {d} of shape {shape:?} does not fit an i32 index"
            ));
        }
        n = n
            .checked_mul(d)
            .ok_or_else(|| format!("shape {shape:?} has too many elements"))?;
    }
    Ok(n)
}

impl Ndarray {
    /// An ndarray of `shape` over `data`, whose length must be the shape's element count.
    pub fn new(shape: &[usize], data: Storage) -> Result<Ndarray, String> {
        let n = checked_num_elements(shape)?;
        if data.len() != n {
            return Err(format!(
                "shape {shape:?} has {n} elements but {} values were given",
                data.len()
            ));
        }
        Ok(Ndarray {
            shape: shape.to_vec(),
            data,
        })
    }

    /// A zeroed ndarray.
    pub fn zeros(dtype: DType, shape: &[usize]) -> Result<Ndarray, String> {
        let n = checked_num_elements(shape)?;
        Ndarray::new(shape, Storage::zeros(dtype, n)?)
    }

    /// An ndarray of `dtype` holding `values` (converted exactly, see [`Scalar::from_f64`]).
    pub fn from_f64(dtype: DType, shape: &[usize], values: &[f64]) -> Result<Ndarray, String> {
        Ndarray::new(shape, Storage::from_f64(dtype, values)?)
    }

    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    pub fn rank(&self) -> usize {
        self.shape.len()
    }
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
    /// The bytes its data takes.
    pub fn bytes(&self) -> u128 {
        self.len() as u128 * self.dtype().size_bytes() as u128
    }
    pub fn data(&self) -> &Storage {
        &self.data
    }
    /// The data for a device to read and write in place (its length must not change).
    pub fn data_mut(&mut self) -> &mut Storage {
        &mut self.data
    }
    /// Element `i` of the flat (row-major) data.
    pub fn get(&self, i: usize) -> Option<Scalar> {
        self.data.get(i)
    }
    /// Sets element `i` of the flat data (the dtype must match).
    pub fn set(&mut self, i: usize, v: Scalar) -> Result<(), String> {
        self.data.set(i, v)
    }
    pub fn to_f64_vec(&self) -> Vec<f64> {
        self.data.to_f64_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn construction_checks_length_and_extents() {
        let a = Ndarray::from_f64(DType::F32, &[2, 3], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]).unwrap();
        assert_eq!(
            (a.dtype(), a.shape(), a.rank(), a.len()),
            (DType::F32, &[2, 3][..], 2, 6)
        );
        assert_eq!(a.get(4), Some(Scalar::F32(4.0)));
        assert!(Ndarray::from_f64(DType::F32, &[4], &[1.0]).is_err());
        assert!(Ndarray::zeros(DType::I32, &[1usize << 33]).is_err());
        assert!(Ndarray::zeros(DType::I32, &[1 << 30, 1 << 30, 1 << 30]).is_err());
        let z = Ndarray::zeros(DType::I32, &[0]).unwrap();
        assert!(z.is_empty());
        let s = Ndarray::zeros(DType::F64, &[]).unwrap();
        assert_eq!(s.len(), 1);
    }
}
