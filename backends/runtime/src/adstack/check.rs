//! Compile-time checks of a SizeExpr against what a launch can give it: a field read names an
//! integer field of the module, with one index per dimension, whose values fit the read's type
//! (the type bounds the read's interval, which simplifications rely on); an ndarray shape or
//! read names an ndarray parameter of the kernel, an axis below its rank, one index per
//! dimension, and (for a read) integer elements that fit the read's type; a scalar argument
//! names an integer scalar parameter whose values fit the leaf's type.

use crate::memory::Memory;
use crate::program::ParamType;
use crate::value::DType;
use qd_adstack::size_expr::{IntTy, Node, SizeExpr};

/// Whether every value of `dtype` is in `ty`'s range.
fn fits(dtype: DType, ty: IntTy) -> bool {
    let (lo, hi) = ty.range();
    match dtype.int_range() {
        Some((a, b)) => a >= lo as i128 && b <= hi as i128,
        None => false,
    }
}

fn ndarray_param(params: &[ParamType], arg: u32) -> Result<(DType, usize), String> {
    match params.get(arg as usize) {
        Some(ParamType::Ndarray { dtype, rank }) => Ok((*dtype, *rank)),
        Some(p) => Err(format!("argument {arg} is {p}, not an ndarray")),
        None => Err(format!(
            "argument {arg} does not exist (the kernel takes {})",
            params.len()
        )),
    }
}

fn elem_fits(what: &str, dtype: DType, ty: IntTy) -> Result<(), String> {
    if fits(dtype, ty) {
        Ok(())
    } else {
        Err(format!(
            "it reads {what} as {}, but {what} holds {dtype}",
            ty.name()
        ))
    }
}

/// Checks every read of `e` (see the module doc).
pub fn check(e: &SizeExpr, params: &[ParamType], memory: &Memory) -> Result<(), String> {
    for n in e.nodes() {
        match n {
            Node::FieldLoad { field, ty, indices } => {
                let i = memory
                    .field_index(field)
                    .ok_or_else(|| format!("there is no field @{field}"))?;
                let info = &memory.field(i).info;
                if info.shape.len() != indices.len() {
                    return Err(format!(
                        "it reads field @{field} of rank {} with {} indices",
                        info.shape.len(),
                        indices.len()
                    ));
                }
                elem_fits(&format!("field @{field}"), info.dtype, *ty)?;
            }
            Node::NdarrayShape { arg, axis } => {
                let (_, rank) = ndarray_param(params, *arg)?;
                if *axis as usize >= rank {
                    return Err(format!(
                        "it reads dimension {axis} of argument {arg}, of rank {rank}"
                    ));
                }
            }
            Node::NdarrayRead { arg, ty, indices } => {
                let (dtype, rank) = ndarray_param(params, *arg)?;
                if rank != indices.len() {
                    return Err(format!(
                        "it reads argument {arg} of rank {rank} with {} indices",
                        indices.len()
                    ));
                }
                elem_fits(&format!("argument {arg}"), dtype, *ty)?;
            }
            Node::ScalarArg { arg, ty } => match params.get(*arg as usize) {
                Some(ParamType::Scalar(dtype)) => {
                    elem_fits(&format!("argument {arg}"), *dtype, *ty)?
                }
                Some(p) => return Err(format!("argument {arg} is {p}, not a scalar")),
                None => {
                    return Err(format!(
                        "argument {arg} does not exist (the kernel takes {})",
                        params.len()
                    ))
                }
            },
            Node::Const(_)
            | Node::BoundVar(_)
            | Node::Binary(..)
            | Node::MaxOverRange { .. }
            | Node::SumOverRange { .. }
            | Node::Select { .. } => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_types_must_fit_the_read() {
        assert!(fits(DType::I32, IntTy::I32));
        assert!(fits(DType::I1, IntTy::U8));
        assert!(fits(DType::U16, IntTy::I32));
        assert!(!fits(DType::I64, IntTy::I32));
        assert!(!fits(DType::I8, IntTy::U32));
        assert!(!fits(DType::U64, IntTy::I64));
        assert!(!fits(DType::F32, IntTy::I64));
    }

    #[test]
    fn scalar_leaves_name_integer_scalar_parameters_that_fit() {
        let params = [
            ParamType::Scalar(DType::I32),
            ParamType::Scalar(DType::U16),
            ParamType::Scalar(DType::I64),
        ];
        let mem = Memory::default();
        let ok = |t: &str| check(&SizeExpr::parse(t).unwrap(), &params, &mem);
        assert_eq!(ok("arg0:i32 + arg1:i32 + arg1:ui16 + arg2:i64"), Ok(()));
        let e = ok("arg2:i32").unwrap_err();
        assert!(
            e.contains("reads argument 2 as i32, but argument 2 holds i64"),
            "{e}"
        );
        let e = ok("arg0:ui32").unwrap_err();
        assert!(e.contains("argument 0 holds i32"), "{e}");
    }

    #[test]
    fn ndarray_reads_name_ndarray_parameters_of_the_right_rank() {
        let params = [
            ParamType::Ndarray {
                dtype: DType::I32,
                rank: 2,
            },
            ParamType::Scalar(DType::F32),
            ParamType::Ndarray {
                dtype: DType::F32,
                rank: 1,
            },
        ];
        let mem = Memory::default();
        let ok = |t: &str| check(&SizeExpr::parse(t).unwrap(), &params, &mem);
        assert_eq!(ok("arg0.shape[1] + arg0[1, 2]:i32 + arg2.shape[0]"), Ok(()));
        for (text, want) in [
            ("arg0.shape[2]", "dimension 2 of argument 0, of rank 2"),
            ("arg1.shape[0]", "argument 1 is f32, not an ndarray"),
            (
                "arg3.shape[0]",
                "argument 3 does not exist (the kernel takes 3)",
            ),
            ("arg0[1]:i32", "argument 0 of rank 2 with 1 indices"),
            (
                "arg0[1, 1]:i8",
                "reads argument 0 as i8, but argument 0 holds i32",
            ),
            ("arg2[0]:i32", "argument 2 holds f32"),
            ("@n[]:i32", "there is no field @n"),
            ("arg0:i32", "argument 0 is ndarray"),
            (
                "arg1:i32",
                "reads argument 1 as i32, but argument 1 holds f32",
            ),
            ("arg3:i32", "argument 3 does not exist (the kernel takes 3)"),
        ] {
            let e = ok(text).unwrap_err();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
