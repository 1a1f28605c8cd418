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

    /// `l + r`, simplified as MLIR's `simplifyAdd`: constants folded; a constant, or a symbolic
    /// term added to a non-symbolic one, goes to the right; `x + 0` is `x`; `(x + c1) + c2` is
    /// `x + (c1 + c2)`; `c1 * e + c2 * e` is `e * (c1 + c2)`; `(x + c) + y` is `(x + y) + c`.
    pub fn sum(l: AffineExpr, r: AffineExpr) -> AffineExpr {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const()) {
            if let Some(v) = a.checked_add(b) {
                return AffineExpr::Const(v);
            }
        }
        if l.as_const().is_some() || (l.is_symbolic_or_constant() && !r.is_symbolic_or_constant()) {
            return Self::sum(r, l);
        }
        // Two dims (or two symbols) go in position order (mlir-opt 22: `d2 + d1` is `d1 + d2`).
        match (&l, &r) {
            (AffineExpr::Dim(a), AffineExpr::Dim(b))
            | (AffineExpr::Symbol(a), AffineExpr::Symbol(b))
                if a > b =>
            {
                return Self::sum(r, l)
            }
            _ => {}
        }
        if r.as_const() == Some(0) {
            return l;
        }
        if let (AffineExpr::Bin(AffineOp::Add, ll, lr), Some(b)) = (&l, r.as_const()) {
            if let Some(a) = lr.as_const() {
                return Self::sum((**ll).clone(), AffineExpr::Const(a.wrapping_add(b)));
            }
        }
        // Like terms: `c1 * e + c2 * e` (a bare `e` counts as `1 * e`).
        let (c1, e1) = l.scaled_term();
        let (c2, e2) = r.scaled_term();
        if e1 == e2 {
            let e = e1.clone();
            return Self::product(e.clone(), AffineExpr::Const(c1.wrapping_add(c2)))
                .unwrap_or_else(|| Self::bin(AffineOp::Mul, e, AffineExpr::Const(c1 + c2)));
        }
        if let AffineExpr::Bin(AffineOp::Add, ll, lr) = &l {
            if let Some(a) = lr.as_const() {
                let inner = Self::sum((**ll).clone(), r);
                return Self::sum(inner, AffineExpr::Const(a));
            }
        }
        if let Some(m) = Self::as_mod(&l, &r) {
            return m;
        }
        Self::bin(AffineOp::Add, l, r)
    }

    /// `e + ((e floordiv q) * q) * -1` or `e + (e floordiv c) * -c` as `e mod q` (MLIR's
    /// simplifyAdd recognizes the remainder), else None.
    fn as_mod(l: &AffineExpr, r: &AffineExpr) -> Option<AffineExpr> {
        let AffineExpr::Bin(AffineOp::Mul, rl, rr) = r else {
            return None;
        };
        if rr.as_const() == Some(-1) {
            if let AffineExpr::Bin(AffineOp::Mul, fd, q) = &**rl {
                let AffineExpr::Bin(AffineOp::FloorDiv, e, d) = &**fd else {
                    return None;
                };
                if d == q && **e == *l {
                    return Self::div_like(AffineOp::Mod, l.clone(), (**q).clone());
                }
            }
        }
        let AffineExpr::Bin(AffineOp::FloorDiv, e, d) = &**rl else {
            return None;
        };
        let neg = Self::product((**rr).clone(), AffineExpr::Const(-1))?;
        if **e == *l && **d == neg {
            return Self::div_like(AffineOp::Mod, l.clone(), (**d).clone());
        }
        None
    }

    /// `(c, e)` for `e * c` with a constant `c`, else `(1, self)`.
    fn scaled_term(&self) -> (i64, &AffineExpr) {
        match self {
            AffineExpr::Bin(AffineOp::Mul, l, r) => match r.as_const() {
                Some(c) => (c, l),
                None => (1, self),
            },
            _ => (1, self),
        }
    }

    /// `l * r`, simplified as MLIR's `simplifyMul`: constants folded, the symbolic or constant
    /// factor on the right, `x * 1` is `x`, `x * 0` is `0`, `(x * c1) * c2` is `x * (c1 * c2)`,
    /// `(x * c) * y` is `(x * y) * c`. None when neither side is symbolic or constant (not
    /// affine).
    pub fn product(l: AffineExpr, r: AffineExpr) -> Option<AffineExpr> {
        if let (Some(a), Some(b)) = (l.as_const(), r.as_const()) {
            if let Some(v) = a.checked_mul(b) {
                return Some(AffineExpr::Const(v));
            }
        }
        if !l.is_symbolic_or_constant() && !r.is_symbolic_or_constant() {
            return None;
        }
        // The constant (or else symbolic) operand goes to the right.
        if !r.is_symbolic_or_constant() || (l.as_const().is_some() && r.as_const().is_none()) {
            return Self::product(r, l);
        }
        match r.as_const() {
            Some(1) => return Some(l),
            Some(0) => return Some(AffineExpr::Const(0)),
            _ => {}
        }
        if let AffineExpr::Bin(AffineOp::Mul, ll, lr) = &l {
            if let Some(a) = lr.as_const() {
                return match r.as_const() {
                    Some(b) => Self::product((**ll).clone(), AffineExpr::Const(a.wrapping_mul(b))),
                    None => {
                        let inner = Self::product((**ll).clone(), r)?;
                        Self::product(inner, AffineExpr::Const(a))
                    }
                };
            }
        }
        Some(Self::bin(AffineOp::Mul, l, r))
    }

    /// `l floordiv r`, `l ceildiv r`, `l mod r`, simplified as MLIR's `simplifyFloorDiv`,
    /// `simplifyCeilDiv` and `simplifyMod`: constants folded (a zero divisor, or a non-positive
    /// one for `mod`, is kept as written), `x floordiv 1` and `x ceildiv 1` are `x`,
    /// `(x * c1) floordiv c2` is `x * (c1 / c2)` when `c2` divides `c1`, a multiple of `c` mod
    /// `c` is `0`, `(a + b) mod c` drops a term that is a multiple of `c`, and `(x mod c1) mod
    /// c2` is `x mod c2` when `c2` divides `c1`. None when the right side is not symbolic or
    /// constant.
    pub fn div_like(op: AffineOp, l: AffineExpr, r: AffineExpr) -> Option<AffineExpr> {
        if !r.is_symbolic_or_constant() {
            return None;
        }
        let raw = |l: AffineExpr, r: AffineExpr| Some(Self::bin(op, l, r));
        let Some(c) = r.as_const() else {
            return raw(l, r);
        };
        if let Some(a) = l.as_const() {
            if let Some(v) = fold_div_like(op, a, c) {
                return Some(AffineExpr::Const(v));
            }
        }
        // Division by zero or a negative number is kept as written.
        if c < 1 {
            return raw(l, r);
        }
        let lbin = match &l {
            AffineExpr::Bin(k, ll, lr) => Some((*k, &**ll, &**lr)),
            _ => None,
        };
        match op {
            AffineOp::FloorDiv | AffineOp::CeilDiv => {
                if c == 1 {
                    return Some(l);
                }
                if let Some((AffineOp::Mul, ll, lr)) = lbin {
                    if let Some(m) = lr.as_const().filter(|m| m % c == 0) {
                        return Self::product(ll.clone(), AffineExpr::Const(m / c));
                    }
                }
                if op == AffineOp::FloorDiv {
                    if let Some((AffineOp::Add, ll, lr)) = lbin {
                        if ll.largest_known_divisor() % c == 0
                            || lr.largest_known_divisor() % c == 0
                        {
                            let a = Self::div_like(op, ll.clone(), r.clone())?;
                            let b = Self::div_like(op, lr.clone(), r)?;
                            return Some(Self::sum(a, b));
                        }
                    }
                }
                raw(l, r)
            }
            AffineOp::Mod => {
                if l.largest_known_divisor() % c == 0 {
                    return Some(AffineExpr::Const(0));
                }
                match lbin {
                    Some((AffineOp::Add, ll, lr)) => {
                        if ll.largest_known_divisor() % c == 0 {
                            return Self::div_like(op, lr.clone(), r);
                        }
                        if lr.largest_known_divisor() % c == 0 {
                            return Self::div_like(op, ll.clone(), r);
                        }
                    }
                    Some((AffineOp::Mod, ll, lr))
                        if lr.as_const().is_some_and(|m| m >= 1 && m % c == 0) =>
                    {
                        return Self::div_like(op, ll.clone(), r);
                    }
                    _ => {}
                }
                raw(l, r)
            }
            _ => raw(l, r),
        }
    }

    /// MLIR's `getLargestKnownDivisor`: a constant the expression is always a multiple of.
    fn largest_known_divisor(&self) -> i64 {
        match self {
            AffineExpr::Dim(_) | AffineExpr::Symbol(_) => 1,
            AffineExpr::Const(c) => c.unsigned_abs().min(i64::MAX as u64) as i64,
            AffineExpr::Bin(op, l, r) => match op {
                AffineOp::Mul => l
                    .largest_known_divisor()
                    .wrapping_mul(r.largest_known_divisor()),
                AffineOp::Add | AffineOp::Mod => {
                    gcd(l.largest_known_divisor(), r.largest_known_divisor())
                }
                AffineOp::FloorDiv | AffineOp::CeilDiv => match r.as_const() {
                    Some(c) if c != 0 => {
                        let d = l.largest_known_divisor();
                        if d % c == 0 {
                            (d / c).wrapping_abs()
                        } else {
                            1
                        }
                    }
                    _ => 1,
                },
            },
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

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.min(i64::MAX as u64) as i64
}
