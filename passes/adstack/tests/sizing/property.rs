//! The property test: random loop nests (up to 4 deep, under a parallel loop) whose bounds come
//! from literals, scalar fields, field and ndarray reads at enclosing indices, ndarray shapes,
//! enclosing indices, differences, minima and sums of these, and (in the general family)
//! locals with two stores. Each nest pushes onto one
//! stack (and sometimes pushes and pops in pairs); a counter in the kernel records the real
//! peak depth (an atomic max into `@peak`), and the sized bound, evaluated against the same
//! data, must never be below it. The interpreter also gets the bound as the stack's capacity,
//! so an overflow would show an unsound bound too.
//!
//! Rectangular nests (bounds independent of any index) and triangular ones (a single loop under
//! the alloca whose bounds depend on enclosing indices) must be exact; the mean tightness
//! (bound / peak) of every family is printed.

use super::common::*;
use qd_runtime::{DType, Scalar};
use std::fmt::Write;

/// xorshift64*: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A value in `[0, n)`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Where a bound's value comes from. Every value lies in [-6, 9]: indices stay below 9.
#[derive(Clone, Debug)]
enum Src {
    Lit(i64),
    /// Scalar field @f0 or @f1.
    Field(usize),
    /// @g[i_d] (9 elements).
    FieldAt(usize),
    /// a[i_d] or b[i_d] (argument 0 or 1, 9 elements).
    Read(usize, usize),
    /// a.shape[0] (9).
    Shape,
    /// The index of enclosing loop d.
    Index(usize),
    Sub(Box<Src>, Box<Src>),
    /// min(x + 1, 8).
    NextCapped(Box<Src>),
    /// A local holding x, then y when @f0 < @f1 (two stores).
    Local(Box<Src>, Box<Src>),
}

/// A loop: `range(lower, upper)`.
#[derive(Clone, Debug)]
struct Loop {
    lower: Src,
    upper: Src,
}

/// A nest: a parallel loop of `threads` iterations, loops 1..=D inside it, the alloca in the
/// body at depth `alloca` (the body of loop `alloca - 1`), and per body depth: pushes before
/// the nested loop, pushes after it, push/pop pairs.
#[derive(Clone, Debug)]
struct Nest {
    threads: i64,
    loops: Vec<Loop>,
    alloca: usize,
    before: Vec<usize>,
    after: Vec<usize>,
    pairs: Vec<usize>,
}

#[derive(Copy, Clone, PartialEq, Debug)]
enum Family {
    Rectangular,
    Triangular,
    General,
}

fn simple(r: &mut Rng, depth: usize, with_index: bool) -> Src {
    let choices = if with_index { 7 } else { 3 };
    match r.below(choices) {
        0 => Src::Lit(r.below(7) as i64),
        1 => Src::Field(r.below(2) as usize),
        2 => Src::Shape,
        3 => Src::FieldAt(r.below(depth as u64) as usize),
        4 => Src::Read(r.below(2) as usize, r.below(depth as u64) as usize),
        _ => Src::Index(r.below(depth as u64) as usize),
    }
}

/// An upper bound; `locals`: whether it may go through a local with two stores (the max of two
/// values is a bound, not the value, so such nests are not exact).
fn upper(r: &mut Rng, depth: usize, with_index: bool, locals: bool) -> Src {
    let x = simple(r, depth, with_index);
    match r.below(if locals { 12 } else { 10 }) {
        0..=5 => x,
        6..=8 => Src::Sub(Box::new(x), Box::new(simple(r, depth, with_index))),
        9 => Src::NextCapped(Box::new(x)),
        _ => Src::Local(Box::new(x), Box::new(simple(r, depth, with_index))),
    }
}

fn lower(r: &mut Rng, depth: usize, with_index: bool) -> Src {
    if r.chance(70) {
        return Src::Lit(0);
    }
    match r.below(3) {
        0 => Src::Lit(r.below(3) as i64),
        1 if with_index => Src::Index(r.below(depth as u64) as usize),
        _ => Src::Field(r.below(2) as usize),
    }
}

fn gen(r: &mut Rng, family: Family) -> Nest {
    let d = 1 + r.below(3) as usize; // loops 1..=d inside the parallel one: depth up to 4
    let alloca = match family {
        Family::Triangular => d, // one loop (loop d) below the alloca
        _ => 1 + r.below(d as u64 + 1) as usize,
    };
    let mut loops = Vec::new();
    for depth in 1..=d {
        let dependent = match family {
            Family::Rectangular => false,
            Family::Triangular => depth == d,
            Family::General => true,
        };
        loops.push(Loop {
            lower: lower(r, depth, dependent),
            upper: upper(r, depth, dependent, family == Family::General),
        });
    }
    let mut before = vec![0; d + 2];
    let mut after = vec![0; d + 2];
    let mut pairs = vec![0; d + 2];
    for body in alloca..=d + 1 {
        if family == Family::Triangular && body != d + 1 {
            continue;
        }
        before[body] = r.below(3) as usize;
        after[body] = if family == Family::Triangular {
            0
        } else {
            r.below(2) as usize
        };
        if family == Family::General && r.chance(20) {
            pairs[body] = 1;
        }
    }
    if before.iter().chain(&after).all(|&n| n == 0) {
        before[d + 1] = 1;
    }
    Nest {
        threads: 1 + r.below(4) as i64,
        loops,
        alloca,
        before,
        after,
        pairs,
    }
}

/// Emits the kernel text of a nest.
fn emit(n: &Nest) -> String {
    let mut s = String::new();
    s.push_str(
        "qd.field @f0 : !qd.field<i32>\nqd.field @f1 : !qd.field<i32>\n\
         qd.field @g : !qd.field<9xi32>\nqd.field @peak : !qd.field<i32>\n\
         qd.field @runs : !qd.field<i32>\n\
         qd.kernel @nest(%a: !qd.ndarray<?xi32>, %b: !qd.ndarray<?xi32>, %val: f32) {\n\
         %c0 = arith.constant 0 : i32\n%c1 = arith.constant 1 : i32\n%c8 = arith.constant 8 : i32\n",
    );
    let mut e = Emitter { s, tmp: 0 };
    writeln!(e.s, "%threads = arith.constant {} : i32", n.threads).unwrap();
    writeln!(e.s, "qd.range_for %i0 = %c0 to %threads : i32 {{").unwrap();
    e.body(n, 1);
    e.s.push_str("}\n}\n");
    e.s
}

struct Emitter {
    s: String,
    tmp: usize,
}

impl Emitter {
    fn fresh(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    /// Emits `src`; returns its value.
    fn value(&mut self, src: &Src) -> String {
        let v = self.fresh();
        match src {
            Src::Lit(c) => writeln!(self.s, "{v} = arith.constant {c} : i32"),
            Src::Field(k) => writeln!(self.s, "{v} = qd.load @f{k}[] : i32"),
            Src::FieldAt(d) => writeln!(self.s, "{v} = qd.load @g[%i{d}] : i32"),
            Src::Read(arr, d) => {
                let a = if *arr == 0 { "%a" } else { "%b" };
                writeln!(
                    self.s,
                    "{v} = qd.ndarray_load {a}[%i{d}] : !qd.ndarray<?xi32>"
                )
            }
            Src::Shape => writeln!(self.s, "{v} = qd.ndarray_shape %a, 0 : !qd.ndarray<?xi32>"),
            Src::Index(d) => return format!("%i{d}"),
            Src::Sub(x, y) => {
                let (x, y) = (self.value(x), self.value(y));
                writeln!(self.s, "{v} = arith.subi {x}, {y} : i32")
            }
            Src::NextCapped(x) => {
                let x = self.value(x);
                let w = self.fresh();
                writeln!(self.s, "{w} = arith.addi {x}, %c1 : i32").unwrap();
                writeln!(self.s, "{v} = arith.minsi {w}, %c8 : i32")
            }
            Src::Local(x, y) => {
                let (p, a, b, c) = (self.fresh(), self.fresh(), self.fresh(), self.fresh());
                let x = self.value(x);
                writeln!(self.s, "{p} = qd.alloca : !qd.ptr<i32>").unwrap();
                writeln!(self.s, "qd.local_store {x}, {p} : !qd.ptr<i32>").unwrap();
                writeln!(
                    self.s,
                    "{a} = qd.load @f0[] : i32\n{b} = qd.load @f1[] : i32"
                )
                .unwrap();
                writeln!(self.s, "{c} = arith.cmpi slt, {a}, {b} : i32\nqd.if {c} {{").unwrap();
                let y = self.value(y);
                writeln!(self.s, "qd.local_store {y}, {p} : !qd.ptr<i32>\n}}").unwrap();
                writeln!(self.s, "{v} = qd.local_load {p} : !qd.ptr<i32>")
            }
        }
        .unwrap();
        v
    }

    fn push(&mut self) {
        let (c, c1) = (self.fresh(), self.fresh());
        writeln!(self.s, "adstack.push %s, %val : f32").unwrap();
        writeln!(self.s, "{c} = qd.local_load %cnt : !qd.ptr<i32>").unwrap();
        writeln!(self.s, "{c1} = arith.addi {c}, %c1 : i32").unwrap();
        writeln!(self.s, "qd.local_store {c1}, %cnt : !qd.ptr<i32>").unwrap();
        writeln!(self.s, "qd.atomic_max {c1}, @peak[] : i32").unwrap();
    }

    fn pop(&mut self) {
        let (c, c1, c2) = (self.fresh(), self.fresh(), self.fresh());
        writeln!(self.s, "adstack.pop %s : f32").unwrap();
        writeln!(self.s, "{c} = qd.local_load %cnt : !qd.ptr<i32>").unwrap();
        writeln!(self.s, "{c1} = arith.subi {c}, %c1 : i32").unwrap();
        writeln!(self.s, "{c2} = arith.maxsi {c1}, %c0 : i32").unwrap();
        writeln!(self.s, "qd.local_store {c2}, %cnt : !qd.ptr<i32>").unwrap();
    }

    /// The body at `depth` (inside loop `depth - 1`).
    fn body(&mut self, n: &Nest, depth: usize) {
        if depth == n.alloca {
            self.s
                .push_str("%s = adstack.alloca : f32\n%cnt = qd.alloca : !qd.ptr<i32>\n");
            self.s.push_str("qd.local_store %c0, %cnt : !qd.ptr<i32>\n");
            self.s.push_str("qd.atomic_add %c1, @runs[] : i32\n");
        }
        for _ in 0..n.before[depth] {
            self.push();
        }
        for _ in 0..n.pairs[depth] {
            self.push();
            self.pop();
        }
        if let Some(l) = n.loops.get(depth - 1) {
            let lo = self.value(&l.lower);
            let hi = self.value(&l.upper);
            writeln!(self.s, "qd.range_for %i{depth} = {lo} to {hi} : i32 {{").unwrap();
            self.body(n, depth + 1);
            self.s.push_str("}\n");
        }
        for _ in 0..n.after[depth] {
            self.push();
        }
    }
}

/// The launch data of nest number `seed`: fields and ndarrays with values in [0, 6].
fn data(r: &mut Rng) -> (Data, Vec<i64>, Vec<i64>) {
    let mut v = |n: usize| (0..n).map(|_| r.below(7) as i64).collect::<Vec<i64>>();
    let (f0, f1, g, a, b) = (v(1), v(1), v(9), v(9), v(9));
    let d = Data {
        fields: vec![
            ("f0".into(), vec![], f0),
            ("f1".into(), vec![], f1),
            ("g".into(), vec![9], g),
        ],
        ndarrays: vec![(0, vec![9], a.clone()), (1, vec![9], b.clone())],
    };
    (d, a, b)
}

/// Sizes, evaluates and runs one nest: (bound, real peak), or None when the alloca never runs
/// (the bound of a stack never allocated is vacuous).
fn check(n: &Nest, r: &mut Rng) -> Option<(u64, u64)> {
    let src = emit(n);
    let (mut ctx, m) = parse(&src);
    size(&mut ctx, m);
    let stacks = bounds(&ctx, m, "nest");
    let (alloca, e) = stacks[0].clone();
    let (data, a, b) = data(r);
    let bound = e
        .eval_capacity(&data)
        .unwrap_or_else(|err| panic!("{err}\n{e}\n{src}"));
    let _ = alloca;
    let mut p = program_with_capacity(ctx, m, Some(bound));
    for (name, _, values) in &data.fields {
        let vals: Vec<Scalar> = values.iter().map(|&x| Scalar::I32(x as i32)).collect();
        p.write_scalars(name, &vals).unwrap();
    }
    let to_f = |v: &[i64]| v.iter().map(|&x| x as f64).collect::<Vec<f64>>();
    let aa = ndarray(&mut p, DType::I32, &[9], &to_f(&a));
    let bb = ndarray(&mut p, DType::I32, &[9], &to_f(&b));
    if let Err(msgs) = launch(&mut p, "nest", &[aa, bb, f32_arg(1.0)]) {
        panic!("the sized nest fails ({msgs:?}): bound {bound} = {e}\n{src}");
    }
    let peak = p.read_f64("peak").unwrap()[0] as u64;
    assert!(bound >= peak, "bound {bound} < peak {peak}: {e}\n{src}");
    (p.read_f64("runs").unwrap()[0] > 0.0).then_some((bound, peak))
}

/// Mean of bound / peak over the nests with a non-zero peak.
fn tightness(results: &[(u64, u64)]) -> f64 {
    let ratios: Vec<f64> = results
        .iter()
        .filter(|(_, p)| *p > 0)
        .map(|&(b, p)| b as f64 / p as f64)
        .collect();
    ratios.iter().sum::<f64>() / ratios.len().max(1) as f64
}

fn family(f: Family, count: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut r = Rng(seed);
    (0..count)
        .filter_map(|_| {
            let n = gen(&mut r, f);
            check(&n, &mut r)
        })
        .collect()
}

#[test]
fn rectangular_nests_are_sized_exactly() {
    let res = family(Family::Rectangular, 150, 0x5eed_0001);
    eprintln!(
        "rectangular: mean tightness {:.3} over {} nests",
        tightness(&res),
        res.len()
    );
    for (b, p) in res {
        assert_eq!(b, p);
    }
}

#[test]
fn triangular_nests_are_sized_exactly() {
    let res = family(Family::Triangular, 150, 0x5eed_0002);
    eprintln!(
        "triangular: mean tightness {:.3} over {} nests",
        tightness(&res),
        res.len()
    );
    for (b, p) in res {
        assert_eq!(b, p);
    }
}

#[test]
fn random_nests_are_never_undersized() {
    let res = family(Family::General, 400, 0x5eed_0003);
    let zero = res.iter().filter(|(_, p)| *p == 0).count();
    let exact = res.iter().filter(|(b, p)| b == p).count();
    eprintln!(
        "general: mean tightness {:.3} over {} nests with pushes ({exact} exact, {zero} push nothing)",
        tightness(&res),
        res.len() - zero
    );
}
