//! Printing the builtin shaped types, dense elements, memref layouts (`strided`, `affine_map`)
//! and integers wider than 64 bits, as mlir-opt 22 prints them.

use super::float_fmt;
use super::printer::Printer;
use crate::apint;
use crate::dense::DenseElements;
use crate::entity::*;
use crate::shaped_types::{MemRefType, TensorType, VectorType, DYNAMIC};
use crate::types::{Signedness, TypeData};

/// Non-splat dense elements with more elements than this print as a hex string, as mlir-opt's
/// default `--mlir-print-elementsattrs-with-hex-if-larger=100`.
const HEX_IF_LARGER: usize = 100;

impl Printer<'_> {
    pub(crate) fn write_vector_type(&mut self, v: &VectorType) {
        self.out.push_str("vector<");
        for (i, &d) in v.shape.iter().enumerate() {
            if v.scalable.get(i) == Some(&true) {
                self.out.push('[');
                self.write_dim(d);
                self.out.push(']');
            } else {
                self.write_dim(d);
            }
            self.out.push('x');
        }
        self.write_type(v.elem);
        self.out.push('>');
    }

    pub(crate) fn write_tensor_type(&mut self, t: &TensorType) {
        self.out.push_str("tensor<");
        self.write_shape(t.shape.as_deref());
        self.write_type(t.elem);
        if let Some(e) = t.encoding {
            self.out.push_str(", ");
            self.write_attr(e, true);
        }
        self.out.push('>');
    }

    pub(crate) fn write_memref_type(&mut self, m: &MemRefType) {
        self.out.push_str("memref<");
        self.write_shape(m.shape.as_deref());
        self.write_type(m.elem);
        if let Some(l) = m.layout {
            self.out.push_str(", ");
            self.write_attr(l, true);
        }
        if let Some(s) = m.memory_space {
            self.out.push_str(", ");
            self.write_attr_may_elide(s);
        }
        self.out.push('>');
    }

    /// `4x?x` or `*x`.
    fn write_shape(&mut self, shape: Option<&[i64]>) {
        match shape {
            None => self.out.push_str("*x"),
            Some(dims) => {
                for &d in dims {
                    self.write_dim(d);
                    self.out.push('x');
                }
            }
        }
    }

    fn write_dim(&mut self, d: i64) {
        if d == DYNAMIC {
            self.out.push('?');
        } else {
            self.out.push_str(&d.to_string());
        }
    }

    /// `strided<[4, 1], offset: ?>`; a zero offset is not printed.
    pub(crate) fn write_strided(&mut self, strides: &[i64], offset: i64) {
        self.out.push_str("strided<[");
        for (i, &s) in strides.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_dim(s);
        }
        self.out.push(']');
        if offset != 0 {
            self.out.push_str(", offset: ");
            self.write_dim(offset);
        }
        self.out.push('>');
    }

    /// An integer wider than 64 bits: signed decimal, unsigned for unsigned types.
    pub(crate) fn write_wide_int(&mut self, words: &[u64], ty: Type) {
        let (width, unsigned) = match self.ctx.type_data(ty) {
            TypeData::Integer { width, signedness } => {
                (*width, *signedness == Signedness::Unsigned)
            }
            _ => (64, false),
        };
        self.out.push_str(&if unsigned {
            apint::to_unsigned_decimal(words, width)
        } else {
            apint::to_signed_decimal(words, width)
        });
    }

    /// `dense<...>` (without its type): a splat element, nested lists, or a hex string when
    /// large.
    pub(crate) fn write_dense(&mut self, d: &DenseElements) {
        let ctx = self.ctx;
        let td = ctx.type_data(d.ty);
        let shape = td.shape().unwrap_or(&[]).to_vec();
        let elem = td.element_type().unwrap_or(d.ty);
        let count = crate::shaped_types::num_elements(&shape).unwrap_or(0) as usize;
        self.out.push_str("dense<");
        if d.splat {
            self.write_dense_element(d, 0, elem);
        } else if count > HEX_IF_LARGER {
            self.write_dense_hex(d);
        } else if count > 0 {
            let mut next = 0;
            self.write_dense_dims(d, elem, &shape, &mut next);
        }
        self.out.push('>');
    }

    fn write_dense_dims(&mut self, d: &DenseElements, elem: Type, dims: &[i64], next: &mut usize) {
        let Some((&n, rest)) = dims.split_first() else {
            self.write_dense_element(d, *next, elem);
            *next += 1;
            return;
        };
        self.out.push('[');
        for i in 0..n {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.write_dense_dims(d, elem, rest, next);
        }
        self.out.push(']');
    }

    fn write_dense_element(&mut self, d: &DenseElements, i: usize, elem: Type) {
        if let TypeData::Complex(inner) = self.ctx.type_data(elem) {
            // `(re,im)`: the two halves of the element, without a space (as MLIR).
            let bytes = d.element(i);
            let (re, im) = bytes.split_at(bytes.len() / 2);
            self.out.push('(');
            self.write_scalar_bytes(re, *inner);
            self.out.push(',');
            self.write_scalar_bytes(im, *inner);
            self.out.push(')');
            return;
        }
        self.write_scalar_bytes(d.element(i), elem);
    }

    /// An integer or float element from its little-endian bytes.
    fn write_scalar_bytes(&mut self, bytes: &[u8], elem: Type) {
        let words = crate::dense::bytes_to_words(bytes);
        match self.ctx.type_data(elem) {
            TypeData::Float(k) => self.out.push_str(&float_fmt::format_bits(*k, words[0])),
            TypeData::Integer {
                width: 1,
                signedness: Signedness::Signless,
            } => self
                .out
                .push_str(if words[0] & 1 == 1 { "true" } else { "false" }),
            TypeData::Integer { width, signedness } => {
                let s = if *signedness == Signedness::Unsigned {
                    apint::to_unsigned_decimal(&words, *width)
                } else {
                    apint::to_signed_decimal(&words, *width)
                };
                self.out.push_str(&s);
            }
            _ => self.out.push_str(&apint::to_signed_decimal(&words, 64)),
        }
    }

    /// `"0x..."`: the raw data, i1 elements packed eight to a byte (first element lowest), as
    /// MLIR stores them.
    fn write_dense_hex(&mut self, d: &DenseElements) {
        let packed;
        let bytes: &[u8] = if d.elem_bits == 1 {
            let mut p = vec![0u8; d.data.len().div_ceil(8)];
            for (i, &b) in d.data.iter().enumerate() {
                p[i / 8] |= (b & 1) << (i % 8);
            }
            packed = p;
            &packed
        } else {
            &d.data
        };
        self.out.push_str("\"0x");
        for b in bytes {
            self.out.push_str(&format!("{b:02X}"));
        }
        self.out.push('"');
    }

    /// `affine_map<...>`.
    pub(crate) fn write_affine_map(&mut self, m: &crate::affine_map::AffineMap) {
        self.out.push_str("affine_map<");
        m.write(&mut self.out);
        self.out.push('>');
    }
}
