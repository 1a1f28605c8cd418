//! The byte layout of private aggregates (`!qd.array`, `!qd.struct`) in the exported code: C
//! layout (members at offsets aligned to their alignment, the size rounded up to the largest),
//! `i1` as one byte. Only the exported function reads this memory, so it needs agree only with
//! itself.

use qd_frontend::types::{ArrayType, StructType};
use qd_ir::{Context, Type, TypeData};

/// (size, alignment) in bytes of `t`; None for a type private memory cannot hold.
pub fn size_align(ir: &Context, t: Type) -> Option<(u64, u64)> {
    match ir.type_data(t) {
        TypeData::Integer { width, .. } => {
            let b = u64::from(width.div_ceil(8)).max(1).next_power_of_two();
            return Some((b, b));
        }
        TypeData::Float(k) => {
            let b = u64::from(k.width() / 8);
            return Some((b, b));
        }
        TypeData::Index => return Some((8, 8)),
        _ => {}
    }
    if let Some(a) = ArrayType::from_type(ir, t) {
        let (s, al) = size_align(ir, a.elem(ir))?;
        let n = u64::try_from(a.len(ir)).ok()?;
        return Some((s.checked_mul(n)?, al));
    }
    if let Some(st) = StructType::from_type(ir, t) {
        let (mut off, mut al) = (0u64, 1u64);
        for m in st.members(ir) {
            let (s, a) = size_align(ir, m)?;
            off = off.div_ceil(a) * a + s;
            al = al.max(a);
        }
        return Some((off.div_ceil(al) * al, al));
    }
    None
}

/// The byte offset of member `i` of struct `t`.
pub fn member_offset(ir: &Context, t: Type, i: usize) -> Option<u64> {
    let st = StructType::from_type(ir, t)?;
    let mut off = 0u64;
    for (k, m) in st.members(ir).into_iter().enumerate() {
        let (s, a) = size_align(ir, m)?;
        off = off.div_ceil(a) * a;
        if k == i {
            return Some(off);
        }
        off += s;
    }
    None
}

/// Whether `t` is a scalar (held in a `memref<1xT>` when private).
pub fn is_scalar(ir: &Context, t: Type) -> bool {
    matches!(
        ir.type_data(t),
        TypeData::Integer { .. } | TypeData::Float(_) | TypeData::Index
    )
}
