//! The order of parallel iterations: ascending by default, a seeded permutation with
//! `shuffle_seed` (the same seed gives the same order), and results that do not depend on it for
//! order-independent kernels.

use super::common::*;
use qd_interp::InterpOptions;
use qd_runtime::Program;

/// Records, for each thread, how many threads ran before it (through an atomic's old value).
const ORDER: &str = "module {
  qd.field @counter : !qd.field<i32>
  qd.field @order : !qd.field<64xi32>
  qd.field @rorder : !qd.field<20xi32>
  qd.kernel @by_struct_for() {
    qd.struct_for (%i) in @order {
      %one = arith.constant 1 : i32
      %t = qd.atomic_add %one, @counter[] : i32
      qd.store %t, @order[%i] : i32
    }
  }
  qd.kernel @by_range_for() {
    %lo = arith.constant -5 : i32
    %hi = arith.constant 15 : i32
    qd.range_for %i = %lo to %hi : i32 {
      %one = arith.constant 1 : i32
      %t = qd.atomic_add %one, @counter[] : i32
      %five = arith.constant 5 : i32
      %k = arith.addi %i, %five : i32
      qd.store %t, @rorder[%k] : i32
    }
  }
}
";

fn order(seed: Option<u64>, kernel: &str, field: &str) -> Vec<i32> {
    let mut p = program_with(ORDER, InterpOptions { shuffle_seed: seed });
    run_ok(&mut p, kernel, &[]);
    p.field(field).unwrap().as_i32().unwrap().to_vec()
}

fn is_permutation(v: &[i32]) -> bool {
    let mut s = v.to_vec();
    s.sort();
    s == (0..v.len() as i32).collect::<Vec<_>>()
}

#[test]
fn ascending_order_without_shuffle() {
    assert_eq!(
        order(None, "by_struct_for", "order"),
        (0..64).collect::<Vec<_>>()
    );
    assert_eq!(
        order(None, "by_range_for", "rorder"),
        (0..20).collect::<Vec<_>>()
    );
}

#[test]
fn same_seed_same_order() {
    for (kernel, field) in [("by_struct_for", "order"), ("by_range_for", "rorder")] {
        let a = order(Some(42), kernel, field);
        assert!(is_permutation(&a), "{a:?}");
        assert_ne!(
            a,
            order(None, kernel, field),
            "a shuffled order of {} threads",
            a.len()
        );
        assert_eq!(a, order(Some(42), kernel, field));
        assert_ne!(a, order(Some(43), kernel, field));
    }
}

/// An order-independent kernel (integer atomics) and an order-dependent one (last writer wins).
const SUMS: &str = "module {
  qd.field @x : !qd.field<100xi32>
  qd.field @total : !qd.field<i32>
  qd.field @hist : !qd.field<7xi32>
  qd.field @fsum : !qd.field<f32>
  qd.field @last : !qd.field<i32>
  qd.kernel @k() {
    qd.struct_for (%i) in @x {
      %sq = arith.muli %i, %i : i32
      qd.atomic_add %sq, @total[] : i32
      %c7 = arith.constant 7 : i32
      %b = arith.remsi %sq, %c7 : i32
      %one = arith.constant 1 : i32
      qd.atomic_add %one, @hist[%b] : i32
      %f = arith.sitofp %i : i32 to f32
      %k = arith.constant 0.1 : f32
      %v = arith.mulf %f, %k : f32
      qd.atomic_add %v, @fsum[] : f32
      qd.store %i, @last[] : i32
    }
  }
}
";

fn sums(seed: Option<u64>) -> Program {
    let mut p = program_with(SUMS, InterpOptions { shuffle_seed: seed });
    run_ok(&mut p, "k", &[]);
    p
}

#[test]
fn order_independent_results_do_not_change() {
    let base = sums(None);
    for seed in [1, 2, 3] {
        let p = sums(Some(seed));
        assert_eq!(p.field("total").unwrap(), base.field("total").unwrap());
        assert_eq!(p.field("hist").unwrap(), base.field("hist").unwrap());
        // Float sums are order-independent only up to rounding.
        let (a, b) = (
            p.read_f64("fsum").unwrap()[0],
            base.read_f64("fsum").unwrap()[0],
        );
        assert!((a - b).abs() <= 1e-5 * b.abs(), "{a} vs {b}");
    }
    assert_eq!(
        base.read_f64("total").unwrap(),
        vec![(0..100).map(|i| (i * i) as f64).sum()]
    );
}

#[test]
fn shuffling_exposes_order_dependence() {
    assert_eq!(sums(None).read_f64("last").unwrap(), vec![99.0]);
    let lasts: Vec<f64> = (1..6)
        .map(|s| sums(Some(s)).read_f64("last").unwrap()[0])
        .collect();
    assert!(lasts.iter().any(|&l| l != 99.0), "{lasts:?}");
}
