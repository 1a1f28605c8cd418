//! The binary form: the flat post-order node list as fixed-size little-endian records, plus an
//! index table and a string table, so that a cache or a device can read it without a parser.
//!
//! ```text
//! header   "QDSZ"  version:u32 = 1  n_nodes:u32  n_indices:u32  n_strings:u32
//! nodes    n_nodes records of 32 bytes: kind:u32 a:u32 b:u32 c:u32 d:u32 pad:u32 value:i64
//! indices  n_indices u32 node ids (the index operands of reads, in node order)
//! strings  n_strings entries: len:u32 then len bytes of UTF-8 (field names, first use first)
//! ```
//!
//! | kind | node | a | b | c | d | value |
//! |---|---|---|---|---|---|---|
//! | 0 | Const | | | | | the literal |
//! | 1 | FieldLoad | string | element type | first index | index count | |
//! | 2 | NdarrayShape | arg | axis | | | |
//! | 3 | NdarrayRead | arg | element type | first index | index count | |
//! | 4 | BoundVar | var | | | | |
//! | 5..=9 | Add, Sub, Mul, Max, Min | lhs | rhs | | | |
//! | 10 | MaxOverRange | var | begin | end | body | |
//! | 11 | ScalarArg | arg | element type | | | |
//! | 12 | SumOverRange | var | begin | end | body | |
//! | 13 | Div | lhs | rhs | | | |
//! | 14 | Select | lhs | rhs | then | other | predicate: 0 `<`, 1 `<=`, 2 `==`, 3 `!=` |
//!
//! Element types: 0 i8, 1 i16, 2 i32, 3 i64, 4 ui8, 5 ui16, 6 ui32. Unused fields are 0. The root
//! is the last node; operands point backwards. Decoding checks everything and returns the
//! canonical expression, so `from_bytes(to_bytes(e)) == e` and, for the bytes of any expression,
//! `to_bytes(from_bytes(b)) == b`.

use super::expr::SizeExpr;
use super::node::{BinOp, CmpPred, IntTy, Node, NodeId};

const MAGIC: &[u8; 4] = b"QDSZ";
const VERSION: u32 = 1;
const HEADER: usize = 20;
const RECORD: usize = 32;

impl SizeExpr {
    /// The binary form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut strings: Vec<&str> = Vec::new();
        let mut indices: Vec<u32> = Vec::new();
        // (kind, a, b, c, d, value) per node.
        let mut records: Vec<(u32, [u32; 4], i64)> = Vec::new();
        for n in self.nodes() {
            let mut reads = |ix: &[NodeId]| {
                let first = indices.len() as u32;
                indices.extend(ix.iter().map(|i| i.0));
                (first, ix.len() as u32)
            };
            records.push(match n {
                Node::Const(c) => (0, [0; 4], *c),
                Node::FieldLoad {
                    field,
                    ty,
                    indices: ix,
                } => {
                    let s = strings.iter().position(|s| s == field).unwrap_or_else(|| {
                        strings.push(field);
                        strings.len() - 1
                    });
                    let (first, count) = reads(ix);
                    (1, [s as u32, ty.code(), first, count], 0)
                }
                Node::NdarrayShape { arg, axis } => (2, [*arg, *axis, 0, 0], 0),
                Node::NdarrayRead {
                    arg,
                    ty,
                    indices: ix,
                } => {
                    let (first, count) = reads(ix);
                    (3, [*arg, ty.code(), first, count], 0)
                }
                Node::BoundVar(v) => (4, [*v, 0, 0, 0], 0),
                Node::ScalarArg { arg, ty } => (11, [*arg, ty.code(), 0, 0], 0),
                Node::Binary(op, a, b) => (binop_kind(*op), [a.0, b.0, 0, 0], 0),
                Node::MaxOverRange {
                    var,
                    begin,
                    end,
                    body,
                } => (10, [*var, begin.0, end.0, body.0], 0),
                Node::SumOverRange {
                    var,
                    begin,
                    end,
                    body,
                } => (12, [*var, begin.0, end.0, body.0], 0),
                Node::Select {
                    pred,
                    lhs,
                    rhs,
                    then,
                    other,
                } => (14, [lhs.0, rhs.0, then.0, other.0], pred.code()),
            });
        }
        let mut out = Vec::with_capacity(HEADER + RECORD * records.len() + 4 * indices.len());
        out.extend_from_slice(MAGIC);
        let counts = [records.len(), indices.len(), strings.len()];
        for w in [VERSION].into_iter().chain(counts.map(|c| c as u32)) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for (kind, fields, value) in &records {
            out.extend_from_slice(&kind.to_le_bytes());
            for f in fields {
                out.extend_from_slice(&f.to_le_bytes());
            }
            out.extend_from_slice(&0u32.to_le_bytes());
            out.extend_from_slice(&value.to_le_bytes());
        }
        for i in &indices {
            out.extend_from_slice(&i.to_le_bytes());
        }
        for s in &strings {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        out
    }

    /// Decodes and checks the binary form (see [`SizeExpr::from_nodes`] for the checks).
    pub fn from_bytes(bytes: &[u8]) -> Result<SizeExpr, String> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC {
            return Err("not a size expression (bad magic)".into());
        }
        let version = r.u32()?;
        if version != VERSION {
            return Err(format!("unsupported size expression version {version}"));
        }
        let n_nodes = r.u32()? as usize;
        let n_indices = r.u32()? as usize;
        let n_strings = r.u32()? as usize;
        // Sizes are checked against what is left before anything is allocated for them.
        if n_nodes.saturating_mul(RECORD) > r.left() || n_indices.saturating_mul(4) > r.left() {
            return Err("truncated size expression".into());
        }
        let mut recs = Vec::with_capacity(n_nodes);
        for _ in 0..n_nodes {
            let kind = r.u32()?;
            let (a, b, c, d) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
            if r.u32()? != 0 {
                return Err("non-zero padding in a node record".into());
            }
            recs.push((kind, a, b, c, d, r.i64()?));
        }
        let mut indices = Vec::with_capacity(n_indices);
        for _ in 0..n_indices {
            indices.push(NodeId(r.u32()?));
        }
        if n_strings.saturating_mul(4) > r.left() {
            return Err("truncated size expression".into());
        }
        let mut strings = Vec::with_capacity(n_strings);
        for _ in 0..n_strings {
            let len = r.u32()? as usize;
            let s = std::str::from_utf8(r.take(len)?)
                .map_err(|_| "a field name is not UTF-8".to_string())?;
            strings.push(s.to_string());
        }
        if r.left() != 0 {
            return Err("trailing bytes after the size expression".into());
        }
        let slice = |first: u32, count: u32| -> Result<Vec<NodeId>, String> {
            let (f, c) = (first as usize, count as usize);
            indices
                .get(f..f.saturating_add(c))
                .map(|s| s.to_vec())
                .ok_or_else(|| "index table entry out of range".to_string())
        };
        let ty = |c: u32| IntTy::from_code(c).ok_or_else(|| format!("unknown element type {c}"));
        let mut nodes = Vec::with_capacity(n_nodes);
        for (i, &(kind, a, b, c, d, value)) in recs.iter().enumerate() {
            let unused = |fields: &[u32], v: i64| -> Result<(), String> {
                if fields.iter().any(|&x| x != 0) || v != 0 {
                    Err(format!("node {i}: unused fields must be 0"))
                } else {
                    Ok(())
                }
            };
            let node = match kind {
                0 => {
                    unused(&[a, b, c, d], 0)?;
                    Node::Const(value)
                }
                1 => {
                    unused(&[], value)?;
                    let field = strings
                        .get(a as usize)
                        .ok_or_else(|| format!("node {i}: string {a} out of range"))?
                        .clone();
                    Node::FieldLoad {
                        field,
                        ty: ty(b)?,
                        indices: slice(c, d)?,
                    }
                }
                2 => {
                    unused(&[c, d], value)?;
                    Node::NdarrayShape { arg: a, axis: b }
                }
                3 => {
                    unused(&[], value)?;
                    Node::NdarrayRead {
                        arg: a,
                        ty: ty(b)?,
                        indices: slice(c, d)?,
                    }
                }
                4 => {
                    unused(&[b, c, d], value)?;
                    Node::BoundVar(a)
                }
                5..=9 => {
                    unused(&[c, d], value)?;
                    Node::Binary(BinOp::ALL[(kind - 5) as usize], NodeId(a), NodeId(b))
                }
                10 => {
                    unused(&[], value)?;
                    Node::MaxOverRange {
                        var: a,
                        begin: NodeId(b),
                        end: NodeId(c),
                        body: NodeId(d),
                    }
                }
                11 => {
                    unused(&[c, d], value)?;
                    Node::ScalarArg { arg: a, ty: ty(b)? }
                }
                12 => {
                    unused(&[], value)?;
                    Node::SumOverRange {
                        var: a,
                        begin: NodeId(b),
                        end: NodeId(c),
                        body: NodeId(d),
                    }
                }
                13 => {
                    unused(&[c, d], value)?;
                    Node::Binary(BinOp::Div, NodeId(a), NodeId(b))
                }
                14 => Node::Select {
                    pred: CmpPred::from_code(value)
                        .ok_or_else(|| format!("node {i}: unknown comparison {value}"))?,
                    lhs: NodeId(a),
                    rhs: NodeId(b),
                    then: NodeId(c),
                    other: NodeId(d),
                },
                k => return Err(format!("node {i}: unknown kind {k}")),
            };
            nodes.push(node);
        }
        SizeExpr::from_nodes(nodes)
    }
}

/// The record kind of a binary node: 5 to 9 in [`BinOp::ALL`]'s order, then `Div` (13, added
/// after the range and argument kinds).
fn binop_kind(op: BinOp) -> u32 {
    match op {
        BinOp::Div => 13,
        _ => 5 + BinOp::ALL.iter().position(|&o| o == op).unwrap_or(0) as u32,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.left() {
            return Err("truncated size expression".into());
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i64(&mut self) -> Result<i64, String> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(i64::from_le_bytes(a))
    }
}
