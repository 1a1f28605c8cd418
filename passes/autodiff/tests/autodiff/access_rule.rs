//! The exact access rule (docs/access-rule.md): kernels that read what they write differentiate
//! when no write follows a read whose value the gradient needs (checked against finite
//! differences), the others are refused with the write and the read named; and a property test
//! over random serial programs of loads and stores on one field.

use super::common::*;
use super::gradcheck::{check, try_check, ArgSpec, GradCase, Wrt};

/// Loose statements (one serial thread): x[1] = 2 x[0] reads x[0] after... nothing, then
/// x[0] = 3 x[1] overwrites x[0] after the first read (not needed: a product by a constant),
/// then y = x[1] x[0] reads both after their writes.
const LOOSE: &str = r#"
qd.field @x : !qd.field<3xf32> {needs_grad}
qd.field @y : !qd.field<f32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %a = qd.load @x[%c0] : f32
  %b = arith.mulf %two, %a : f32
  qd.store %b, @x[%c1] : f32
  %c = qd.load @x[%c1] : f32
  %d = arith.mulf %three, %c : f32
  qd.store %d, @x[%c0] : f32
  %e = qd.load @x[%c1] : f32
  %f = qd.load @x[%c0] : f32
  %g = arith.mulf %e, %f : f32
  qd.store %g, @y[] : f32
}
"#;

#[test]
fn loose_statements_reading_what_they_wrote() {
    let case = GradCase::new(LOOSE, "k")
        .field("x", vec![0.7, -0.4, 0.3])
        .seed("x", vec![0.5, -1.0, 2.0])
        .seed("y", vec![1.0])
        .wrt(Wrt::Field("x"));
    check(&case);
    // The same statements as the one thread of a parallel loop over [0, 1): no other thread.
    let one_thread = LOOSE
        .replace(
            "qd.kernel @k() {\n",
            "qd.kernel @k() {\n  %z0 = arith.constant 0 : i32\n  %z1 = arith.constant 1 : i32\n  qd.range_for %t = %z0 to %z1 : i32 {\n",
        )
        .replace("qd.store %g, @y[] : f32\n}", "qd.store %g, @y[] : f32\n  }\n}");
    assert!(one_thread.contains("qd.range_for") && one_thread.ends_with("  }\n}\n"));
    let case = GradCase {
        src: one_thread,
        ..case
    };
    check(&case);
}

/// A while whose condition reads a field the kernel writes, but only elsewhere: thread i halves
/// v while x[i] v > 0.1 and stores v into z[i]; the condition's reads of x are never overwritten,
/// z is never read.
const WHILE_READS: &str = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @z : !qd.field<4xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %p = qd.alloca : !qd.ptr<f32>
    %one = arith.constant 1.0 : f32
    qd.local_store %one, %p : !qd.ptr<f32>
    qd.while {
      %a = qd.load @x[%i] : f32
      %v = qd.local_load %p : !qd.ptr<f32>
      %m = arith.mulf %a, %v : f32
      %t = arith.constant 0.1 : f32
      %c = arith.cmpf ogt, %m, %t : f32
      qd.condition %c
    } do {
      %v = qd.local_load %p : !qd.ptr<f32>
      %h = arith.constant 0.5 : f32
      %w = arith.mulf %v, %h : f32
      qd.local_store %w, %p : !qd.ptr<f32>
      %a = qd.load @x[%i] : f32
      %s = math.sin %a : f32
      %u = arith.mulf %s, %w : f32
      qd.store %u, @z[%i] : f32
    }
  }
}
"#;

#[test]
fn a_while_condition_reading_a_field_the_kernel_writes_elsewhere() {
    // x * 2^-n crosses 0.1 between steps: every value stays at least 10% away from it.
    let mut case = GradCase::new(WHILE_READS, "k")
        .field("x", vec![0.3, 0.9, 1.7, 0.55])
        .seed("z", vec![1.0, 1.0, 1.0, 1.0])
        .wrt(Wrt::Field("x"));
    // The trip count depends on data: no bound the sizing analysis can prove.
    case.ad_stack_size = Some(16);
    check(&case);
}

#[test]
fn refused_kernels_name_the_write_and_the_read() {
    // A later iteration overwrites what an earlier one read: x[i] = x[i+1]^2.
    let src = r#"
qd.field @x : !qd.field<5xf32> {needs_grad}
qd.kernel @k() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %t = arith.constant true
  qd.if %t {
    qd.range_for %i = %c0 to %c4 : i32 {
      %n = arith.addi %i, %c1 : i32
      %a = qd.load @x[%n] : f32
      %b = arith.mulf %a, %a : f32
      qd.store %b, @x[%i] : f32
    }
  }
}
"#;
    let errs = errors(src);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with(
            "13: global data access rule violated: this qd.store may overwrite an element of @x that the qd.load at 11:12 read earlier in the same thread"
        ),
        "{errs:?}"
    );
    // The same loop writing x[i+1] from x[i] is fine: each element is written before it is read.
    let ok = src
        .replace("qd.load @x[%n]", "qd.load @x[%i]")
        .replace("qd.store %b, @x[%i]", "qd.store %b, @x[%n]");
    differentiate(&ok);
    // A serial struct_for's iteration order is not relied on: the same recurrence over one is
    // refused (an iteration may run before the one whose element it reads).
    let src = r#"
qd.field @x : !qd.field<5xf32> {needs_grad}
qd.field @d : !qd.field<4xf32>
qd.kernel @k() {
  %c1 = arith.constant 1 : i32
  %t = arith.constant true
  qd.if %t {
    qd.struct_for (%i) in @d {
      %n = arith.addi %i, %c1 : i32
      %a = qd.load @x[%i] : f32
      %b = math.sin %a : f32
      qd.store %b, @x[%n] : f32
    }
  }
}
"#;
    let errs = errors(src);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("12: global data access rule violated: this qd.store may overwrite an element of @x that the qd.load at 10:12 read earlier in the same thread"),
        "{errs:?}"
    );
    // An atomic in a later task after a needed read of the same element.
    let src = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %s = math.sin %a : f32
    qd.store %s, @y[%i] : f32
  }
  qd.struct_for (%i) in @x {
    %one = arith.constant 1.0 : f32
    qd.atomic_add %one, @x[%i] : f32
  }
}
"#;
    let errs = errors(src);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with(
            "12: global data access rule violated: this qd.atomic_add may overwrite an element of @x that the qd.load at 6:10 read in an earlier task"
        ),
        "{errs:?}"
    );
    // Reversed task order (the atomic first, the read after it) is fine.
    let swapped = r#"
qd.field @x : !qd.field<4xf32> {needs_grad}
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @k() {
  qd.struct_for (%i) in @x {
    %one = arith.constant 1.0 : f32
    qd.atomic_add %one, @x[%i] : f32
  }
  qd.struct_for (%i) in @x {
    %a = qd.load @x[%i] : f32
    %s = math.sin %a : f32
    qd.store %s, @y[%i] : f32
  }
}
"#;
    differentiate(swapped);
}

/// A small deterministic generator (xorshift64*), so that the property test needs no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const N: u64 = 6;

/// One random statement: `x[a] (=|+=) f(x[b])` or `y += f(x[b])`, alone or in a serial loop
/// over `i` with indices `i + c`.
struct Statement {
    text: String,
    /// The elements of x it reads and writes.
    reads: Vec<u64>,
    writes: Vec<u64>,
    /// Whether it overwrites, in a later iteration or later in one, an element it read.
    overwrites_own_read: bool,
    /// Whether the gradient needs the value it reads (a square, sin, cos; not 2v or v + 0.5).
    needs: bool,
}

fn statement(rng: &mut Rng, id: usize) -> Statement {
    let k = rng.below(5);
    let w = format!("%w{id}");
    let v = format!("%v{id}");
    let body = match k {
        0 => format!("{w} = arith.mulf %two, {v} : f32"),
        1 => format!("{w} = arith.mulf {v}, {v} : f32"),
        2 => format!("{w} = math.sin {v} : f32"),
        3 => format!("{w} = arith.addf {v}, %half : f32"),
        _ => format!(
            "%s{id} = math.cos {v} : f32\n%h{id} = arith.mulf %half, {v} : f32\n{w} = arith.addf %h{id}, %s{id} : f32"
        ),
    };
    let kind = rng.below(3);
    let write = |at: &str| match kind {
        0 => format!("qd.store {w}, @x[{at}] : f32"),
        1 => format!("qd.atomic_add {w}, @x[{at}] : f32"),
        _ => format!("qd.atomic_add {w}, @y[] : f32"),
    };
    let to_x = kind < 2;
    if rng.below(3) == 0 {
        // A serial loop (inside a top-level if: a top-level loop would be a parallel task).
        let len = 1 + rng.below(3);
        let (ca, cb) = (rng.below(N - len + 1), rng.below(N - len + 1));
        let wr = write(&format!("%ia{id}"));
        Statement {
            text: format!(
                "qd.if %true {{\nqd.range_for %i{id} = %c0 to %c{len} : i32 {{\n%ia{id} = arith.addi %i{id}, %c{ca} : i32\n%ib{id} = arith.addi %i{id}, %c{cb} : i32\n{v} = qd.load @x[%ib{id}] : f32\n{body}\n{wr}\n}}\n}}\n"
            ),
            reads: (cb..cb + len).collect(),
            writes: if to_x { (ca..ca + len).collect() } else { Vec::new() },
            // Iteration t writes ca + t after iterations t' <= t read cb + t': t' = t + ca - cb.
            overwrites_own_read: to_x && ca <= cb && cb - ca < len,
            needs: matches!(k, 1 | 2 | 4),
        }
    } else {
        let (a, b) = (rng.below(N), rng.below(N));
        Statement {
            text: format!(
                "{v} = qd.load @x[%c{b}] : f32\n{body}\n{}\n",
                write(&format!("%c{a}"))
            ),
            reads: vec![b],
            writes: if to_x { vec![a] } else { Vec::new() },
            overwrites_own_read: to_x && a == b,
            needs: matches!(k, 1 | 2 | 4),
        }
    }
}

/// A random program; whether it writes an element after reading it; whether it does so after a
/// read whose value the gradient needs (what the rule must refuse, and only that).
fn program(rng: &mut Rng) -> (String, bool, bool) {
    let mut s = String::from(
        "qd.field @x : !qd.field<6xf32> {needs_grad}\nqd.field @y : !qd.field<f32> {needs_grad}\nqd.kernel @k() {\n%true = arith.constant true\n%two = arith.constant 2.0 : f32\n%half = arith.constant 0.5 : f32\n",
    );
    for c in 0..N {
        s += &format!("%c{c} = arith.constant {c} : i32\n");
    }
    let stmts: Vec<Statement> = (0..2 + rng.below(4) as usize)
        .map(|id| statement(rng, id))
        .collect();
    let (mut war, mut needed_war) = (false, false);
    for (j, st) in stmts.iter().enumerate() {
        s += &st.text;
        let own = st.overwrites_own_read;
        let earlier = |need: bool| {
            stmts[..j]
                .iter()
                .any(|e| (e.needs || !need) && e.reads.iter().any(|r| st.writes.contains(r)))
        };
        war |= own || earlier(false);
        needed_war |= (own && st.needs) || earlier(true);
    }
    (s + "}\n", war, needed_war)
}

/// Random serial programs of loads, stores and atomic adds on one field with constant and
/// affine indices: the access rule refuses exactly those that overwrite an element after a read
/// whose value the gradient needs, and whenever it accepts one, its gradient matches central
/// finite differences. Enough of them are accepted, refused, and accepted while overwriting an
/// element after reading it, for the test to mean something.
#[test]
fn random_serial_programs_accepted_are_differentiated_correctly() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut accepted, mut refusals, mut overwrites) = (0, 0, 0);
    for round in 0..120 {
        let (src, war, needed_war) = program(&mut rng);
        let (mut ctx, m) = parse(&src);
        let refused =
            qd_autodiff::reverse_mode_ad(&mut ctx, m, &qd_autodiff::Options::default()).is_err();
        // Constant indices and affine ones over loops with constant bounds: the test is exact.
        assert_eq!(
            refused,
            needed_war,
            "round {round}: refused {refused}, but a needed read is overwritten: {needed_war}\n{src}{:?}",
            ctx.diagnostics().iter().map(|d| &d.message).collect::<Vec<_>>()
        );
        if refused {
            let d = ctx.diagnostics();
            assert!(
                d.iter()
                    .all(|d| d.message.starts_with("global data access rule violated")),
                "round {round}: unexpected errors {:?}\n{src}",
                d.iter().map(|d| &d.message).collect::<Vec<_>>()
            );
            refusals += 1;
            continue;
        }
        accepted += 1;
        // A write to an element after a read of it (the old rules refused these).
        overwrites += usize::from(war);
        let inputs: Vec<f64> = (0..N).map(|e| -0.8 + 0.3 * e as f64).collect();
        let case = GradCase::new(src.clone(), "k")
            .field("x", inputs)
            .seed("x", vec![1.0, -0.5, 0.25, 2.0, -1.5, 0.75])
            .seed("y", vec![1.0])
            .wrt(Wrt::Field("x"));
        if let Err(e) = try_check(&case) {
            panic!("round {round}: the rule accepted a kernel whose gradient is wrong: {e}\n{src}");
        }
    }
    assert!(
        accepted >= 20 && refusals >= 10 && overwrites >= 10,
        "accepted {accepted}, refused {refusals}, overwriting {overwrites}"
    );
}

/// ndarrays follow the rule too, with their atomics as writes: task 1 accumulates
/// b[i] += a[i]^2 (`qd.ndarray_atomic_add`), task 2 reads b: y[i] = sin(b[i]).
const NDARRAY_TASKS: &str = r#"
qd.field @y : !qd.field<4xf32> {needs_grad}
qd.kernel @k(%a: !qd.ndarray<?xf32>, %b: !qd.ndarray<?xf32>) {
  qd.struct_for (%i) in @y {
    %v = qd.ndarray_load %a[%i] : !qd.ndarray<?xf32>
    %sq = arith.mulf %v, %v : f32
    qd.ndarray_atomic_add %sq, %b[%i] : !qd.ndarray<?xf32>
  }
  qd.struct_for (%i) in @y {
    %t = qd.ndarray_load %b[%i] : !qd.ndarray<?xf32>
    %s = math.sin %t : f32
    qd.store %s, @y[%i] : f32
  }
}
"#;

#[test]
fn ndarray_atomics_then_reads_in_a_later_task() {
    let nd = |data: Vec<f64>| ArgSpec::Ndarray {
        shape: vec![4],
        data,
    };
    let case = GradCase::new(NDARRAY_TASKS, "k")
        .arg(nd(vec![0.4, -0.7, 1.1, 0.2]))
        .arg(nd(vec![0.1, 0.5, -0.3, 0.8]))
        .seed("y", vec![1.0, -0.5, 2.0, 0.75])
        .wrt(Wrt::Arg(0))
        .wrt(Wrt::Arg(1));
    check(&case);
    // The tasks the other way round: the atomic overwrites what the sin read.
    let mut lines: Vec<&str> = NDARRAY_TASKS.lines().collect();
    let first: Vec<&str> = lines.drain(3..8).collect();
    lines.splice(8..8, first);
    let swapped = lines.join("\n");
    let errs = errors(&swapped);
    assert_eq!(errs.len(), 1, "{errs:?}\n{swapped}");
    assert!(
        errs[0].starts_with(
            "12: global data access rule violated: this qd.ndarray_atomic_add may overwrite an element of ndarray argument #1 that the qd.ndarray_load at 5:10 read in an earlier task"
        ),
        "{errs:?}\n{swapped}"
    );
}
