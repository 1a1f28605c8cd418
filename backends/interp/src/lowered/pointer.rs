//! Pointers of lowered IR and the memory they reach.
//!
//! A `!lowered.ptr<T>` value is one register: the buffer it points into (its space and an index)
//! in the top 24 bits, an offset in the low 40 bits. Offsets count what the buffer is made of:
//! elements of a field or an ndarray (typed host storage, as the qd interpreter reads them),
//! cells of the thread's private memory (one per scalar, the qd interpreter's local layout), bytes
//! of the temporaries buffer and of the adstack heaps (the layout a compiled device uses; only the
//! running thread's row of a heap is reachable, see `state::HeapRow`).
//! Offset arithmetic wraps at 40 bits, so that a negative step and its inverse cancel; every
//! access checks its offset against the buffer, and one past it is an error of the lowered IR
//! (the lowering's bounds checks come first), never a panic.

use super::state::{heap_index, LoweredState};
use crate::exec::{Frame, StateId};
use crate::num::{canon, Kind};
use qd_ir::Location;
use qd_runtime::adstack::layout::Heap;
use qd_runtime::{NdarrayId, RuntimeError, RuntimeErrorKind, Storage};

/// Offset bits of a pointer.
pub const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
/// Index bits of a pointer's buffer (fields, kernel arguments).
const INDEX_BITS: u32 = 20;
/// The most fields or kernel arguments a pointer can name.
pub const MAX_BUFFER_INDEX: usize = 1 << INDEX_BITS;

/// The memory a pointer points into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Space {
    /// The thread's private memory (cells).
    Private,
    /// The kernel's temporaries buffer (bytes).
    Temps,
    /// The float adstack heap (bytes).
    HeapFloat,
    /// The int adstack heap (bytes).
    HeapInt,
    /// The values of field `index` (elements).
    Field(usize),
    /// The adjoint of field `index` (elements).
    FieldGrad(usize),
    /// The data of ndarray argument `index` (elements).
    Ndarray(usize),
}

impl Space {
    fn code(self) -> u64 {
        let (kind, index) = match self {
            Space::Private => (0, 0),
            Space::Temps => (1, 0),
            Space::HeapFloat => (2, 0),
            Space::HeapInt => (3, 0),
            Space::Field(i) => (4, i),
            Space::FieldGrad(i) => (5, i),
            Space::Ndarray(i) => (6, i),
        };
        (kind << INDEX_BITS) | index as u64
    }

    fn from_code(code: u64) -> Option<Space> {
        let index = (code & ((1 << INDEX_BITS) - 1)) as usize;
        Some(match code >> INDEX_BITS {
            0 => Space::Private,
            1 => Space::Temps,
            2 => Space::HeapFloat,
            3 => Space::HeapInt,
            4 => Space::Field(index),
            5 => Space::FieldGrad(index),
            6 => Space::Ndarray(index),
            _ => return None,
        })
    }

    /// Whether offsets into this space count bytes.
    pub fn is_bytes(self) -> bool {
        matches!(self, Space::Temps | Space::HeapFloat | Space::HeapInt)
    }
}

/// The register of a pointer into `space` at `offset`.
pub fn encode(space: Space, offset: u64) -> u64 {
    (space.code() << OFFSET_BITS) | (offset & OFFSET_MASK)
}

/// The space and offset of a pointer register.
pub fn decode(bits: u64) -> (Option<Space>, u64) {
    (Space::from_code(bits >> OFFSET_BITS), bits & OFFSET_MASK)
}

/// `p` moved by `delta` units of its space (wrapping at the offset's width).
pub fn add(p: u64, delta: i64) -> u64 {
    let off = (p & OFFSET_MASK).wrapping_add(delta as u64) & OFFSET_MASK;
    (p & !OFFSET_MASK) | off
}

/// How an op reads or writes one scalar: its kind, its size in global memory, and what a move
/// by one element is in each space.
#[derive(Copy, Clone, Debug)]
pub struct Scalar {
    pub kind: Kind,
    /// Bytes in global memory (0 for i1, which lowered IR never keeps there).
    pub bytes: u64,
}

impl Scalar {
    pub fn new(kind: Kind) -> Scalar {
        let bytes = match kind {
            Kind::Int { width, .. } if width.is_multiple_of(8) => u64::from(width / 8),
            Kind::Int { .. } => 0,
            Kind::F32 => 4,
            Kind::F64 => 8,
        };
        Scalar { kind, bytes }
    }
}

/// An access past its buffer, or through a pointer that names none: a fault of the lowered IR.
fn fault(f: &Frame<'_>, loc: Location, p: u64, what: &str) -> Box<RuntimeError> {
    let (space, off) = decode(p);
    f.error(
        loc,
        RuntimeErrorKind::Device,
        format!("lowered IR {what} out of its buffer: {space:?} at offset {off}"),
    )
}

/// The storage a field pointer reaches (None for another space).
fn storage<'m>(f: &'m Frame<'_>, space: Space) -> Option<&'m Storage> {
    match space {
        Space::Field(i) => f.mem.fields().get(i).map(|s| &s.value),
        Space::FieldGrad(i) => f.mem.fields().get(i).and_then(|s| s.grad.as_ref()),
        _ => None,
    }
}

/// The ndarray of argument `index` in this launch.
fn ndarray_id(f: &mut Frame<'_>, sid: StateId, index: usize) -> Option<NdarrayId> {
    f.state::<LoweredState>(sid).ndarray(index)
}

/// The index of a heap space's buffer in [`LoweredState::heaps`].
fn heap_of(space: Space) -> usize {
    match space {
        Space::HeapFloat => heap_index(Heap::Float),
        _ => heap_index(Heap::Int),
    }
}

/// Reads a value of `bytes` bytes at `off` of `buf` as canonical bits of `kind`.
fn read_bytes(buf: &[u8], off: u64, s: Scalar) -> Option<u64> {
    let start = usize::try_from(off).ok()?;
    let end = start.checked_add(s.bytes as usize)?;
    let raw = buf.get(start..end)?;
    let mut b = [0u8; 8];
    b[..raw.len()].copy_from_slice(raw);
    let bits = u64::from_le_bytes(b);
    Some(match s.kind {
        Kind::Int { .. } => canon(bits, (s.bytes * 8) as u32),
        _ => bits,
    })
}

fn write_bytes(buf: &mut [u8], off: u64, s: Scalar, bits: u64) -> Option<()> {
    let start = usize::try_from(off).ok()?;
    let end = start.checked_add(s.bytes as usize)?;
    let raw = buf.get_mut(start..end)?;
    raw.copy_from_slice(&bits.to_le_bytes()[..s.bytes as usize]);
    Some(())
}

/// Bits of an element of typed storage, as an access of kind `s` sees it: an i1 buffer read as
/// a wider integer holds 0 or 1 (a byte, as a device keeps it).
fn load_typed(st: &Storage, i: usize, s: Scalar) -> u64 {
    let bits = st.load_bits(i);
    if matches!(st, Storage::I1(_)) && s.bytes > 0 {
        bits & 1
    } else {
        bits
    }
}

/// `update` applied to element `i` of typed storage; the old value, or None past its end.
fn update_typed(
    st: &mut Storage,
    i: usize,
    s: Scalar,
    update: impl FnOnce(u64) -> u64,
) -> Option<u64> {
    if i >= st.len() {
        return None;
    }
    let old = load_typed(st, i, s);
    st.store_bits(i, update(old));
    Some(old)
}

/// Reads the scalar at `p`.
pub fn load(
    f: &mut Frame<'_>,
    sid: StateId,
    p: u64,
    s: Scalar,
    loc: Location,
) -> Result<u64, Box<RuntimeError>> {
    let (space, off) = decode(p);
    let got = match space {
        Some(Space::Private) => f.locals.get(off as usize).copied(),
        Some(Space::Temps) => read_bytes(&f.state::<LoweredState>(sid).temps, off, s),
        Some(sp @ (Space::HeapFloat | Space::HeapInt)) => f
            .state::<LoweredState>(sid)
            .heap_at(heap_of(sp), off)
            .and_then(|(row, rel)| read_bytes(row, rel, s)),
        Some(sp @ (Space::Field(_) | Space::FieldGrad(_))) => storage(f, sp)
            .filter(|st| (off as usize) < st.len())
            .map(|st| load_typed(st, off as usize, s)),
        Some(Space::Ndarray(k)) => ndarray_id(f, sid, k)
            .and_then(|id| f.mem.ndarray(id))
            .filter(|nd| (off as usize) < nd.data().len())
            .map(|nd| load_typed(nd.data(), off as usize, s)),
        None => None,
    };
    got.ok_or_else(|| fault(f, loc, p, "load"))
}

/// Applies `update(old)` to the scalar at `p` and returns the old value (a store ignores it).
pub fn update(
    f: &mut Frame<'_>,
    sid: StateId,
    p: u64,
    s: Scalar,
    loc: Location,
    update: impl FnOnce(u64) -> u64,
) -> Result<u64, Box<RuntimeError>> {
    let (space, off) = decode(p);
    let i = off as usize;
    let done = match space {
        Some(Space::Private) => f.locals.get_mut(off as usize).map(|c| {
            let old = *c;
            *c = update(old);
            old
        }),
        Some(sp @ (Space::Temps | Space::HeapFloat | Space::HeapInt)) => {
            let st = f.state::<LoweredState>(sid);
            let at = match sp {
                Space::Temps => Some((st.temps.as_mut_slice(), off)),
                _ => st.heap_at(heap_of(sp), off),
            };
            at.and_then(|(buf, rel)| {
                let old = read_bytes(buf, rel, s)?;
                write_bytes(buf, rel, s, update(old))?;
                Some(old)
            })
        }
        Some(Space::Field(x)) if x < f.mem.num_fields() => {
            update_typed(&mut f.mem.field_mut(x).value, i, s, update)
        }
        Some(Space::FieldGrad(x)) if x < f.mem.num_fields() => f
            .mem
            .field_mut(x)
            .grad
            .as_mut()
            .and_then(|st| update_typed(st, i, s, update)),
        Some(Space::Ndarray(k)) => match ndarray_id(f, sid, k) {
            Some(id) => f
                .mem
                .ndarray_mut(id)
                .and_then(|nd| update_typed(nd.data_mut(), i, s, update)),
            None => None,
        },
        _ => None,
    };
    done.ok_or_else(|| fault(f, loc, p, "store"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_round_trip_and_wrap() {
        for space in [
            Space::Private,
            Space::Temps,
            Space::HeapFloat,
            Space::HeapInt,
            Space::Field(3),
            Space::FieldGrad(MAX_BUFFER_INDEX - 1),
            Space::Ndarray(0),
        ] {
            let p = encode(space, 12345);
            assert_eq!(decode(p), (Some(space), 12345));
            assert_eq!(decode(add(add(p, -20000), 20000)), (Some(space), 12345));
            assert_eq!(decode(add(p, 5)).1, 12350);
        }
        assert_eq!(decode(u64::MAX).0, None);
    }

    #[test]
    fn bytes_read_back_canonical() {
        let mut buf = vec![0u8; 16];
        let i32s = Scalar::new(Kind::Int {
            width: 32,
            unsigned: false,
        });
        write_bytes(&mut buf, 8, i32s, (-5i64) as u64).unwrap();
        assert_eq!(read_bytes(&buf, 8, i32s), Some((-5i64) as u64));
        let f32s = Scalar::new(Kind::F32);
        write_bytes(&mut buf, 4, f32s, 1.5f32.to_bits() as u64).unwrap();
        assert_eq!(read_bytes(&buf, 4, f32s), Some(1.5f32.to_bits() as u64));
        assert_eq!(read_bytes(&buf, 13, f32s), None);
        assert_eq!(write_bytes(&mut buf, 16, f32s, 0), None);
    }
}
