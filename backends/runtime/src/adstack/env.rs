//! [`LaunchEnv`]: what a SizeExpr reads at a launch: the program's field values and the launch's
//! arguments (ndarray shapes and integer elements, integer scalars), numbered by their position
//! in the kernel's argument list.

use crate::device::Arg;
use crate::memory::Memory;
use crate::ndarray::Ndarray;
use qd_adstack::size_expr::EvalEnv;

/// The live data of one launch, as a [`EvalEnv`].
pub struct LaunchEnv<'a> {
    pub memory: &'a Memory,
    pub args: &'a [Arg],
}

/// The row-major position of `indices` in `shape`, or why not.
pub(crate) fn flat_index(shape: &[usize], indices: &[i64]) -> Result<usize, String> {
    if indices.len() != shape.len() {
        return Err(format!(
            "{} indices for a shape of rank {} ({shape:?})",
            indices.len(),
            shape.len()
        ));
    }
    let mut flat = 0usize;
    for (&i, &d) in indices.iter().zip(shape) {
        match usize::try_from(i) {
            Ok(i) if i < d => flat = flat * d + i,
            _ => {
                return Err(format!(
                    "index {indices:?} is out of bounds for shape {shape:?}"
                ))
            }
        }
    }
    Ok(flat)
}

/// An integer read as the evaluator's i64 (a `ui64` value past `i64::MAX` saturates).
fn as_i64(v: Option<i128>, what: &str) -> Result<i64, String> {
    match v {
        Some(v) => Ok(v.clamp(i64::MIN as i128, i64::MAX as i128) as i64),
        None => Err(format!("{what} holds floats, not integers")),
    }
}

impl LaunchEnv<'_> {
    fn ndarray(&self, arg: u32) -> Result<&Ndarray, String> {
        match self.args.get(arg as usize) {
            Some(Arg::Ndarray(id)) => self
                .memory
                .ndarray(*id)
                .ok_or_else(|| format!("ndarray handle {} is not registered", id.0)),
            Some(Arg::Scalar(_)) => Err(format!("argument {arg} is a scalar, not an ndarray")),
            None => Err(self.arg_count()),
        }
    }

    fn arg_count(&self) -> String {
        format!(
            "the launch has {} argument{}",
            self.args.len(),
            if self.args.len() == 1 { "" } else { "s" }
        )
    }
}

impl EvalEnv for LaunchEnv<'_> {
    fn field_element(&self, field: &str, indices: &[i64]) -> Result<i64, String> {
        let i = self
            .memory
            .field_index(field)
            .ok_or_else(|| format!("there is no field @{field}"))?;
        let slot = self.memory.field(i);
        let flat = flat_index(&slot.info.shape, indices)?;
        let v = slot.value.get(flat).and_then(|s| s.to_i128());
        as_i64(v, &format!("field @{field}"))
    }

    fn ndarray_shape(&self, arg: u32, axis: u32) -> Result<i64, String> {
        let nd = self.ndarray(arg)?;
        nd.shape()
            .get(axis as usize)
            .map(|&d| d as i64)
            .ok_or_else(|| format!("argument {arg} has rank {}", nd.rank()))
    }

    fn ndarray_element(&self, arg: u32, indices: &[i64]) -> Result<i64, String> {
        let nd = self.ndarray(arg)?;
        let flat = flat_index(nd.shape(), indices)?;
        as_i64(
            nd.get(flat).and_then(|s| s.to_i128()),
            &format!("argument {arg}"),
        )
    }

    fn scalar_arg(&self, arg: u32) -> Result<i64, String> {
        match self.args.get(arg as usize) {
            Some(Arg::Scalar(s)) => as_i64(s.to_i128(), &format!("argument {arg}")),
            Some(Arg::Ndarray(_)) => Err(format!("argument {arg} is an ndarray, not a scalar")),
            None => Err(self.arg_count()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::DType;

    #[test]
    fn flat_indices_are_row_major_and_checked() {
        assert_eq!(flat_index(&[], &[]), Ok(0));
        assert_eq!(flat_index(&[3, 4], &[2, 1]), Ok(9));
        assert!(flat_index(&[3, 4], &[3, 0])
            .unwrap_err()
            .contains("out of bounds"));
        assert!(flat_index(&[3, 4], &[-1, 0])
            .unwrap_err()
            .contains("out of bounds"));
        assert!(flat_index(&[3], &[0, 0]).unwrap_err().contains("rank 1"));
    }

    #[test]
    fn reads_fields_and_ndarray_arguments() {
        let mut mem = Memory::default();
        let a = mem.add_ndarray(Ndarray::from_f64(DType::U64, &[2], &[7.0, 1e19]).unwrap());
        let f = mem.add_ndarray(Ndarray::from_f64(DType::F32, &[1], &[0.5]).unwrap());
        let args = [
            Arg::Ndarray(a),
            Arg::Scalar(crate::Scalar::I32(3)),
            Arg::Ndarray(f),
        ];
        let env = LaunchEnv {
            memory: &mem,
            args: &args,
        };
        assert_eq!(env.ndarray_shape(0, 0), Ok(2));
        assert_eq!(env.ndarray_element(0, &[0]), Ok(7));
        // Past i64::MAX: saturated, as the evaluator's arithmetic is.
        assert_eq!(env.ndarray_element(0, &[1]), Ok(i64::MAX));
        assert!(env.ndarray_shape(0, 1).unwrap_err().contains("rank 1"));
        assert!(env.ndarray_shape(1, 0).unwrap_err().contains("is a scalar"));
        assert!(env
            .ndarray_shape(3, 0)
            .unwrap_err()
            .contains("has 3 arguments"));
        assert!(env
            .ndarray_element(2, &[0])
            .unwrap_err()
            .contains("holds floats"));
        assert!(env
            .field_element("n", &[])
            .unwrap_err()
            .contains("no field @n"));
    }

    #[test]
    fn reads_integer_scalar_arguments() {
        let mut mem = Memory::default();
        let a = mem.add_ndarray(Ndarray::from_f64(DType::I32, &[1], &[0.0]).unwrap());
        let args = [
            Arg::Scalar(crate::Scalar::I32(-5)),
            Arg::Ndarray(a),
            Arg::Scalar(crate::Scalar::U64(u64::MAX)),
            Arg::Scalar(crate::Scalar::F32(2.0)),
            Arg::Scalar(crate::Scalar::U8(200)),
        ];
        let env = LaunchEnv {
            memory: &mem,
            args: &args,
        };
        // A negative value is the value: the evaluator clamps it, as it does a field's.
        assert_eq!(env.scalar_arg(0), Ok(-5));
        assert_eq!(env.scalar_arg(4), Ok(200));
        assert_eq!(env.scalar_arg(2), Ok(i64::MAX));
        assert!(env.scalar_arg(1).unwrap_err().contains("is an ndarray"));
        assert!(env.scalar_arg(3).unwrap_err().contains("holds floats"));
        assert!(env.scalar_arg(5).unwrap_err().contains("has 5 arguments"));
    }
}
