//! Dense elements attributes, as MLIR's `DenseIntOrFPElementsAttr`: `dense<[[1, 2], [3, 4]]> :
//! tensor<2x2xi32>`, `dense<1.0> : vector<4xf32>`. Elements are kept as raw bit patterns, so
//! floats keep their exact bits (signaling NaNs, f16/bf16 payloads) and integers of any width
//! their exact value. As in MLIR, elements that are all equal are stored once (a splat).

use crate::entity::Type;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct DenseElements {
    /// The shaped type (static shape) the elements fill.
    pub ty: Type,
    /// Storage bits of one element: the element type's width (index: 64; i1: 1).
    pub elem_bits: u32,
    /// One element stands for every element.
    pub splat: bool,
    /// The elements in row-major order, each `elem_bytes()` little-endian bytes (i1: one byte,
    /// 0 or 1); a single element when `splat`.
    pub data: Vec<u8>,
}

impl DenseElements {
    /// Bytes of one element in `data`.
    pub fn elem_bytes(&self) -> usize {
        bytes_for(self.elem_bits)
    }

    /// Elements stored (one for a splat).
    pub fn stored(&self) -> usize {
        self.data.len() / self.elem_bytes()
    }

    /// The bytes of element `i` (of the stored elements).
    pub fn element(&self, i: usize) -> &[u8] {
        let n = self.elem_bytes();
        &self.data[i * n..(i + 1) * n]
    }

    /// Element `i` as 64-bit words (little-endian), zero-extended.
    pub fn element_words(&self, i: usize) -> Vec<u64> {
        bytes_to_words(self.element(i))
    }

    /// Elements of `elem_bits` bits each in `data`, made a splat when there is one or they are
    /// all equal.
    pub fn new(ty: Type, elem_bits: u32, mut data: Vec<u8>) -> Self {
        let n = bytes_for(elem_bits);
        // i0 elements are never a splat in MLIR (all are equal).
        let splat = data.len() == n
            || (elem_bits > 0 && !data.is_empty() && data.chunks(n).all(|c| c == &data[..n]));
        if splat {
            data.truncate(n);
        }
        DenseElements {
            ty,
            elem_bits,
            splat,
            data,
        }
    }
}

/// Bytes that hold `bits` bits (at least one).
pub fn bytes_for(bits: u32) -> usize {
    (bits as usize).div_ceil(8).max(1)
}

/// Little-endian `bytes` as 64-bit words, the last zero-extended.
pub fn bytes_to_words(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect()
}

/// The little-endian bytes of the low `bits` bits of `words`.
pub fn words_to_bytes(words: &[u64], bits: u32, out: &mut Vec<u8>) {
    let n = bytes_for(bits);
    let mut bytes = words.iter().flat_map(|w| w.to_le_bytes());
    for i in 0..n {
        let mut b = bytes.next().unwrap_or(0);
        let used = bits as usize - (i * 8).min(bits as usize);
        if used < 8 {
            b &= ((1u16 << used) - 1) as u8;
        }
        out.push(b);
    }
}
