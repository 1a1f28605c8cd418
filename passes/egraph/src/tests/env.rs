//! A launch environment (fields and ndarray arguments) and a seeded generator of environments
//! and of random size expressions over them.

use qd_adstack::size_expr::{BinOp, EvalEnv, IntTy, SizeExpr};

/// SplitMix64: a small seeded generator (no dependency, same sequence everywhere).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// An integer array: shape and row-major data.
#[derive(Clone, Debug)]
pub struct Array {
    pub shape: Vec<i64>,
    pub data: Vec<i64>,
}

impl Array {
    pub fn new(shape: &[i64], data: &[i64]) -> Array {
        Array {
            shape: shape.to_vec(),
            data: data.to_vec(),
        }
    }
    fn at(&self, idx: &[i64]) -> Result<i64, String> {
        if idx.len() != self.shape.len() {
            return Err(format!(
                "rank {} indexed with {}",
                self.shape.len(),
                idx.len()
            ));
        }
        let mut off = 0i64;
        for (&s, &i) in self.shape.iter().zip(idx) {
            if i < 0 || i >= s {
                return Err(format!("index {i} out of bounds for size {s}"));
            }
            off = off * s + i;
        }
        Ok(self.data[off as usize])
    }
}

/// Fields by name and ndarray arguments by position.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub fields: Vec<(String, Array)>,
    pub arrays: Vec<(u32, Array)>,
}

impl Env {
    pub fn field(mut self, name: &str, a: Array) -> Env {
        self.fields.push((name.to_string(), a));
        self
    }
    pub fn array(mut self, arg: u32, a: Array) -> Env {
        self.arrays.push((arg, a));
        self
    }
}

impl EvalEnv for Env {
    fn field_element(&self, field: &str, idx: &[i64]) -> Result<i64, String> {
        let (_, a) = self
            .fields
            .iter()
            .find(|(n, _)| n == field)
            .ok_or("no such field")?;
        a.at(idx)
    }
    fn ndarray_shape(&self, arg: u32, axis: u32) -> Result<i64, String> {
        let (_, a) = self
            .arrays
            .iter()
            .find(|(n, _)| *n == arg)
            .ok_or("no such argument")?;
        a.shape
            .get(axis as usize)
            .copied()
            .ok_or_else(|| "no such axis".into())
    }
    fn ndarray_element(&self, arg: u32, idx: &[i64]) -> Result<i64, String> {
        let (_, a) = self
            .arrays
            .iter()
            .find(|(n, _)| *n == arg)
            .ok_or("no such argument")?;
        a.at(idx)
    }
}

/// The random fields and arrays: name (or argument), element type, shape.
const FIELDS: &[(&str, IntTy, &[i64])] = &[
    ("f", IntTy::I8, &[5]),
    ("g", IntTy::U8, &[5]),
    ("n", IntTy::I32, &[]),
    ("m", IntTy::U16, &[]),
    ("w", IntTy::I64, &[]),
    ("u", IntTy::I64, &[]),
    ("t", IntTy::I32, &[3, 3]),
];
const ARRAYS: &[(u32, IntTy, usize)] = &[(0, IntTy::I8, 1), (1, IntTy::U8, 1), (2, IntTy::I32, 2)];

/// A value of type `ty`: mostly small, sometimes at the type's edges.
fn value(r: &mut Rng, ty: IntTy) -> i64 {
    let (lo, hi) = ty.range();
    if r.chance(8) {
        let edges = [lo, hi, lo.saturating_add(1), hi.saturating_sub(1)];
        return edges[r.below(4) as usize];
    }
    r.range((-4i64).max(lo), 9i64.min(hi))
}

pub fn random_env(r: &mut Rng) -> Env {
    let mut env = Env::default();
    for &(name, ty, shape) in FIELDS {
        let len: i64 = shape.iter().product();
        let data = (0..len).map(|_| value(r, ty)).collect::<Vec<_>>();
        env = env.field(name, Array::new(shape, &data));
    }
    for &(arg, ty, rank) in ARRAYS {
        let shape: Vec<i64> = (0..rank).map(|_| r.range(0, 5)).collect();
        let len: i64 = shape.iter().product();
        let data = (0..len).map(|_| value(r, ty)).collect::<Vec<_>>();
        env = env.array(arg, Array::new(&shape, &data));
    }
    env
}

/// A random closed expression: `scope` holds the variables bound around the current point.
pub struct Gen<'a> {
    pub r: &'a mut Rng,
    scope: Vec<u32>,
    next_var: u32,
}

impl<'a> Gen<'a> {
    pub fn new(r: &'a mut Rng) -> Self {
        Gen {
            r,
            scope: Vec::new(),
            next_var: 0,
        }
    }

    fn literal(&mut self) -> SizeExpr {
        if self.r.chance(4) {
            let big = [i64::MAX, i64::MIN, 1 << 40, -(1 << 40), i64::MAX - 1];
            return SizeExpr::constant(big[self.r.below(5) as usize]);
        }
        SizeExpr::constant(self.r.range(-3, 8))
    }

    fn var(&mut self) -> Option<SizeExpr> {
        if self.scope.is_empty() {
            return None;
        }
        let v = self.scope[self.r.below(self.scope.len() as u64) as usize];
        Some(SizeExpr::bound_var(v))
    }

    /// An index: mostly a variable, a variable plus a literal, or a literal.
    fn index(&mut self) -> SizeExpr {
        match self.r.below(4) {
            0 => SizeExpr::constant(self.r.range(0, 4)),
            1 => match self.var() {
                Some(v) => {
                    SizeExpr::binary(BinOp::Add, &v, &SizeExpr::constant(self.r.range(-1, 2)))
                }
                None => SizeExpr::constant(self.r.range(0, 4)),
            },
            _ => self
                .var()
                .unwrap_or_else(|| SizeExpr::constant(self.r.range(0, 4))),
        }
    }

    fn leaf(&mut self) -> SizeExpr {
        match self.r.below(7) {
            0 | 1 => self.literal(),
            2 | 3 => self.var().unwrap_or_else(|| self.literal()),
            4 => {
                let (name, ty, shape) = FIELDS[self.r.below(FIELDS.len() as u64) as usize];
                let idx: Vec<SizeExpr> = shape.iter().map(|_| self.index()).collect();
                SizeExpr::field_load(name, ty, &idx)
            }
            5 => {
                let (arg, ty, rank) = ARRAYS[self.r.below(ARRAYS.len() as u64) as usize];
                let idx: Vec<SizeExpr> = (0..rank).map(|_| self.index()).collect();
                SizeExpr::ndarray_read(arg, ty, &idx)
            }
            _ => {
                let (arg, _, rank) = ARRAYS[self.r.below(ARRAYS.len() as u64) as usize];
                SizeExpr::ndarray_shape(arg, self.r.below(rank as u64) as u32)
            }
        }
    }

    /// A range bound: small (a literal, a variable, a shape, a scalar field or a difference).
    fn bound(&mut self) -> SizeExpr {
        match self.r.below(6) {
            0 | 1 => SizeExpr::constant(self.r.range(-1, 6)),
            2 => self.var().unwrap_or_else(|| SizeExpr::constant(3)),
            3 => SizeExpr::ndarray_shape(self.r.below(2) as u32, 0),
            4 => SizeExpr::field_load("n", IntTy::I32, &[]),
            _ => {
                let a = self.bound_leaf();
                let b = self.bound_leaf();
                let op = [BinOp::Add, BinOp::Sub, BinOp::Max, BinOp::Min][self.r.below(4) as usize];
                SizeExpr::binary(op, &a, &b)
            }
        }
    }

    fn bound_leaf(&mut self) -> SizeExpr {
        match self.r.below(3) {
            0 => SizeExpr::constant(self.r.range(0, 5)),
            1 => self.var().unwrap_or_else(|| SizeExpr::constant(2)),
            _ => SizeExpr::field_load("g", IntTy::U8, &[SizeExpr::constant(self.r.range(0, 4))]),
        }
    }

    pub fn expr(&mut self, depth: u32) -> SizeExpr {
        if depth == 0 || self.r.chance(20) {
            return self.leaf();
        }
        match self.r.below(12) {
            10 | 11 => {
                // Shared operands in two operators: what cancellation and absorption rules
                // match, e.g. (x - y) + y, max(x, min(x, y)), x * z + x * y.
                let ops = BinOp::ALL;
                let (o1, o2) = (ops[self.r.below(5) as usize], ops[self.r.below(5) as usize]);
                let x = self.expr(depth - 1);
                let y = self.expr(depth - 1);
                let inner = SizeExpr::binary(o1, &x, &y);
                let shared = if self.r.chance(50) { y } else { x };
                match self.r.below(3) {
                    0 => SizeExpr::binary(o2, &inner, &shared),
                    1 => SizeExpr::binary(o2, &shared, &inner),
                    _ => {
                        let z = self.expr(depth - 1);
                        let other = SizeExpr::binary(o1, &shared, &z);
                        SizeExpr::binary(o2, &inner, &other)
                    }
                }
            }
            0..=6 => {
                let op = BinOp::ALL[self.r.below(5) as usize];
                let a = self.expr(depth - 1);
                // Repeats make the cancellation rules fire.
                let b = if self.r.chance(15) {
                    a.clone()
                } else {
                    self.expr(depth - 1)
                };
                SizeExpr::binary(op, &a, &b)
            }
            7 if self.r.chance(50) => {
                // The fusion's shape: two ranges over one variable from one begin.
                let (v, b, e1) = (self.fresh(), self.bound(), self.bound());
                let e2 = if self.r.chance(60) {
                    e1.clone()
                } else {
                    self.bound()
                };
                self.scope.push(v);
                let (x, y) = (self.expr(depth - 1), self.expr(depth - 1));
                self.scope.pop();
                let l = SizeExpr::max_over_range_raw(v, &b, &e1, &x);
                let r = SizeExpr::max_over_range_raw(v, &b, &e2, &y);
                SizeExpr::binary(BinOp::Sub, &l, &r)
            }
            _ => {
                let (v, b, e) = (self.fresh(), self.bound(), self.bound());
                self.scope.push(v);
                let body = self.expr(depth - 1);
                self.scope.pop();
                SizeExpr::max_over_range_raw(v, &b, &e, &body)
            }
        }
    }

    /// A variable not in scope (siblings may reuse one, as the capture does).
    fn fresh(&mut self) -> u32 {
        if !self.scope.is_empty() || self.r.chance(50) {
            self.next_var = (self.next_var + 1) % 6;
        }
        while self.scope.contains(&self.next_var) {
            self.next_var = (self.next_var + 1) % 6;
        }
        self.next_var
    }
}
