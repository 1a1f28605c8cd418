//! Affine maps as MLIR's builtin `affine_map<(d0, d1)[s0] -> (d0 + s0, d1 * 2)>`: the layout of a
//! memref and an attribute of their own. Expressions are built through the simplifying
//! constructors (constants folded and moved to the right, `x + 0`, `x * 1`, ...), a subset of
//! MLIR's, and print as MLIR's AsmPrinter prints them.

/// An affine expression over dims `d<i>`, symbols `s<i>` and constants.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineExpr {
    Dim(u32),
    Symbol(u32),
    Const(i64),
    Bin(AffineOp, Box<AffineExpr>, Box<AffineExpr>),
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum AffineOp {
    Add,
    Mul,
    Mod,
    FloorDiv,
    CeilDiv,
}

/// `(dims)[symbols] -> (results)`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct AffineMap {
    pub num_dims: u32,
    pub num_symbols: u32,
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// `(d0, ..., dn) -> (d0, ..., dn)`: the default memref layout.
    pub fn is_identity(&self) -> bool {
        self.num_symbols == 0
            && self.results.len() == self.num_dims as usize
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
    }

    /// The map as MLIR prints it inside `affine_map<...>`.
    pub fn write(&self, out: &mut String) {
        out.push('(');
        for i in 0..self.num_dims {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&format!("d{i}"));
        }
        out.push(')');
        if self.num_symbols > 0 {
            out.push('[');
            for i in 0..self.num_symbols {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&format!("s{i}"));
            }
            out.push(']');
        }
        out.push_str(" -> (");
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            e.write(out, false);
        }
        out.push(')');
    }
}

impl AffineExpr {
    /// Whether the expression involves no dims (constants and symbols only).
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self {
            AffineExpr::Dim(_) => false,
            AffineExpr::Symbol(_) | AffineExpr::Const(_) => true,
            AffineExpr::Bin(_, l, r) => l.is_symbolic_or_constant() && r.is_symbolic_or_constant(),
        }
    }

    fn as_const(&self) -> Option<i64> {
        match self {
            AffineExpr::Const(c) => Some(*c),
            _ => None,
        }
    }

    fn bin(op: AffineOp, l: AffineExpr, r: AffineExpr) -> AffineExpr {
        AffineExpr::Bin(op, Box::new(l), Box::new(r))
    }

    /// `l + r`, simplified: constants folded and kept on the right, `x + 0` is `x`,
    /// `(x + c1) + c2` is `x + (c1 + c2)`.
    pub fn sum(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        match (l.as_const(), r.as_const()) {
            (Some(a), Some(b)) => return AffineExpr::Const(a.wrapping_add(b)),
            (Some(_), None) => return Self::sum(r, l),
            (None, Some(0)) => return l,
            (None, Some(b)) => {
                if let AffineExpr::Bin(AffineOp::Add, ll, lr) = &l {
                    if let Some(a) = lr.as_const() {
                        return Self::sum((**ll).clone(), AffineExpr::Const(a.wrapping_add(b)));
                    }
                }
            }
            _ => {}
        }
        Self::bin(AffineOp::Add, l, r)
    }

    /// `l * r`, simplified: constants folded, the symbolic or constant factor on the right,
    /// `x * 1` is `x`, `x * 0` is `0`, `(x * c1) * c2` is `x * (c1 * c2)`. None when neither
    /// side is symbolic or constant (not affine).
    pub fn product(l: AffineExpr, r: AffineExpr) -> Option<AffineExpr> {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const()) {
            return Some(AffineExpr::Const(a.wrapping_mul(b)));
        }
        if !l.is_symbolic_or_constant() && !r.is_symbolic_or_constant() {
            return None;
        }
        // The constant (or else symbolic) operand goes to the right.
        if l.as_const().is_some() || (l.is_symbolic_or_constant() && !r.is_symbolic_or_constant()) {
            return Self::product(r, l);
        }
        match r.as_const() {
            Some(1) => return Some(l),
            Some(0) => return Some(AffineExpr::Const(0)),
            Some(b) => {
                if let AffineExpr::Bin(AffineOp::Mul, ll, lr) = &l {
                    if let Some(a) = lr.as_const() {
                        return Self::product((**ll).clone(), AffineExpr::Const(a.wrapping_mul(b)));
                    }
                }
            }
            None => {}
        }
        Some(Self::bin(AffineOp::Mul, l, r))
    }

    /// `l floordiv r`, `l ceildiv r`, `l mod r`: constants folded (a zero divisor is kept as
    /// written), `x floordiv 1` and `x ceildiv 1` are `x`, `x mod 1` is `0`. None when the right
    /// side is not symbolic or constant.
    pub fn div_like(op: AffineOp, l: AffineExpr, r: AffineExpr) -> Option<AffineExpr> {
        if !r.is_symbolic_or_constant() {
            return None;
        }
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const()) {
            if let Some(v) = fold_div_like(op, a, b) {
                return Some(AffineExpr::Const(v));
            }
        }
        match (op, r.as_const()) {
            (AffineOp::FloorDiv | AffineOp::CeilDiv, Some(1)) => Some(l),
            (AffineOp::Mod, Some(1)) => Some(AffineExpr::Const(0)),
            _ => Some(Self::bin(op, l, r)),
        }
    }

    /// MLIR's `printAffineExprInternal`; `strong` is a tightly binding context (operand of
    /// `*`, `floordiv`, `ceildiv`, `mod`), where sums and products are parenthesized.
    pub fn write(&self, out: &mut String, strong: bool) {
        let (op, l, r) = match self {
            AffineExpr::Dim(i) => return out.push_str(&format!("d{i}")),
            AffineExpr::Symbol(i) => return out.push_str(&format!("s{i}")),
            AffineExpr::Const(c) => return out.push_str(&c.to_string()),
            AffineExpr::Bin(op, l, r) => (*op, &**l, &**r),
        };
        if strong {
            out.push('(');
        }
        if op != AffineOp::Add {
            if op == AffineOp::Mul && r.as_const() == Some(-1) {
                out.push('-');
                l.write(out, true);
            } else {
                l.write(out, true);
                out.push_str(match op {
                    AffineOp::Mul => " * ",
                    AffineOp::FloorDiv => " floordiv ",
                    AffineOp::CeilDiv => " ceildiv ",
                    AffineOp::Mod => " mod ",
                    AffineOp::Add => unreachable!("handled below"),
                });
                r.write(out, true);
            }
        } else {
            self.write_sum(out, l, r);
        }
        if strong {
            out.push(')');
        }
    }

    /// `l + r`, with a negative product or constant on the right printed as a subtraction.
    fn write_sum(&self, out: &mut String, l: &AffineExpr, r: &AffineExpr) {
        if let AffineExpr::Bin(AffineOp::Mul, rl, rr) = r {
            match rr.as_const() {
                Some(-1) => {
                    l.write(out, false);
                    out.push_str(" - ");
                    rl.write(out, matches!(**rl, AffineExpr::Bin(AffineOp::Add, ..)));
                    return;
                }
                Some(c) if c < -1 => {
                    l.write(out, false);
                    out.push_str(" - ");
                    rl.write(out, true);
                    out.push_str(&format!(" * {}", c.unsigned_abs()));
                    return;
                }
                _ => {}
            }
        }
        if let Some(c) = r.as_const().filter(|&c| c < 0) {
            l.write(out, false);
            out.push_str(&format!(" - {}", c.unsigned_abs()));
            return;
        }
        l.write(out, false);
        out.push_str(" + ");
        r.write(out, false);
    }
}

/// `a floordiv b`, `a ceildiv b`, `a mod b` (only for b > 0, as MLIR); None for a zero
/// divisor or an overflow (kept unfolded).
fn fold_div_like(op: AffineOp, a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    let inexact = a.checked_rem(b)? != 0;
    match op {
        AffineOp::FloorDiv if inexact && ((a < 0) != (b < 0)) => q.checked_sub(1),
        AffineOp::CeilDiv if inexact && ((a < 0) == (b < 0)) => q.checked_add(1),
        AffineOp::FloorDiv | AffineOp::CeilDiv => Some(q),
        AffineOp::Mod if b > 0 => a.checked_rem_euclid(b),
        _ => None,
    }
}
